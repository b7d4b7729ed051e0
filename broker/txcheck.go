package broker

// The transaction check (Java TransactionalMessageCheckService with
// TransactionalMessageServiceImpl.check and
// DefaultTransactionalMessageCheckListener, 4.9.8): every
// transactionCheckInterval a master walks each half queue from the
// CID_RMQ_SYS_TRANS group's offset. A half message marked done by an op
// message ("d" + its queue offset) is passed over; one older than
// transactionTimeOut (or its CHECK_IMMUNITY_TIME_IN_SECONDS) whose state
// is still unknown is written again at the end of the half queue with
// TRANSACTION_CHECK_TIMES counted up, and a producer of its group is asked
// with CHECK_TRANSACTION_STATE (oneway, the message in the body); the
// producer answers with END_TRANSACTION. After transactionCheckMax checks,
// or once older than fileReservedTime, a half message goes to
// TRANS_CHECK_MAX_TIME_TOPIC instead. The group's offsets of the half and
// op queues record how far the walk got.
//
// Better than Java: the half message written again keeps its flag,
// reconsume times and body as stored. Java's renewHalfMessageInner drops
// the flag and reconsume times, and stores the body decompressed while
// the compressed flag stays set, so a large (compressed) transactional
// message that went through a check is delivered with a body no client
// can decompress.

import (
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// Limits of TransactionalMessageServiceImpl.
const (
	txMaxProcessTime  = 60 * time.Second // MAX_PROCESS_TIME_LIMIT per queue and round
	txMaxNullRetries  = 1                // MAX_RETRY_COUNT_WHEN_HALF_NULL
	txOpPullBatch     = 32               // op messages read at a time
	txCheckMaxTimeQNs = 1                // TCMT_QUEUE_NUMS
)

type txChecker struct {
	store     *store.Store
	topics    *topics.Manager
	offsets   *offsets.Manager
	producers *clients.ProducerManager
	clients   clientCaller
	storeHost message.Host
	// Settings read at each round (broker config updates apply).
	timeout      func() time.Duration // transactionTimeOut
	checkMax     func() int32         // transactionCheckMax
	reservedTime func() time.Duration // fileReservedTime
	now          func() time.Time
	log          *logrus.Entry
}

// run checks every interval() until stop closes (Java waits the interval
// before the first round too).
func (c *txChecker) run(stop <-chan struct{}, interval func() time.Duration) {
	for {
		t := time.NewTimer(max(interval(), time.Millisecond))
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C:
			c.check()
		}
	}
}

// halfMsg is a half message read for a check: its record (fields copied
// out of the log) and its properties map, which the check updates.
type halfMsg struct {
	rec   message.Record
	props message.Properties
}

func (m *halfMsg) prop(key string) (string, bool) { return m.props.Get(key) }

// opPull is the part of a PullResult the walk reads.
type opPull struct {
	status   pullStatus
	next     int64
	msgs     []halfMsg // nil unless found
	lastBorn int64     // born time of the last message found
}

type pullStatus int

const (
	pullFound pullStatus = iota
	pullNoNew
	pullNoMatched
	pullIllegal
)

// pullOf is TransactionalMessageBridge.getMessage's status mapping.
func pullOf(s store.GetStatus) pullStatus {
	switch s {
	case store.Found:
		return pullFound
	case store.NoMatchedMessage:
		return pullNoMatched
	case store.NoMessageInQueue, store.OffsetOverflowOne:
		return pullNoNew
	}
	return pullIllegal
}

// check is one round over every half queue.
func (c *txChecker) check() {
	tc, _, err := c.topics.CreateInSendMessageBack(topics.TransHalfTopic, 1, topics.PermRW, 0)
	if err != nil {
		c.log.WithError(err).Warn("transaction check: half topic config")
	}
	for q := range max(tc.ReadQueueNums, 0) {
		c.checkQueue(q)
	}
}

