package broker

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

func (e *adminEnv) tx(slave bool) handlerTable {
	return handlers((&txHandlers{store: e.store, slave: slave, storeHost: envStoreHost, maxBodySize: 4 << 20, log: e.log}).register)
}

// putHalf stores a transactional half message for topic/queue as the send
// path does and returns its put result.
func (e *adminEnv) putHalf(t *testing.T, topic string, q int32, body string) store.PutResult {
	t.Helper()
	var p message.Properties
	p.Set(message.PropTranMsg, "true")
	p.Set(message.PropProducerGroup, "PG")
	p.Set(message.PropTags, "TagA")
	p.Set(message.PropUniqKey, "UNIQ-"+body)
	m := &store.Message{Topic: topic, QueueID: q, Body: []byte(body), Flag: 3,
		Properties:    message.AppendProperties(nil, p.HashMapOrder()),
		SysFlag:       message.SetTransactionType(0, message.TransactionPrepare),
		BornTimestamp: time.Now().UnixMilli(), BornHost: envBorn, StoreHost: envStoreHost}
	r := e.store.PutMessage(halfMessage(m))
	require.Equal(t, store.PutOK, r.Status, "%v", r.Err)
	return r
}

func endTx(half store.PutResult, group string, state int32) *wire.Command {
	return request(protocol.ReqEndTransaction, &protocol.EndTransactionRequestHeader{ProducerGroup: group,
		TranStateTableOffset: half.QueueOffset, CommitLogOffset: half.WroteOffset, CommitOrRollback: state,
		MsgId: "m", TransactionId: "t"})
}

// TestEndTransaction: a commit stores the half message in its real queue
// and marks it done in the op queue; a rollback only marks it done; wrong
// producer groups and offsets are refused with Java's remarks.
func TestEndTransaction(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicTx", 4)
	h := e.tx(false)[protocol.ReqEndTransaction]
	first := e.putHalf(t, "TopicTx", 2, "committed")
	second := e.putHalf(t, "TopicTx", 2, "rolled back")
	e.waitDispatched(t)
	require.Equal(t, int64(0), e.store.MaxOffsetInQueue("TopicTx", 2), "half messages are not in the real queue")

	resp := call(t, h, endTx(first, "OtherGroup", message.TransactionCommit))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "The producer group wrong", resp.Remark)
	wrong := first
	wrong.QueueOffset = 7
	resp = call(t, h, endTx(wrong, "PG", message.TransactionCommit))
	require.Equal(t, "The transaction state table offset wrong", resp.Remark)
	wrong = first
	wrong.WroteOffset = 1 << 40
	resp = call(t, h, endTx(wrong, "PG", message.TransactionRollback))
	require.Equal(t, "Find prepared transaction message failed", resp.Remark)

	resp = call(t, h, endTx(first, "PG", message.TransactionCommit))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	resp = call(t, h, endTx(second, "PG", message.TransactionRollback))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	e.waitDispatched(t)

	require.Equal(t, int64(1), e.store.MaxOffsetInQueue("TopicTx", 2))
	phy := e.store.CommitLogOffsetInQueue("TopicTx", 2, 0)
	rec, ok := e.store.LookMessage(phy)
	require.True(t, ok)
	require.Equal(t, "committed", string(rec.Body))
	require.Equal(t, int32(3), rec.Flag)
	require.Equal(t, message.TransactionCommit, message.TransactionType(rec.SysFlag))
	require.Equal(t, first.WroteOffset, rec.PreparedTransactionOffset)
	p := message.ParseProperties(rec.Properties)
	for k, want := range map[string]string{message.PropRealTopic: "TopicTx", message.PropRealQueueID: "2",
		message.PropTranMsg: "true", message.PropTags: "TagA", message.PropProducerGroup: "PG"} {
		got, _ := p.Get(k)
		require.Equal(t, want, got, k)
	}

	require.Equal(t, int64(2), e.store.MaxOffsetInQueue(topics.TransOpHalfTopic, 0))
	for i, want := range []string{"0", "1"} {
		op, ok := e.store.LookMessage(e.store.CommitLogOffsetInQueue(topics.TransOpHalfTopic, 0, int64(i)))
		require.True(t, ok)
		require.Equal(t, want, string(op.Body))
		require.Equal(t, "WAIT\x01true\x02TAGS\x01d", string(op.Properties)) // Java HashMap order
		require.Equal(t, envStoreHost, op.BornHost)
	}
}

// TestEndTransactionNoAnswer: a pending or unknown state gets no
// response, and a slave refuses.
func TestEndTransactionNoAnswer(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicTx", 1)
	half := e.putHalf(t, "TopicTx", 0, "pending")
	h := e.tx(false)[protocol.ReqEndTransaction]
	for _, state := range []int32{message.TransactionNotType, message.TransactionPrepare, 99} {
		resp, err := h(context.Background(), nil, frameRoundTrip(t, endTx(half, "PG", state)))
		require.NoError(t, err)
		require.Nil(t, resp, "state %d", state)
	}
	resp := call(t, e.tx(true)[protocol.ReqEndTransaction], endTx(half, "PG", message.TransactionCommit))
	require.Equal(t, int32(protocol.RespSlaveNotAvailable), resp.Code)
	e.waitDispatched(t)
	require.Equal(t, int64(0), e.store.MaxOffsetInQueue(topics.TransOpHalfTopic, 0))
}
