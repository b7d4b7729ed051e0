package broker

// Sending:
//
//	SEND_MESSAGE (10)        v1 header (client-go, old Java clients)
//	SEND_MESSAGE_V2 (310)    single-letter header keys (Java client)
//	SEND_BATCH_MESSAGE (320) a batch body, v2 header
//
// Java 4.9.8 mirror: SendMessageProcessor (asyncSendMessage,
// asyncSendBatchMessage, handlePutMessageResult, handleRetryAndDLQ) and
// AbstractSendMessageProcessor.msgCheck; the transactional half message of
// TransactionalMessageBridge.parseHalfMessageInner.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

const dlqNumsPerGroup = 1 // SendMessageProcessor's DLQ_NUMS_PER_GROUP

// groupFinder looks up subscription groups (SubscriptionGroupManager).
type groupFinder interface {
	FindSubscriptionGroup(group string) (config.SubscriptionGroupConfig, bool)
}

// sendSettings are the BrokerConfig values the send path reads.
type sendSettings struct {
	BrokerIP1                 string
	ClusterName               string
	RegionID                  string
	TraceOn                   bool
	BrokerPermission          func() int32
	RejectTransactionMessage  bool
	StartAcceptSendRequestsAt int64
}

type sendHandlers struct {
	store     *store.Store
	topics    *topics.Manager
	groups    groupFinder
	set       sendSettings
	storeHost message.Host
	stats     *stats.Manager // nil counts nothing
	log       *logrus.Entry
}

func (h *sendHandlers) register(t handlerTable) {
	t.Add(protocol.ReqSendMessage, h.send)
	t.Add(protocol.ReqSendMessageV2, h.send)
	t.Add(protocol.ReqSendBatchMessage, h.send)
}

// sendHeader reads either header form as the v1 header (Java
// parseRequestHeader / createSendMessageRequestHeaderV1).
func sendHeader(req *wire.Command) (protocol.SendMessageRequestHeader, error) {
	var h protocol.SendMessageRequestHeader
	if code := protocol.RequestCode(req.Code); code == protocol.ReqSendMessage || code == protocol.ReqSendReplyMessage {
		return h, h.DecodeFrom(req)
	}
	var v2 protocol.SendMessageRequestHeaderV2
	if err := v2.DecodeFrom(req); err != nil {
		return h, err
	}
	return protocol.SendMessageRequestHeader{
		ProducerGroup: v2.ProducerGroup, Topic: v2.Topic, DefaultTopic: v2.DefaultTopic,
		DefaultTopicQueueNums: v2.DefaultTopicQueueNums, QueueId: v2.QueueId, SysFlag: v2.SysFlag,
		BornTimestamp: v2.BornTimestamp, Flag: v2.Flag, Properties: v2.Properties,
		ReconsumeTimes: v2.ReconsumeTimes, UnitMode: v2.UnitMode, Batch: v2.Batch,
		MaxReconsumeTimes: v2.MaxReconsumeTimes, Bname: v2.Bname,
	}, nil
}

func (h *sendHandlers) send(_ context.Context, c *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	hdr, err := sendHeader(req)
	if err != nil {
		return nil, err
	}
	resp, err := h.preSend(c, req, &hdr)
	if err != nil || resp.Code != -1 {
		return resp, err
	}
	tc, _ := h.topics.Select(hdr.Topic)
	queueID := hdr.QueueId
	if queueID < 0 {
		queueID = rand.Int32N(max(tc.WriteQueueNums, 1)) % max(tc.WriteQueueNums, 1)
	}
	bornHost, err := hostOf(c.RemoteAddr())
	if err != nil {
		return nil, err
	}
	if protocol.RequestCode(req.Code) == protocol.ReqSendBatchMessage {
		return h.sendBatch(c, req, resp, &hdr, tc, queueID, bornHost)
	}
	return h.sendOne(c, req, resp, &hdr, tc, queueID, bornHost)
}

