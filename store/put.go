package store

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/bytebufferpool"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/commitlog"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// PutStatus is Java's PutMessageStatus.
type PutStatus int

// The put statuses of 4.9.8, in Java's order.
const (
	PutOK PutStatus = iota
	FlushDiskTimeout
	FlushSlaveTimeout
	SlaveNotAvailable
	ServiceNotAvailable
	CreateMappedFileFailed
	MessageIllegal
	PropertiesSizeExceeded
	OSPageCacheBusy
	UnknownError
	LmqConsumeQueueNumExceeded
)

var putStatusNames = [...]string{
	"PUT_OK", "FLUSH_DISK_TIMEOUT", "FLUSH_SLAVE_TIMEOUT", "SLAVE_NOT_AVAILABLE",
	"SERVICE_NOT_AVAILABLE", "CREATE_MAPEDFILE_FAILED", "MESSAGE_ILLEGAL",
	"PROPERTIES_SIZE_EXCEEDED", "OS_PAGECACHE_BUSY", "UNKNOWN_ERROR",
	"LMQ_CONSUME_QUEUE_NUM_EXCEEDED",
}

func (s PutStatus) String() string {
	if int(s) < len(putStatusNames) {
		return putStatusNames[s]
	}
	return "PutStatus(" + strconv.Itoa(int(s)) + ")"
}

// Message is what the broker hands the store for one message (Java
// MessageExtBrokerInner): the record's fields before the store stamps
// offsets and time. Properties is the properties string as the broker
// built it (message.SendProperties).
type Message struct {
	Topic                     string
	QueueID                   int32
	Flag                      int32
	Body                      []byte
	Properties                []byte
	SysFlag                   int32
	BornTimestamp             int64
	BornHost                  message.Host
	StoreHost                 message.Host
	ReconsumeTimes            int32
	PreparedTransactionOffset int64
	// WaitProperty is the WAIT value Java keeps in the message's property
	// map although the broker leaves it out of the stored string ("" when
	// the request had none). Rewrites that rebuild the string from the map
	// (the delay-level rewrite, the transactional half message) bring it
	// back, as Java does.
	WaitProperty string
	// NoDelay ignores a DELAY property (a delayed message being delivered:
	// Java clears the level from its map but not from the stored string).
	NoDelay bool
	// WaitStoreMsgOK asks a SYNC_FLUSH store to answer only once the
	// message is durable (the WAIT property; Java isWaitStoreMsgOK).
	WaitStoreMsgOK bool
}

// Rewritten is a stored message written again, as the broker and the
// store rebuild a MessageExtBrokerInner from a MessageExt (a send-back, a
// delivered delay, a transaction commit, check or resume): r's body (as
// stored, shared with r), flag, system flag, born time and host, store
// host and reconsume times, for topic and queueID, with props written as
// its properties string in HashMap order.
func Rewritten(r *message.Record, topic string, queueID int32, props message.Properties) *Message {
	return &Message{
		Topic: topic, QueueID: queueID, Flag: r.Flag, Body: r.Body,
		Properties: message.AppendProperties(nil, props.HashMapOrder()), SysFlag: r.SysFlag,
		BornTimestamp: r.BornTimestamp, BornHost: r.BornHost, StoreHost: r.StoreHost,
		ReconsumeTimes: r.ReconsumeTimes,
	}
}

// PutResult is Java's PutMessageResult with its AppendMessageResult.
type PutResult struct {
	Status PutStatus
	commitlog.Result
	// Topic is the topic the message went to: SCHEDULE_TOPIC_XXXX for a
	// delayed one (Java's put changes the message's topic, and the send
	// processor counts the put under it). Empty for batches.
	Topic string
	// Err says what went wrong when Status is not PutOK.
	Err error

	waitFlush bool // the answer waits for the flush (SYNC_FLUSH)
	waitSlave bool // the answer waits for a slave (SYNC_MASTER)

	begun int64 // when the put began (store clock, ms), for its duration
}

// MsgID is the offset message id of the first record.
func (r *PutResult) MsgID(storeHost message.Host) string {
	return message.OffsetMsgID(storeHost, r.WroteOffset)
}

