package scenario

// mqadmin of other versions than 4.9.8. Operators keep the tools they
// have when they swap the broker: the mqadmin of an older 4.x release, or
// the 5.x one, whose requests and JSON classes differ from 4.9.8's. Each
// version's rocketmq-tools comes from Maven Central
// (conformance/java/client-classpath.sh VERSION tools) and runs in a JVM of
// its own (javaclient.Driver.MQAdminWithTools) through a life cycle of a
// topic and a group: create, send, route, status, query by key, unique
// key and offset, a group's progress and offset reset, broker status,
// cluster list, the name server's config, KV and order config, delete.
// Every masked output is recorded for the
// comparison with the Java broker's run, including the commands a 5.x
// mqadmin cannot do against a 4.9.8 broker (toolsUnsupported).

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

func init() {
	Register(&Scenario{
		Name: "broker/mqadmin/tools-versions",
		Doc: "mqadmin of rocketmq-tools 4.3.2, 4.7.1, 5.1.4 and 5.3.1 (Maven Central): updateTopic, updateSubGroup, sendMessage, " +
			"topicRoute, topicClusterList, topicStatus, queryMsgByKey, queryMsgByUniqueKey, printMsg, queryMsgByOffset, " +
			"queryMsgById, topicList, consumerProgress, resetOffsetByTime (group offline), brokerStatus, clusterList, " +
			"getBrokerConfig, brokerConsumeStats, getNamesrvConfig, updateKvConfig, deleteKvConfig, updateOrderConf put/get/delete, " +
			"deleteSubGroup and deleteTopic print what they print against Java's broker and name server",
		Tags:    tags("mqadmin", "javaclient", "raw", "clients"),
		Timeout: 8 * time.Minute,
		Run:     brokerToolsVersions,
	})
}

// otherToolsVersions are the mqadmin versions the scenario runs, each on
// a topic and group of its own, at the same time.
var otherToolsVersions = []string{"4.3.2", "4.7.1", "5.1.4", "5.3.1"}

// toolsUnsupported are the commands whose 5.x implementation asks a
// request a 4.9.8 broker does not serve: topicStatus and consumerProgress
// read the topic's config first with GET_TOPIC_CONFIG (351, 5.x only),
// which Java 4.9.8 and Sputnik both answer REQUEST_CODE_NOT_SUPPORTED. Their failure is
// recorded as the observation.
var toolsUnsupported = map[int]map[string]bool{5: {"topicStatus": true, "consumerProgress": true}}

const toolsCmdTimeout = 60 * time.Second // one mqadmin JVM

func brokerToolsVersions(ctx context.Context, env *Env) error {
	obs := make([][]Observation, len(otherToolsVersions))
	errs := make([]error, len(otherToolsVersions))
	var wg sync.WaitGroup
	for i, v := range otherToolsVersions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := &toolsRun{env: env, version: v}
			errs[i] = t.run(ctx)
			obs[i] = t.obs
		}()
	}
	wg.Wait()
	for i := range otherToolsVersions {
		for _, o := range obs[i] {
			env.Observe(o.Name, o.Text)
		}
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("mqadmin %s: %w", otherToolsVersions[i], err)
		}
	}
	return nil
}

// toolsRun is one version's life cycle; obs collects its observations
// (recorded in version order once every version is done).
type toolsRun struct {
	env     *Env
	version string
	obs     []Observation
}

// unsupported says whether toolsUnsupported lists cmd for this version.
func (t *toolsRun) unsupported(cmd string) bool {
	major, _, _ := javaclient.VersionOf(t.version)
	return toolsUnsupported[major][cmd]
}

// admin runs one command, records its masked output (or its failure) and
// returns the output unmasked. A failure (javaclient.MQAdminFailed) is an
// error unless toolsUnsupported lists the command for this major version.
func (t *toolsRun) admin(ctx context.Context, mask func(string) string, args ...string) (string, error) {
	out, errOut, err := t.env.Java.MQAdminWithTools(ctx, t.version, toolsCmdTimeout, args...)
	t.env.Log.Printf("mqadmin %s %s\n--- out\n%s--- err\n%s", t.version, strings.Join(args, " "), out, errOut)
	if err != nil {
		return "", err
	}
	name := t.version + " " + args[0]
	if i := slices.Index(args, "-m"); i >= 0 && i+1 < len(args) {
		name += " -m " + args[i+1] // updateOrderConf put, get, delete
	}
	if javaclient.MQAdminFailed(out, errOut) {
		cause := toolsCause(out + errOut)
		t.record(name, "failed: "+maskAdmin(t.env, cause))
		if t.unsupported(args[0]) {
			return "", nil
		}
		return "", fmt.Errorf("%s failed: %s", args[0], cause)
	}
	text := maskAdmin(t.env, out)
	if mask != nil {
		text = mask(text)
	}
	t.record(name, text)
	return out, nil
}

