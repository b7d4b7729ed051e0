package broker

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

func (e *adminEnv) sendBack(perm int32) handlerTable {
	h := &sendBackHandlers{store: e.store, topics: e.topics, groups: e.groups, brokerIP1: "10.1.1.1",
		brokerPermission: func() int32 { return perm }, log: e.log, rand: func(n int32) int32 { return n - 1 }}
	return handlers(h.register)
}

// lastIn returns the record at the end of a queue.
func (e *adminEnv) lastIn(t *testing.T, topic string, q int32) message.Record {
	t.Helper()
	e.waitDispatched(t)
	maxOff := e.store.MaxOffsetInQueue(topic, q)
	require.Positive(t, maxOff, "queue %s:%d is empty", topic, q)
	rec, ok := e.store.LookMessage(e.store.CommitLogOffsetInQueue(topic, q, maxOff-1))
	require.True(t, ok)
	return rec
}

func sendBackReq(offset int64, group string, delay int32, maxTimes *int32) *wire.Command {
	hdr := &protocol.ConsumerSendMsgBackRequestHeader{Offset: offset, Group: group, DelayLevel: delay, OriginTopic: "TopicO"}
	if maxTimes != nil {
		hdr.MaxReconsumeTimes = protocol.Opt[int32]{Value: *maxTimes, Valid: true}
	}
	return request(protocol.ReqConsumerSendMsgBack, hdr)
}

func props(t *testing.T, rec message.Record) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range message.ParseProperties(rec.Properties) {
		out[p.Key] = p.Value
	}
	return out
}

