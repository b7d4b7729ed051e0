package broker

// Request/reply (the producer's request API): the replying consumer sends
// its reply to the cluster's reply topic with
//
//	SEND_REPLY_MESSAGE (324) / SEND_REPLY_MESSAGE_V2 (325)
//
// and the broker pushes it to the requesting client (REPLY_TO_CLIENT) with
// PUSH_REPLY_MESSAGE_TO_CLIENT (326), waiting for its answer, then stores
// it as well when storeReplyMessageEnable is on. Java 4.9.8 mirror:
// ReplyMessageProcessor. Like Java, the reply is stored with the header's
// properties string as sent and system flag 0, and a failed push answers
// SYSTEM_ERROR even though the store took the reply.

import (
	"context"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

type replyHandlers struct {
	send       *sendHandlers // msgCheck, the store and its host
	producers  *clients.ProducerManager
	clients    clientCaller
	storeReply func() bool // storeReplyMessageEnable
	log        *logrus.Entry
}

func (h *replyHandlers) register(t handlerTable) {
	t.Add(protocol.ReqSendReplyMessage, h.reply)
	t.Add(protocol.ReqSendReplyMessageV2, h.reply)
}

func (h *replyHandlers) reply(ctx context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	hdr, err := sendHeader(req)
	if err != nil {
		return nil, err
	}
	resp, err := h.send.preSend(c, req, &hdr)
	if err != nil || resp.Code != -1 {
		return resp, err
	}
	tc, _ := h.send.topics.Select(hdr.Topic)
	queueID := hdr.QueueId
	if queueID < 0 {
		queueID = rand.Int32N(99999999) % max(tc.WriteQueueNums, 1)
	}
	born, err := hostOf(c.RemoteAddr())
	if err != nil {
		return nil, err
	}
	wait, hasWait := message.LookupPropertyString(hdr.Properties, message.PropWait)
	m := &store.Message{Topic: hdr.Topic, QueueID: queueID, Body: req.Body, Flag: hdr.Flag,
		Properties: []byte(hdr.Properties), BornTimestamp: hdr.BornTimestamp, BornHost: born,
		StoreHost: h.send.storeHost, ReconsumeTimes: hdr.ReconsumeTimes.Or(0),
		WaitStoreMsgOK: !hasWait || javalang.ParseBool(wait)}
	rh := protocol.SendMessageResponseHeader{MsgId: "0", QueueId: queueID}
	answered := false
	if remark := h.push(ctx, &hdr, m, born); remark != "" {
		resp.Code, resp.Remark = int32(protocol.RespSystemError), remark
	} else {
		resp.Code, resp.Remark = int32(protocol.RespSuccess), ""
		answered = true
	}
	if h.storeReply() {
		r := h.send.store.PutMessage(m)
		if _, _, ok := putStatusResponse(r.Status, h.send.store.Config()); ok {
			h.send.countPut(m.Topic, r)
			rh.MsgId, rh.QueueOffset = message.OffsetMsgID(h.send.storeHost, r.WroteOffset), r.QueueOffset
			answered = true
		} else {
			h.log.WithError(r.Err).WithField("status", r.Status).Warn("process reply message, store putMessage failed")
		}
	}
	if answered {
		rh.EncodeTo(resp)
	}
	return resp, nil
}

// push is pushReplyMessage: the reply to the channel of the client named
// in REPLY_TO_CLIENT, its properties with PUSH_REPLY_TIME added. A
// non-empty remark says why it did not arrive.
func (h *replyHandlers) push(ctx context.Context, hdr *protocol.SendMessageRequestHeader, m *store.Message, born message.Host) string {
	props := message.ParsePropertiesString(hdr.Properties)
	sender, ok := props.Get(message.PropReplyToClient)
	if !ok {
		h.log.Warn(message.PropReplyToClient + " is null, can not reply message")
		return "reply message properties[" + message.PropReplyToClient + "] is null"
	}
	ch, ok := h.producers.FindChannel(sender)
	if !ok {
		remark := "push reply message fail, channel of <" + sender + "> not found."
		h.log.Warn(remark)
		return remark
	}
	props.Set(message.PropPushReplyTime, strconv.FormatInt(time.Now().UnixMilli(), 10))
	out := wire.NewRequest(int32(protocol.ReqPushReplyMessageToClient))
	(&protocol.ReplyMessageRequestHeader{
		ProducerGroup: hdr.ProducerGroup.Value, Topic: hdr.Topic, DefaultTopic: hdr.DefaultTopic.Value,
		DefaultTopicQueueNums: hdr.DefaultTopicQueueNums.Value, QueueId: hdr.QueueId, SysFlag: hdr.SysFlag,
		BornTimestamp: hdr.BornTimestamp, Flag: hdr.Flag,
		Properties:     string(message.AppendProperties(nil, props.HashMapOrder())),
		ReconsumeTimes: hdr.ReconsumeTimes, UnitMode: hdr.UnitMode,
		BornHost: hostPort(born), StoreHost: hostPort(h.send.storeHost), StoreTimestamp: time.Now().UnixMilli(),
	}).EncodeTo(out)
	out.Body = append([]byte(nil), m.Body...) // the request's frame is reused once the handler returns
	resp, err := h.clients.Call(ctx, ch, out, relayTimeout)
	if err != nil {
		h.log.WithError(err).WithField("client", sender).Warn("push reply message fail")
		return "push reply message to " + sender + "fail."
	}
	defer resp.Release()
	if resp.Code != int32(protocol.RespSuccess) {
		h.log.WithFields(logrus.Fields{"client": sender, "remark": resp.Remark}).Warn("push reply message return fail")
		return "push reply message to " + sender + "fail."
	}
	return ""
}

// hostPort is InetAddress.getHostAddress() + ":" + port: no brackets
// around an IPv6 address.
func hostPort(h message.Host) string {
	return javalang.HostAddress(h.Addr) + ":" + strconv.Itoa(int(h.Port))
}