// checkQueue walks one half queue (TransactionalMessageServiceImpl.check's
// loop body).
func (c *txChecker) checkQueue(q int32) {
	start := c.now()
	halfOffset := c.consumeOffset(topics.TransHalfTopic, q)
	opOffset := c.consumeOffset(topics.TransOpHalfTopic, q)
	if halfOffset < 0 || opOffset < 0 {
		return
	}
	timeout := c.timeout()
	var done []int64
	removed := map[int64]int64{} // half queue offset → op queue offset
	op := c.fillOpRemoveMap(removed, q, opOffset, halfOffset, &done)
	nullCount := 1
	newOffset, i := halfOffset, halfOffset
	for c.now().Sub(start) <= txMaxProcessTime {
		if opOff, ok := removed[i]; ok {
			delete(removed, i)
			done = append(done, opOff)
			newOffset, i = i+1, i+1
			continue
		}
		msg, res := c.readHalf(q, i)
		if msg == nil {
			nullCount++
			if nullCount-1 > txMaxNullRetries || res.status == pullNoNew {
				break
			}
			i, newOffset = res.next, res.next
			continue
		}
		if c.needDiscard(msg) || c.needSkip(msg) {
			c.discard(msg)
			newOffset, i = i+1, i+1
			continue
		}
		if msg.rec.StoreTimestamp >= start.UnixMilli() {
			break
		}
		age := c.now().UnixMilli() - msg.rec.BornTimestamp
		immunity := timeout.Milliseconds()
		if s, ok := msg.prop(message.PropCheckImmunityTime); ok {
			immunity = immunityTime(s, timeout)
			if age < immunity && c.checkPrepareQueueOffset(removed, &done, msg) {
				newOffset, i = i+1, i+1
				continue
			}
		} else if age >= 0 && age < immunity {
			break
		}
		needCheck := (op.msgs == nil && age > immunity) ||
			(op.msgs != nil && op.lastBorn-start.UnixMilli() > timeout.Milliseconds()) || age <= -1
		if !needCheck {
			op = c.fillOpRemoveMap(removed, q, op.next, halfOffset, &done)
			continue
		}
		if !c.putBack(msg) {
			continue // Java retries the same message until the round's time is up
		}
		c.askProducer(msg)
		newOffset, i = i+1, i+1
	}
	if newOffset != halfOffset {
		c.commit(topics.TransHalfTopic, q, newOffset)
	}
	if newOp := nextOpOffset(done, opOffset); newOp != opOffset {
		c.commit(topics.TransOpHalfTopic, q, newOp)
	}
}

// immunityTime is getImmunityTime: seconds from the property, -1 (or
// garbage) for the transaction timeout.
func immunityTime(s string, timeout time.Duration) int64 {
	v := parseLongOr(s, -1)
	if v == -1 {
		return timeout.Milliseconds()
	}
	return v * 1000
}

// parseLongOr is Long.parseLong, def when it throws (Java's getLong).
func parseLongOr(s string, def int64) int64 {
	v, err := javalang.ParseLong(s)
	if err != nil {
		return def
	}
	return v
}

// consumeOffset is fetchConsumeOffset: the group's offset, or the queue's
// minimum when it has none.
func (c *txChecker) consumeOffset(topic string, q int32) int64 {
	if off := c.offsets.Query(groups.TransCheckGroup, topic, q); off != -1 {
		return off
	}
	return c.store.MinOffsetInQueue(topic, q)
}

func (c *txChecker) commit(topic string, q int32, offset int64) {
	c.offsets.Commit(c.storeHost.String(), groups.TransCheckGroup, topic, q, offset)
}

