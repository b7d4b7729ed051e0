package broker

// Consumer send-back (the push consumer's failure path):
//
//	CONSUMER_SEND_MSG_BACK (36)   put a consumed message back for a retry,
//	                              or into the group's DLQ
//
// Java 4.9.8 mirror: SendMessageProcessor.asyncConsumerSendMsgBack. The
// message is looked up by its commit-log offset and stored again in
// %RETRY%group with delay level 3+reconsumeTimes (or the level the client
// asked for), keeping its first topic in RETRY_TOPIC and its first id in
// ORIGIN_MESSAGE_ID; once it has been reconsumed maxReconsumeTimes (or the
// client asks with a negative level) it goes to %DLQ%group instead.

import (
	"context"
	"math/rand/v2"
	"strconv"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// topicSysFlagUnitSub is TopicSysFlag.buildSysFlag(false, true).
const topicSysFlagUnitSub = 2

// sendBackHandlers serves CONSUMER_SEND_MSG_BACK.
type sendBackHandlers struct {
	store            *store.Store
	topics           *topics.Manager
	groups           groupFinder
	brokerIP1        string
	brokerPermission func() int32
	stats            *stats.Manager // nil counts nothing
	log              *logrus.Entry
	// rand picks a queue (Java ThreadLocalRandom.nextInt(99999999)); nil
	// is math/rand.
	rand func(n int32) int32
}

func (h *sendBackHandlers) register(t handlerTable) {
	t.Add(protocol.ReqConsumerSendMsgBack, h.sendBack)
}

func (h *sendBackHandlers) randN(n int32) int32 {
	if h.rand != nil {
		return h.rand(n)
	}
	return rand.Int32N(n)
}

// sendBackTarget is where the message goes back to.
type sendBackTarget struct {
	topic      string
	queueID    int32
	delayLevel int32
}

func (h *sendBackHandlers) sendBack(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.ConsumerSendMsgBackRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	sg, ok := h.groups.FindSubscriptionGroup(hdr.Group)
	switch {
	case !ok:
		return wire.NewResponse(req, int32(protocol.RespSubscriptionGroupNotExist),
			"subscription group not exist, "+hdr.Group+" "+protocol.FAQSuggestTodo), nil
	case !topics.IsWriteable(h.brokerPermission()):
		return wire.NewResponse(req, int32(protocol.RespNoPermission), "the broker["+h.brokerIP1+"] sending message is forbidden"), nil
	case sg.RetryQueueNums <= 0:
		return success(req), nil
	}
	sysFlag := int32(0)
	if hdr.UnitMode {
		sysFlag = topicSysFlagUnitSub
	}
	retry := groups.RetryTopic(hdr.Group)
	target := sendBackTarget{topic: retry, queueID: h.randN(99999999) % sg.RetryQueueNums}
	tc, _, err := h.topics.CreateInSendMessageBack(retry, sg.RetryQueueNums, topics.PermRW, sysFlag)
	if err != nil {
		h.log.WithError(err).WithField("topic", retry).Warn("create retry topic")
	}
	if tc.TopicName == "" {
		return wire.NewResponse(req, int32(protocol.RespSystemError), "topic["+retry+"] not exist"), nil
	}
	if !topics.IsWriteable(tc.Perm) {
		return wire.NewResponse(req, int32(protocol.RespNoPermission), "the topic["+retry+"] sending message is forbidden"), nil
	}
	rec, ok := h.store.LookMessage(hdr.Offset)
	if !ok {
		return wire.NewResponse(req, int32(protocol.RespSystemError), "look message by offset failed, "+strconv.FormatInt(hdr.Offset, 10)), nil
	}
	maxTimes := sg.RetryMaxTimes
	if req.Version >= wire.VersionV3_4_9 && hdr.MaxReconsumeTimes.Valid {
		maxTimes = hdr.MaxReconsumeTimes.Value
	}
	target.delayLevel = hdr.DelayLevel
	if rec.ReconsumeTimes >= maxTimes || hdr.DelayLevel < 0 {
		if resp := h.toDLQ(req, hdr.Group, &target); resp != nil {
			return resp, nil
		}
	} else if target.delayLevel == 0 {
		target.delayLevel = 3 + rec.ReconsumeTimes
	}
	r := h.store.PutMessage(sendBackMessage(&rec, target))
	if r.Status != store.PutOK {
		return wire.NewResponse(req, int32(protocol.RespSystemError), r.Status.String()), nil
	}
	backTopic := rec.Topic // incSendBackNums: the first topic, as RETRY_TOPIC keeps it
	if t, ok := message.ParseProperties(rec.Properties).Get(message.PropRetryTopic); ok {
		backTopic = t
	}
	h.stats.SendBack(hdr.Group, backTopic)
	return success(req), nil
}

// toDLQ points target at the group's dead-letter queue, creating the
// topic; it returns the error answer when that fails.
func (h *sendBackHandlers) toDLQ(req *wire.Command, group string, target *sendBackTarget) *wire.Command {
	dlq := groups.DLQTopic(group)
	tc, _, err := h.topics.CreateInSendMessageBack(dlq, dlqNumsPerGroup, topics.PermRW, 0)
	if err != nil {
		h.log.WithError(err).WithField("topic", dlq).Warn("create DLQ topic")
	}
	if tc.TopicName == "" {
		return wire.NewResponse(req, int32(protocol.RespSystemError), "topic["+dlq+"] not exist")
	}
	target.topic, target.queueID, target.delayLevel = dlq, h.randN(99999999)%dlqNumsPerGroup, 0
	return nil
}

// sendBackMessage is the MessageExtBrokerInner Java builds from the looked
// up message: same body, flag, sysFlag, born time and hosts, one more
// reconsume, and the properties map with RETRY_TOPIC (if absent), WAIT
// false, DELAY and ORIGIN_MESSAGE_ID (if absent) put in, written in
// HashMap order.
func sendBackMessage(rec *message.Record, t sendBackTarget) *store.Message {
	p := message.ParseProperties(rec.Properties)
	if _, ok := p.Get(message.PropRetryTopic); !ok {
		p.Set(message.PropRetryTopic, rec.Topic)
	}
	p.Set(message.PropWait, "false")
	p.Set(message.PropDelay, strconv.Itoa(int(t.delayLevel)))
	if origin, _ := p.Get(message.PropOriginMessageID); isBlank(origin) {
		p.Set(message.PropOriginMessageID, rec.MsgID())
	}
	m := store.Rewritten(rec, t.topic, t.queueID, p)
	m.ReconsumeTimes++
	return m
}

// isBlank is UtilAll.isBlank: empty or only whitespace.
func isBlank(s string) bool {
	for _, r := range s {
		if !isJavaWhitespace(r) {
			return false
		}
	}
	return true
}

// isJavaWhitespace is Character.isWhitespace for the characters that
// matter here (ASCII separators and controls).
func isJavaWhitespace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	}
	return false
}
