package broker

// Pulling:
//
//	PULL_MESSAGE (11)  messages of one queue from an offset, suspended
//	                   (long polling) when there are none yet
//
// Java 4.9.8 mirror: PullMessageProcessor.processRequest (with
// brokerAllowSuspend), executeRequestWhenWakeup, generateOffsetMovedEvent;
// ExpressionMessageFilter for TAG subscriptions; FilterAPI.build.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/consumerfilter"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/longpoll"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// PullSysFlag bits (PullSysFlag.java). Part of the protocol.
const (
	pullFlagCommitOffset = 0x1
	pullFlagSuspend      = 0x2
	pullFlagSubscription = 0x4
	pullFlagClassFilter  = 0x8

	expressionTypeTag = "TAG"
)

// consumerSubscriptions is what the pull path needs of the consumer
// manager: a group's subscription to a topic, from its heartbeats.
type consumerSubscriptions interface {
	// Subscription reports the group's subscription string, expression
	// type and version for topic; groupKnown is false without any
	// heartbeat of the group, broadcast when it consumes by broadcasting.
	Subscription(group, topic string) (sub Subscription, groupKnown, broadcast bool)
}

// Subscription is a consumer group's subscription to a topic
// (SubscriptionData).
type Subscription struct {
	Found          bool
	SubString      string
	ExpressionType string
	SubVersion     int64
}

// offsetCommitter stores consumer offsets (ConsumerOffsetManager.commitOffset).
type offsetCommitter interface {
	Commit(clientHost, group, topic string, queueID int32, offset int64)
}

// sqlFilters is the part of ConsumerFilterManager the pull path reads.
type sqlFilters interface {
	Get(topic, group string) (consumerfilter.Filter, bool)
	Build(expressionType, expression string) (consumerfilter.Matcher, error)
}

// pullSettings are the BrokerConfig values the pull path reads.
type pullSettings struct {
	BrokerIP1            string
	BrokerName           string
	BrokerAddr           string
	BrokerPermission     func() int32
	LongPollingEnable    bool
	ShortPollingTime     time.Duration
	SlaveReadEnable      bool
	EnablePropertyFilter bool
	FilterSupportRetry   bool
	Slave                bool
	OffsetCheckInSlave   bool
	// TransferMsgByHeap false makes Java write a found pull as a
	// FileRegion, whose header is in the server's serialize type. Sputnik
	// always writes pulls without copying; the setting only picks that type.
	TransferMsgByHeap bool
	// Serialize is the server's configured serialize type
	// (rocketmq.serialize.type), which Java answers in where it writes an
	// answer outside the request's callback.
	Serialize wire.SerializeType
}

type pullHandlers struct {
	store     *store.Store
	topics    *topics.Manager
	groups    groupFinder
	consumers consumerSubscriptions
	offsets   offsetCommitter
	hold      *longpoll.Holder
	set       pullSettings
	storeHost message.Host
	stats     *stats.Manager // nil counts nothing
	filters   sqlFilters
	// run executes a woken pull on the pull pool (Java's pullMessageExecutor).
	run func(func())
	log *logrus.Entry
}

func (h *pullHandlers) register(t handlerTable) {
	t.Add(protocol.ReqPullMessage, h.pull)
}

func (h *pullHandlers) pull(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.PullMessageRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	return h.process(c, req, &hdr, true), nil
}

// servedFromMemory is the pull processor's InlineWhen: a pull with no
// tag filter (the subscription is "*") of a message that exists and is in
// memory by Java's own estimate (accessMessageInMemoryMaxRatio) runs on the
// connection's read loop, skipping the hand-offs to a pool worker and to
// the writer: with them the broker spent a fifth more CPU while a
// consumer drained a backlog, and client-go drained 7% slower (twelve
// interleaved drains each). A pull that may wait for the disk, scan past
// maxMsgNums units for a filter, or suspend at the queue's end goes to the
// pool as in Java.
func (h *pullHandlers) servedFromMemory(req *wire.Command) bool {
	var hdr protocol.PullMessageRequestHeader
	if hdr.DecodeFrom(req) != nil || hdr.SysFlag&pullFlagClassFilter != 0 {
		return false
	}
	sub, _, _ := h.subscriptionOf(&hdr)
	if !sub.Found || expressionType(sub) != expressionTypeTag || !matchesAll(sub.SubString) {
		return false
	}
	return h.store.InMemoryByConsumeOffset(hdr.Topic, hdr.QueueId, hdr.QueueOffset)
}