// record adds an observation; a name used before gets " #2", " #3", …
// (the comparison with Java's run matches observations by name).
func (t *toolsRun) record(name, text string) {
	n := 1
	for _, o := range t.obs {
		if o.Name == name || strings.HasPrefix(o.Name, name+" #") {
			n++
		}
	}
	if n > 1 {
		name = fmt.Sprintf("%s #%d", name, n)
	}
	t.obs = append(t.obs, Observation{Name: name, Text: text})
}

// toolsCause is the cause a failed mqadmin command printed: the deepest
// "Caused by" line, or else the first line naming an exception. Stack
// frames differ between tool versions only.
func toolsCause(out string) string {
	var first, cause string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "Caused by: "):
			cause = strings.TrimPrefix(l, "Caused by: ")
		case first == "" && (strings.Contains(l, "Exception") || strings.Contains(l, "command failed")):
			first = l
		}
	}
	if cause != "" {
		return cause
	}
	return first
}

var (
	toolsMsgIDRE    = regexp.MustCompile(`\b[0-9A-F]{32}([0-9A-F]{24})?\b`)
	toolsOffsetRE   = regexp.MustCompile(`(CommitLog Offset:\s+)\d+`)
	toolsNumberRE   = regexp.MustCompile(`-?\d+(\.\d+)?`)
	toolsSendIDsRE  = regexp.MustCompile(`SEND_OK\s+([0-9A-F]+)`)
	toolsOffsetIDRE = regexp.MustCompile(`OffsetID:\s+([0-9A-F]+)`)
	toolsExtRE      = regexp.MustCompile(`\b(bornTimestamp|storeTimestamp|commitLogOffset|preparedTransactionOffset)=\d+`)
)

// maskMsgIDs masks message ids (unique keys and offset ids, IPv4 or IPv6),
// commit-log offsets, which follow what earlier scenarios stored, and the
// times MessageExt.toString prints (printMsg).
func maskMsgIDs(s string) string {
	s = toolsMsgIDRE.ReplaceAllString(s, "<msgId>")
	s = toolsOffsetRE.ReplaceAllString(s, "${1}<offset>")
	return toolsExtRE.ReplaceAllString(s, "${1}=<n>")
}

// topicLines keeps the lines that name topic or group (topicList and
// brokerConsumeStats list every topic or group of the cluster, which
// follow the scenarios run before).
func topicLines(topic, group string) func(string) string {
	return func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "#") || strings.Contains(l, topic) || strings.Contains(l, group) {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
}

// configKeys is getBrokerConfig's sorted keys: values hold paths, host
// names and addresses (another scenario compares values).
func configKeys(s string) string {
	var keys []string
	for _, l := range strings.Split(s, "\n") {
		if k, _, ok := strings.Cut(l, "="); ok {
			keys = append(keys, strings.TrimSpace(k))
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, "\n")
}

// maskClusterRates keeps clusterList's cluster, broker, id, address and
// version columns and masks the numbers of the rest (rates, hours, disk
// ratios, timer progress), whose shape stays.
func maskClusterRates(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.SplitN(l, " ", 6)
		if len(f) == 6 {
			f[5] = toolsNumberRE.ReplaceAllString(f[5], "N")
			lines[i] = strings.Join(f, " ")
		}
	}
	return strings.Join(lines, "\n")
}

// toolsNames are what one version's commands name: its topic, group and
// key (all ending in the version, 4_3_2), the name server and the broker.
type toolsNames struct {
	id, topic, group, key string
	ns, cluster           string
	broker                Broker
}

