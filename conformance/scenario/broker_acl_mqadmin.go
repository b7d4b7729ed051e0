package scenario

// The real Java 4.9.8 mqadmin against a broker with ACL on. mqadmin
// (MQAdminStartup) signs its requests with AclClientRPCHook when
// $ROCKETMQ_HOME/conf/tools.yml holds accessKey and secretKey
// (AclUtils.getAclRPCHook), unsigned otherwise; javaclient.MQAdminAs
// writes that file in the driver's home for one command. The acl sub
// commands (tools/…/command/acl) print "… success." lines, the
// PlainAccessConfig they sent, and clusterAclConfigVersion a table of
// allAclFileVersion (cluster, broker name and address, file, counter, time
// of the last change); a refusal is printed as the SubCommandException
// with its MQBrokerException "CODE: 1  DESC: …AclException: …".

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
)

// aclMqadminUser is the account broker/acl/mqadmin creates and deletes.
var aclMqadminUser = javaclient.Credentials{AccessKey: "aclMqadminUser1", SecretKey: "aclMqadminSecret1"}

// aclMqadminWhite is the global white list broker/acl/mqadmin writes: the
// file's list plus an address no client of the harness connects from, so
// that when the file is applied does not matter.
const aclMqadminWhite = "10.10.103.*,192.168.0.*,10.20.30.*"

func init() {
	Register(&Scenario{
		Name: "broker/acl/mqadmin",
		Doc: "Java mqadmin against the ACL broker: without conf/tools.yml clusterAclConfigVersion and updateAclConfig are " +
			"refused (\"No accessKey is configured\"), a wrong secret too, a non-admin may read the versions; signed as the admin: clusterAclConfigVersion (-c and -b), updateAclConfig " +
			"(the account sends at once), updateGlobalWhiteAddr, deleteAclConfig (again: 210), the file's counter +1 per write; " +
			"plain_acl.yml put back",
		Tags: tags("acl", "mqadmin", "javaclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclMqadmin,
	})
}

// aclMqadminRun runs an mqadmin command line (with the scenario's name
// server) signed as c (unsigned when c is zero) and logs its output.
func aclMqadminRun(ctx context.Context, env *Env, c javaclient.Credentials, args ...string) (string, error) {
	args = append(args, "-n", env.Namesrv)
	var out, errOut string
	var err error
	if c == (javaclient.Credentials{}) {
		out, errOut, err = env.Java.MQAdmin(ctx, args...)
	} else {
		out, errOut, err = env.Java.MQAdminAs(ctx, c, args...)
	}
	if err != nil {
		return "", fmt.Errorf("mqadmin %s: %w", args[0], err)
	}
	env.Log.Printf("mqadmin %s as %q:\n%s%s", strings.Join(args, " "), c.AccessKey, out, errOut)
	return out + errOut, nil
}

// aclMqadminOK runs a command that must succeed and returns its output.
func aclMqadminOK(ctx context.Context, env *Env, c javaclient.Credentials, args ...string) (string, error) {
	out, err := aclMqadminRun(ctx, env, c, args...)
	if err != nil {
		return "", err
	}
	if javaclient.MQAdminFailed(out, "") || !strings.Contains(out, "success") {
		return "", fmt.Errorf("mqadmin %s failed:\n%s", args[0], out)
	}
	return out, nil
}

// aclMqadminFails runs a command that must fail with the broker's code
// want (and, for SYSTEM_ERROR, the ACL message msg) and records both.
func aclMqadminFails(ctx context.Context, env *Env, name string, c javaclient.Credentials, want int32, msg string, args ...string) error {
	out, err := aclMqadminRun(ctx, env, c, args...)
	if err != nil {
		return err
	}
	m := adminCodeRE.FindStringSubmatch(out)
	if m == nil {
		return fmt.Errorf("mqadmin %s reported no response code:\n%s", args[0], out)
	}
	got := aclMessage(out)
	if m[1] != fmt.Sprint(want) || (msg != "" && got != msg) {
		return fmt.Errorf("mqadmin %s: %s, ACL message %q; want CODE: %d, %q:\n%s", args[0], m[0], got, want, msg, out)
	}
	text := m[0]
	if got != "" {
		text += " " + got
	} else if d := adminDescRE.FindStringSubmatch(out); d != nil {
		text += " " + env.Mask(d[1])
	}
	env.Observe(name, text)
	return nil
}

// objectHashRE is Object.toString's identity hash: "pkg.Class@1b2c3d".
var objectHashRE = regexp.MustCompile(`([\w.$]+)@[0-9a-f]+\b`)

// adminDescRE is the first line of a failed command's "DESC: …".
var adminDescRE = regexp.MustCompile(`CODE: \d+\s+DESC: (.*)`)

// aclVersionRowRE is a clusterAclConfigVersion row: cluster, broker
// name, broker address, file, counter, "yyyy-MM-dd HH:mm:ss".
var aclVersionRowRE = regexp.MustCompile(`^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(-?\d+)\s+(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$`)

// aclMqadminVersions runs clusterAclConfigVersion with flag ("-c" with
// the cluster, "-b" with broker 0) signed by the admin and returns its
// output normalized (addresses masked, the home of each file's path, the
// counters and times replaced; rows sorted) and the plain_acl.yml counter
// of broker 0.
func aclMqadminVersions(ctx context.Context, env *Env, flag string) (string, int64, error) {
	return aclMqadminVersionsAs(ctx, env, aclAdmin, flag)
}

// aclMqadminVersionsAs is aclMqadminVersions signed as c.
func aclMqadminVersionsAs(ctx context.Context, env *Env, c javaclient.Credentials, flag string) (string, int64, error) {
	target := env.Cluster
	if flag == "-b" {
		target = env.Brokers[0].Addr
	}
	out, err := aclMqadminOK(ctx, env, c, "clusterAclConfigVersion", flag, target)
	if err != nil {
		return "", 0, err
	}
	counter := int64(-1)
	var lines []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		m := aclVersionRowRE.FindStringSubmatch(line)
		if m == nil {
			lines = append(lines, strings.Join(strings.Fields(line), " "))
			continue
		}
		if _, err := time.ParseInLocation(time.DateTime, m[6], time.Local); err != nil {
			return "", 0, fmt.Errorf("clusterAclConfigVersion: time %q: %v", m[6], err)
		}
		path := m[4]
		if i := strings.Index(path, "/conf/"); i >= 0 {
			path = "<home>" + path[i:]
		}
		if m[3] == env.Brokers[0].Addr && strings.HasSuffix(m[4], aclPlainFileSuffix) {
			counter, _ = strconv.ParseInt(m[5], 10, 64)
		}
		lines = append(lines, fmt.Sprintf("%s %s %s %s <counter> <time>", m[1], m[2], env.Mask(m[3]), path))
	}
	if counter < 0 {
		return "", 0, fmt.Errorf("clusterAclConfigVersion %s: no …%s row of %s:\n%s", flag, aclPlainFileSuffix, env.Brokers[0].Addr, out)
	}
	return strings.Join(lines, "\n"), counter, nil
}

