package broker

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// replyReq is a SEND_REPLY_MESSAGE_V2 to the cluster's reply topic with
// the given properties.
func replyReq(props message.Properties, body string) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqSendReplyMessageV2))
	(&protocol.SendMessageRequestHeaderV2{ProducerGroup: protocol.Some("REPLIER_PG"), Topic: "DefaultCluster_REPLY_TOPIC", DefaultTopic: protocol.Some("TBW102"),
		DefaultTopicQueueNums: protocol.Some[int32](4), QueueId: 0, BornTimestamp: time.Now().UnixMilli(),
		Properties: string(message.AppendProperties(nil, props))}).EncodeTo(req)
	req.Body = []byte(body)
	return req
}

// TestReplyPushedToRequester: a reply reaches the requesting client
// (REPLY_TO_CLIENT) as PUSH_REPLY_MESSAGE_TO_CLIENT and is stored in the
// reply topic; without a requester online the reply is stored but the
// replier gets SYSTEM_ERROR, as in Java.
func TestReplyPushedToRequester(t *testing.T) {
	b, replier := startBroker(t)
	addr := b.Addr()

	requester := remoting.NewClient(remoting.ClientConfig{})
	t.Cleanup(func() { _ = requester.Close() })
	var mu sync.Mutex
	var pushed []*wire.Command
	requester.RegisterProcessor(protocol.ReqPushReplyMessageToClient, func(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
		req.DetachBody()
		mu.Lock()
		pushed = append(pushed, req)
		mu.Unlock()
		return wire.NewResponse(req, int32(protocol.RespSuccess), ""), nil
	})
	hb := body.HeartbeatData{ClientID: body.Str("127.0.0.1@requester"), ProducerDataSet: []body.ProducerData{{GroupName: body.Str("REQ_PG")}}}
	resp := invoke(t, requester, addr, heartbeat(hb))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)

	var p message.Properties
	p.Set(message.PropCorrelationID, "corr-1")
	p.Set(message.PropReplyToClient, "127.0.0.1@requester")
	p.Set(message.PropMsgType, "reply")
	resp = invoke(t, replier, addr, replyReq(p, "the answer"))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	var rh protocol.SendMessageResponseHeader
	require.NoError(t, rh.DecodeFrom(resp))
	require.NotEqual(t, "0", rh.MsgId, "stored: the store's message id")

	mu.Lock()
	got := append([]*wire.Command(nil), pushed...)
	mu.Unlock()
	require.Len(t, got, 1)
	var ph protocol.ReplyMessageRequestHeader
	require.NoError(t, ph.DecodeFrom(got[0]))
	require.Equal(t, "DefaultCluster_REPLY_TOPIC", ph.Topic)
	require.Equal(t, "REPLIER_PG", ph.ProducerGroup)
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:"+port, ph.StoreHost)
	props := message.ParsePropertiesString(ph.Properties)
	corr, _ := props.Get(message.PropCorrelationID)
	require.Equal(t, "corr-1", corr)
	_, ok := props.Get(message.PropPushReplyTime)
	require.True(t, ok)
	require.Equal(t, "the answer", string(got[0].Body))
	dispatched(t, b, "DefaultCluster_REPLY_TOPIC", 0, 1)

	p.Set(message.PropReplyToClient, "127.0.0.1@gone")
	resp = invoke(t, replier, addr, replyReq(p, "nobody waits"))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "push reply message fail, channel of <127.0.0.1@gone> not found.", resp.Remark)
	dispatched(t, b, "DefaultCluster_REPLY_TOPIC", 0, 2)

	p.Delete(message.PropReplyToClient)
	resp = invoke(t, replier, addr, replyReq(p, "no requester"))
	require.Equal(t, "reply message properties[REPLY_TO_CLIENT] is null", resp.Remark)
}