// read pulls up to n messages of topic's queue q from offset
// (TransactionalMessageBridge.getMessage).
func (c *txChecker) read(topic string, q int32, offset int64, n int) opPull {
	res, err := c.store.GetMessage(groups.TransCheckGroup, topic, q, offset, n, nil)
	if err != nil {
		return opPull{status: pullIllegal, next: offset}
	}
	defer res.Release()
	out := opPull{status: pullOf(res.Status), next: res.NextBeginOffset}
	if out.status != pullFound {
		return out
	}
	for i, v := range res.Messages {
		rec, err := message.DecodeRecord(v.B, false)
		if err != nil {
			continue
		}
		rec.Body = append([]byte(nil), rec.Body...)
		rec.Properties = append([]byte(nil), rec.Properties...)
		rec.QueueOffset = res.QueueOffsets[i]
		out.msgs = append(out.msgs, halfMsg{rec: rec, props: message.ParseProperties(rec.Properties)})
		out.lastBorn = rec.BornTimestamp
	}
	return out
}

// readHalf is getHalfMsg: the half message at offset, or nil with the pull.
func (c *txChecker) readHalf(q int32, offset int64) (*halfMsg, opPull) {
	res := c.read(topics.TransHalfTopic, q, offset, 1)
	if len(res.msgs) == 0 {
		return nil, res
	}
	return &res.msgs[0], res
}

// fillOpRemoveMap reads the next op messages: those marking half messages
// below the walk's start are done already, the others go into removed.
func (c *txChecker) fillOpRemoveMap(removed map[int64]int64, q int32, from, minHalf int64, done *[]int64) opPull {
	res := c.read(topics.TransOpHalfTopic, q, from, txOpPullBatch)
	switch res.status {
	case pullIllegal, pullNoMatched:
		c.commit(topics.TransOpHalfTopic, q, res.next)
		return res
	case pullNoNew:
		return res
	}
	for _, op := range res.msgs {
		halfOffset := parseLongOr(string(op.rec.Body), -1)
		if tags, _ := op.prop(message.PropTags); tags != opRemoveTag {
			continue
		}
		if halfOffset < minHalf {
			*done = append(*done, op.rec.QueueOffset)
		} else {
			removed[halfOffset] = op.rec.QueueOffset
		}
	}
	return res
}

// nextOpOffset is calculateOpOffset: the op offset moves over the done
// op messages that follow it without a gap.
func nextOpOffset(done []int64, old int64) int64 {
	seen := make(map[int64]bool, len(done))
	for _, d := range done {
		seen[d] = true
	}
	next := old
	for seen[next] {
		next++
	}
	return next
}

// needDiscard counts the check in TRANSACTION_CHECK_TIMES, or reports that
// the message was checked transactionCheckMax times already.
func (c *txChecker) needDiscard(m *halfMsg) bool {
	times := int32(1)
	if s, ok := m.prop(message.PropTransactionCheckTimes); ok {
		var err error
		if times, err = javalang.ParseInt(s); err != nil {
			times = -1 // Java's getInt
		}
		if times >= c.checkMax() {
			return true
		}
		times++
	}
	m.props.Set(message.PropTransactionCheckTimes, strconv.Itoa(int(times)))
	return false
}

// needSkip: a half message born before the commit log's retention.
func (c *txChecker) needSkip(m *halfMsg) bool {
	return c.now().UnixMilli()-m.rec.BornTimestamp > c.reservedTime().Milliseconds()
}

// checkPrepareQueueOffset handles a message still within its immunity: done
// if the op queue marks the half message it was copied from, else written
// again to wait (false only for a bad prepared offset or a failed put).
func (c *txChecker) checkPrepareQueueOffset(removed map[int64]int64, done *[]int64, m *halfMsg) bool {
	s, ok := m.prop(message.PropTranPreparedQueueOff)
	if !ok {
		return c.putImmune(m)
	}
	prepared := parseLongOr(s, -1)
	if prepared == -1 {
		return false
	}
	if opOff, ok := removed[prepared]; ok {
		delete(removed, prepared)
		*done = append(*done, opOff)
		return true
	}
	return c.putImmune(m)
}