// process is processRequest; a nil answer means the request was
// suspended or answered through the connection.
func (h *pullHandlers) process(c *remoting.Conn, req *wire.Command, hdr *protocol.PullMessageRequestHeader, allowSuspend bool) *wire.Command {
	resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
	sg, filter, errResp := h.check(c, resp, hdr)
	if errResp != nil {
		return errResp
	}
	if h.commits(hdr, allowSuspend) && !hdr.CommitOffset.Valid {
		// Java reads the pull, then fails to unbox the offset to commit.
		return h.missingField(resp, "commitOffset")
	}
	res, err := h.store.GetMessage(hdr.ConsumerGroup, hdr.Topic, hdr.QueueId, hdr.QueueOffset, int(hdr.MaxMsgNums), filter)
	if err == nil && res.FallRecorded {
		h.stats.RecordFallBehind(hdr.ConsumerGroup, hdr.Topic, hdr.QueueId, res.FallBehind)
	}
	if err != nil {
		h.commit(c, hdr, allowSuspend)
		return fail(resp, protocol.RespSystemError, "store getMessage return null")
	}
	out := h.answer(c, req, resp, hdr, sg, filter, res, allowSuspend)
	h.commit(c, hdr, allowSuspend)
	return out
}

// commit stores the offset the pull carried (hasCommitOffsetFlag), as Java
// does at the end of processRequest.
func (h *pullHandlers) commit(c *remoting.Conn, hdr *protocol.PullMessageRequestHeader, allowSuspend bool) {
	if h.commits(hdr, allowSuspend) && hdr.CommitOffset.Valid {
		h.offsets.Commit(c.RemoteAddr(), hdr.ConsumerGroup, hdr.Topic, hdr.QueueId, hdr.CommitOffset.Value)
	}
}

// commits reports whether the pull commits its offset (Java storeOffsetEnable).
func (h *pullHandlers) commits(hdr *protocol.PullMessageRequestHeader, allowSuspend bool) bool {
	return allowSuspend && hdr.SysFlag&pullFlagCommitOffset != 0 && !h.set.Slave
}

// missingField answers SYSTEM_ERROR for a lenient header field the pull
// needs, where Java trips over its null: a thrown exception, answered in
// the server's serialize type.
func (h *pullHandlers) missingField(resp *wire.Command, key string) *wire.Command {
	e := protocol.ErrFieldNull(key)
	resp.Serialize = h.set.Serialize
	return fail(resp, e.Code, e.Remark)
}

// check runs Java's permission, group, topic, queue and subscription
// checks; a non-nil *wire.Command is the error answer.
func (h *pullHandlers) check(c *remoting.Conn, resp *wire.Command, hdr *protocol.PullMessageRequestHeader) (config.SubscriptionGroupConfig, pullFilter, *wire.Command) {
	var sg config.SubscriptionGroupConfig
	if !topics.IsReadable(h.set.BrokerPermission()) {
		return sg, nil, fail(resp, protocol.RespNoPermission, fmt.Sprintf("the broker[%s] pulling message is forbidden", h.set.BrokerIP1))
	}
	sg, ok := h.groups.FindSubscriptionGroup(hdr.ConsumerGroup)
	if !ok {
		return sg, nil, fail(resp, protocol.RespSubscriptionGroupNotExist, fmt.Sprintf("subscription group [%s] does not exist, %s", hdr.ConsumerGroup, protocol.FAQSuggestTodo))
	}
	if !sg.ConsumeEnable {
		return sg, nil, fail(resp, protocol.RespNoPermission, "subscription group no permission, "+hdr.ConsumerGroup)
	}
	if hdr.SysFlag&pullFlagSuspend != 0 && !hdr.SuspendTimeoutMillis.Valid {
		return sg, nil, h.missingField(resp, "suspendTimeoutMillis")
	}
	tc, ok := h.topics.Select(hdr.Topic)
	if !ok {
		return sg, nil, fail(resp, protocol.RespTopicNotExist, fmt.Sprintf("topic[%s] not exist, apply first please! %s", hdr.Topic, protocol.FAQSuggestTodo))
	}
	if !topics.IsReadable(tc.Perm) {
		return sg, nil, fail(resp, protocol.RespNoPermission, "the topic["+hdr.Topic+"] pulling message is forbidden")
	}
	if hdr.QueueId < 0 || hdr.QueueId >= tc.ReadQueueNums {
		return sg, nil, fail(resp, protocol.RespSystemError, fmt.Sprintf("queueId[%d] is illegal, topic:[%s] topicConfig.readQueueNums:[%d] consumer:[%s]",
			hdr.QueueId, hdr.Topic, tc.ReadQueueNums, "/"+c.RemoteAddr()))
	}
	f, errResp := h.subscription(resp, hdr, sg)
	return sg, f, errResp
}