// Why a put is refused before it is tried (PutResult.Err with
// SERVICE_NOT_AVAILABLE or OS_PAGECACHE_BUSY).
var (
	errSlave          = errors.New("store: a slave takes no puts")
	errWriteFailed    = errors.New("store: a commit-log write or flush failed; puts refused until restart")
	errDiskFull       = errors.New("store: disk above the warning ratio; puts refused until space is freed")
	errDispatchFailed = errors.New("store: a consume-queue or index write failed; puts refused until dispatch succeeds")
	errPageCacheBusy  = errors.New("store: the commit-log lock is held past osPageCacheBusyTimeOutMills")
)

// checkStatus is Java checkStoreStatus, with the reason of a refusal.
func (s *Store) checkStatus() (PutStatus, error) {
	switch {
	case s.closed.Load() || !s.started.Load():
		return ServiceNotAvailable, ErrClosed
	case s.cfg.BrokerRole == Slave:
		return ServiceNotAvailable, errSlave
	}
	if err := s.writeRefusal(); err != nil {
		return ServiceNotAvailable, err
	}
	if s.OSPageCacheBusy() {
		return OSPageCacheBusy, errPageCacheBusy
	}
	return PutOK, nil
}

// writeRefusal is why the store's state refuses puts, nil when it takes
// them (Java RunningFlags.isWriteable).
func (s *Store) writeRefusal() error {
	switch {
	case !s.writable.Load():
		return errWriteFailed
	case s.clean.diskFull.Load():
		return errDiskFull
	case s.dispatchFailed.Load():
		return errDispatchFailed
	}
	return nil
}

// OSPageCacheBusy reports that an append has held the commit log's lock
// for more than osPageCacheBusyTimeOutMills: puts are refused with
// OS_PAGECACHE_BUSY meanwhile, and the broker turns sends away before
// queueing them (Java isOSPageCacheBusy).
func (s *Store) OSPageCacheBusy() bool {
	return s.cl != nil && s.cl.PageCacheBusy(s.opt.Now, s.cfg.OsPageCacheBusyTimeOutMills)
}

// LockTimeMills is how long the append in progress has held the commit
// log's lock, 0 when none does (Java lockTimeMills,
// pageCacheLockTimeMills in the runtime info).
func (s *Store) LockTimeMills() int64 {
	if s.cl == nil {
		return 0
	}
	return s.cl.LockHeld(s.opt.Now())
}

// PutMessage stores one message and, when the store syncs and the message
// asks to wait, returns once it is durable (Java putMessage).
func (s *Store) PutMessage(m *Message) PutResult {
	r, wait := s.putMessage(m)
	if !wait {
		return r
	}
	return s.awaitStored(r)
}

// awaitStored blocks until a deferred put is answered.
func (s *Store) awaitStored(r PutResult) PutResult {
	ch := make(chan PutResult, 1)
	s.AwaitFlushed(r, func(r PutResult) { ch <- r })
	return <-ch
}

// PutMessageDeferring stores one message and returns the result, unless
// the answer must wait until the message is durable (SYNC_FLUSH and
// WaitStoreMsgOK): then deferred is true and AwaitFlushed gives the final
// result (Java asyncPutMessage's future). A put answered at once costs no
// callback.
func (s *Store) PutMessageDeferring(m *Message) (r PutResult, deferred bool) {
	return s.putMessage(m)
}

