package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/acl"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// aclTestFile is a plain_acl.yml in the distribution's shape; nothing in
// it whitelists 127.0.0.1 but the third account.
const aclTestFile = `globalWhiteRemoteAddresses:
  - 10.10.103.*
accounts:
  - accessKey: RocketMQ
    secretKey: 12345678
    whiteRemoteAddress:
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - topicA=PUB|SUB
      - topicB=SUB
    groupPerms:
      - groupDenied=DENY
  - accessKey: rocketmq2
    secretKey: 12345678
    admin: true
  - accessKey: whiteKey1
    secretKey: whiteSecret1
    whiteRemoteAddress: 127.0.0.1
    defaultTopicPerm: PUB|SUB
`

// signed adds the credentials and the signature Java's AclClientRPCHook
// adds to req (whose header is already in its ext fields).
func signed(req *wire.Command, accessKey, secretKey string) *wire.Command {
	ext := map[string]string{"AccessKey": accessKey}
	for _, f := range req.Ext {
		ext[f.Key] = f.Value
	}
	req.AddExt("AccessKey", accessKey)
	req.AddExt("Signature", acl.Sign(acl.Content(ext, req.Body), secretKey))
	return req
}

func startACLBroker(t *testing.T) (*Broker, func(*wire.Command) *wire.Command) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "conf", "plain_acl.yml"), []byte(aclTestFile), 0o644))
	b, cl := startBrokerIn(t, dir, "aclEnable=true")
	addr := b.server.Addr().String()
	return b, func(req *wire.Command) *wire.Command { return invoke(t, cl, addr, req) }
}

// Java 4.9.8 PlainAccessValidator + PlainPermissionManager.validate, through
// the broker's request hook: each refusal is SYSTEM_ERROR with the
// AclException's description.
func TestACLChecksRequests(t *testing.T) {
	_, call := startACLBroker(t)
	for _, tc := range []struct {
		name   string
		req    func() *wire.Command
		remark string // "" = allowed
	}{
		{"granted topic", func() *wire.Command { return signed(sendV2("topicA", 0, "m", "t"), "RocketMQ", "12345678") }, ""},
		{"SUB-only topic", func() *wire.Command { return signed(sendV2("topicB", 0, "m", "t"), "RocketMQ", "12345678") },
			"No default permission for topic:topicB"},
		{"default DENY", func() *wire.Command { return signed(sendV2("topicC", 0, "m", "t"), "RocketMQ", "12345678") },
			"No default permission for topic:topicC"},
		{"batch to a SUB-only topic (checked as RocketMQ 5 does)", func() *wire.Command {
			req := sendV2("topicB", 0, "m", "t")
			req.Code = int32(protocol.ReqSendBatchMessage)
			return signed(req, "RocketMQ", "12345678")
		}, "No default permission for topic:topicB"},
		{"no credentials", func() *wire.Command { return sendV2("topicA", 0, "m", "t") }, "No accessKey is configured"},
		{"unknown key", func() *wire.Command { return signed(sendV2("topicA", 0, "m", "t"), "nobody1", "12345678") },
			"No acl config for nobody1"},
		{"wrong secret", func() *wire.Command { return signed(sendV2("topicA", 0, "m", "t"), "RocketMQ", "87654321") },
			"Check signature failed for accessKey=RocketMQ"},
		{"white address skips the signature", func() *wire.Command {
			return signed(sendV2("topicW", 0, "m", "t"), "whiteKey1", "wrong-secret")
		}, ""},
		{"pull with a SUB group", func() *wire.Command { return signed(pull("topicA", 0, 0, 0, "*"), "RocketMQ", "12345678") }, ""},
		{"admin request, not admin", func() *wire.Command { return signed(createTopic("topicX"), "RocketMQ", "12345678") },
			"Need admin permission for request code=17, but accessKey=RocketMQ is not"},
		{"admin request, admin", func() *wire.Command { return signed(createTopic("topicX"), "rocketmq2", "12345678") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := call(tc.req())
			if tc.remark == "" {
				assert.NotEqual(t, int32(protocol.RespSystemError), resp.Code, resp.Remark)
				return
			}
			assert.Equal(t, int32(protocol.RespSystemError), resp.Code)
			assert.True(t, strings.HasPrefix(resp.Remark, "org.apache.rocketmq.acl.common.AclException: "+tc.remark+", org.apache.rocketmq.acl.plain."),
				"remark %q", resp.Remark)
		})
	}
}