// preSend is Java preSend + msgCheck: the response with MSG_REGION and
// TRACE_ON, code -1 when the send may go on. The error is a missing field
// that creating the topic needs.
func (h *sendHandlers) preSend(c *remoting.Conn, req *wire.Command, hdr *protocol.SendMessageRequestHeader) (*wire.Command, error) {
	resp := wire.NewResponse(req, -1, "")
	resp.AddExt(message.PropMsgRegion, h.set.RegionID)
	resp.AddExt(message.PropTraceSwitch, strconv.FormatBool(h.set.TraceOn))
	if now := h.store.Now(); now < h.set.StartAcceptSendRequestsAt {
		return fail(resp, protocol.RespSystemError, "broker unable to service, until "+humanTime2(h.set.StartAcceptSendRequestsAt)), nil
	}
	if !topics.IsWriteable(h.set.BrokerPermission()) && h.topics.IsOrderTopic(hdr.Topic) {
		return fail(resp, protocol.RespNoPermission, "the broker["+h.set.BrokerIP1+"] sending message is forbidden"), nil
	}
	if err := topics.Validate(hdr.Topic); err != nil {
		return fail(resp, protocol.RespSystemError, err.Error()), nil
	}
	if topics.IsNotAllowedSend(hdr.Topic) {
		return fail(resp, protocol.RespNoPermission, "Sending message to topic["+hdr.Topic+"] is forbidden."), nil
	}
	tc, ok, err := h.topicForSend(c, hdr)
	if err != nil {
		return nil, err
	}
	if !ok {
		return fail(resp, protocol.RespTopicNotExist, "topic["+hdr.Topic+"] not exist, apply first please!"+protocol.FAQSuggestTodo), nil
	}
	if hdr.QueueId >= max(tc.WriteQueueNums, tc.ReadQueueNums) {
		return fail(resp, protocol.RespSystemError, fmt.Sprintf("request queueId[%d] is illegal, %s Producer: %s",
			hdr.QueueId, topicConfigString(tc), c.RemoteAddr())), nil
	}
	return resp, nil
}

// topicForSend finds the topic or auto-creates it as msgCheck does. Only
// the creation needs the default topic and its queue count: without them
// Java's createTopicInSendMessageMethod throws (SYSTEM_ERROR). An empty
// default topic is another matter: no such topic, so none is created.
func (h *sendHandlers) topicForSend(c *remoting.Conn, hdr *protocol.SendMessageRequestHeader) (config.TopicConfig, bool, error) {
	if tc, ok := h.topics.Select(hdr.Topic); ok {
		return tc, true, nil
	}
	if !hdr.DefaultTopicQueueNums.Valid {
		return config.TopicConfig{}, false, protocol.ErrFieldNull("defaultTopicQueueNums")
	}
	if !hdr.DefaultTopic.Valid {
		return config.TopicConfig{}, false, protocol.ErrFieldNull("defaultTopic")
	}
	var sysFlag int32
	if hdr.UnitMode {
		sysFlag = topics.SysFlagUnit
		if strings.HasPrefix(hdr.Topic, groups.RetryTopicPrefix) {
			sysFlag = topics.SysFlagUnitSub
		}
	}
	h.log.WithField("topic", hdr.Topic).WithField("producer", c.RemoteAddr()).Warn("the topic not exist")
	tc, ok, err := h.topics.CreateInSendMessage(hdr.Topic, hdr.DefaultTopic.Value, c.RemoteAddr(), hdr.DefaultTopicQueueNums.Value, sysFlag)
	if err != nil {
		h.log.WithError(err).Error("create topic in send")
	}
	if !ok && strings.HasPrefix(hdr.Topic, groups.RetryTopicPrefix) {
		tc, ok, err = h.topics.CreateInSendMessageBack(hdr.Topic, 1, topics.PermRW, sysFlag)
		if err != nil {
			h.log.WithError(err).Error("create retry topic in send")
		}
	}
	return tc, ok, nil
}

