package broker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

// lmqPull is a PULL_MESSAGE of an LMQ group on queue 0 of an LMQ topic.
func lmqPull(t *testing.T, topic, group string, offset, suspendMs int64) *wire.Command {
	req := pull(topic, 0, offset, suspendMs, "*")
	var h protocol.PullMessageRequestHeader
	require.NoError(t, h.DecodeFrom(req))
	h.ConsumerGroup = group
	h.EncodeTo(req)
	return req
}

// Java 4.9.8 with enableMultiDispatch and enableLmq: a message naming
// light message queues in INNER_MULTI_DISPATCH is also dispatched to
// queue 0 of each (its INNER_MULTI_QUEUE_OFFSET lists its offsets there);
// LMQ topics and groups need no configuration, a pull suspended on an LMQ
// is woken by a message dispatched to it, and LMQ groups' offsets are kept
// per topic@group in lmqConsumerOffset.json.
func TestLmqSendPullOffsets(t *testing.T) {
	b, cl := startBroker(t, "enableMultiDispatch=true", "enableLmq=true", "autoCreateSubscriptionGroup=false")
	addr := b.Addr()
	multi := func(queues string) message.Properties {
		return message.Properties{{Key: message.PropInnerMultiDispatch, Value: queues}}
	}
	for i, queues := range []string{"%LMQ%a,%LMQ%b", "%LMQ%a"} {
		resp := invoke(t, cl, addr, sendProps("LmqParent", "m"+string(rune('0'+i)), multi(queues)))
		require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	}
	dispatched(t, b, "%LMQ%a", 0, 2)
	dispatched(t, b, "%LMQ%b", 0, 1)

	resp := invoke(t, cl, addr, lmqPull(t, "%LMQ%a", "%LMQ%g", 0, 0))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	require.Equal(t, []string{"m0", "m1"}, pulledBodies(t, resp))
	rec, err := message.DecodeRecord(resp.Body, true)
	require.NoError(t, err)
	require.Equal(t, "LmqParent", rec.Topic, "the record is the parent topic's")
	offsets, ok := message.ParseProperties(rec.Properties).Get(message.PropInnerMultiQueueOffset)
	require.True(t, ok)
	require.Equal(t, "0,0", offsets)

	held := make(chan *wire.Command, 1)
	go func() {
		resp, err := cl.InvokeSync(t.Context(), addr, lmqPull(t, "%LMQ%b", "%LMQ%g", 1, 10_000))
		if err == nil {
			held <- resp
		}
		close(held)
	}()
	require.Eventually(t, func() bool { return b.hold.Len() > 0 }, 5e9, 1e6, "the pull is suspended")
	resp = invoke(t, cl, addr, sendProps("LmqParent", "m2", multi("%LMQ%b")))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	woken := <-held
	require.NotNil(t, woken)
	require.EqualValues(t, protocol.RespSuccess, woken.Code, woken.Remark)
	require.Equal(t, []string{"m2"}, pulledBodies(t, woken))

	up := wire.NewRequest(int32(protocol.ReqUpdateConsumerOffset))
	(&protocol.UpdateConsumerOffsetRequestHeader{ConsumerGroup: "%LMQ%g", Topic: "%LMQ%a", QueueId: 0, CommitOffset: 2}).EncodeTo(up)
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, up).Code)
	co := wire.NewRequest(int32(protocol.ReqQueryConsumerOffset))
	(&protocol.QueryConsumerOffsetRequestHeader{ConsumerGroup: "%LMQ%g", Topic: "%LMQ%a", QueueId: 0}).EncodeTo(co)
	resp = invoke(t, cl, addr, co)
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	var oh protocol.QueryConsumerOffsetResponseHeader
	require.NoError(t, oh.DecodeFrom(resp))
	require.EqualValues(t, 2, oh.Offset)

	require.NoError(t, b.offsets.Persist())
	root := b.cfg.Store.StorePathRootDir
	data, err := os.ReadFile(config.LmqConsumerOffsetPath(root))
	require.NoError(t, err)
	require.Contains(t, string(data), `"%LMQ%a@%LMQ%g":2`)
	_, err = os.Stat(filepath.Join(root, "config", "consumerOffset.json"))
	require.True(t, os.IsNotExist(err), "with enableLmq Java writes lmqConsumerOffset.json only")
}

// DELETE_TOPIC_IN_BROKER of an LMQ drops its queue
// (DefaultMessageStore.cleanUnusedLmqTopic); cleanUnusedTopic keeps LMQs.
func TestLmqDeleteTopic(t *testing.T) {
	b, cl := startBroker(t, "enableMultiDispatch=true", "enableLmq=true")
	addr := b.Addr()
	resp := invoke(t, cl, addr, sendProps("LmqParent", "m", message.Properties{{Key: message.PropInnerMultiDispatch, Value: "%LMQ%x,%LMQ%y"}}))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	dispatched(t, b, "%LMQ%x", 0, 1)
	dispatched(t, b, "%LMQ%y", 0, 1)

	clean := wire.NewRequest(int32(protocol.ReqCleanUnusedTopic))
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, clean).Code)
	require.EqualValues(t, 1, b.store.MaxOffsetInQueue("%LMQ%x", 0), "cleanUnusedTopic leaves LMQs")

	del := wire.NewRequest(int32(protocol.ReqDeleteTopicInBroker))
	(&protocol.DeleteTopicRequestHeader{Topic: "%LMQ%x"}).EncodeTo(del)
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, del).Code)
	require.EqualValues(t, 0, b.store.MaxOffsetInQueue("%LMQ%x", 0), "the LMQ's queue is gone")
	require.EqualValues(t, 1, b.store.MaxOffsetInQueue("%LMQ%y", 0))
	require.EqualValues(t, 1, b.store.MaxOffsetInQueue("LmqParent", 0))
}