func newToolsNames(env *Env, version string) toolsNames {
	id := strings.ReplaceAll(version, ".", "_")
	return toolsNames{id: id, topic: "ToolsVersions" + id, group: "CONF_TOOLS_CG" + id, key: "ToolsKey" + id,
		ns: env.Namesrv, cluster: env.Cluster, broker: env.Brokers[0]}
}

// toolsStep is one command and the mask of its output (nil: as printed).
type toolsStep struct {
	mask func(string) string
	args []string
}

func step(mask func(string) string, args ...string) toolsStep {
	return toolsStep{mask: mask, args: args}
}

// steps runs commands in order, stopping at the first that fails.
func (t *toolsRun) steps(ctx context.Context, steps ...toolsStep) error {
	for _, s := range steps {
		if _, err := t.admin(ctx, s.mask, s.args...); err != nil {
			return err
		}
	}
	return nil
}

func (t *toolsRun) run(ctx context.Context) error {
	n := newToolsNames(t.env, t.version)
	err := t.steps(ctx,
		step(nil, "updateTopic", "-n", n.ns, "-c", n.cluster, "-t", n.topic, "-r", "4", "-w", "4"),
		step(nil, "updateSubGroup", "-n", n.ns, "-c", n.cluster, "-g", n.group))
	if err != nil {
		return err
	}
	ids, err := t.send(ctx, n)
	if err != nil {
		return err
	}
	if err := t.queries(ctx, n, ids[1]); err != nil {
		return err
	}
	if err := t.registerGroup(ctx, n.topic, n.group, n.id); err != nil {
		return err
	}
	if err := t.steps(ctx, step(nil, "resetOffsetByTime", "-n", n.ns, "-g", n.group, "-t", n.topic, "-s", "0")); err != nil {
		return err
	}
	if err := t.progress(ctx, n.group, "2"); err != nil {
		return err
	}
	b := n.broker
	return t.steps(ctx,
		step(brokerStatusKeys, "brokerStatus", "-n", n.ns, "-b", b.Addr),
		step(maskClusterRates, "clusterList", "-n", n.ns),
		step(configKeys, "getBrokerConfig", "-n", n.ns, "-b", b.Addr),
		step(topicLines(n.topic, n.group), "brokerConsumeStats", "-n", n.ns, "-b", b.Addr),
		step(configKeys, "getNamesrvConfig", "-n", n.ns),
		step(nil, "updateKvConfig", "-n", n.ns, "-s", "TOOLS_VERSIONS", "-k", n.key, "-v", n.id),
		step(nil, "deleteKvConfig", "-n", n.ns, "-s", "TOOLS_VERSIONS", "-k", n.key),
		step(nil, "updateOrderConf", "-n", n.ns, "-t", n.topic, "-m", "put", "-v", b.Name+":4"),
		step(nil, "updateOrderConf", "-n", n.ns, "-t", n.topic, "-m", "get"),
		step(nil, "updateOrderConf", "-n", n.ns, "-t", n.topic, "-m", "delete"),
		step(nil, "deleteSubGroup", "-n", n.ns, "-c", n.cluster, "-g", n.group),
		step(nil, "deleteTopic", "-n", n.ns, "-c", n.cluster, "-t", n.topic))
}

// send sends two messages of the key to queue 1 with sendMessage and
// returns their message ids (unique keys).
func (t *toolsRun) send(ctx context.Context, n toolsNames) ([]string, error) {
	var ids []string
	for i := range 2 {
		out, err := t.admin(ctx, maskMsgIDs, "sendMessage", "-n", n.ns, "-t", n.topic, "-p", fmt.Sprintf("tools-%s-%d", n.id, i),
			"-k", n.key, "-b", n.broker.Name, "-i", "1")
		if err != nil {
			return nil, err
		}
		m := toolsSendIDsRE.FindStringSubmatch(out)
		if m == nil {
			return nil, fmt.Errorf("sendMessage printed no message id: %s", firstLines(out, 4))
		}
		ids = append(ids, m[1])
	}
	return ids, nil
}