// renewed is renewHalfMessageInner (see the file comment for what is kept).
func (c *txChecker) renewed(m *halfMsg) *store.Message {
	return store.Rewritten(&m.rec, m.rec.Topic, m.rec.QueueID, m.props)
}

// putImmune is putImmunityMsgBackToHalfQueue: written again with the queue
// offset of the first copy in TRAN_PREPARED_QUEUE_OFFSET.
func (c *txChecker) putImmune(m *halfMsg) bool {
	if _, ok := m.prop(message.PropTranPreparedQueueOff); !ok {
		m.props.Set(message.PropTranPreparedQueueOff, strconv.FormatInt(m.rec.QueueOffset, 10))
	}
	return c.store.PutMessage(c.renewed(m)).Status == store.PutOK
}

// putBack is putBackHalfMsgQueue: the copy written at the end of the half
// queue becomes the message the producer is asked about.
func (c *txChecker) putBack(m *halfMsg) bool {
	r := c.store.PutMessage(c.renewed(m))
	if r.Status != store.PutOK {
		c.log.WithError(r.Err).WithField("status", r.Status).Warn("PutBackToHalfQueueReturnResult write failed")
		return false
	}
	m.rec.QueueOffset, m.rec.PhysicalOffset = r.QueueOffset, r.WroteOffset
	return true
}

// askProducer is sendCheckMessage: CHECK_TRANSACTION_STATE to one producer
// of the message's group, the message (under its real topic and queue) in
// the body.
func (c *txChecker) askProducer(m *halfMsg) {
	uniq, _ := m.prop(message.PropUniqKey)
	hdr := protocol.CheckTransactionStateRequestHeader{
		TranStateTableOffset: m.rec.QueueOffset, CommitLogOffset: m.rec.PhysicalOffset,
		MsgId: uniq, TransactionId: uniq, OffsetMsgId: message.OffsetMsgID(m.rec.StoreHost, m.rec.PhysicalOffset),
	}
	rec := m.rec
	rec.Topic, _ = m.prop(message.PropRealTopic)
	qid, _ := m.prop(message.PropRealQueueID)
	rec.QueueID = int32(parseLongOr(qid, 0))
	rec.Properties = message.AppendProperties(nil, m.props.HashMapOrder())
	group, _ := m.prop(message.PropProducerGroup)
	log := c.log.WithFields(logrus.Fields{"group": group, "msgId": uniq})
	ch, ok := c.producers.AvailableChannel(group)
	if !ok {
		log.Warn("Check transaction failed, channel is null.")
		return
	}
	body, err := message.AppendRecord(nil, &rec)
	if err != nil {
		log.WithError(err).Warn("Check transaction failed, message does not encode")
		return
	}
	req := wire.NewRequest(int32(protocol.ReqCheckTransactionState))
	hdr.EncodeTo(req)
	req.Body = body
	if err := c.clients.Oneway(ch, req); err != nil {
		log.WithError(err).Warn("Check transaction failed because invoke producer exception.")
	}
}

// discard is resolveDiscardMsg: the half message goes to
// TRANS_CHECK_MAX_TIME_TOPIC.
func (c *txChecker) discard(m *halfMsg) {
	c.log.WithFields(logrus.Fields{"msgId": message.OffsetMsgID(m.rec.StoreHost, m.rec.PhysicalOffset)}).
		Error("MsgExt want to discard")
	if _, _, err := c.topics.CreateInSendMessageBack(topics.TransCheckMaxTimeTopic, txCheckMaxTimeQNs, topics.PermRW, 0); err != nil {
		c.log.WithError(err).Warn("create " + topics.TransCheckMaxTimeTopic)
	}
	msg := c.renewed(m)
	msg.Topic, msg.QueueID = topics.TransCheckMaxTimeTopic, 0
	if r := c.store.PutMessage(msg); r.Status != store.PutOK {
		c.log.WithError(r.Err).Error("Put checked-too-many-time half message to TRANS_CHECK_MAXTIME_TOPIC error.")
	}
}