func fail(resp *wire.Command, code protocol.ResponseCode, remark string) *wire.Command {
	resp.Code = int32(code)
	resp.Remark = remark
	return resp
}

// sendOne stores a single message (Java asyncSendMessage).
func (h *sendHandlers) sendOne(c *remoting.Conn, req, resp *wire.Command, hdr *protocol.SendMessageRequestHeader,
	tc config.TopicConfig, queueID int32, born message.Host) (*wire.Command, error) {
	m := &store.Message{
		Topic: hdr.Topic, QueueID: queueID, Flag: hdr.Flag, Body: req.Body,
		BornTimestamp: hdr.BornTimestamp, BornHost: born, StoreHost: h.storeHost,
		ReconsumeTimes: hdr.ReconsumeTimes.Or(0),
	}
	if done := h.retryAndDLQ(req, resp, hdr, m, &tc); done {
		return resp, nil
	}
	m.SysFlag = sysFlagFor(hdr.SysFlag, tc)
	m.Properties = message.SendProperties(nil, hdr.Properties, h.set.ClusterName, false)
	wait, hasWait := message.LookupPropertyString(hdr.Properties, message.PropWait)
	m.WaitStoreMsgOK = !hasWait || javalang.ParseBool(wait) // Message.isWaitStoreMsgOK: absent means true
	m.WaitProperty = wait
	if tran, _ := message.LookupPropertyString(hdr.Properties, message.PropTranMsg); javalang.ParseBool(tran) {
		if h.set.RejectTransactionMessage {
			return fail(resp, protocol.RespNoPermission, "the broker["+h.set.BrokerIP1+"] sending transaction message is forbidden"), nil
		}
		m = halfMessage(m)
	}
	r, deferred := h.store.PutMessageDeferring(m)
	return h.answer(c, resp, m.Topic, queueID, r, deferred), nil
}

// sendBatch stores a batch (Java asyncSendBatchMessage).
func (h *sendHandlers) sendBatch(c *remoting.Conn, req, resp *wire.Command, hdr *protocol.SendMessageRequestHeader,
	tc config.TopicConfig, queueID int32, born message.Host) (*wire.Command, error) {
	if len(hdr.Topic) > message.MaxTopicLen {
		return fail(resp, protocol.RespMessageIllegal, "message topic length too long "+strconv.Itoa(len(hdr.Topic))), nil
	}
	wait, hasWait := message.LookupPropertyString(hdr.Properties, message.PropWait)
	b := &store.Batch{
		Template: message.BatchTemplate{
			Topic: hdr.Topic, QueueID: queueID, BornTimestamp: hdr.BornTimestamp, BornHost: born,
			StoreHost: h.storeHost, ReconsumeTimes: hdr.ReconsumeTimes.Or(0),
			Properties: message.SendProperties(nil, hdr.Properties, h.set.ClusterName, true),
		},
		Body:           req.Body,
		SysFlag:        sysFlagFor(hdr.SysFlag, tc),
		WaitStoreMsgOK: !hasWait || javalang.ParseBool(wait),
	}
	r, deferred := h.store.PutMessagesDeferring(b)
	return h.answer(c, resp, hdr.Topic, queueID, r, deferred), nil
}

func sysFlagFor(sysFlag int32, tc config.TopicConfig) int32 {
	if tc.TopicFilterType == config.MultiTag {
		sysFlag |= message.FlagMultiTags
	}
	return sysFlag
}

// answer is the response to a put: at once, or, for a put deferred until
// it is durable (SYNC_FLUSH), nil now and the response sent through the
// connection from the flush goroutine.
func (h *sendHandlers) answer(c *remoting.Conn, resp *wire.Command, topic string, queueID int32, r store.PutResult, deferred bool) *wire.Command {
	if !deferred {
		return h.putResponse(resp, topic, r, queueID)
	}
	h.store.AwaitFlushed(r, func(r store.PutResult) { _ = c.Send(h.putResponse(resp, topic, r, queueID)) })
	return nil
}

