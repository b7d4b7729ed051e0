package clients

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
)

type retryTopic struct {
	topic                 string
	queues, perm, sysFlag int32
}

type harness struct {
	clk     *clock
	h       *Handlers
	ev      *events
	created []retryTopic
	groups  *groups
	filter  bool
}

func newHarness(t *testing.T) *harness {
	x := &harness{clk: newClock(), ev: &events{}, groups: &groups{table: map[string]config.SubscriptionGroupConfig{}}}
	log := quietLog()
	x.h = &Handlers{
		Producers: NewProducerManager(x.clk.now, log),
		Consumers: NewConsumerManager(x.clk.now, log, x.ev.listener),
		Locks:     NewRebalanceLockManager(x.clk.now, log, 0),
		Groups:    x.groups,
		CreateRetryTopic: func(topic string, q, perm, flag int32) {
			x.created = append(x.created, retryTopic{topic, q, perm, flag})
		},
		EnablePropertyFilter: func() bool { return x.filter },
		Now:                  x.clk.now,
		Log:                  log,
	}
	return x
}

// javaFrame decodes a frame the Java 4.9.8 RemotingCommand encoded
// (compat/testdata/frames/java).
func javaFrame(t *testing.T, name string) *wire.Command {
	raw, err := os.ReadFile(filepath.Join(oracle.Root(), "compat/testdata/frames/java", name))
	require.NoError(t, err)
	frame, err := hex.DecodeString(strings.Join(strings.Fields(string(raw)), ""))
	require.NoError(t, err)
	cmd, err := wire.Decode(frame[4:])
	require.NoError(t, err)
	return cmd
}

// goRequest builds a request as client-go v2.1.2 does: language GO,
// version 317, flag 0, JSON header.
func goRequest(code protocol.RequestCode, bodyFile string, ext ...string) *wire.Command {
	req := wire.NewRequest(int32(code))
	req.Language, req.Version = wire.LanguageGo, 317
	for i := 0; i+1 < len(ext); i += 2 {
		req.AddExt(ext[i], ext[i+1])
	}
	if bodyFile != "" {
		data, err := os.ReadFile(filepath.Join(oracle.Root(), "broker/body/testdata/cases", bodyFile))
		if err != nil {
			panic(err)
		}
		req.Body = data
	}
	return req
}

func requireCode(t *testing.T, resp *wire.Command, err error, code protocol.ResponseCode, remark string) {
	t.Helper()
	if code == protocol.RespSuccess {
		require.NoError(t, err)
		require.Equal(t, int32(0), resp.Code)
		return
	}
	pe, ok := protocol.AsError(err)
	require.True(t, ok, "want protocol error %v, got %v", code, err)
	require.Equal(t, code, pe.Code)
	require.Equal(t, remark, pe.Remark)
}

// Java 4.9.8: ClientManageProcessor.heartBeat with the Java client's frame.
func TestHeartBeatJavaFrame(t *testing.T) {
	x := newHarness(t)
	x.groups.table["CG"] = config.NewSubscriptionGroupConfig("CG")
	ch := newChan("127.0.0.1:5000")
	req := javaFrame(t, "heartbeat_request.json.hex")
	require.Equal(t, int32(34), req.Code)

	resp, err := x.h.HeartBeat(ch, req)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Empty(t, resp.Body)
	require.Equal(t, int32(409), resp.Version, "Java reads the broker version from here")
	require.Equal(t, []retryTopic{{"%RETRY%CG", 1, 6, 0}}, x.created)

	g, ok := x.h.Consumers.Group("CG")
	require.True(t, ok)
	require.Equal(t, []string{"127.0.0.1@12345"}, g.ClientIDs())
	require.Equal(t, wire.LanguageJava, g.Channels[0].Language)
	require.Equal(t, int32(409), g.Channels[0].Version)
	require.Equal(t, body.ConsumePassively, g.ConsumeType)
	s, ok := x.h.Consumers.FindSubscription("CG", "TopicTest")
	require.True(t, ok)
	require.Equal(t, []string{"TagA", "TagB"}, s.TagsSet)
	require.Equal(t, int64(1700000000001), s.SubVersion)
	_, ok = x.h.Consumers.FindSubscription("CG", "%RETRY%CG")
	require.True(t, ok)
	conns, ok := x.h.Producers.Connections("PG")
	require.True(t, ok)
	require.Len(t, conns, 1)
	evs := x.ev.take()
	require.Len(t, evs, 2)
	require.Equal(t, EventChange, evs[0].Event)
	require.Equal(t, EventRegister, evs[1].Event)

	// The same heartbeat again changes nothing.
	_, err = x.h.HeartBeat(ch, req)
	require.NoError(t, err)
	require.Len(t, x.ev.take(), 1)
}