// putMessage checks, encodes and appends one message; wait reports that
// the answer must wait for the flush (SYNC_FLUSH and WaitStoreMsgOK).
func (s *Store) putMessage(m *Message) (PutResult, bool) {
	if st, err := s.checkStatus(); st != PutOK {
		return PutResult{Status: st, Err: err}, false
	}
	if st, err := s.checkMessage(m); st != PutOK {
		return PutResult{Status: st, Err: err}, false
	}
	begun := s.opt.Now()
	m, err := s.applyDelay(m)
	if err != nil {
		return PutResult{Status: MessageIllegal, Err: err}, false
	}
	if !m.BornHost.Addr.IsValid() || !m.StoreHost.Addr.IsValid() {
		return PutResult{Status: MessageIllegal, Err: message.ErrHost}, false
	}
	// The record is encoded straight into the commit log under its lock
	// (checks above make the encode infallible); the body CRC is taken
	// outside.
	rec := s.recordOf(m)
	p := &commitlog.Put{
		Record:     &rec,
		QueueKey:   consumequeue.QueueKey(m.Topic, m.QueueID),
		Consumable: message.Consumable(m.SysFlag),
	}
	if st, err := s.prepareMultiDispatch(m, p); st != PutOK {
		return PutResult{Status: st, Err: err}, false
	}
	r, deferred := s.append(p, m.WaitStoreMsgOK, begun)
	r.Topic = m.Topic
	return r, deferred
}

// checkMessage is Java checkMessage plus the size checks of
// MessageExtEncoder.encode: topic over 127 and properties over 32767 (as
// Java counts them) are MESSAGE_ILLEGAL, properties over 32767 bytes are
// PROPERTIES_SIZE_EXCEEDED, a body over maxMessageSize or a record over
// maxMessageSize + 64 KiB is MESSAGE_ILLEGAL. Lengths Java counts in
// UTF-16 units are checked in bytes too, since those are what the record
// stores.
func (s *Store) checkMessage(m *Message) (PutStatus, error) {
	switch {
	case len(m.Topic) > message.MaxTopicLen:
		return MessageIllegal, fmt.Errorf("store: topic of %d bytes: %w", len(m.Topic), message.ErrTopicTooLong)
	case len(m.Properties) > message.MaxPropertiesLen:
		return PropertiesSizeExceeded, fmt.Errorf("store: %w", message.ErrPropertiesTooLong)
	case len(m.Body) > int(s.cfg.MaxMessageSize):
		return MessageIllegal, fmt.Errorf("store: body of %d bytes over maxMessageSize %d", len(m.Body), s.cfg.MaxMessageSize)
	}
	size := message.RecordSize(m.SysFlag|message.HostFlags(m.BornHost, m.StoreHost), len(m.Body), len(m.Topic), len(m.Properties))
	if size > message.MaxRecordSize(int(s.cfg.MaxMessageSize)) {
		return MessageIllegal, fmt.Errorf("store: record of %d bytes over maxMessageSize + 64 KiB", size)
	}
	return PutOK, nil
}

func (s *Store) recordOf(m *Message) message.Record {
	return message.Record{
		BodyCRC:       message.BodyCRC(m.Body),
		QueueID:       m.QueueID,
		Flag:          m.Flag,
		SysFlag:       m.SysFlag,
		BornTimestamp: m.BornTimestamp,
		BornHost:      m.BornHost,
		// StoreTimestamp is stamped under the append lock.
		StoreHost:                 m.StoreHost,
		ReconsumeTimes:            m.ReconsumeTimes,
		PreparedTransactionOffset: m.PreparedTransactionOffset,
		Body:                      m.Body,
		Topic:                     m.Topic,
		Properties:                m.Properties,
	}
}

// PropertyMap is the message's property map as Java holds it: the stored
// string's pairs plus WaitProperty.
func (m *Message) PropertyMap() message.Properties {
	props := message.ParseProperties(m.Properties)
	if m.WaitProperty != "" {
		if _, ok := props.Get(message.PropWait); !ok {
			props.Set(message.PropWait, m.WaitProperty)
		}
	}
	return props
}