// putResponse is Java handlePutMessageResult, which also counts the
// stored messages in the topic's statistics.
func (h *sendHandlers) putResponse(resp *wire.Command, topic string, r store.PutResult, queueID int32) *wire.Command {
	code, remark, ok := putStatusResponse(r.Status, h.store.Config())
	resp.Code, resp.Remark = int32(code), remark
	if !ok {
		return resp
	}
	h.countPut(topic, r)
	rh := protocol.SendMessageResponseHeader{MsgId: h.msgIDs(r), QueueId: queueID, QueueOffset: r.QueueOffset}
	rh.EncodeTo(resp)
	return resp
}

// countPut adds a stored put to the statistics of the topic it went to
// (for a delayed message, SCHEDULE_TOPIC_XXXX, as Java, whose put changes
// the message's topic before the count; its topic counts it when it is
// delivered) and of the broker.
func (h *sendHandlers) countPut(topic string, r store.PutResult) {
	if r.Topic != "" {
		topic = r.Topic
	}
	h.stats.TopicPut(topic, int32(max(r.Count, 1)), int64(r.WroteBytes))
}

// msgIDs is the offset message id, or for a batch the ids of all its
// records joined with commas (AppendMessageResult.getMsgId).
func (h *sendHandlers) msgIDs(r store.PutResult) string {
	if r.Count <= 1 {
		return message.OffsetMsgID(h.storeHost, r.WroteOffset)
	}
	ids := make([]string, 0, r.Count)
	off := r.WroteOffset
	for range r.Count {
		ids = append(ids, message.OffsetMsgID(h.storeHost, off))
		v, ok := h.store.SelectOneMessage(off)
		if !ok {
			break
		}
		off += int64(len(v.B))
		v.Release()
	}
	return strings.Join(ids, ",")
}

// putStatusResponse maps a put status to the response code and remark
// (Java handlePutMessageResult); ok says the message was stored.
func putStatusResponse(st store.PutStatus, cfg *store.Config) (protocol.ResponseCode, string, bool) {
	switch st {
	case store.PutOK:
		return protocol.RespSuccess, "", true
	case store.FlushDiskTimeout:
		return protocol.RespFlushDiskTimeout, "", true
	case store.FlushSlaveTimeout:
		return protocol.RespFlushSlaveTimeout, "", true
	case store.SlaveNotAvailable:
		return protocol.RespSlaveNotAvailable, "", true
	case store.CreateMappedFileFailed:
		return protocol.RespSystemError, "create mapped file failed, server is busy or broken.", false
	case store.MessageIllegal, store.PropertiesSizeExceeded:
		return protocol.RespMessageIllegal, fmt.Sprintf("the message is illegal, maybe msg body or properties length not matched. msg body length limit %dB, msg properties length limit 32KB.", cfg.MaxMessageSize), false
	case store.ServiceNotAvailable:
		return protocol.RespServiceNotAvailable, "service not available now. It may be caused by one of the following reasons: the broker's disk is full [" +
			diskUtil(cfg) + "], messages are put to the slave, message store has been shut down, etc.", false
	case store.OSPageCacheBusy:
		return protocol.RespSystemError, "[PC_SYNCHRONIZED]broker busy, start flow control for a while", false
	case store.LmqConsumeQueueNumExceeded:
		return protocol.RespSystemError, "[LMQ_CONSUME_QUEUE_NUM_EXCEEDED]broker config enableLmq and enableMultiDispatch, lmq consumeQueue num exceed maxLmqConsumeQueueNum config num, default limit 2w.", false
	case store.UnknownError:
		return protocol.RespSystemError, "UNKNOWN_ERROR", false
	}
	return protocol.RespSystemError, "UNKNOWN_ERROR DEFAULT", false
}

