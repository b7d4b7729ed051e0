package compat_test

import (
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// goldenProperties is Frames.PROPERTIES of the Java oracle.
const goldenProperties = "KEYS\x01k1\x02TAGS\x01TagA\x02UNIQ_KEY\x017F0000010001000000000000000000AB\x02WAIT\x01true\x02"

// typedCommands builds, the way Sputnik's handlers and clients do
// (NewRequest or NewResponse, AddExt, then a typed header's EncodeTo), the
// commands of Java's golden frames (compat/java Frames) that carry a
// header, keyed by scenario name.
func typedCommands(st wire.SerializeType) map[string]*wire.Command {
	request := func(code protocol.RequestCode, opaque int32, h protocol.Header) *wire.Command {
		c := wire.NewRequest(int32(code))
		c.Opaque, c.Serialize = opaque, st
		h.EncodeTo(c)
		return c
	}
	response := func(opaque int32, remark string) *wire.Command {
		return wire.NewResponse(&wire.Command{Opaque: opaque, Serialize: st}, 0, remark)
	}
	v1 := &protocol.SendMessageRequestHeader{
		ProducerGroup: protocol.Some("PG"), Topic: "TopicTest", DefaultTopic: protocol.Some("TBW102"),
		DefaultTopicQueueNums: protocol.Some[int32](4), QueueId: 1, BornTimestamp: 1700000000000,
		Properties: goldenProperties, ReconsumeTimes: protocol.Some[int32](0),
	}
	v2 := &protocol.SendMessageRequestHeaderV2{
		ProducerGroup: protocol.Some("PG"), Topic: "TopicTest", DefaultTopic: protocol.Some("TBW102"),
		DefaultTopicQueueNums: protocol.Some[int32](4), QueueId: 1, BornTimestamp: 1700000000000,
		Properties: goldenProperties, ReconsumeTimes: protocol.Some[int32](0),
	}
	out := map[string]*wire.Command{}
	out["send_v1_request"] = request(protocol.ReqSendMessage, 103, v1)
	out["send_v1_request"].Body = []byte("hello")
	out["send_v2_request"] = request(protocol.ReqSendMessageV2, 101, v2)
	out["send_v2_request"].Body = []byte("hello")

	sent := response(7, "")
	sent.AddExt("MSG_REGION", "DefaultRegion") // the send processor adds these first
	sent.AddExt("TRACE_ON", "true")
	(&protocol.SendMessageResponseHeader{MsgId: "7F00000100002A9F0000000000000000", QueueId: 1, QueueOffset: 42}).EncodeTo(sent)
	out["send_response"] = sent

	out["pull_request"] = request(protocol.ReqPullMessage, 104, &protocol.PullMessageRequestHeader{
		ConsumerGroup: "CG", Topic: "TopicTest", QueueOffset: 100, MaxMsgNums: 32, SysFlag: 7,
		CommitOffset: protocol.Some[int64](90), SuspendTimeoutMillis: protocol.Some[int64](15000),
		Subscription: "TagA || TagB", SubVersion: protocol.Some[int64](1700000000001), ExpressionType: "TAG",
	})
	pulled := response(8, "FOUND")
	(&protocol.PullMessageResponseHeader{NextBeginOffset: 132, MaxOffset: 200}).EncodeTo(pulled)
	pulled.Body = make([]byte, 300)
	for i := range pulled.Body {
		pulled.Body[i] = byte(i % 251)
	}
	out["pull_response"] = pulled

	out["route_request"] = request(protocol.ReqGetRouteinfoByTopic, 105, &protocol.GetRouteInfoRequestHeader{Topic: protocol.Some("TopicTest")})
	out["oneway_request"] = request(protocol.ReqUpdateConsumerOffset, 106, &protocol.UpdateConsumerOffsetRequestHeader{
		ConsumerGroup: "CG", Topic: "TopicTest", CommitOffset: 132})
	out["oneway_request"].MarkOneway()
	out["register_broker_request"] = request(protocol.ReqRegisterBroker, 109, &protocol.RegisterBrokerRequestHeader{
		BrokerName: "broker-a", BrokerAddr: "127.0.0.1:10911", ClusterName: "DefaultCluster",
		HaServerAddr: "127.0.0.1:10912", BodyCrc32: 12345})
	out["check_transaction_request"] = request(protocol.ReqCheckTransactionState, 110, &protocol.CheckTransactionStateRequestHeader{
		TranStateTableOffset: 7, CommitLogOffset: 4096, MsgId: "7F00000100002A9F0000000000001000",
		TransactionId: "7F0000010001000000000000000000AB", OffsetMsgId: "7F00000100002A9F0000000000001000"})
	out["check_transaction_request"].MarkOneway()
	out["reset_offset_request"] = request(protocol.ReqResetConsumerClientOffset, 111, &protocol.ResetOffsetRequestHeader{
		Topic: "TopicTest", Group: "CG", Timestamp: 1700000000000, IsForce: true})
	return out
}

// TestTypedHeadersEncodeLikeJava: a command Sputnik builds from a typed
// header is byte for byte the frame Java 4.9.8 writes for the same
// command, ext fields in Java's order (its HashMap's, and a
// FastCodesHeader's own order first in the binary form).
func TestTypedHeadersEncodeLikeJava(t *testing.T) {
	dir := filepath.Join("testdata", "frames", "java")
	for _, st := range []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ} {
		for name, c := range typedCommands(st) {
			file := name + "." + strings.ToLower(st.String()) + ".hex"
			t.Run(file, func(t *testing.T) {
				got, err := wire.AppendFrame(nil, c)
				require.NoError(t, err)
				want := readHex(t, filepath.Join(dir, file))
				require.Equal(t, wire.Annotate(want), wire.Annotate(got))
				require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
			})
		}
	}
}
