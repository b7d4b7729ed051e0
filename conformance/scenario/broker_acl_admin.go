package scenario

// The ACL admin requests of a broker with ACL on. Java 4.9.8 mirror:
// AdminBrokerProcessor's updateAndCreateAccessConfig (50),
// deleteAccessConfig (51), getBrokerAclConfigVersion (52) and
// updateGlobalWhiteAddrsConfig (53) call PlainAccessValidator, whose
// PlainPermissionManager edits the yml file (adding a dataVersion counter
// + 1) and, for accounts, its in-memory tables at once; a failure answers
// the request's failure code (209, 210, 211) with the exception's message
// or "The accesskey[…] corresponding to accessConfig has been … failed.".
// The global white list is only rebuilt when the watcher reloads the file.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

const (
	codeGetBrokerClusterACLInfo = int32(protocol.ReqGetBrokerClusterAclInfo)
	aclTopicNew                 = "aclTopicNew"
	aclPlainFileSuffix          = "/conf/plain_acl.yml"
)

// aclNewUser is the account broker/acl/admin-updates creates and deletes.
var aclNewUser = javaclient.Credentials{AccessKey: "aclNewUser1", SecretKey: "aclNewSecret1"}

func init() {
	Register(&Scenario{
		Name: "broker/acl/admin-updates",
		Doc: "ACL admin requests signed by the admin: UPDATE_AND_CREATE_ACL_CONFIG creates an account (effective at once), " +
			"invalid ones fail with 209; GET_BROKER_CLUSTER_ACL_INFO's fields and counter; DELETE_ACL_CONFIG (again: 210); " +
			"UPDATE_GLOBAL_WHITE_ADDRS_CONFIG white-lists the loopback; plain_acl.yml put back",
		Tags: tags("acl", "raw", "javaclient", "goclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclAdminUpdates,
	})
}

// aclAdminCall sends req signed by the admin account to broker 0.
func aclAdminCall(ctx context.Context, env *Env, name string, req *wire.Command) (*wire.Command, error) {
	resp, err := rawclient.Call(ctx, env.Brokers[0].Addr, signACL(req, aclAdmin), defaultRawTimeout)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	env.Log.Printf("%s: code %d, remark %q, ext %v", name, resp.Code, resp.Remark, resp.Ext)
	return resp, nil
}

// aclAdminExpect sends req signed by the admin and checks the response
// code; it records code and remark.
func aclAdminExpect(ctx context.Context, env *Env, name string, req *wire.Command, code int32) (*wire.Command, error) {
	resp, err := aclAdminCall(ctx, env, name, req)
	if err != nil {
		return nil, err
	}
	if resp.Code != code {
		return nil, fmt.Errorf("%s: %w; want code %d", name, &codeError{Code: resp.Code, Remark: resp.Remark}, code)
	}
	env.Observe(name, fmt.Sprintf("code %d: %s", resp.Code, resp.Remark))
	return resp, nil
}

// aclInfo is a GET_BROKER_CLUSTER_ACL_INFO answer: the default file's
// path (a key of allAclFileVersion) and counters.
type aclInfo struct {
	path        string // the plain_acl.yml key of allAclFileVersion
	version     int64  // the version field's counter
	fileVersion int64  // allAclFileVersion[path]'s counter
}

// aclGetInfo sends GET_BROKER_CLUSTER_ACL_INFO and records its fields
// with the run-specific parts masked (observe only when name is not ""):
// not the version field's counter, which Java moves only when it (re)loads
// the file (the watcher, every 5 s), so its value depends on the timing.
func aclGetInfo(ctx context.Context, env *Env, name string) (aclInfo, error) {
	resp, err := aclAdminCall(ctx, env, "GET_BROKER_CLUSTER_ACL_INFO", rawclient.Request(codeGetBrokerClusterACLInfo))
	if err != nil {
		return aclInfo{}, err
	}
	if resp.Code != respSuccess {
		return aclInfo{}, fmt.Errorf("GET_BROKER_CLUSTER_ACL_INFO: %w", &codeError{Code: resp.Code, Remark: resp.Remark})
	}
	var keys []string
	for _, f := range resp.Ext {
		keys = append(keys, f.Key)
	}
	slices.Sort(keys)
	ext := func(k string) string { v, _ := resp.ExtValue(k); return v }
	counter := func(what string, v map[string]json.Number) (int64, []string, error) {
		var ks []string
		for k := range v {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		n, err := v["counter"].Int64()
		if err != nil {
			return 0, ks, fmt.Errorf("GET_BROKER_CLUSTER_ACL_INFO %s: counter %q: %v", what, v["counter"], err)
		}
		return n, ks, nil
	}
	var info aclInfo
	var version map[string]json.Number
	if err := json.Unmarshal([]byte(ext("version")), &version); err != nil {
		return aclInfo{}, fmt.Errorf("GET_BROKER_CLUSTER_ACL_INFO version %q: %v", ext("version"), err)
	}
	var versionKeys []string
	info.version, versionKeys, err = counter("version", version)
	if err != nil {
		return aclInfo{}, err
	}
	var all map[string]map[string]json.Number
	if err := json.Unmarshal([]byte(ext("allAclFileVersion")), &all); err != nil {
		return aclInfo{}, fmt.Errorf("GET_BROKER_CLUSTER_ACL_INFO allAclFileVersion %q: %v", ext("allAclFileVersion"), err)
	}
	var files []string
	for path, v := range all {
		n, ks, err := counter("allAclFileVersion["+path+"]", v)
		if err != nil {
			return aclInfo{}, err
		}
		masked := path
		if i := strings.Index(path, "/conf/"); i >= 0 {
			masked = "<home>" + path[i:]
		}
		if strings.HasSuffix(path, aclPlainFileSuffix) {
			info.path, info.fileVersion = path, n
		}
		files = append(files, fmt.Sprintf("%s: %s counter %d", masked, strings.Join(ks, ","), n))
	}
	slices.Sort(files)
	if info.path == "" {
		return aclInfo{}, fmt.Errorf("GET_BROKER_CLUSTER_ACL_INFO: no …%s in allAclFileVersion %q", aclPlainFileSuffix, ext("allAclFileVersion"))
	}
	if name != "" {
		env.Observe(name, fmt.Sprintf("code %d\next fields: %s\nbrokerName: %s\nclusterName: %s\nbrokerAddr: %s\n"+
			"version: %s\nallAclFileVersion:\n%s",
			resp.Code, strings.Join(keys, ","), ext("brokerName"), ext("clusterName"), env.Mask(ext("brokerAddr")),
			strings.Join(versionKeys, ","), strings.Join(files, "\n")))
	}
	return info, nil
}

// createACLConfigRequest is UPDATE_AND_CREATE_ACL_CONFIG as mqadmin
// updateAclConfig sends it (lists comma-separated).
func createACLConfigRequest(ak, sk, defaultTopicPerm, defaultGroupPerm, topicPerms string) *wire.Command {
	return rawclient.Request(codeUpdateAndCreateACLConfig, "accessKey", ak, "secretKey", sk,
		"defaultTopicPerm", defaultTopicPerm, "defaultGroupPerm", defaultGroupPerm, "topicPerms", topicPerms, "admin", "false")
}

func aclAdminUpdates(ctx context.Context, env *Env) error {
	// Whatever happens, later scenarios of this cluster get the original
	// file back (the admin requests rewrite it on disk).
	restored := false
	defer restoreACL(env, &restored)
	if err := aclCreateTopic(ctx, env, aclTopicNew); err != nil {
		return err
	}
	before, err := aclGetInfo(ctx, env, "")
	if err != nil {
		return err
	}
	env.Log.Printf("ACL file %s: version counter %d, file counter %d", before.path, before.version, before.fileVersion)

	// 1. A new account, effective at once.
	if _, err := aclAdminExpect(ctx, env, "create-account",
		createACLConfigRequest(aclNewUser.AccessKey, aclNewUser.SecretKey, "DENY", "SUB", aclTopicNew+"=PUB|SUB"), respSuccess); err != nil {
		return err
	}
	// The file's counter (allAclFileVersion) moves with every write. Java's
	// version field is the counter of its last load, so it lags until the
	// next reload; Sputnik's moves with the write (a documented
	// difference): logged, not compared.
	created, err := aclGetInfo(ctx, env, "")
	if err != nil {
		return err
	}
	env.Log.Printf("counters right after create: version %+d, file %+d",
		created.version-before.version, created.fileVersion-before.fileVersion)
	env.Observe("file counter right after create", fmt.Sprintf("%+d", created.fileVersion-before.fileVersion))
	t0 := time.Now()
	sent, err := javaProduceAs(ctx, env, aclNewUser, aclTopicNew, "aclNewProducerGroup", "sync", specs("acl-new", "", 2))
	if err != nil {
		// Not effective at once: say so and wait for the file reload.
		env.Log.Printf("send as %s right after its creation: %v", aclNewUser.AccessKey, err)
		env.Observe("new-account send at once", "refused")
		err = Eventually(ctx, aclReloadWait, time.Second, func() error {
			sent, err = javaProduceAs(ctx, env, aclNewUser, aclTopicNew, "aclNewProducerGroup", "sync", specs("acl-new", "", 2))
			return err
		})
		if err != nil {
			return fmt.Errorf("send to %s as the new account %s: %w", aclTopicNew, aclNewUser.AccessKey, err)
		}
		env.Log.Printf("new account effective after %s", time.Since(t0).Round(time.Millisecond))
	}
	env.Observe("new-account send", fmt.Sprintf("%d messages SEND_OK", len(sent)))
	_, err = javaProduceAs(ctx, env, aclNewUser, aclTopicB, "aclNewProducerGroup", "sync", specs("acl-new-refused", "", 1))
	if err := observeRefusal(env, "new-account unlisted topic", err, "No default permission for topic:"+aclTopicB); err != nil {
		return err
	}

	// 2. Invalid accounts.
	for _, c := range []struct{ name, ak, sk string }{
		{"create-short-access-key", "short", "aclShortSecret"},
		{"create-short-secret-key", "aclShortUser", "short"},
	} {
		if _, err := aclAdminExpect(ctx, env, c.name, createACLConfigRequest(c.ak, c.sk, "DENY", "SUB", ""),
			respUpdateAndCreateACLFailed); err != nil {
			return err
		}
	}

	// 3. The version info: the create moved the default file's counter.
	after, err := aclGetInfo(ctx, env, "acl-info")
	if err != nil {
		return err
	}
	env.Log.Printf("counters after create: version %+d, file %+d", after.version-before.version, after.fileVersion-before.fileVersion)
	env.Observe("file counter after create", fmt.Sprintf("%+d", after.fileVersion-before.fileVersion))

	// 4. Delete the account: refused at once; deleting it again fails.
	if _, err := aclAdminExpect(ctx, env, "delete-account",
		rawclient.Request(codeDeleteACLConfig, "accessKey", aclNewUser.AccessKey), respSuccess); err != nil {
		return err
	}
	_, err = javaProduceAs(ctx, env, aclNewUser, aclTopicNew, "aclNewProducerGroup", "sync", specs("acl-new-deleted", "", 1))
	if err := observeRefusal(env, "deleted-account send", err, "No acl config for "+aclNewUser.AccessKey); err != nil {
		return err
	}
	if _, err := aclAdminExpect(ctx, env, "delete-account-again",
		rawclient.Request(codeDeleteACLConfig, "accessKey", aclNewUser.AccessKey), respDeleteACLFailed); err != nil {
		return err
	}

	// 5. The loopback white-listed: unsigned sends pass.
	probe, err := startACLProbe(env, "aclUnsignedProducerGroup", aclTopicNew, nil)
	if err != nil {
		return err
	}
	defer probe.stop(env)
	send := func() error { return probe.send(ctx) }
	const noKey = "No accessKey is configured"
	wantRefused := func() error { return probe.refused(ctx, noKey) }
	if err := wantRefused(); err != nil {
		return fmt.Errorf("before the white list update: %w", err)
	}
	env.Observe("unsigned before", noKey)
	if _, err := aclAdminExpect(ctx, env, "update-global-white", rawclient.Request(codeUpdateGlobalWhiteAddrs,
		"globalWhiteAddrs", "10.10.103.*,192.168.0.*,127.0.0.1", "aclFileFullPath", before.path), respSuccess); err != nil {
		return err
	}
	// Java only writes the file: its white list changes with the next
	// reload (up to 5 s). Sputnik applies it at once (a documented
	// difference), so the first send is logged, not compared.
	t0 = time.Now()
	if err := send(); err != nil {
		env.Log.Printf("unsigned send right after the update: refused: %s", aclMessage(err.Error()))
	} else {
		env.Log.Printf("unsigned send right after the update: SEND_OK")
	}
	if err := Eventually(ctx, aclReloadWait, 500*time.Millisecond, send); err != nil {
		return fmt.Errorf("127.0.0.1 in the global white list, unsigned sends still fail: %w", err)
	}
	env.Log.Printf("global white list effective after %s", time.Since(t0).Round(time.Millisecond))
	env.Observe("unsigned white", "client-go send SEND_OK")
	final, err := aclGetInfo(ctx, env, "")
	if err != nil {
		return err
	}
	env.Log.Printf("counters after delete and white list: version %+d, file %+d", final.version-after.version, final.fileVersion-after.fileVersion)
	env.Observe("file counter after delete and white list", fmt.Sprintf("%+d", final.fileVersion-after.fileVersion))

	// 6. The original file back: unsigned sends refused again.
	restored = true
	if err := writeACLAll(env, aclNeeds.ACL); err != nil {
		return err
	}
	t0 = time.Now()
	if err := Eventually(ctx, 15*time.Second, 500*time.Millisecond, wantRefused); err != nil {
		return fmt.Errorf("plain_acl.yml put back: %w", err)
	}
	env.Log.Printf("original file effective after %s", time.Since(t0).Round(time.Millisecond))
	env.Observe("unsigned restored", noKey)
	return nil
}