// client-go v2.1.2 heartbeat (internal/model.go): codeSet as strings,
// nanosecond subVersion; no group config ⇒ no retry topic, notify on.
func TestHeartBeatClientGo(t *testing.T) {
	x := newHarness(t)
	ch := newChan("10.0.0.7:6000")
	resp, err := x.h.HeartBeat(ch, goRequest(protocol.ReqHeartBeat, "HeartbeatData.clientgo.json"))
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Empty(t, x.created)
	g, ok := x.h.Consumers.Group("GG")
	require.True(t, ok)
	require.Equal(t, wire.LanguageGo, g.Channels[0].Language)
	require.Equal(t, body.ConsumeFromFirstOffset, g.ConsumeFromWhere)
	s, ok := x.h.Consumers.FindSubscription("GG", "T1")
	require.True(t, ok)
	require.Equal(t, []int32{97, 98, 99}, s.CodeSet)
	require.Equal(t, 3, x.h.Consumers.SubscriptionCount("GG"))

	// Unit mode with an auto-created group ⇒ retry topic with FLAG_UNIT_SUB.
	x.groups.autoCreate = true
	req := goRequest(protocol.ReqHeartBeat, "")
	req.Body = []byte(`{"clientID":"c","consumerDataSet":[{"groupName":"U","unitMode":true,"subscriptionDataSet":[]}]}`)
	_, err = x.h.HeartBeat(ch, req)
	require.NoError(t, err)
	require.Equal(t, []retryTopic{{"%RETRY%U", 1, 6, 2}}, x.created)
}

func TestHeartBeatBadBodies(t *testing.T) {
	x := newHarness(t)
	ch := newChan("a:1")
	for _, b := range []string{"", "{", `{"clientID":"c","consumerDataSet":[{"consumeType":9}]}`,
		`{"producerDataSet":[{"groupName":"P"}]}`, `{"clientID":"c","consumerDataSet":[{}]}`} {
		req := goRequest(protocol.ReqHeartBeat, "")
		req.Body = []byte(b)
		_, err := x.h.HeartBeat(ch, req)
		require.Error(t, err, b)
		_, isProto := protocol.AsError(err)
		require.False(t, isProto, "a Java exception becomes SYSTEM_ERROR at the remoting layer: %s", b)
	}
}

// Java 4.9.8: ClientManageProcessor.unregisterClient.
func TestUnregisterClient(t *testing.T) {
	x := newHarness(t)
	x.groups.table["CG"] = config.NewSubscriptionGroupConfig("CG")
	ch := newChan("127.0.0.1:5000")
	_, err := x.h.HeartBeat(ch, javaFrame(t, "heartbeat_request.json.hex"))
	require.NoError(t, err)
	x.ev.take()

	req := goRequest(protocol.ReqUnregisterClient, "", "clientID", "127.0.0.1@12345", "producerGroup", "PG", "consumerGroup", "CG")
	resp, err := x.h.UnregisterClient(ch, req)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	_, ok := x.h.Producers.Connections("PG")
	require.False(t, ok)
	_, ok = x.h.Consumers.Group("CG")
	require.False(t, ok)
	require.Equal(t, []GroupEvent{{Event: EventUnregister, Group: "CG"}, {Event: EventChange, Group: "CG"}}, x.ev.take())
}