// subscription builds the filter from the request's subscription or from
// the group's heartbeats.
func (h *pullHandlers) subscription(resp *wire.Command, hdr *protocol.PullMessageRequestHeader, sg config.SubscriptionGroupConfig) (pullFilter, *wire.Command) {
	sub, known, broadcast := h.subscriptionOf(hdr)
	if hdr.SysFlag&pullFlagSubscription == 0 {
		switch {
		case !known:
			return nil, fail(resp, protocol.RespSubscriptionNotExist, "the consumer's group info not exist"+protocol.FAQSuggestTodo)
		case !sg.ConsumeBroadcastEnable && broadcast:
			return nil, fail(resp, protocol.RespNoPermission, "the consumer group["+hdr.ConsumerGroup+"] can not consume by broadcast way")
		case !sub.Found:
			return nil, fail(resp, protocol.RespSubscriptionNotExist, "the consumer's subscription not exist"+protocol.FAQSuggestTodo)
		case !hdr.SubVersion.Valid:
			return nil, h.missingField(resp, "subVersion")
		case sub.SubVersion < hdr.SubVersion.Value:
			return nil, fail(resp, protocol.RespSubscriptionNotLatest, "the consumer's subscription not latest")
		}
	}
	typ := expressionType(sub)
	var f pullFilter = newTagFilter(sub.SubString)
	if typ != expressionTypeTag {
		var errResp *wire.Command
		if f, errResp = h.sqlFilter(resp, hdr, sub, typ); errResp != nil {
			return nil, errResp
		}
		if !h.set.EnablePropertyFilter {
			return nil, fail(resp, protocol.RespSystemError, "The broker does not support consumer to filter message by "+typ)
		}
	}
	if h.set.FilterSupportRetry && strings.HasPrefix(hdr.Topic, groups.RetryTopicPrefix) {
		f = retryFilter{pullFilter: f, group: strings.TrimPrefix(hdr.Topic, groups.RetryTopicPrefix), filters: h.filters}
	}
	return f, nil
}

// sqlFilter is the filter of an SQL92 subscription: compiled from the
// request when it carries its subscription (Java ConsumerFilterManager
// .build), else the group's registered one, which must be as new as the
// consumer's (FILTER_DATA_NOT_EXIST, FILTER_DATA_NOT_LATEST). Better than
// Java: a carried expression that does not compile fails with
// SUBSCRIPTION_PARSE_FAILED; Java's build returns null there and the pull
// then selects every message.
func (h *pullHandlers) sqlFilter(resp *wire.Command, hdr *protocol.PullMessageRequestHeader, sub Subscription, typ string) (pullFilter, *wire.Command) {
	if hdr.SysFlag&pullFlagSubscription != 0 {
		m, err := h.filters.Build(typ, sub.SubString) // an empty expression does not compile either
		if err == nil && !hdr.SubVersion.Valid {
			err = protocol.ErrFieldNull("subVersion") // Java's build takes a long
		}
		if err != nil {
			h.log.WithError(err).WithField("group", hdr.ConsumerGroup).Warn("parse the consumer's subscription failed")
			return nil, fail(resp, protocol.RespSubscriptionParseFailed, "parse the consumer's subscription failed")
		}
		return sqlFilter{m: m}, nil
	}
	f, ok := h.filters.Get(hdr.Topic, hdr.ConsumerGroup)
	switch {
	case !ok:
		return nil, fail(resp, protocol.RespFilterDataNotExist, "The broker's consumer filter data is not exist!Your expression may be wrong!")
	case f.ClientVersion < hdr.SubVersion.Value: // present: checked with the subscription
		return nil, fail(resp, protocol.RespFilterDataNotLatest, "the consumer's consumer filter data not latest")
	}
	return sqlFilter{m: f.Matcher, bitMap: f.MatchBitMap}, nil
}

