package scenario

// The broker with ACL on (aclEnable=true). Java 4.9.8 mirror:
// BrokerController.initialAcl registers an RPC hook that runs
// PlainAccessValidator.parse and PlainPermissionManager.validate before
// every request: global white addresses, then the AccessKey ("No accessKey
// is configured", "No acl config for …"), the account's
// whiteRemoteAddress (a match skips everything else), the signature
// ("Check signature failed for accessKey=…"), then checkPerm: admin codes
// ("Need admin permission for request code=…") and the topic and group
// resources of SEND_MESSAGE(_V2), PULL_MESSAGE, HEART_BEAT, … ("No default
// permission for topic:…" / "group:…"). A refusal is the AclException
// thrown out of the hook, answered by NettyRemotingAbstract with
// SYSTEM_ERROR and RemotingHelper.exceptionSimpleDesc as remark:
// "org.apache.rocketmq.acl.common.AclException: <message>, <first stack
// frame>". The account file is $ROCKETMQ_HOME/conf/plain_acl.yml, reloaded
// when its modification time changes (AclFileWatchService, every 5 s).

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// The ACL accounts of plain_acl.yml. RocketMQ may publish and subscribe
// aclTopicA, only subscribe aclTopicB, nothing else (defaultTopicPerm
// DENY); its groups default to SUB but aclGroupDenied is DENY. aclAdmin
// is an admin without resource lists. aclWhiteKey is white-listed for
// 127.0.0.1, where every client of the harness connects from, so its
// requests are neither verified nor checked.
var (
	aclUser        = javaclient.Credentials{AccessKey: "RocketMQ", SecretKey: "12345678"}
	aclAdmin       = javaclient.Credentials{AccessKey: "aclAdmin", SecretKey: "aclAdminSecret"}
	aclWhite       = javaclient.Credentials{AccessKey: "aclWhiteKey", SecretKey: "aclWhiteSecret"}
	aclUserBadKey  = javaclient.Credentials{AccessKey: "RocketMQ", SecretKey: "wrongSecret"}
	aclWhiteBadKey = javaclient.Credentials{AccessKey: "aclWhiteKey", SecretKey: "wrongSecret"}
	aclUnknown     = javaclient.Credentials{AccessKey: "unknownKey", SecretKey: "unknownSecret"}
)

const (
	aclTopicA      = "aclTopicA" // RocketMQ: PUB|SUB
	aclTopicB      = "aclTopicB" // RocketMQ: SUB (PUB|SUB while broker/acl/hot-reload grants it)
	aclGroupA      = "aclGroupA"
	aclGroupDenied = "aclGroupDenied"
	aclTopicBSub   = "aclTopicB=SUB"
	aclTopicBPub   = "aclTopicB=PUB|SUB"
	aclReloadWait  = 20 * time.Second // Java polls the file every 5 s
)

// aclConfig is the plain_acl.yml of the scenarios, with topicB as
// RocketMQ's permission entry for aclTopicB. The global white list does not
// match 127.0.0.1.
func aclConfig(topicB string) string {
	return `# broker/acl/* scenarios (conformance/scenario/broker_acl_enabled.go)
globalWhiteRemoteAddresses:
- 10.10.103.*
- 192.168.0.*

accounts:
- accessKey: RocketMQ
  secretKey: "12345678"
  whiteRemoteAddress:
  admin: false
  defaultTopicPerm: DENY
  defaultGroupPerm: SUB
  topicPerms:
  - aclTopicA=PUB|SUB
  - ` + topicB + `
  groupPerms:
  - aclGroupA=SUB
  - aclGroupDenied=DENY

- accessKey: aclAdmin
  secretKey: aclAdminSecret
  whiteRemoteAddress:
  admin: true

- accessKey: aclWhiteKey
  secretKey: aclWhiteSecret
  whiteRemoteAddress: 127.0.0.1
  admin: false
  defaultTopicPerm: DENY
  defaultGroupPerm: DENY
`
}

// aclNeeds is the cluster of every ACL scenario: one broker, ACL on.
var aclNeeds = Needs{ACL: aclConfig(aclTopicBSub)}

