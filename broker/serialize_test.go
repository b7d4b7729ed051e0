package broker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// Java 4.9.8 answers in the request's serialize type through the request's
// callback, and in the server's configured type (JSON here) where it writes
// the answer itself: a held pull whose hold ends
// (PullMessageProcessor.executeRequestWhenWakeup), a found message by id
// (QueryMessageProcessor's FileRegion), a processor's exception. Unknown
// codes go to the default processor (AdminBrokerProcessor), through the
// callback. Conformance: broker/raw/rocketmq-serialize.
func TestAnswerSerializeTypes(t *testing.T) {
	b, _ := startBroker(t)
	cl := remoting.NewClient(remoting.ClientConfig{Serialize: wire.SerializeRocketMQ})
	t.Cleanup(func() { _ = cl.Close() })
	addr := b.Addr()

	sent := invoke(t, cl, addr, sendV2("SerTopic", 0, "x", "t"))
	require.EqualValues(t, protocol.RespSuccess, sent.Code, sent.Remark)
	require.Equal(t, wire.SerializeRocketMQ, sent.Serialize)
	dispatched(t, b, "SerTopic", 0, 1)
	id, _ := sent.ExtValue("msgId")
	_, offset, err := message.ParseOffsetMsgID(id)
	require.NoError(t, err)

	noTopic := sendV2("", 0, "x", "t")
	view := wire.NewRequest(int32(protocol.ReqViewMessageById))
	(&protocol.ViewMessageRequestHeader{Offset: offset}).EncodeTo(view)
	maxNoTopic := wire.NewRequest(int32(protocol.ReqGetMaxOffset))
	maxNoTopic.AddExt("queueId", "0")
	for _, tc := range []struct {
		name   string
		req    *wire.Command
		code   protocol.ResponseCode
		remark string
		want   wire.SerializeType
	}{
		{"found pull", pull("SerTopic", 0, 0, 0, "*"), protocol.RespSuccess, "FOUND", wire.SerializeRocketMQ},
		{"held pull ends", pull("SerTopic", 1, 0, 100, "*"), protocol.RespPullNotFound, "", wire.SerializeJSON},
		{"found by id", view, protocol.RespSuccess, "", wire.SerializeJSON},
		{"unknown code", wire.NewRequest(9999), protocol.RespRequestCodeNotSupported, " request type 9999 not supported", wire.SerializeRocketMQ},
		{"send without a topic", noTopic, protocol.RespSystemError, "The specified topic is blank.", wire.SerializeRocketMQ},
		{"max offset without a topic", maxNoTopic, protocol.RespSystemError, "the custom field <topic> is null", wire.SerializeJSON},
	} {
		resp := invoke(t, cl, addr, tc.req)
		require.EqualValues(t, tc.code, resp.Code, "%s: %s", tc.name, resp.Remark)
		if tc.remark != "" {
			require.Equal(t, tc.remark, resp.Remark, tc.name)
		}
		require.Equal(t, tc.want, resp.Serialize, tc.name)
	}
}

// With transferMsgByHeap=false Java writes a found pull as a FileRegion,
// its header in the server's serialize type.
func TestPullSerializeWithoutHeapTransfer(t *testing.T) {
	b, _ := startBroker(t, "transferMsgByHeap=false")
	cl := remoting.NewClient(remoting.ClientConfig{Serialize: wire.SerializeRocketMQ})
	t.Cleanup(func() { _ = cl.Close() })
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, b.Addr(), sendV2("SerTopic", 0, "x", "t")).Code)
	dispatched(t, b, "SerTopic", 0, 1)
	resp := invoke(t, cl, b.Addr(), pull("SerTopic", 0, 0, 0, "*"))
	require.EqualValues(t, protocol.RespSuccess, resp.Code)
	require.Equal(t, wire.SerializeJSON, resp.Serialize)
}