// subscriptionOf is the subscription a pull asks for: the request's own
// when its sysflag says it carries one, else its group's from the
// heartbeats (with whether the group is known and consumes by broadcast).
func (h *pullHandlers) subscriptionOf(hdr *protocol.PullMessageRequestHeader) (sub Subscription, known, broadcast bool) {
	if hdr.SysFlag&pullFlagSubscription != 0 {
		return Subscription{Found: true, SubString: hdr.Subscription, ExpressionType: hdr.ExpressionType}, true, false
	}
	return h.consumers.Subscription(hdr.ConsumerGroup, hdr.Topic)
}

// expressionType is a subscription's filter type; none means TAG.
func expressionType(sub Subscription) string {
	if sub.ExpressionType == "" {
		return expressionTypeTag
	}
	return sub.ExpressionType
}

// answer turns the store's result into the response (Java's two switch
// statements), suspending on PULL_NOT_FOUND when allowed.
func (h *pullHandlers) answer(c *remoting.Conn, req, resp *wire.Command, hdr *protocol.PullMessageRequestHeader,
	sg config.SubscriptionGroupConfig, filter pullFilter, res *store.GetResult, allowSuspend bool) *wire.Command {
	rh := protocol.PullMessageResponseHeader{NextBeginOffset: res.NextBeginOffset, MinOffset: res.MinOffset, MaxOffset: res.MaxOffset}
	resp.Remark = res.Status.String()
	// A slave without slaveReadEnable serves the pull all the same and
	// only suggests the master (brokerId 0) for the next one: Java sets
	// PULL_RETRY_IMMEDIATELY for it and then overwrites the code from the
	// status. Consumers rely on that to read from the slave while the
	// master is down.
	resp.Code = int32(pullCode(res.Status, hdr.QueueOffset))
	if h.set.SlaveReadEnable {
		rh.SuggestWhichBrokerId = sg.BrokerID
		if res.SuggestPullingFromSlave {
			rh.SuggestWhichBrokerId = sg.WhichBrokerWhenConsumeSlowly
		}
	}
	switch protocol.ResponseCode(resp.Code) {
	case protocol.RespSuccess:
		h.stats.GroupGet(hdr.ConsumerGroup, hdr.Topic, res.MessageCount(), res.BufferTotalSize)
		rh.EncodeTo(resp)
		resp.Payload = &getPayload{res: res}
		if !h.set.TransferMsgByHeap {
			resp.Serialize = h.set.Serialize
		}
		return resp
	case protocol.RespPullNotFound:
		if allowSuspend && hdr.SysFlag&pullFlagSuspend != 0 {
			res.Release()
			h.suspend(c, req, hdr, filter)
			return nil
		}
	case protocol.RespPullOffsetMoved:
		if !h.set.Slave || h.set.OffsetCheckInSlave {
			h.offsetMoved(hdr, res.NextBeginOffset)
		} else {
			rh.SuggestWhichBrokerId = sg.BrokerID
			resp.Code = int32(protocol.RespPullRetryImmediately)
		}
	}
	res.Release()
	rh.EncodeTo(resp)
	return resp
}

// pullCode maps a get status to the response code.
func pullCode(st store.GetStatus, requested int64) protocol.ResponseCode {
	switch st {
	case store.Found:
		return protocol.RespSuccess
	case store.MessageWasRemoving, store.NoMatchedMessage:
		return protocol.RespPullRetryImmediately
	case store.NoMatchedLogicQueue, store.NoMessageInQueue:
		if requested != 0 {
			return protocol.RespPullOffsetMoved
		}
		return protocol.RespPullNotFound
	case store.OffsetOverflowBadly, store.OffsetTooSmall:
		return protocol.RespPullOffsetMoved
	}
	return protocol.RespPullNotFound // OFFSET_FOUND_NULL, OFFSET_OVERFLOW_ONE
}