// retryAndDLQ is Java handleRetryAndDLQ: a retry-topic message of a known
// group goes to the group's DLQ once it has been reconsumed too often. It
// reports true when resp already holds the (error) answer.
func (h *sendHandlers) retryAndDLQ(req, resp *wire.Command, hdr *protocol.SendMessageRequestHeader, m *store.Message, tc *config.TopicConfig) bool {
	if !strings.HasPrefix(hdr.Topic, groups.RetryTopicPrefix) {
		return false
	}
	group := strings.TrimPrefix(hdr.Topic, groups.RetryTopicPrefix)
	sg, ok := h.groups.FindSubscriptionGroup(group)
	if !ok {
		fail(resp, protocol.RespSubscriptionGroupNotExist, "subscription group not exist, "+group+" "+protocol.FAQSuggestTodo)
		return true
	}
	maxTimes := sg.RetryMaxTimes
	if req.Version >= wire.VersionV3_4_9 && hdr.MaxReconsumeTimes.Valid {
		maxTimes = hdr.MaxReconsumeTimes.Value
	}
	if hdr.ReconsumeTimes.Or(0) < maxTimes {
		return false
	}
	dlq := groups.DLQTopic(group)
	dtc, ok, err := h.topics.CreateInSendMessageBack(dlq, dlqNumsPerGroup, topics.PermRW, 0)
	if err != nil || !ok {
		fail(resp, protocol.RespSystemError, "topic["+dlq+"] not exist")
		return true
	}
	*tc = dtc
	m.Topic, m.QueueID = dlq, rand.Int32N(99999999)%dlqNumsPerGroup
	hdr.Properties = withoutDelay(hdr.Properties)
	return false
}

// withoutDelay drops the DELAY property (Java msg.setDelayTimeLevel(0)
// writes "0", which the store ignores).
func withoutDelay(props string) string {
	p := message.ParsePropertiesString(props)
	if _, ok := p.Get(message.PropDelay); !ok {
		return props
	}
	p.Set(message.PropDelay, "0")
	return string(message.AppendProperties(nil, p))
}

// halfMessage is TransactionalMessageBridge.parseHalfMessageInner: the
// prepared message waits in RMQ_SYS_TRANS_HALF_TOPIC queue 0, its real
// topic and queue kept in properties, its transaction type cleared.
func halfMessage(m *store.Message) *store.Message {
	h := *m
	p := m.PropertyMap()
	p.Set(message.PropRealTopic, m.Topic)
	p.Set(message.PropRealQueueID, strconv.Itoa(int(m.QueueID)))
	h.Properties = message.AppendProperties(nil, p.HashMapOrder())
	h.SysFlag = message.SetTransactionType(m.SysFlag, message.TransactionNotType)
	h.Topic, h.QueueID = topics.TransHalfTopic, 0
	return &h
}

// hostOf parses a connection's remote address (born host), unmapping
// IPv4-in-IPv6 as Java does.
func hostOf(addr string) (message.Host, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		host, port, splitErr := net.SplitHostPort(addr)
		if splitErr != nil {
			return message.Host{}, fmt.Errorf("broker: remote address %q: %w", addr, err)
		}
		a, err := netip.ParseAddr(host)
		if err != nil {
			return message.Host{}, fmt.Errorf("broker: remote address %q: %w", addr, err)
		}
		p, _ := strconv.Atoi(port)
		return message.Host{Addr: a.Unmap(), Port: int32(p)}, nil
	}
	return message.Host{Addr: ap.Addr().Unmap(), Port: int32(ap.Port())}, nil
}

// topicConfigString is TopicConfig.toString.
func topicConfigString(tc config.TopicConfig) string {
	return fmt.Sprintf("TopicConfig [topicName=%s, readQueueNums=%d, writeQueueNums=%d, perm=%s, topicFilterType=%s, topicSysFlag=%d, order=%t]",
		tc.TopicName, tc.ReadQueueNums, tc.WriteQueueNums, topics.PermString(tc.Perm), tc.TopicFilterType, tc.TopicSysFlag, tc.Order)
}