// TestSendBackRetryChain follows one message through two retries and into
// the DLQ (Java 4.9.8: SendMessageProcessor.asyncConsumerSendMsgBack).
func TestSendBackRetryChain(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicO", 1)
	orig := e.put(t, "TopicO", 0, "key1", "payload", message.PropTags, "TagA")
	e.waitDispatched(t)
	ht := e.sendBack(topics.PermRW)[protocol.ReqConsumerSendMsgBack]
	origID := message.OffsetMsgID(envStoreHost, orig.WroteOffset)

	// First failure: delay level 3, parked in the schedule topic's queue 2.
	resp := call(t, ht, sendBackReq(orig.WroteOffset, "GroupR", 0, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	retry1 := e.lastIn(t, store.ScheduleTopic, 2)
	p := props(t, retry1)
	require.Equal(t, map[string]string{
		"KEYS": "key1", "TAGS": "TagA", "UNIQ_KEY": p["UNIQ_KEY"], "RETRY_TOPIC": "TopicO", "WAIT": "false",
		"DELAY": "3", "ORIGIN_MESSAGE_ID": origID, "REAL_TOPIC": "%RETRY%GroupR", "REAL_QID": "0",
	}, p)
	require.Equal(t, int32(1), retry1.ReconsumeTimes)
	require.Equal(t, "payload", string(retry1.Body))
	require.Equal(t, envBorn, retry1.BornHost)
	tc, ok := e.topics.Select("%RETRY%GroupR")
	require.True(t, ok)
	require.Equal(t, int32(1), tc.ReadQueueNums)

	// Second failure of the retried copy: level 3+1, origin id and first
	// topic kept.
	resp = call(t, ht, sendBackReq(retry1.PhysicalOffset, "GroupR", 0, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	retry2 := e.lastIn(t, store.ScheduleTopic, 3)
	p = props(t, retry2)
	require.Equal(t, "4", p["DELAY"])
	require.Equal(t, origID, p["ORIGIN_MESSAGE_ID"])
	require.Equal(t, "TopicO", p["RETRY_TOPIC"])
	require.Equal(t, int32(2), retry2.ReconsumeTimes)

	// The client's maxReconsumeTimes (version ≥ V3_4_9) sends it to the DLQ.
	two := int32(2)
	req := sendBackReq(retry2.PhysicalOffset, "GroupR", 0, &two)
	req.Version = wire.VersionV3_4_9
	resp = call(t, ht, req)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	dlq := e.lastIn(t, "%DLQ%GroupR", 0)
	p = props(t, dlq)
	require.Equal(t, "0", p["DELAY"])
	require.Equal(t, origID, p["ORIGIN_MESSAGE_ID"])
	require.Equal(t, int32(3), dlq.ReconsumeTimes)
	// The looked-up copy's REAL_TOPIC travels along, as in Java (the
	// schedule service also keeps it when it delivers a retry).
	require.Equal(t, "%RETRY%GroupR", p["REAL_TOPIC"])
}

func TestSendBackExplicitLevelsAndDLQ(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicO", 1)
	orig := e.put(t, "TopicO", 0, "k", "x")
	e.waitDispatched(t)
	ht := e.sendBack(topics.PermRW)[protocol.ReqConsumerSendMsgBack]

	resp := call(t, ht, sendBackReq(orig.WroteOffset, "GroupL", 5, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, "5", props(t, e.lastIn(t, store.ScheduleTopic, 4))["DELAY"])

	// A negative level goes straight to the DLQ.
	resp = call(t, ht, sendBackReq(orig.WroteOffset, "GroupL", -1, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	dlq := e.lastIn(t, "%DLQ%GroupL", 0)
	require.Equal(t, int32(1), dlq.ReconsumeTimes)
	require.Equal(t, "TopicO", props(t, dlq)["RETRY_TOPIC"])

	// An old client's maxReconsumeTimes is ignored (version < V3_4_9).
	zero := int32(0)
	req := sendBackReq(orig.WroteOffset, "GroupL", 0, &zero)
	req.Version = wire.VersionV3_4_9 - 1
	resp = call(t, ht, req)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, "3", props(t, e.lastIn(t, store.ScheduleTopic, 2))["DELAY"])
}

func TestSendBackRefusals(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicO", 1)
	orig := e.put(t, "TopicO", 0, "k", "x")
	e.waitDispatched(t)
	e.groups.SetAutoCreate(false)
	noRetry := config.NewSubscriptionGroupConfig("NoRetry")
	noRetry.RetryQueueNums = 0
	require.NoError(t, e.groups.Update(noRetry))
	require.NoError(t, e.groups.Update(config.NewSubscriptionGroupConfig("Known")))
	roRetry := config.NewTopicConfig("%RETRY%ReadOnly")
	roRetry.Perm = topics.PermRead
	require.NoError(t, e.topics.Update(roRetry))
	require.NoError(t, e.groups.Update(config.NewSubscriptionGroupConfig("ReadOnly")))

	for _, tc := range []struct {
		name   string
		perm   int32
		offset int64
		group  string
		code   protocol.ResponseCode
		remark string
	}{
		{"unknown group", topics.PermRW, orig.WroteOffset, "Unknown", protocol.RespSubscriptionGroupNotExist,
			"subscription group not exist, Unknown " + protocol.FAQSuggestTodo},
		{"broker not writeable", topics.PermRead, orig.WroteOffset, "Known", protocol.RespNoPermission,
			"the broker[10.1.1.1] sending message is forbidden"},
		{"no retry queues", topics.PermRW, orig.WroteOffset, "NoRetry", protocol.RespSuccess, ""},
		{"retry topic not writeable", topics.PermRW, orig.WroteOffset, "ReadOnly", protocol.RespNoPermission,
			"the topic[%RETRY%ReadOnly] sending message is forbidden"},
		{"bad offset", topics.PermRW, 1 << 40, "Known", protocol.RespSystemError, "look message by offset failed, " + strconv.FormatInt(1<<40, 10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := call(t, e.sendBack(tc.perm)[protocol.ReqConsumerSendMsgBack], sendBackReq(tc.offset, tc.group, 0, nil))
			require.Equal(t, int32(tc.code), resp.Code)
			require.Equal(t, tc.remark, resp.Remark)
		})
	}
	e.waitDispatched(t)
	require.Zero(t, e.store.MaxOffsetInQueue(store.ScheduleTopic, 2), "nothing was stored")
	_, ok := e.topics.Select("%RETRY%NoRetry")
	require.False(t, ok)
}

func TestSendBackBadHeader(t *testing.T) {
	e := newAdminEnv(t)
	req := wire.NewRequest(int32(protocol.ReqConsumerSendMsgBack))
	req.AddExt("group", "G")
	callErr(t, e.sendBack(topics.PermRW)[protocol.ReqConsumerSendMsgBack], req)
}
