package store

import (
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// Delivery pauses of Java's ScheduleMessageService.
const (
	scheduleFirstDelay = 1000 * time.Millisecond  // FIRST_DELAY_TIME
	scheduleWhile      = 100 * time.Millisecond   // DELAY_FOR_A_WHILE
	schedulePeriod     = 10000 * time.Millisecond // DELAY_FOR_A_PERIOD, after a failed put
)

// scheduler delivers delayed messages (Java ScheduleMessageService): one
// loop per delay level walks SCHEDULE_TOPIC_XXXX's queue for that level,
// puts every due message back to its real topic and queue, and remembers
// how far it got in delayOffset.json.
type scheduler struct {
	s       *Store
	mu      sync.Mutex
	offsets *config.DelayOffsets
	path    string
}

func newScheduler(s *Store) (*scheduler, error) {
	path := config.DelayOffsetPath(s.cfg.StorePathRootDir)
	offsets, found, err := config.Load(path, config.DecodeDelayOffsets)
	if err != nil {
		return nil, err
	}
	if !found {
		offsets = config.NewDelayOffsets()
	}
	return &scheduler{s: s, offsets: offsets, path: path}, nil
}

// correct is Java correctDelayOffset: offsets outside a queue's range are
// pulled back into it.
func (sc *scheduler) correct() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for level := int32(1); level <= sc.s.delays.Max(); level++ {
		off, ok := sc.offsets.Get(level)
		q := sc.s.cqs.Get(ScheduleTopic, QueueID(level))
		if !ok || q == nil {
			continue
		}
		if fixed := min(max(off, q.MinOffset()), q.MaxOffset()); fixed != off {
			sc.s.log.WithField("level", level).Warnf("correct delay offset from %d to %d", off, fixed)
			sc.offsets.Put(level, fixed)
		}
	}
}

func (sc *scheduler) offset(level int32) int64 {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	off, _ := sc.offsets.Get(level)
	return off
}

func (sc *scheduler) setOffset(level int32, off int64) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.offsets.Put(level, off)
}

// persist writes delayOffset.json.
func (sc *scheduler) persist() error {
	sc.mu.Lock()
	data := sc.offsets.Encode()
	sc.mu.Unlock()
	return config.Save(sc.path, data)
}

// run starts one loop per level and the persist timer.
func (sc *scheduler) run(stop <-chan struct{}) {
	var wg sync.WaitGroup
	for level := int32(1); level <= sc.s.delays.Max(); level++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc.levelLoop(stop, level)
		}()
	}
	tick := time.NewTicker(time.Duration(max(sc.s.cfg.FlushDelayOffsetInterval, 1)) * time.Millisecond)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-stop:
			done = true
		case <-tick.C:
		}
		if err := sc.persist(); err != nil {
			sc.s.log.WithError(err).Warn("persist delayOffset.json")
		}
	}
	wg.Wait()
}

func (sc *scheduler) levelLoop(stop <-chan struct{}, level int32) {
	wait := scheduleFirstDelay
	for {
		select {
		case <-stop:
			return
		case <-time.After(wait):
		}
		wait = sc.deliver(level)
	}
}

// deliver is DeliverDelayedMessageTimerTask.executeOnTimeup: it delivers
// what is due from the level's offset and returns how long to wait.
func (sc *scheduler) deliver(level int32) time.Duration {
	q := sc.s.cqs.Get(ScheduleTopic, QueueID(level))
	if q == nil {
		return scheduleWhile
	}
	offset := sc.offset(level)
	units, err := q.Read(offset)
	if err != nil {
		if min := q.MinOffset(); offset < min {
			sc.setOffset(level, min)
		}
		return scheduleWhile
	}
	defer units.Release()
	for i := 0; i < units.Len(); i++ {
		u, next := units.At(i), units.Offset(i)
		now := sc.s.opt.Now()
		due := sc.correctDeliverTime(now, u.TagsCode, level)
		if due > now {
			sc.setOffset(level, next)
			return time.Duration(due-now) * time.Millisecond
		}
		if !sc.deliverOne(u) {
			sc.setOffset(level, next)
			return schedulePeriod
		}
	}
	sc.setOffset(level, units.Offset(units.Len()))
	return scheduleWhile
}

// correctDeliverTime is correctDeliverTimestamp: a due time further away
// than the level's delay (a clock jump) is treated as due now.
func (sc *scheduler) correctDeliverTime(now, due int64, level int32) int64 {
	if due > sc.s.delays.DeliverAt(level, now) {
		return now
	}
	return due
}

// deliverOne puts one due message back to its real topic; false asks for
// a retry later. A missing or unreadable record is skipped, as Java does.
func (sc *scheduler) deliverOne(u consumequeue.Unit) bool {
	v, err := sc.s.cl.Read(u.Phy, int(u.Size))
	if err != nil {
		return true
	}
	m, ok := timeUp(v.B)
	v.Release()
	if !ok || m.Topic == TransHalfTopic {
		return true
	}
	r := sc.s.PutMessage(m)
	if r.Status != PutOK {
		sc.s.log.WithError(r.Err).WithField("topic", m.Topic).Error("schedule: put of a due message failed")
		return false
	}
	if f := sc.s.opt.OnScheduleDelivered; f != nil && sc.s.cfg.EnableScheduleMessageStats {
		f(m.Topic, r.WroteBytes)
	}
	return true
}

// timeUp is messageTimeup: the stored record becomes a message for its
// REAL_TOPIC/REAL_QID. Java writes the properties string before it clears
// DELAY from the map, so the stored string still carries DELAY (and the
// REAL_* keys); the put does not delay it again.
func timeUp(rec []byte) (*Message, bool) {
	r, err := message.DecodeRecord(rec, false)
	if err != nil {
		return nil, false
	}
	props := message.ParseProperties(r.Properties)
	topic, ok := props.Get(message.PropRealTopic)
	qid, ok2 := props.Get(message.PropRealQueueID)
	if !ok || !ok2 {
		return nil, false
	}
	queueID, err := javalang.ParseInt(qid)
	if err != nil {
		return nil, false
	}
	m := Rewritten(&r, topic, queueID, props)
	m.Body = append([]byte(nil), r.Body...) // rec is a view of the log
	m.NoDelay = true
	return m, true
}
