package broker

// Consumer administration through the broker, what mqadmin's
// resetOffsetByTime, skipAccumulatedMessage, consumerStatus,
// cloneGroupOffset and the console's "resend to consumer" use:
//
//	INVOKE_BROKER_TO_RESET_OFFSET (222)         new offsets from a timestamp (-1: the
//	                                            end), sent oneway to every consumer
//	                                            of the group as RESET_CONSUMER_CLIENT_OFFSET
//	INVOKE_BROKER_TO_GET_CONSUMER_STATUS (223)  asks the consumers of the group for
//	                                            their offsets (GET_CONSUMER_STATUS_FROM_CLIENT)
//	GET_CONSUMER_RUNNING_INFO (307)             relayed to one consumer, its answer
//	                                            returned as is
//	CONSUME_MESSAGE_DIRECTLY (309)              the message of msgId relayed to one consumer
//	CLONE_GROUP_OFFSET (314)                    one group's offsets copied to another
//
// Java 4.9.8 mirror: AdminBrokerProcessor.resetOffset, getConsumerStatus,
// getConsumerRunningInfo, consumeMessageDirectly, callConsumer,
// cloneGroupOffset; Broker2Client.resetOffset, getConsumeStatus.
//
// Where Java fails with a NullPointerException (status of a group nobody
// has joined, a message id that names no message), the answer here is
// SYSTEM_ERROR with a remark saying what is missing. A blank topic in
// CLONE_GROUP_OFFSET clones every topic of the source group; Java
// iterates those topics but clones the blank one each time, which copies
// nothing (mqadmin always sends a topic).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// Timeouts of the requests the broker sends to clients (Broker2Client):
// a reset is sent oneway within 5 s, a status asked for within 5 s, a
// relayed request waited on for 10 s.
const (
	statusTimeout = 5 * time.Second
	relayTimeout  = 10 * time.Second
)

// clientCaller sends requests to client connections.
type clientCaller interface {
	// Oneway writes req to ch without waiting for an answer.
	Oneway(ch clients.Channel, req *wire.Command) error
	// Call sends req to ch and waits up to timeout for the answer; a
	// timeout is an error matching remoting.ErrTimeout.
	Call(ctx context.Context, ch clients.Channel, req *wire.Command, timeout time.Duration) (*wire.Command, error)
}

// connCaller is the clientCaller of the broker's own connections.
type connCaller struct{}

var errNotConn = errors.New("broker: channel is not a remoting connection")

func (connCaller) Oneway(ch clients.Channel, req *wire.Command) error {
	c, ok := ch.(*remoting.Conn)
	if !ok {
		return errNotConn
	}
	return c.InvokeOneway(req)
}