const (
	codeUpdateAndCreateTopic = int32(protocol.ReqUpdateAndCreateTopic)
	codeHeartBeat            = int32(protocol.ReqHeartBeat)
)

func init() {
	aclTags := func(extra ...string) []string { return tags(append([]string{"acl"}, extra...)...) }
	Register(&Scenario{
		Name: "broker/acl/java-send-consume",
		Doc: "with ACL on, a Java producer and push consumer signing with an account allowed aclTopicA " +
			"(AclClientRPCHook) send and receive every message",
		Tags: aclTags("quick", "javaclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclJavaSendConsume,
	}, &Scenario{
		Name: "broker/acl/java-send-refused",
		Doc: "Java sends refused with SYSTEM_ERROR and the AclException's message: wrong secret (signature), " +
			"no credentials, unknown access key, a topic the account may only subscribe, an unlisted topic (defaultTopicPerm DENY)",
		Tags: aclTags("javaclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclJavaSendRefused,
	}, &Scenario{
		Name: "broker/acl/group-denied",
		Doc: "a group with DENY: the Java pull consumer's pull fails with SYSTEM_ERROR \"No default permission for group:…\", " +
			"a signed raw HEART_BEAT of that group is refused, one of an allowed group succeeds",
		Tags: aclTags("javaclient", "raw"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclGroupDeniedRun,
	}, &Scenario{
		Name: "broker/acl/white-address",
		Doc: "an account white-listed for 127.0.0.1 sends with a wrong secret to a topic it has no permission for " +
			"and pulls it back: a white address skips the signature and the permissions",
		Tags: aclTags("javaclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclWhiteAddress,
	}, &Scenario{
		Name: "broker/acl/go-send-consume",
		Doc:  "client-go with WithCredentials sends and consumes; with a wrong secret its send fails with the signature message",
		Tags: aclTags("goclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclGoSendConsume,
	}, &Scenario{
		Name: "broker/acl/raw-admin",
		Doc: "raw frames signed in Go as AclClientRPCHook does: UPDATE_AND_CREATE_TOPIC unsigned, by a non-admin, " +
			"with a bad signature and by the admin (then the admin's Java producer publishes to it); GET_MAX_OFFSET (no resource) unsigned and signed; " +
			"a refusal of a ROCKETMQ-serialized request",
		Tags: aclTags("raw", "javaclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclRawAdmin,
	}, &Scenario{
		Name: "broker/acl/hot-reload",
		Doc: "rewriting plain_acl.yml while the broker runs: granting PUB on aclTopicB lets sends through within " +
			"seconds (Java polls the file's mtime every 5 s), putting the file back refuses them again",
		Tags: aclTags("javaclient", "goclient"), Needs: aclNeeds, Timeout: brokerScenarioLimit, Run: aclHotReload,
	})
}

// signACL adds AccessKey and Signature to req as Java 4.9.8's
// AclClientRPCHook does: HMAC-SHA1 with the secret key over the values of
// every ext field (AccessKey included) in key order followed by the body,
// base64.
func signACL(req *wire.Command, c javaclient.Credentials) *wire.Command {
	req.AddExt("AccessKey", c.AccessKey)
	ext := slices.Clone(req.Ext)
	slices.SortStableFunc(ext, func(a, b wire.ExtField) int { return strings.Compare(a.Key, b.Key) })
	mac := hmac.New(sha1.New, []byte(c.SecretKey))
	for _, f := range ext {
		mac.Write([]byte(f.Value))
	}
	mac.Write(req.Body)
	req.AddExt("Signature", base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	return req
}

// createTopicRequest is UPDATE_AND_CREATE_TOPIC of topic with 4 queues,
// perm 6, as the Java admin sends it.
func createTopicRequest(topic string) *wire.Command {
	return rawclient.Request(codeUpdateAndCreateTopic, "topic", topic, "defaultTopic", "TBW102",
		"readQueueNums", "4", "writeQueueNums", "4", "perm", "6", "topicFilterType", "SINGLE_TAG",
		"topicSysFlag", "0", "order", "false")
}

// aclCreateTopic creates topic on every broker with a raw
// UPDATE_AND_CREATE_TOPIC signed by the admin account and waits for its
// route.
func aclCreateTopic(ctx context.Context, env *Env, topic string) error {
	for _, b := range env.Brokers {
		resp, err := rawclient.Call(ctx, b.Addr, signACL(createTopicRequest(topic), aclAdmin), defaultRawTimeout)
		if err != nil {
			return fmt.Errorf("UPDATE_AND_CREATE_TOPIC %s on %s: %w", topic, b.Name, err)
		}
		if resp.Code != respSuccess {
			return fmt.Errorf("UPDATE_AND_CREATE_TOPIC %s on %s as %s: %w", topic, b.Name, aclAdmin.AccessKey,
				&codeError{Code: resp.Code, Remark: resp.Remark})
		}
	}
	return waitRoute(ctx, env, topic, len(env.Brokers))
}

// aclExceptionRE finds an AclException in a remark or an error text that
// quotes one; exceptionSimpleDesc puts ", <first stack frame>" after the
// message, and client exceptions may follow it with " BROKER: …".
var aclExceptionRE = regexp.MustCompile(`(?m)AclException: (.*?)(?:, [\w.$]+\([\w.]*:\d+\)| BROKER: |$)`)

// aclMessage is the AclException message in s, or "" when there is none.
func aclMessage(s string) string {
	if m := aclExceptionRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// lineNumberRE masks the line of a stack frame: "(File.java:123)".
var lineNumberRE = regexp.MustCompile(`(\.java):\d+\)`)

// observeRefusal checks that err is a refusal with code 1 (SYSTEM_ERROR)
// carrying want, and records both under name.
func observeRefusal(env *Env, name string, err error, want string) error {
	if err == nil {
		return fmt.Errorf("%s: succeeded, want the refusal %q", name, want)
	}
	env.Log.Printf("%s: %v", name, err)
	code, msg := javaclient.CodeOf(err), aclMessage(err.Error())
	if code != int(respSystemError) || msg != want {
		return fmt.Errorf("%s: code %d, ACL message %q; want code %d, %q (error: %v)", name, code, msg, respSystemError, want, err)
	}
	env.Observe(name, fmt.Sprintf("code %d: %s", code, msg))
	return nil
}

// checkRawRefusal checks a raw response: SYSTEM_ERROR with the AclException
// message want, and records the code and message.
func checkRawRefusal(env *Env, name string, resp *wire.Command, want string) error {
	env.Log.Printf("%s: code %d, remark %q", name, resp.Code, resp.Remark)
	if resp.Code != respSystemError || aclMessage(resp.Remark) != want {
		return fmt.Errorf("%s: code %d, remark %q; want code %d with %q", name, resp.Code, resp.Remark, respSystemError, want)
	}
	env.Observe(name, fmt.Sprintf("code %d: %s", resp.Code, aclMessage(resp.Remark)))
	return nil
}

func aclJavaSendConsume(ctx context.Context, env *Env) error {
	if err := aclCreateTopic(ctx, env, aclTopicA); err != nil {
		return err
	}
	ss := specs("acl-java", "TagA", 4)
	sent, err := javaProduceAs(ctx, env, aclUser, aclTopicA, "aclProducerGroup", "sync", ss)
	if err != nil {
		return fmt.Errorf("send as %s: %w", aclUser.AccessKey, err)
	}
	env.Observe("sent", fmt.Sprintf("%d messages SEND_OK", len(sent)))
	res, err := javaConsume(ctx, env, consumeReq{Topic: aclTopicA, Group: aclGroupA, Prefix: "acl-java",
		Count: len(ss), Quiet: brokerQuiet, Creds: aclUser})
	if err != nil {
		return fmt.Errorf("consume as %s: %w", aclUser.AccessKey, err)
	}
	got := withPrefix(res.Messages, "acl-java")
	if err := checkDelivered(ss, got, false); err != nil {
		return err
	}
	env.Observe("received", contentLines(got))
	return nil
}

func aclJavaSendRefused(ctx context.Context, env *Env) error {
	for _, c := range []struct {
		name  string
		cred  javaclient.Credentials
		topic string
		want  string
	}{
		{"wrong-secret", aclUserBadKey, aclTopicA, "Check signature failed for accessKey=RocketMQ"},
		{"no-credentials", javaclient.Credentials{}, aclTopicA, "No accessKey is configured"},
		{"unknown-key", aclUnknown, aclTopicA, "No acl config for unknownKey"},
		{"sub-only-topic", aclUser, aclTopicB, "No default permission for topic:aclTopicB"},
		{"unlisted-topic", aclUser, "aclTopicUnlisted", "No default permission for topic:aclTopicUnlisted"},
	} {
		_, err := javaProduceAs(ctx, env, c.cred, c.topic, "aclProducerGroup", "sync", specs("acl-refused", "", 1))
		if err := observeRefusal(env, c.name, err, c.want); err != nil {
			return err
		}
	}
	return nil
}

// heartbeatBody is a HEART_BEAT body (HeartbeatData as fastjson reads it)
// of one clustering push consumer of group subscribed to topic.
func heartbeatBody(clientID, group, topic string) []byte {
	return heartbeatBodyOf(clientID, group, topic, "CLUSTERING")
}

// rawHeartbeat sends a HEART_BEAT of one consumer of group on topic
// (heartbeatBodyOf) on conn and returns the answer, failing unless it
// succeeds.
func rawHeartbeat(ctx context.Context, conn *rawclient.Conn, clientID, group, topic, model string) (*wire.Command, error) {
	hb := rawclient.Request(codeHeartBeat)
	hb.Body = heartbeatBodyOf(clientID, group, topic, model)
	resp, err := invokeOK(ctx, conn, hb)
	if err != nil {
		return nil, fmt.Errorf("heartbeat of %s: %w", clientID, err)
	}
	return resp, nil
}

// heartbeatBodyOf is heartbeatBody for message model model (CLUSTERING or
// BROADCASTING).
func heartbeatBodyOf(clientID, group, topic, model string) []byte {
	return []byte(`{"clientID":"` + clientID + `","consumerDataSet":[{"consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET",` +
		`"consumeType":"CONSUME_PASSIVELY","groupName":"` + group + `","messageModel":"` + model + `",` +
		`"subscriptionDataSet":[{"classFilterMode":false,"codeSet":[],"expressionType":"TAG","subString":"*",` +
		`"subVersion":0,"tagsSet":[],"topic":"` + topic + `"}],"unitMode":false}],"producerDataSet":[]}`)
}

func aclGroupDeniedRun(ctx context.Context, env *Env) error {
	if err := aclCreateTopic(ctx, env, aclTopicA); err != nil {
		return err
	}
	var res pullResult
	err := env.Java.BrokerOp(ctx, aclUser.AddTo(map[string]any{"op": "pull", "ns": env.Namesrv, "topic": aclTopicA,
		"group": aclGroupDenied, "sub": "*", "max": 32}), &res, brokerOpSlack)
	if err := observeRefusal(env, "pull-consumer", err, "No default permission for group:aclGroupDenied"); err != nil {
		return err
	}
	addr := env.Brokers[0].Addr
	for _, c := range []struct {
		name, group, want string
	}{
		{"heartbeat-denied", aclGroupDenied, "No default permission for group:aclGroupDenied"},
		{"heartbeat-allowed", aclGroupA, ""},
	} {
		req := rawclient.Request(codeHeartBeat)
		req.Body = heartbeatBody("127.0.0.1@acl-"+c.name, c.group, aclTopicA)
		resp, err := rawclient.Call(ctx, addr, signACL(req, aclUser), defaultRawTimeout)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if c.want != "" {
			if err := checkRawRefusal(env, c.name, resp, c.want); err != nil {
				return err
			}
			continue
		}
		env.Log.Printf("%s: code %d, remark %q", c.name, resp.Code, resp.Remark)
		if resp.Code != respSuccess {
			return fmt.Errorf("%s: %w", c.name, &codeError{Code: resp.Code, Remark: resp.Remark})
		}
		env.Observe(c.name, fmt.Sprintf("code %d", resp.Code))
	}
	return nil
}

func aclWhiteAddress(ctx context.Context, env *Env) error {
	const topic = "aclTopicWhite"
	ss := specs("acl-white", "TagW", 2)
	if _, err := javaProduceAs(ctx, env, aclWhiteBadKey, topic, "aclWhiteProducerGroup", "sync", ss); err != nil {
		return fmt.Errorf("send as %s with a wrong secret from a white address: %w", aclWhite.AccessKey, err)
	}
	env.Observe("sent", fmt.Sprintf("%d messages SEND_OK", len(ss)))
	if err := waitRoute(ctx, env, topic, len(env.Brokers)); err != nil {
		return err
	}
	var res pullResult
	err := env.Java.BrokerOp(ctx, aclWhiteBadKey.AddTo(map[string]any{"op": "pull", "ns": env.Namesrv, "topic": topic,
		"group": "aclWhiteGroup", "sub": "*", "max": 32}), &res, brokerOpSlack)
	if err != nil {
		return fmt.Errorf("pull as %s with a wrong secret: %w", aclWhite.AccessKey, err)
	}
	var bodies []string
	for _, m := range res.Client {
		bodies = append(bodies, m.Body)
	}
	slices.Sort(bodies)
	if len(bodies) != len(ss) {
		return fmt.Errorf("pulled %v, want the %d messages sent", bodies, len(ss))
	}
	env.Observe("pulled", strings.Join(bodies, "\n"))
	return nil
}

func aclGoSendConsume(ctx context.Context, env *Env) error {
	if err := aclCreateTopic(ctx, env, aclTopicA); err != nil {
		return err
	}
	creds := func(c javaclient.Credentials) primitive.Credentials {
		return primitive.Credentials{AccessKey: c.AccessKey, SecretKey: c.SecretKey}
	}
	ss := specs("acl-go", "TagG", 4)
	if _, err := goProduceWith(ctx, env, []producer.Option{producer.WithCredentials(creds(aclUser))}, aclTopicA, "sync", ss); err != nil {
		return fmt.Errorf("client-go send as %s: %w", aclUser.AccessKey, err)
	}
	got, err := goConsumeMsgsWith(ctx, env, []consumer.Option{consumer.WithCredentials(creds(aclUser))},
		aclTopicA, aclGroupA, "", "acl-go", len(ss), brokerConsumeWait)
	if err != nil {
		return fmt.Errorf("client-go consume as %s: %w", aclUser.AccessKey, err)
	}
	got = withPrefix(got, "acl-go")
	if err := checkDelivered(ss, got, true); err != nil {
		return err
	}
	env.Observe("received", contentLines(got))
	_, err = goProduceWith(ctx, env, []producer.Option{producer.WithCredentials(creds(aclUserBadKey)), producer.WithRetry(0)},
		aclTopicA, "sync", specs("acl-go-refused", "", 1))
	if err == nil {
		return fmt.Errorf("client-go send with a wrong secret succeeded")
	}
	env.Log.Printf("client-go send with a wrong secret: %v", err)
	// client-go's ProcessSendResponse: "CODE: <code>, DESC: <remark>".
	if !strings.Contains(err.Error(), fmt.Sprintf("CODE: %d, DESC: ", respSystemError)) ||
		aclMessage(err.Error()) != "Check signature failed for accessKey=RocketMQ" {
		return fmt.Errorf("client-go send with a wrong secret: %v; want CODE: 1 and the signature message", err)
	}
	env.Observe("wrong-secret", fmt.Sprintf("code %d: %s", respSystemError, aclMessage(err.Error())))
	return nil
}

func aclRawAdmin(ctx context.Context, env *Env) error {
	addr := env.Brokers[0].Addr
	const topic = "aclTopicRaw"
	badSignature := signACL(createTopicRequest(topic), aclAdmin)
	for i := range badSignature.Ext {
		if badSignature.Ext[i].Key == "perm" {
			badSignature.Ext[i].Value = "7" // changed after signing
		}
	}
	for _, c := range []struct {
		name string
		req  *wire.Command
		want string // "" = SUCCESS
	}{
		{"create-unsigned", createTopicRequest(topic), "No accessKey is configured"},
		{"create-no-ext-fields", rawclient.Request(codeUpdateAndCreateTopic), "No accessKey is configured"},
		{"create-non-admin", signACL(createTopicRequest(topic), aclUser),
			"Need admin permission for request code=17, but accessKey=RocketMQ is not"},
		{"create-bad-signature", badSignature, "Check signature failed for accessKey=aclAdmin"},
		{"create-unknown-key", signACL(createTopicRequest(topic), aclUnknown), "No acl config for unknownKey"},
		{"route-after-refusals", nil, ""},
		{"create-admin", signACL(createTopicRequest(topic), aclAdmin), ""},
		{"max-offset-unsigned", rawclient.Request(codeGetMaxOffset, "topic", topic, "queueId", "0"), "No accessKey is configured"},
		{"max-offset-signed", signACL(rawclient.Request(codeGetMaxOffset, "topic", topic, "queueId", "0"), aclUser), ""},
	} {
		if c.req == nil { // nothing was created
			if _, err := rawRoute(ctx, env, topic, javaVersion409); codeOf(err) != respTopicNotExist {
				return fmt.Errorf("route of %s after refused creations: %v, want code %d", topic, err, respTopicNotExist)
			}
			env.Observe(c.name, fmt.Sprintf("code %d", respTopicNotExist))
			continue
		}
		resp, err := rawclient.Call(ctx, addr, c.req, defaultRawTimeout)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if c.want != "" {
			if err := checkRawRefusal(env, c.name, resp, c.want); err != nil {
				return err
			}
			env.Observe(c.name+" remark", lineNumberRE.ReplaceAllString(resp.Remark, "$1:N)"))
			continue
		}
		env.Log.Printf("%s: code %d, remark %q", c.name, resp.Code, resp.Remark)
		if resp.Code != respSuccess {
			return fmt.Errorf("%s: %w", c.name, &codeError{Code: resp.Code, Remark: resp.Remark})
		}
		env.Observe(c.name, fmt.Sprintf("code %d", resp.Code))
	}
	// A refusal answers in the request's serialize type? Java's hook
	// failure path builds the response afresh (createResponseCommand).
	req := rawclient.Request(codeGetMaxOffset, "topic", topic, "queueId", "0")
	req.Serialize = wire.SerializeRocketMQ
	resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("ROCKETMQ-serialized unsigned GET_MAX_OFFSET: %w", err)
	}
	if err := checkRawRefusal(env, "rocketmq-serialized", resp, "No accessKey is configured"); err != nil {
		return err
	}
	env.Observe("rocketmq-serialized response", fmt.Sprintf("serialize %v", resp.Serialize))
	// The admin has no resource lists: checkPerm lets it publish anywhere.
	if err := waitRoute(ctx, env, topic, len(env.Brokers)); err != nil {
		return err
	}
	sent, err := javaProduceAs(ctx, env, aclAdmin, topic, "aclAdminProducerGroup", "sync", specs("acl-raw", "", 2))
	if err != nil {
		return fmt.Errorf("Java send to %s as %s: %w", topic, aclAdmin.AccessKey, err)
	}
	env.Observe("admin send", fmt.Sprintf("%d messages SEND_OK", len(sent)))
	return nil
}

// codeOf is the response code of a *codeError in err's chain, or 0.
func codeOf(err error) int32 {
	var ce *codeError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return 0
}

func aclHotReload(ctx context.Context, env *Env) error {
	probe, err := startACLProbe(env, "aclReloadProducerGroup", aclTopicB,
		&primitive.Credentials{AccessKey: aclUser.AccessKey, SecretKey: aclUser.SecretKey})
	if err != nil {
		return err
	}
	defer probe.stop(env)
	const refused = "No default permission for topic:aclTopicB"
	wantRefused := func() error { return probe.refused(ctx, refused) }
	if err := wantRefused(); err != nil {
		return fmt.Errorf("before the change: %w", err)
	}
	env.Observe("before", refused)

	restored := false
	defer restoreACL(env, &restored)
	t0 := time.Now()
	if err := writeACLAll(env, aclConfig(aclTopicBPub)); err != nil {
		return err
	}
	if err := Eventually(ctx, aclReloadWait, 500*time.Millisecond, func() error { return probe.send(ctx) }); err != nil {
		return fmt.Errorf("%s granted PUB in plain_acl.yml, sends still fail: %w", aclTopicB, err)
	}
	env.Log.Printf("grant effective after %s", time.Since(t0).Round(time.Millisecond))
	env.Observe("granted", "client-go send SEND_OK")
	sent, err := javaProduceAs(ctx, env, aclUser, aclTopicB, "aclProducerGroup", "sync", specs("acl-reload-java", "", 2))
	if err != nil {
		return fmt.Errorf("Java send to %s after the grant: %w", aclTopicB, err)
	}
	env.Observe("granted java", fmt.Sprintf("%d messages SEND_OK", len(sent)))

	t0 = time.Now()
	restored = true
	if err := writeACLAll(env, aclNeeds.ACL); err != nil {
		return err
	}
	if err := Eventually(ctx, aclReloadWait, 500*time.Millisecond, wantRefused); err != nil {
		return fmt.Errorf("plain_acl.yml put back: %w", err)
	}
	env.Log.Printf("revocation effective after %s", time.Since(t0).Round(time.Millisecond))
	env.Observe("restored", refused)
	return nil
}

// writeACLAll writes text as every broker's plain_acl.yml.
func writeACLAll(env *Env, text string) error {
	for i := range env.Brokers {
		if err := env.Nodes.WriteBrokerACL(i, text); err != nil {
			return fmt.Errorf("plain_acl.yml of broker %d: %w", i, err)
		}
	}
	return nil
}

// restoreACL puts the shared cluster's original plain_acl.yml back unless
// *done says it was, logging a failure; defer it first thing in a
// scenario that changes the file, so later scenarios of the cluster see
// the original rules even when this one fails half-way.
func restoreACL(env *Env, done *bool) {
	if *done {
		return
	}
	if err := writeACLAll(env, aclNeeds.ACL); err != nil {
		env.Log.Printf("restoring %v", err)
	}
}

// aclProbe is a client-go producer that sends one topic over and over,
// to see when a change of the rules takes effect.
type aclProbe struct {
	p      rocketmq.Producer
	topic  string
	prefix string
	seq    int
}

// startACLProbe starts a probe in group, signing with creds unless nil;
// stop it with its stop method.
func startACLProbe(env *Env, group, topic string, creds *primitive.Credentials) (*aclProbe, error) {
	opts := []producer.Option{
		producer.WithNameServer(primitive.NamesrvAddr{env.Namesrv}),
		producer.WithGroupName(group),
		producer.WithInstanceName(goInstance("producer")),
		producer.WithRetry(0),
		producer.WithSendMsgTimeout(5 * time.Second),
	}
	if creds != nil {
		opts = append(opts, producer.WithCredentials(*creds))
	}
	p, err := producer.NewDefaultProducer(opts...)
	if err != nil {
		return nil, fmt.Errorf("client-go NewDefaultProducer: %w", err)
	}
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("client-go producer Start: %w", err)
	}
	return &aclProbe{p: p, topic: topic, prefix: group}, nil
}

func (a *aclProbe) stop(env *Env) { shutdownBounded(env, "producer", a.p.Shutdown) }

// send sends one message.
func (a *aclProbe) send(ctx context.Context) error {
	a.seq++
	_, err := a.p.SendSync(ctx, primitive.NewMessage(a.topic, fmt.Appendf(nil, "%s-%d", a.prefix, a.seq)))
	return err
}

// refused sends one message and requires the broker to refuse it with
// the ACL message want.
func (a *aclProbe) refused(ctx context.Context, want string) error {
	err := a.send(ctx)
	if err == nil {
		return fmt.Errorf("send to %s succeeded", a.topic)
	}
	if msg := aclMessage(err.Error()); msg != want {
		return fmt.Errorf("send to %s: %v; want %q", a.topic, err, want)
	}
	return nil
}