func aclMqadmin(ctx context.Context, env *Env) error {
	addr := env.Brokers[0].Addr
	// Whatever happens, the account goes and later scenarios of this
	// cluster get the original file back.
	created, whiteUpdated := false, false
	defer func() {
		if created {
			if _, err := aclMqadminRun(context.WithoutCancel(ctx), env, aclAdmin, "deleteAclConfig", "-b", addr,
				"-a", aclMqadminUser.AccessKey); err != nil {
				env.Log.Printf("deleting %s: %v", aclMqadminUser.AccessKey, err)
			}
		}
		if whiteUpdated {
			restoreACL(env, new(bool))
		}
	}()
	if err := aclCreateTopic(ctx, env, aclTopicA); err != nil {
		return err
	}
	const noKey = "No accessKey is configured"

	// 1. Without conf/tools.yml mqadmin's requests are unsigned: refused.
	if err := aclMqadminFails(ctx, env, "unsigned clusterAclConfigVersion", javaclient.Credentials{}, respSystemError, noKey,
		"clusterAclConfigVersion", "-b", addr); err != nil {
		return err
	}
	if err := aclMqadminFails(ctx, env, "unsigned updateAclConfig", javaclient.Credentials{}, respSystemError, noKey,
		"updateAclConfig", "-b", addr, "-a", aclMqadminUser.AccessKey, "-s", aclMqadminUser.SecretKey, "-t", aclTopicA+"=PUB"); err != nil {
		return err
	}
	// A wrong secret in tools.yml: the signature check refuses it.
	if err := aclMqadminFails(ctx, env, "bad-secret clusterAclConfigVersion", aclUserBadKey, respSystemError,
		"Check signature failed for accessKey="+aclUserBadKey.AccessKey, "clusterAclConfigVersion", "-b", addr); err != nil {
		return err
	}
	// A non-admin account: Java 4.9.8's admin-only codes (Permission.ADMIN_CODE)
	// are the topic and subscription group writes, not the ACL requests.
	table, _, err := aclMqadminVersionsAs(ctx, env, aclUser, "-b")
	if err != nil {
		return fmt.Errorf("as %s: %w", aclUser.AccessKey, err)
	}
	env.Observe("non-admin clusterAclConfigVersion -b", table)

	// 2. The version table, signed by the admin.
	table, before, err := aclMqadminVersions(ctx, env, "-c")
	if err != nil {
		return err
	}
	env.Observe("clusterAclConfigVersion -c", table)
	table, _, err = aclMqadminVersions(ctx, env, "-b")
	if err != nil {
		return err
	}
	env.Observe("clusterAclConfigVersion -b", table)
	env.Log.Printf("plain_acl.yml counter before: %d", before)

	// 3. A new account: its Java producer publishes at once, and the
	// file's counter moved by one.
	out, err := aclMqadminOK(ctx, env, aclAdmin, "updateAclConfig", "-b", addr, "-a", aclMqadminUser.AccessKey,
		"-s", aclMqadminUser.SecretKey, "-i", "DENY", "-u", "SUB", "-t", aclTopicA+"=PUB")
	created = true
	if err != nil {
		return err
	}
	// PlainAccessConfig has no toString: the identity hash is masked.
	env.Observe("updateAclConfig", objectHashRE.ReplaceAllString(env.Mask(out), "$1@<hash>"))
	sent, err := javaProduceAs(ctx, env, aclMqadminUser, aclTopicA, "aclMqadminProducerGroup", "sync", specs("acl-mqadmin", "", 2))
	if err != nil {
		return fmt.Errorf("send to %s as %s right after updateAclConfig: %w", aclTopicA, aclMqadminUser.AccessKey, err)
	}
	env.Observe("new-account send", fmt.Sprintf("%d messages SEND_OK", len(sent)))
	_, err = javaProduceAs(ctx, env, aclMqadminUser, aclTopicB, "aclMqadminProducerGroup", "sync", specs("acl-mqadmin-refused", "", 1))
	if err := observeRefusal(env, "new-account unlisted topic", err, "No default permission for topic:"+aclTopicB); err != nil {
		return err
	}
	_, afterCreate, err := aclMqadminVersions(ctx, env, "-b")
	if err != nil {
		return err
	}
	env.Observe("counter after updateAclConfig", fmt.Sprintf("%+d", afterCreate-before))

	// 4. The global white list (an address nobody here connects from).
	out, err = aclMqadminOK(ctx, env, aclAdmin, "updateGlobalWhiteAddr", "-b", addr, "-g", aclMqadminWhite)
	whiteUpdated = true
	if err != nil {
		return err
	}
	env.Observe("updateGlobalWhiteAddr", env.Mask(out))
	_, afterWhite, err := aclMqadminVersions(ctx, env, "-b")
	if err != nil {
		return err
	}
	env.Observe("counter after updateGlobalWhiteAddr", fmt.Sprintf("%+d", afterWhite-afterCreate))

	// 5. Delete the account: refused at once; deleting it again fails.
	out, err = aclMqadminOK(ctx, env, aclAdmin, "deleteAclConfig", "-b", addr, "-a", aclMqadminUser.AccessKey)
	if err != nil {
		return err
	}
	created = false
	env.Observe("deleteAclConfig", env.Mask(out))
	_, err = javaProduceAs(ctx, env, aclMqadminUser, aclTopicA, "aclMqadminProducerGroup", "sync", specs("acl-mqadmin-deleted", "", 1))
	if err := observeRefusal(env, "deleted-account send", err, "No acl config for "+aclMqadminUser.AccessKey); err != nil {
		return err
	}
	if err := aclMqadminFails(ctx, env, "deleteAclConfig again", aclAdmin, respDeleteACLFailed, "",
		"deleteAclConfig", "-b", addr, "-a", aclMqadminUser.AccessKey); err != nil {
		return err
	}
	_, afterDelete, err := aclMqadminVersions(ctx, env, "-b")
	if err != nil {
		return err
	}
	env.Observe("counter after deleteAclConfig", fmt.Sprintf("%+d", afterDelete-afterWhite))

	// 6. The original file back; unsigned mqadmin still refused.
	whiteUpdated = false
	if err := writeACLAll(env, aclNeeds.ACL); err != nil {
		return err
	}
	return aclMqadminFails(ctx, env, "unsigned after restore", javaclient.Credentials{}, respSystemError, noKey,
		"clusterAclConfigVersion", "-b", addr)
}