// applyDelay is the delay-level rewrite of Java CommitLog.asyncPutMessage:
// a consumable message with DELAY > 0 goes to SCHEDULE_TOPIC_XXXX, queue
// level−1 (the level clamped to the highest), with REAL_TOPIC and REAL_QID
// added and the properties rewritten in HashMap order as Java's
// messageProperties2String does. The caller's message is not modified.
//
// Java parses DELAY with Integer.parseInt and fails the put with an
// exception when it is not a number; that is MESSAGE_ILLEGAL here.
func (s *Store) applyDelay(m *Message) (*Message, error) {
	if m.NoDelay || !message.Consumable(m.SysFlag) {
		return m, nil
	}
	raw, ok := message.LookupProperty(m.Properties, message.PropDelay)
	if !ok {
		return m, nil
	}
	level, err := javalang.ParseInt(javalang.DecodeUTF8(raw))
	if err != nil {
		return nil, fmt.Errorf("store: DELAY property: %w", err)
	}
	if level <= 0 {
		return m, nil
	}
	props := m.PropertyMap()
	if level > s.delays.Max() {
		level = s.delays.Max()
		props.Set(message.PropDelay, strconv.Itoa(int(level))) // Java setDelayTimeLevel
	}
	props.Set(message.PropRealTopic, m.Topic)
	props.Set(message.PropRealQueueID, strconv.Itoa(int(m.QueueID)))
	d := *m
	d.Properties = message.AppendProperties(nil, props.HashMapOrder())
	d.Topic = ScheduleTopic
	d.QueueID = QueueID(level)
	return &d, nil
}

// append writes the records and reports, waiting for durability when the
// store syncs and the put asks for it (Java submitFlushRequest). A put
// answered now is timed from begun (ms) now; one that waits, by flushed.
func (s *Store) append(p *commitlog.Put, wait bool, begun int64) (PutResult, bool) {
	res, err := s.cl.Append(p)
	if err != nil {
		s.stats.putFailed.Add(1)
		s.putTook(begun)
		return PutResult{Status: s.appendFailure(err), Err: err}, false
	}
	s.stats.putOK(res.Count, res.WroteBytes)
	s.reput.wake()
	s.replicated()
	r := PutResult{Status: PutOK, Result: res, begun: begun}
	if wait {
		s.planWaits(&r)
	}
	if r.waitFlush || r.waitSlave {
		return r, true
	}
	s.putTook(begun)
	return r, false
}

// planWaits decides what a put that asks to wait (WaitStoreMsgOK) waits
// for: the flush on a SYNC_FLUSH store (Java submitFlushRequest), a
// slave's confirmation on a SYNC_MASTER (submitReplicaRequest), which is
// SLAVE_NOT_AVAILABLE at once when no slave is connected or the slaves
// are more than haSlaveFallbehindMax behind.
func (s *Store) planWaits(r *PutResult) {
	r.waitFlush = s.cfg.FlushDiskType == SyncFlush
	if s.cfg.BrokerRole != SyncMaster {
		return
	}
	if m := s.ha.master.Load(); m != nil && m.SlaveOK(r.End()) {
		r.waitSlave = true
		return
	}
	r.Status = SlaveNotAvailable
}

// putTook counts a put that began at begun (ms) and is answered now.
func (s *Store) putTook(begun int64) { s.stats.latency.put(s.opt.Now() - begun) }

// AwaitFlushed calls done, from the flush goroutine, with the final result
// of a deferred put r once it is durable, or when the flush failed or
// timed out.
func (s *Store) AwaitFlushed(r PutResult, done func(PutResult)) {
	w := &putWaits{r: r, done: done}
	if r.waitFlush {
		w.pending.Add(1)
	}
	if r.waitSlave {
		w.pending.Add(1)
	}
	if r.waitFlush {
		s.cl.OnFlushed(r.End(), func(err error) { w.finish(s, false, s.flushErr(err), err) })
	}
	if r.waitSlave {
		timeout := time.Duration(s.cfg.SlaveTimeout) * time.Millisecond
		s.ha.master.Load().Await(r.End(), timeout, func(ok bool) {
			if ok {
				w.finish(s, true, PutOK, nil)
			} else {
				w.finish(s, true, FlushSlaveTimeout, errSlaveTimeout)
			}
		})
	}
}

// putWaits joins a deferred put's waits, which run at once (Java combines
// the flush and replica futures): the answer goes out when the last one
// ends, a slave's failure (or SLAVE_NOT_AVAILABLE) over the flush's.
type putWaits struct {
	r       PutResult
	done    func(PutResult)
	pending atomic.Int32
	mu      sync.Mutex
	flush   PutStatus
	flushEr error
}