// A heartbeat handled after its connection closed registers nothing. Its
// frame was read before the close, but the close event has already
// emptied the tables of the channel, and no later event would remove it:
// Java 4.9.8 registers it and keeps it until the 120 s scan, so a
// consumer group's rebalance counts a client that is gone and leaves its
// share of the queues unconsumed until then (seen with client-go
// consumers that shut down right after a heartbeat).
func TestHeartBeatAfterCloseRegistersNothing(t *testing.T) {
	x := newHarness(t)
	ch := newChan("127.0.0.1:5000")
	_, err := x.h.HeartBeat(ch, javaFrame(t, "heartbeat_request.json.hex"))
	require.NoError(t, err)
	x.ev.take()
	require.NoError(t, ch.Close())
	x.h.Consumers.ChannelClosed(ch)
	x.h.Producers.ChannelClosed(ch)
	x.ev.take()

	resp, err := x.h.HeartBeat(ch, javaFrame(t, "heartbeat_request.json.hex"))
	requireCode(t, resp, err, protocol.RespSuccess, "")
	_, ok := x.h.Consumers.Group("CG")
	require.False(t, ok, "a closed channel joined the consumer group")
	infos, _ := x.h.Producers.Connections("PG")
	require.Empty(t, infos, "a closed channel joined the producer group")
	_, ok = x.h.Producers.FindChannel("127.0.0.1@12345")
	require.False(t, ok)
	require.Empty(t, x.ev.take(), "no event for a closed channel")
}

// Java 4.9.8: ClientManageProcessor.checkClientConfig.
func TestCheckClientConfig(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		filter bool
		code   protocol.ResponseCode
		remark string
	}{
		{"SQL92 with property filter off", "CheckClientRequestBody.sql.json", false, protocol.RespSystemError,
			"The broker does not support consumer to filter message by SQL92"},
		{"SQL92 with property filter on", "CheckClientRequestBody.sql.json", true, protocol.RespSuccess, ""},
		{"no subscription", "CheckClientRequestBody.nosub.json", false, protocol.RespSuccess, ""},
		{"null subscription", "CheckClientRequestBody.sub_null.json", false, protocol.RespSuccess, ""},
	}
	for _, tt := range tests {
		x := newHarness(t)
		x.filter = tt.filter
		resp, err := x.h.CheckClientConfig(newChan("a:1"), goRequest(protocol.ReqCheckClientConfig, tt.file))
		requireCode(t, resp, err, tt.code, tt.remark)
	}
	x := newHarness(t)
	req := goRequest(protocol.ReqCheckClientConfig, "")
	req.Body = []byte(`{"subscriptionData":{"topic":"T","expressionType":"TAG","subString":"a||b"}}`)
	resp, err := x.h.CheckClientConfig(newChan("a:1"), req)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	x.filter = true
	req.Body = []byte(`{"subscriptionData":{"topic":"T","expressionType":"BOGUS","subString":"x"}}`)
	resp, err = x.h.CheckClientConfig(newChan("a:1"), req)
	requireCode(t, resp, err, protocol.RespSubscriptionParseFailed, "no filter for the expression type BOGUS")
}

// Java 4.9.8: ConsumerManageProcessor.getConsumerListByGroup.
func TestGetConsumerListByGroup(t *testing.T) {
	x := newHarness(t)
	req := goRequest(protocol.ReqGetConsumerListByGroup, "", "consumerGroup", "GG")
	resp, err := x.h.GetConsumerListByGroup(newChan("a:1"), req)
	requireCode(t, resp, err, protocol.RespSystemError, "no consumer for this group, GG")

	_, err = x.h.HeartBeat(newChan("a:1"), goRequest(protocol.ReqHeartBeat, "HeartbeatData.clientgo.json"))
	require.NoError(t, err)
	resp, err = x.h.GetConsumerListByGroup(newChan("a:1"), req)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Equal(t, `{"consumerIdList":["10.0.0.7@4242#1700000000123456789"]}`, string(resp.Body))
}