// queries reads the topic and its messages back: route, status, the
// messages by key, by unique key uniq, all of them, by queue offset, and
// by the offset id that printed, then the topic list.
func (t *toolsRun) queries(ctx context.Context, n toolsNames, uniq string) error {
	err := t.steps(ctx,
		step(maskMsgIDs, "topicRoute", "-n", n.ns, "-t", n.topic),
		step(maskMsgIDs, "topicClusterList", "-n", n.ns, "-t", n.topic),
		step(maskMsgIDs, "topicStatus", "-n", n.ns, "-t", n.topic),
		step(maskMsgIDs, "queryMsgByKey", "-n", n.ns, "-t", n.topic, "-k", n.key),
		step(maskMsgIDs, "queryMsgByUniqueKey", "-n", n.ns, "-t", n.topic, "-i", uniq),
		step(maskMsgIDs, "printMsg", "-n", n.ns, "-t", n.topic))
	if err != nil {
		return err
	}
	out, err := t.admin(ctx, maskMsgIDs, "queryMsgByOffset", "-n", n.ns, "-t", n.topic, "-b", n.broker.Name, "-i", "1", "-o", "0")
	if err != nil {
		return err
	}
	m := toolsOffsetIDRE.FindStringSubmatch(out)
	if m == nil {
		return fmt.Errorf("queryMsgByOffset printed no OffsetID: %s", firstLines(out, 4))
	}
	byID := []string{"queryMsgById", "-n", n.ns, "-i", m[1]}
	if major, minor, _ := javaclient.VersionOf(t.version); major > 5 || major == 5 && minor >= 3 {
		byID = append(byID, "-t", n.topic) // 5.3.1 requires it, 5.1.4 refuses it
	}
	return t.steps(ctx, step(maskMsgIDs, byID...), step(topicLines(n.topic, n.group), "topicList", "-n", n.ns))
}

// registerGroup gives group what consumerProgress and resetOffsetByTime
// read, without a client whose last commits could race the commands: a
// raw HEART_BEAT of one consumer of group on topic (the broker creates
// %RETRY%group and its route), offsets 0, 2, 0, 0 committed on the four
// queues (both messages consumed), and UNREGISTER_CLIENT, after which the
// group has no member online.
func (t *toolsRun) registerGroup(ctx context.Context, topic, group, id string) error {
	addr := t.env.Brokers[0].Addr
	conn, err := rawclient.Dial(ctx, addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	clientID := "127.0.0.1@tools-" + id
	if _, err := rawHeartbeat(ctx, conn, clientID, group, topic, "CLUSTERING"); err != nil {
		return err
	}
	for q, offset := range []string{"0", "2", "0", "0"} {
		req := rawclient.Request(codeUpdateConsumerOffset, "consumerGroup", group, "topic", topic, "queueId", fmt.Sprint(q), "commitOffset", offset)
		if _, err := invokeOK(ctx, conn, req); err != nil {
			return fmt.Errorf("UPDATE_CONSUMER_OFFSET %s q%d: %w", topic, q, err)
		}
	}
	if _, err := invokeOK(ctx, conn, rawclient.Request(int32(protocol.ReqUnregisterClient), "clientID", clientID, "consumerGroup", group)); err != nil {
		return fmt.Errorf("UNREGISTER_CLIENT %s: %w", clientID, err)
	}
	return t.progress(ctx, group, "0")
}

// progress records this version's consumerProgress of group, polling
// until its "Diff Total" is diff (the broker has taken the offsets).
func (t *toolsRun) progress(ctx context.Context, group, diff string) error {
	args := []string{"consumerProgress", "-n", t.env.Namesrv, "-g", group}
	if t.unsupported("consumerProgress") {
		_, err := t.admin(ctx, nil, args...)
		return err
	}
	var last string
	err := Eventually(ctx, 20*time.Second, 500*time.Millisecond, func() error {
		out, errOut, err := t.env.Java.MQAdminWithTools(ctx, t.version, toolsCmdTimeout, args...)
		if err != nil {
			return err
		}
		last = out + errOut
		if !strings.Contains(strings.TrimSpace(out)+"\n", "Diff Total: "+diff+"\n") {
			return fmt.Errorf("consumerProgress of %s: want Diff Total: %s: %s", group, diff, firstLines(last, 12))
		}
		return nil
	})
	if err != nil {
		return err
	}
	t.env.Log.Printf("mqadmin %s consumerProgress -g %s\n%s", t.version, group, last)
	t.record(t.version+" consumerProgress", dropRetryRows(maskAdmin(t.env, last)))
	return nil
}
