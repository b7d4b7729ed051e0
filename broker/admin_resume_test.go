package broker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// TestResumeCheckHalfMessage: the message the id names is written again at
// the end of half queue 0 with TRANSACTION_CHECK_TIMES 0 and everything
// else as stored; an id that names no message, or no id at all, answers
// Java's SYSTEM_ERROR remark.
func TestResumeCheckHalfMessage(t *testing.T) {
	e := newAdminEnv(t)
	first := e.put(t, store.TransHalfTopic, 0, "k1", "half body", message.PropRealTopic, "TopicTx",
		message.PropRealQueueID, "2", message.PropTransactionCheckTimes, "15", message.PropProducerGroup, "PG")
	ht := handlers((&halfAdmin{store: e.store, log: e.log}).register)
	resume := func(id string) (int32, string) {
		resp := call(t, ht[protocol.ReqResumeCheckHalfMessage], request(protocol.ReqResumeCheckHalfMessage,
			&protocol.ResumeCheckHalfMessageRequestHeader{MsgId: id}))
		return resp.Code, resp.Remark
	}
	code, remark := resume(first.MsgID(envStoreHost))
	require.Equal(t, int32(protocol.RespSuccess), code, remark)

	e.waitDispatched(t)
	res, err := e.store.GetMessage("G", store.TransHalfTopic, 0, 1, 1, nil)
	require.NoError(t, err)
	defer res.Release()
	require.Len(t, res.Messages, 1)
	copied, err := message.DecodeRecord(res.Messages[0].B, true)
	require.NoError(t, err)
	orig, ok := e.store.LookMessage(first.WroteOffset)
	require.True(t, ok)

	want := message.ParseProperties(orig.Properties)
	want.Set(message.PropTransactionCheckTimes, "0")
	require.Equal(t, string(message.AppendProperties(nil, want.HashMapOrder())), string(copied.Properties))
	require.Equal(t, orig.Body, copied.Body)
	require.Equal(t, orig.SysFlag, copied.SysFlag)
	require.Equal(t, orig.BornTimestamp, copied.BornTimestamp)
	require.Equal(t, orig.BornHost, copied.BornHost)
	require.Equal(t, orig.StoreHost, copied.StoreHost)
	require.Equal(t, store.TransHalfTopic, copied.Topic)
	require.Zero(t, copied.QueueID)

	for _, id := range []string{"", "not-an-id", message.OffsetMsgID(envStoreHost, first.WroteOffset+1<<30)} {
		code, remark = resume(id)
		require.Equal(t, int32(protocol.RespSystemError), code, id)
		require.Equal(t, remarkResumeException, remark, id)
	}
}