// Java 4.9.8: AdminBrokerProcessor.lockBatchMQ / unlockBatchMQ with
// client-go's and Java's bodies.
func TestLockUnlockBatchMQ(t *testing.T) {
	x := newHarness(t)
	resp, err := x.h.LockBatchMQ(newChan("a:1"), goRequest(protocol.ReqLockBatchMq, "LockBatchRequestBody.clientgo.json"))
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Equal(t, `{"lockOKMQSet":[{"brokerName":"b","queueId":0,"topic":"T"},{"brokerName":"b","queueId":1,"topic":"T"}]}`,
		string(resp.Body))
	other := goRequest(protocol.ReqLockBatchMq, "")
	other.Body = []byte(`{"clientId":"other","consumerGroup":"G1","mqSet":[{"topic":"T","brokerName":"b","queueId":1},{"topic":"T","brokerName":"b","queueId":2}]}`)
	resp, err = x.h.LockBatchMQ(newChan("b:1"), other)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Equal(t, `{"lockOKMQSet":[{"brokerName":"b","queueId":2,"topic":"T"}]}`, string(resp.Body))

	resp, err = x.h.UnlockBatchMQ(newChan("a:1"), goRequest(protocol.ReqUnlockBatchMq, "LockBatchRequestBody.clientgo.json"))
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Empty(t, resp.Body)
	resp, err = x.h.LockBatchMQ(newChan("b:1"), other)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Equal(t, `{"lockOKMQSet":[{"brokerName":"b","queueId":1,"topic":"T"},{"brokerName":"b","queueId":2,"topic":"T"}]}`,
		string(resp.Body))

	empty := goRequest(protocol.ReqLockBatchMq, "")
	_, err = x.h.LockBatchMQ(newChan("b:1"), empty)
	require.Error(t, err)

	// unlockBatch: mqLockTable.get(null) throws; a null mqSet throws only
	// for a group that has held locks (conformance broker/errors/body-and-admin-requests).
	for _, c := range []struct {
		body string
		ok   bool
	}{{`{}`, false}, {`{"consumerGroup":"G1","mqSet":null}`, false}, {`{"consumerGroup":"NeverLocked","mqSet":null}`, true}, {`{"consumerGroup":"G1"}`, true}} {
		unlock := goRequest(protocol.ReqUnlockBatchMq, "")
		unlock.Body = []byte(c.body)
		_, err = x.h.UnlockBatchMQ(newChan("b:1"), unlock)
		require.Equal(t, c.ok, err == nil, c.body)
	}
}

// Java 4.9.8: AdminBrokerProcessor.getConsumerConnectionList /
// getProducerConnectionList.
func TestConnectionLists(t *testing.T) {
	x := newHarness(t)
	req := goRequest(protocol.ReqGetConsumerConnectionList, "", "consumerGroup", "CG")
	resp, err := x.h.GetConsumerConnectionList(newChan("a:1"), req)
	requireCode(t, resp, err, protocol.RespConsumerNotOnline, "the consumer group[CG] not online")
	preq := goRequest(protocol.ReqGetProducerConnectionList, "", "producerGroup", "PG")
	resp, err = x.h.GetProducerConnectionList(newChan("a:1"), preq)
	requireCode(t, resp, err, protocol.RespSystemError, "the producer group[PG] not exist")

	_, err = x.h.HeartBeat(newChan("127.0.0.1:5000"), javaFrame(t, "heartbeat_request.json.hex"))
	require.NoError(t, err)
	resp, err = x.h.GetConsumerConnectionList(newChan("a:1"), req)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Equal(t, `{"connectionSet":[{"clientAddr":"127.0.0.1:5000","clientId":"127.0.0.1@12345","language":"JAVA","version":409}],`+
		`"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING",`+
		`"subscriptionTable":{"%RETRY%CG":{"classFilterMode":false,"codeSet":[],"expressionType":"TAG","subString":"*","subVersion":1700000000002,"tagsSet":[],"topic":"%RETRY%CG"},`+
		`"TopicTest":{"classFilterMode":false,"codeSet":[2598919,2598920],"expressionType":"TAG","subString":"TagA || TagB","subVersion":1700000000001,"tagsSet":["TagA","TagB"],"topic":"TopicTest"}}}`,
		string(resp.Body))
	resp, err = x.h.GetProducerConnectionList(newChan("a:1"), preq)
	requireCode(t, resp, err, protocol.RespSuccess, "")
	require.Equal(t, `{"connectionSet":[{"clientAddr":"127.0.0.1:5000","clientId":"127.0.0.1@12345","language":"JAVA","version":409}]}`,
		string(resp.Body))
}