// finish records one wait's outcome and answers after the last.
func (w *putWaits) finish(s *Store, slave bool, st PutStatus, err error) {
	w.mu.Lock()
	switch {
	case st == PutOK:
	case slave:
		w.r.Status, w.r.Err = st, err
	default:
		w.flush, w.flushEr = st, err
	}
	w.mu.Unlock()
	if w.pending.Add(-1) != 0 {
		return
	}
	r := w.r
	if r.Status == PutOK && w.flush != PutOK {
		r.Status, r.Err = w.flush, w.flushEr
	}
	s.putTook(r.begun)
	w.done(r)
}

// errSlaveTimeout is the error of a put no slave confirmed in time.
var errSlaveTimeout = errors.New("store: no slave confirmed the message within slaveTimeout")

// flushErr is the status of a put that waited for the flush: a timeout is
// FLUSH_DISK_TIMEOUT (the message is stored), a failed fsync also refuses
// further puts.
func (s *Store) flushErr(err error) PutStatus {
	switch {
	case err == nil:
		return PutOK
	case errors.Is(err, commitlog.ErrFlushTimeout):
	default:
		s.markNotWritable(err)
	}
	return FlushDiskTimeout
}

// appendFailure maps an append error to Java's status; write errors make
// the store refuse further puts until it is fixed (Java RunningFlags).
func (s *Store) appendFailure(err error) PutStatus {
	switch {
	case errors.Is(err, commitlog.ErrTooLarge):
		return MessageIllegal
	case errors.Is(err, commitlog.ErrCreateSegment):
		return CreateMappedFileFailed
	case errors.Is(err, commitlog.ErrClosed):
		return ServiceNotAvailable
	case errors.Is(err, commitlog.ErrRewrite):
		return UnknownError // the message's fault, not the store's
	}
	s.markNotWritable(err)
	return UnknownError
}

func (s *Store) markNotWritable(err error) {
	if s.writable.CompareAndSwap(true, false) {
		s.log.WithError(err).Error("store write failed; refusing puts")
	}
}

// Batch is a SEND_BATCH_MESSAGE put (Java MessageExtBatch): the wire batch
// body and the fields every entry shares.
type Batch struct {
	Template       message.BatchTemplate
	Body           []byte
	SysFlag        int32
	WaitStoreMsgOK bool
}

// PutMessages stores a batch (Java putMessages).
func (s *Store) PutMessages(b *Batch) PutResult {
	r, wait := s.putMessages(b)
	if !wait {
		return r
	}
	return s.awaitStored(r)
}

// PutMessagesDeferring stores a batch as PutMessageDeferring does a
// message: all entries in one queue, consecutive offsets, one store time.
// Like Java it refuses transactional batches, bodies over maxMessageSize
// and long topics (MESSAGE_ILLEGAL).
func (s *Store) PutMessagesDeferring(b *Batch) (r PutResult, deferred bool) {
	return s.putMessages(b)
}

func (s *Store) putMessages(b *Batch) (PutResult, bool) {
	if st, err := s.checkStatus(); st != PutOK {
		return PutResult{Status: st, Err: err}, false
	}
	if message.TransactionType(b.SysFlag) != 0 || len(b.Template.Topic) > message.MaxTopicLen ||
		len(b.Body) > int(s.cfg.MaxMessageSize) {
		return PutResult{Status: MessageIllegal, Err: errors.New("store: batch refused (transaction, size or topic)")}, false
	}
	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
	t := b.Template
	t.SysFlag = b.SysFlag
	begun := s.opt.Now()
	t.StoreTimestamp = begun
	var err error
	if buf.B, _, err = message.AppendBatchRecords(buf.B[:0], &t, b.Body); err != nil {
		return PutResult{Status: MessageIllegal, Err: err}, false
	}
	return s.append(&commitlog.Put{Records: buf.B, QueueKey: consumequeue.QueueKey(t.Topic, t.QueueID), Consumable: true}, b.WaitStoreMsgOK, begun)
}
