package broker

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/store/message"
)

func (e *adminEnv) maint() handlerTable {
	return handlers((&maintAdmin{store: e.store, topics: e.topics, log: e.log}).register)
}

// TestDelayOffsets answers ScheduleMessageService.encode(): empty until a
// level delivered something, then level → offset.
func TestDelayOffsets(t *testing.T) {
	e := newAdminEnv(t)
	h := e.maint()[protocol.ReqGetAllDelayOffset]
	resp := call(t, h, request(protocol.ReqGetAllDelayOffset, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, `{"offsetTable":{}}`, string(resp.Body))

	e.createTopic(t, "TopicDelay", 1)
	e.put(t, "TopicDelay", 0, "k", "later", message.PropDelay, "1")
	require.Eventually(t, func() bool {
		return string(call(t, h, request(protocol.ReqGetAllDelayOffset, nil)).Body) == `{"offsetTable":{1:1}}`
	}, 10*time.Second, 50*time.Millisecond)

	// The runtime info shows the level's progress as buildRunningStats
	// does: "offset,maxOffset" of its SCHEDULE_TOPIC_XXXX queue.
	resp = call(t, handlers(e.stats().register)[protocol.ReqGetBrokerRuntimeInfo], request(protocol.ReqGetBrokerRuntimeInfo, nil))
	require.Contains(t, runtimeKV(t, resp.Body), "scheduleMessageOffset_1=1,1")
}

// TestSystemTopicList pins the list to Java's HashSet of the same names.
func TestSystemTopicList(t *testing.T) {
	e := newAdminEnv(t)
	resp := call(t, e.maint()[protocol.ReqGetSystemTopicListFromBroker], request(protocol.ReqGetSystemTopicListFromBroker, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	names := []string{"TBW102", "SCHEDULE_TOPIC_XXXX", "BenchmarkTest", "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRACE_TOPIC",
		"RMQ_SYS_TRANS_OP_HALF_TOPIC", "TRANS_CHECK_MAX_TIME_TOPIC", "SELF_TEST_TOPIC", "OFFSET_MOVED_EVENT",
		"DefaultCluster", envBroker, "DefaultCluster_REPLY_TOPIC"}
	java := javaAdminBodies(t, []string{"grouplist\t" + strings.Join(names, "\t")})
	require.Equal(t, strings.Replace(java[0], `"groupList"`, `"topicList"`, 1), string(resp.Body))
}

// TestCleanUnusedTopic drops the consume queues of a topic the broker no
// longer has and keeps the others.
func TestCleanUnusedTopic(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicKeep", 1)
	e.createTopic(t, "TopicGone", 2)
	e.put(t, "TopicKeep", 0, "k", "a")
	e.put(t, "TopicGone", 1, "k", "b")
	e.waitDispatched(t)
	_, err := e.topics.Delete("TopicGone")
	require.NoError(t, err)
	resp := call(t, e.maint()[protocol.ReqCleanUnusedTopic], request(protocol.ReqCleanUnusedTopic, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Nil(t, e.store.ConsumeQueues().Get("TopicGone", 1))
	require.NotNil(t, e.store.ConsumeQueues().Get("TopicKeep", 0))
	require.Equal(t, int64(1), e.store.MaxOffsetInQueue("TopicKeep", 0))
}

// TestStoreCleanupsAnswerSuccess: cleanExpiredCQ with nothing expired
// keeps every queue, and deleteExpiredCommitLog only asks the cleaner to
// run (Java answers SUCCESS to both).
func TestStoreCleanupsAnswerSuccess(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicLive", 1)
	e.put(t, "TopicLive", 0, "k", "a")
	e.waitDispatched(t)
	ht := e.maint()
	for _, code := range []protocol.RequestCode{protocol.ReqCleanExpiredConsumequeue, protocol.ReqDeleteExpiredCommitlog} {
		resp := call(t, ht[code], request(code, nil))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, code)
	}
	require.NotNil(t, e.store.ConsumeQueues().Get("TopicLive", 0))
	require.Equal(t, int64(1), e.store.MaxOffsetInQueue("TopicLive", 0))
}