// A consumer group denied in groupPerms cannot pull; its retry topic is
// the resource checked (PlainAccessResource.getRetryTopic).
func TestACLDeniedGroup(t *testing.T) {
	_, call := startACLBroker(t)
	req := wire.NewRequest(int32(protocol.ReqPullMessage))
	(&protocol.PullMessageRequestHeader{ConsumerGroup: "groupDenied", Topic: "topicA", MaxMsgNums: 32, Subscription: "*"}).EncodeTo(req)
	resp := call(signed(req, "RocketMQ", "12345678"))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	assert.Contains(t, resp.Remark, "No default permission for group:groupDenied")
}

func createTopic(topic string) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqUpdateAndCreateTopic))
	(&protocol.CreateTopicRequestHeader{Topic: topic, DefaultTopic: protocol.Some("TBW102"), ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6,
		TopicFilterType: "SINGLE_TAG"}).EncodeTo(req)
	return req
}

// The request's resources, by code, as PlainAccessValidator.parse names
// them.
func TestACLRequestResources(t *testing.T) {
	retry := sendV2("%RETRY%G1", 0, "m", "")
	hb := wire.NewRequest(int32(protocol.ReqHeartBeat))
	hb.Body = []byte(`{"clientID":"c","consumerDataSet":[{"groupName":"G2","subscriptionDataSet":[{"topic":"T2","subString":"*"}]}],"producerDataSet":[]}`)
	batch := wire.NewRequest(int32(protocol.ReqSendBatchMessage))
	(&protocol.SendMessageRequestHeaderV2{ProducerGroup: protocol.Some("PG"), Topic: "T4", DefaultTopic: protocol.Some("TBW102"), DefaultTopicQueueNums: protocol.Some[int32](4),
		Batch: true}).EncodeTo(batch)
	offset := wire.NewRequest(int32(protocol.ReqUpdateConsumerOffset))
	(&protocol.UpdateConsumerOffsetRequestHeader{ConsumerGroup: "G3", Topic: "T3", QueueId: 1, CommitOffset: 5}).EncodeTo(offset)
	for _, tc := range []struct {
		name string
		req  *wire.Command
		want map[string]acl.Perm
	}{
		{"send", sendV2("T1", 0, "m", ""), map[string]acl.Perm{"T1": acl.Pub}},
		{"send to a retry topic", retry, map[string]acl.Perm{"%RETRY%PG": acl.Sub}},
		{"pull", pull("T1", 0, 0, 0, "*"), map[string]acl.Perm{"T1": acl.Sub, "%RETRY%CG": acl.Sub}},
		{"heartbeat", hb, map[string]acl.Perm{"T2": acl.Sub, "%RETRY%G2": acl.Sub}},
		{"offset", offset, map[string]acl.Perm{"T3": acl.Sub, "%RETRY%G3": acl.Sub}},
		{"batch, as RocketMQ 5 checks it", batch, map[string]acl.Perm{"T4": acl.Pub}},
		{"no topic: none", wire.NewRequest(int32(protocol.ReqSendBatchMessage)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.AddExt("AccessKey", "k")
			r, err := aclRequest("127.0.0.1:5555", tc.req)
			require.NoError(t, err)
			var got map[string]acl.Perm
			if r.Resources != nil {
				got = map[string]acl.Perm{}
				r.Resources.Range(func(k string, v acl.Perm) bool { got[k] = v; return true })
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, "127.0.0.1", r.RemoteAddr)
			assert.True(t, r.HasAccessKey)
		})
	}
}