// suspend parks the pull until a message arrives or its suspend time ends
// (brokerSuspendMaxTimeMillis from the client; shortPollingTimeMills
// without long polling). The request's header bytes are kept by copying
// the header; the body is not needed.
func (h *pullHandlers) suspend(c *remoting.Conn, req *wire.Command, hdr *protocol.PullMessageRequestHeader, filter pullFilter) {
	timeout := time.Duration(hdr.SuspendTimeoutMillis.Value) * time.Millisecond
	if !h.set.LongPollingEnable {
		timeout = h.set.ShortPollingTime
	}
	saved := *hdr
	reply := wire.NewResponse(req, 0, "") // keeps the opaque
	// Java writes the answer of a held pull itself (executeRequestWhenWakeup),
	// in the server's serialize type, whatever the request's.
	reply.Serialize = h.set.Serialize
	oneway := req.IsOneway()
	h.hold.Suspend(&longpoll.Request{
		Topic: hdr.Topic, QueueID: hdr.QueueId, Offset: hdr.QueueOffset, Timeout: timeout, Filter: filter,
		Wake: func() {
			h.run(func() {
				out := h.process(c, reply, &saved, false)
				if out != nil && !oneway {
					_ = c.Send(out)
				}
			})
		},
	})
}

// offsetMoved records an OffsetMovedEvent message (generateOffsetMovedEvent).
func (h *pullHandlers) offsetMoved(hdr *protocol.PullMessageRequestHeader, newOffset int64) {
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("consumerGroup")
	w.String(hdr.ConsumerGroup)
	w.Key("messageQueue")
	w.BeginObject()
	w.Key("brokerName")
	w.String(h.set.BrokerName)
	w.Key("queueId")
	w.Int(int(hdr.QueueId))
	w.Key("topic")
	w.String(hdr.Topic)
	w.EndObject()
	w.Key("offsetNew")
	w.Int64(newOffset)
	w.Key("offsetRequest")
	w.Int64(hdr.QueueOffset)
	w.EndObject()
	// Java sets the delay level 0 as well: DELAY=0 is stored.
	props := message.Properties{{Key: message.PropTags, Value: hdr.ConsumerGroup}, {Key: message.PropDelay, Value: "0"},
		{Key: message.PropKeys, Value: hdr.ConsumerGroup}}
	r := h.store.PutMessage(&store.Message{
		Topic: topics.OffsetMovedEventTopic, Body: w.Bytes(), Properties: message.AppendProperties(nil, props.HashMapOrder()),
		BornTimestamp: time.Now().UnixMilli(), BornHost: h.storeHost, StoreHost: h.storeHost, WaitStoreMsgOK: true,
	})
	if r.Status != store.PutOK {
		h.log.WithError(r.Err).Warn("generateOffsetMovedEvent")
	}
}

// getPayload sends the found messages straight from the commit log.
type getPayload struct{ res *store.GetResult }

func (p *getPayload) Buffers() [][]byte {
	out := make([][]byte, len(p.res.Messages))
	for i := range p.res.Messages {
		out[i] = p.res.Messages[i].B
	}
	return out
}

func (p *getPayload) Len() int { return p.res.BufferTotalSize }
func (p *getPayload) Release() { p.res.Release() }

// tagFilter is ExpressionMessageFilter for TAG subscriptions: "*" or empty
// matches all, else the hash codes of the "||"-separated tags
// (FilterAPI.buildSubscriptionData).
type tagFilter struct {
	all   bool
	codes map[int32]bool
}

// matchesAll reports whether a TAG subscription string takes every tag.
func matchesAll(sub string) bool { return sub == "" || sub == "*" }

func newTagFilter(sub string) *tagFilter {
	if matchesAll(sub) {
		return &tagFilter{all: true}
	}
	f := &tagFilter{codes: map[int32]bool{}}
	for _, t := range strings.Split(sub, "||") {
		if t = javaTrim(t); t != "" {
			f.codes[jhash.String(t)] = true
		}
	}
	return f
}

// MatchTagsCode is isMatchedByConsumeQueue: a tags code that could not be
// read matches, as do all with "*".
func (f *tagFilter) MatchTagsCode(code int64, ok bool, _ *consumequeue.ExtUnit) bool {
	return f.all || !ok || f.codes[int32(code)]
}

// evalExt is the consume-queue check of an extension unit.
func (f *tagFilter) evalExt(code int64, _ *consumequeue.ExtUnit) bool {
	return f.MatchTagsCode(code, true, nil)
}

// MatchRecord is isMatchedByCommitLog: TAG subscriptions never look.
func (f *tagFilter) MatchRecord([]byte) bool { return true }

// MatchArrival is the long-polling wake-up check.
func (f *tagFilter) MatchArrival(code int64, ok bool, _ []byte) bool {
	return f.MatchTagsCode(code, ok, nil)
}

// javaTrim is String.trim: strips chars up to ' ' from both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}