func (connCaller) Call(ctx context.Context, ch clients.Channel, req *wire.Command, timeout time.Duration) (*wire.Command, error) {
	c, ok := ch.(*remoting.Conn)
	if !ok {
		return nil, errNotConn
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.InvokeSync(ctx, req)
}

type consumerAdmin struct {
	store      *store.Store
	topics     *topics.Manager
	offsets    *offsets.Manager
	consumers  *clients.ConsumerManager
	brokerName string
	clients    clientCaller
	log        *logrus.Entry
}

func (h *consumerAdmin) register(t handlerTable) {
	t.Add(protocol.ReqInvokeBrokerToResetOffset, h.resetOffset)
	t.Add(protocol.ReqInvokeBrokerToGetConsumerStatus, h.consumerStatus)
	t.Add(protocol.ReqGetConsumerRunningInfo, h.runningInfo)
	t.Add(protocol.ReqConsumeMessageDirectly, h.consumeDirectly)
	t.Add(protocol.ReqCloneGroupOffset, h.cloneOffset)
}

func (h *consumerAdmin) resetOffset(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.ResetOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.log.WithFields(logrus.Fields{"remote": remoteOf(c), "topic": hdr.Topic, "group": hdr.Group,
		"timestamp": hdr.Timestamp, "force": hdr.IsForce}).Info("[reset-offset] reset offset started")
	rows, remark := h.resetTable(hdr)
	if remark != "" {
		return wire.NewResponse(req, int32(protocol.RespSystemError), remark), nil
	}
	g, ok := h.consumers.Group(hdr.Group)
	if !ok || len(g.Channels) == 0 {
		remark := fmt.Sprintf("Consumer not online, so can not reset offset, Group: %s Topic: %s Timestamp: %d",
			hdr.Group, hdr.Topic, hdr.Timestamp)
		h.log.Warn(remark)
		return wire.NewResponse(req, int32(protocol.RespConsumerNotOnline), remark), nil
	}
	clientBody := body.EncodeResetOffsetBody(rows)
	if req.Language == wire.LanguageCPP {
		clientBody = body.EncodeResetOffsetBodyForC(rows)
	}
	for _, ch := range g.Channels {
		if ch.Version < wire.VersionV3_0_7Snapshot {
			h.log.WithFields(logrus.Fields{"client": ch.ClientID, "version": ch.Version}).
				Warn("[reset-offset] the client does not support this feature")
			return wire.NewResponse(req, int32(protocol.RespSystemError), unsupportedClient(ch.Version)), nil
		}
		out := wire.NewRequest(int32(protocol.ReqResetConsumerClientOffset))
		(&protocol.ResetOffsetRequestHeader{Topic: hdr.Topic, Group: hdr.Group, Timestamp: hdr.Timestamp}).EncodeTo(out)
		out.Body = clientBody
		if err := h.clients.Oneway(ch.Channel, out); err != nil {
			h.log.WithError(err).WithField("client", ch.ClientID).Warn("[reset-offset] reset offset exception")
			continue
		}
		h.log.WithFields(logrus.Fields{"topic": hdr.Topic, "group": hdr.Group, "client": ch.ClientID}).
			Info("[reset-offset] reset offset success")
	}
	resp := success(req)
	resp.Body = body.EncodeResetOffsetBody(rows)
	return resp, nil
}

// resetTable is the new offset of every write queue of the topic: the
// queue offset of the timestamp (the end for -1, 0 when there is none),
// unless that is past the group's offset and the reset is not forced. A
// non-empty remark is the SYSTEM_ERROR answer.
func (h *consumerAdmin) resetTable(hdr protocol.ResetOffsetRequestHeader) ([]body.MQOffset, string) {
	tc, ok := h.topics.Select(hdr.Topic)
	if !ok {
		return nil, "[reset-offset] reset offset failed, no topic in this broker. topic=" + hdr.Topic
	}
	rows := make([]body.MQOffset, 0, max(tc.WriteQueueNums, 0))
	for q := range max(tc.WriteQueueNums, 0) {
		consumerOff := h.offsets.Query(hdr.Group, hdr.Topic, q)
		if consumerOff == -1 {
			return nil, fmt.Sprintf("THe consumer group <%s> not exist", hdr.Group)
		}
		target := h.store.MaxOffsetInQueue(hdr.Topic, q)
		if hdr.Timestamp != -1 {
			target = h.store.OffsetInQueueByTime(hdr.Topic, q, hdr.Timestamp)
		}
		target = max(target, 0)
		if !hdr.IsForce && target >= consumerOff {
			target = consumerOff
		}
		mq := body.MessageQueue{Topic: hdr.Topic, BrokerName: h.brokerName, QueueID: q}
		rows = append(rows, body.MQOffset{MQ: mq, Offset: target})
	}
	return rows, ""
}

// unsupportedClient is the remark for a client older than the feature
// (Java prints MQVersion.getVersionDesc; the ordinal here).
func unsupportedClient(version int32) string {
	return fmt.Sprintf("the client does not support this feature. version=%d", version)
}

func (h *consumerAdmin) consumerStatus(ctx context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetConsumerStatusRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	h.log.WithFields(logrus.Fields{"remote": remoteOf(c), "topic": hdr.Topic, "group": hdr.Group}).
		Info("[get-consumer-status] get consumer status")
	g, ok := h.consumers.Group(hdr.Group)
	if !ok { // Java trips over the group's null info (Broker2Client.getConsumeStatus)
		return nil, protocol.Threw(fmt.Sprintf("no consumer group %s", hdr.Group))
	}
	if len(g.Channels) == 0 {
		return wire.NewResponse(req, int32(protocol.RespSystemError),
			fmt.Sprintf("No Any Consumer online in the consumer group: [%s]", hdr.Group)), nil
	}
	var table []body.ConsumerStatus
	for _, ch := range g.Channels {
		if ch.Version < wire.VersionV3_0_7Snapshot {
			return wire.NewResponse(req, int32(protocol.RespSystemError), unsupportedClient(ch.Version)), nil
		}
		if !isBlank(hdr.ClientAddr) && hdr.ClientAddr != ch.ClientID {
			continue
		}
		if rows, ok := h.askStatus(ctx, ch, hdr); ok {
			table = append(table, body.ConsumerStatus{ClientID: ch.ClientID, Offsets: rows})
		}
		if !isBlank(hdr.ClientAddr) {
			break
		}
	}
	resp := success(req)
	resp.Body = body.EncodeGetConsumerStatusBody(table)
	return resp, nil
}

// askStatus asks one consumer for its offsets of the topic; ok is false
// when it failed or answered without a body (it is then left out).
func (h *consumerAdmin) askStatus(ctx context.Context, ch clients.ClientChannelInfo, hdr protocol.GetConsumerStatusRequestHeader) ([]body.MQOffset, bool) {
	out := wire.NewRequest(int32(protocol.ReqGetConsumerStatusFromClient))
	(&protocol.GetConsumerStatusRequestHeader{Topic: hdr.Topic, Group: hdr.Group}).EncodeTo(out)
	resp, err := h.clients.Call(ctx, ch.Channel, out, statusTimeout)
	log := h.log.WithFields(logrus.Fields{"topic": hdr.Topic, "group": hdr.Group, "client": ch.ClientID})
	if err != nil {
		log.WithError(err).Warn("[get-consumer-status] get consumer status exception")
		return nil, false
	}
	defer resp.Release()
	if resp.Code != int32(protocol.RespSuccess) || resp.Body == nil {
		return nil, false
	}
	rows, err := body.DecodeConsumerStatusOffsets(resp.Body)
	if err != nil {
		log.WithError(err).Warn("[get-consumer-status] bad consumer status")
		return nil, false
	}
	return rows, true
}

func (h *consumerAdmin) runningInfo(ctx context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetConsumerRunningInfoRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	return h.relay(ctx, req, hdr.ConsumerGroup, hdr.ClientId, nil), nil
}

func (h *consumerAdmin) consumeDirectly(ctx context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.ConsumeMessageDirectlyResultRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	msg, err := h.messageOf(hdr.MsgId)
	if err != nil {
		return nil, err
	}
	req.SetExt("brokerName", h.brokerName)
	return h.relay(ctx, req, hdr.ConsumerGroup, hdr.ClientId, msg), nil
}

// messageOf copies the record an offset message id points to. Java throws
// when the id does not decode (MessageDecoder.decodeMessageId) and when no
// record is there (it reads the null result).
func (h *consumerAdmin) messageOf(msgID string) ([]byte, error) {
	_, off, err := message.ParseOffsetMsgID(msgID)
	if err != nil {
		return nil, protocol.Threw(fmt.Sprintf("bad message id %q: %v", msgID, err))
	}
	v, ok := h.store.SelectOneMessage(off)
	if !ok {
		return nil, protocol.Threw(fmt.Sprintf("can not find message by the offset, %d", off))
	}
	defer v.Release()
	return append([]byte(nil), v.B...), nil
}

// relay is callConsumer: req's code, ext fields and body (or newBody) go
// to the consumer clientID of group, and its answer is the answer.
func (h *consumerAdmin) relay(ctx context.Context, req *wire.Command, group, clientID string, newBody []byte) *wire.Command {
	ch, ok := h.consumers.FindChannel(group, clientID)
	if !ok {
		return wire.NewResponse(req, int32(protocol.RespSystemError), fmt.Sprintf("The Consumer <%s> <%s> not online", group, clientID))
	}
	if ch.Version < wire.VersionV3_1_8Snapshot {
		return wire.NewResponse(req, int32(protocol.RespSystemError), fmt.Sprintf(
			"The Consumer <%s> Version <%d> too low to finish, please upgrade it to V3_1_8_SNAPSHOT", clientID, ch.Version))
	}
	out := wire.NewRequest(req.Code)
	for _, f := range req.Ext {
		out.AddExt(f.Key, f.Value) // a command's strings outlive its frame
	}
	out.Body = newBody
	if newBody == nil && req.Body != nil {
		out.Body = append([]byte(nil), req.Body...) // req's frame goes back to the pool when this returns
	}
	resp, err := h.clients.Call(ctx, ch.Channel, out, relayTimeout)
	switch {
	case errors.Is(err, remoting.ErrTimeout):
		return wire.NewResponse(req, int32(protocol.RespConsumeMsgTimeout), fmt.Sprintf("consumer <%s> <%s> Timeout: %v", group, clientID, err))
	case err != nil:
		return wire.NewResponse(req, int32(protocol.RespSystemError), fmt.Sprintf("invoke consumer <%s> <%s> Exception: %v", group, clientID, err))
	}
	resp.Opaque, resp.Flag, resp.Serialize = req.Opaque, wire.FlagResponse, req.Serialize
	return resp
}

func (h *consumerAdmin) cloneOffset(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.CloneGroupOffsetRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	topicList := []string{hdr.Topic}
	if isBlank(hdr.Topic) {
		topicList = h.offsets.TopicsOf(hdr.SrcGroup)
	}
	for _, topic := range topicList {
		if _, ok := h.topics.Select(topic); !ok {
			h.log.WithField("topic", topic).Warn("[cloneGroupOffset], topic config not exist")
			continue
		}
		if !hdr.Offline {
			_, subscribed := h.consumers.FindSubscription(hdr.SrcGroup, topic)
			if !subscribed && h.consumers.SubscriptionCount(hdr.SrcGroup) > 0 {
				h.log.WithFields(logrus.Fields{"group": hdr.SrcGroup, "topic": topic}).
					Warn("[cloneGroupOffset], the consumer group does not subscribe the topic")
				continue
			}
		}
		h.offsets.Clone(hdr.SrcGroup, hdr.DestGroup, topic)
	}
	h.log.WithFields(logrus.Fields{"remote": remoteOf(c), "src": hdr.SrcGroup, "dest": hdr.DestGroup, "topic": hdr.Topic}).
		Info("cloneGroupOffset")
	return success(req), nil
}
