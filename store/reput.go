package store

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/store/message"
)

// reputService dispatches new commit-log records to the consume queues and
// the index, in log order, on one goroutine (Java ReputMessageService).
// Appends wake it; a slow tick covers anything missed.
type reputService struct {
	s       *Store
	from    atomic.Int64 // next commit-log offset to dispatch
	kick    chan struct{}
	pending atomic.Bool // a kick is queued and not yet taken
	dec     message.Decoder
	err     error // the dispatch failure that stopped progress, if any
}

func newReputService(s *Store, from int64) *reputService {
	r := &reputService{s: s, kick: make(chan struct{}, 1)}
	r.from.Store(from)
	return r
}

// wake nudges the dispatcher after an append; while a nudge is pending
// (the dispatcher has not started its next pass) further appends skip the
// channel.
func (r *reputService) wake() {
	if r.pending.Swap(true) {
		return
	}
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

func (r *reputService) behind() int64 { return r.s.cl.MaxOffset() - r.from.Load() }

// catchUp dispatches everything already in the log (Java start() waits for
// dispatchBehindBytes to reach 0 before it goes on).
func (r *reputService) catchUp() error {
	for r.behind() > 0 {
		before := r.from.Load()
		r.doReput()
		if r.err != nil {
			return r.err
		}
		if r.from.Load() == before {
			break // nothing dispatchable (a corrupt record on a slave)
		}
	}
	return nil
}

func (r *reputService) run(stop <-chan struct{}) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			r.doReput()
			return
		case <-r.kick:
		case <-tick.C:
		}
		r.pending.Store(false) // appends after this point kick again
		r.doReput()
	}
}

// doReput dispatches from r.from to the end of the log.
func (r *reputService) doReput() {
	cl := r.s.cl
	if min := cl.MinOffset(); r.from.Load() < min {
		r.s.log.WithField("reputFrom", r.from.Load()).Warn("dispatch fell behind the commit log's first file")
		r.from.Store(min)
	}
	for r.from.Load() < cl.MaxOffset() {
		v, err := cl.ReadFrom(r.from.Load())
		if err != nil {
			return
		}
		done := r.dispatchView(v.B)
		v.Release()
		if !done {
			return
		}
	}
}

// dispatchView dispatches the records of one segment's written tail
// starting at r.from; it reports whether dispatch may go on.
func (r *reputService) dispatchView(b []byte) bool {
	for pos := 0; pos < len(b); {
		rec, err := r.dec.Decode(b[pos:], false)
		switch {
		case errors.Is(err, message.ErrBlank):
			r.from.Store(r.s.cl.RollNextFile(r.from.Load()))
			return true
		case err != nil:
			return r.skipBad(err, len(b)-pos)
		}
		d, err := r.s.dispatch(&rec)
		if err != nil {
			r.fail(err)
			return false
		}
		if r.err != nil {
			r.resume()
		}
		r.s.notifyArrival(&rec, d)
		r.from.Add(int64(rec.TotalSize))
		pos += int(rec.TotalSize)
	}
	return true
}

// skipBad handles a record dispatch cannot read. Java skips the rest of
// the segment on a master (a record that cannot be read now never will)
// and waits on a slave (the bytes may still be arriving).
func (r *reputService) skipBad(err error, rest int) bool {
	if !r.s.opt.Master && errors.Is(err, message.ErrShort) {
		return false // a slave's record whose rest has not arrived yet
	}
	r.s.log.WithError(err).WithField("offset", r.from.Load()).Error("cannot dispatch commit-log record")
	if r.s.opt.Master {
		r.from.Add(int64(rest))
		return true
	}
	return false
}

// fail holds dispatch at a record whose consume-queue or index write
// failed and refuses puts meanwhile (Java makeLogicsQueueError /
// makeIndexFileError). The record is tried again every pass; Java gives
// up after 30 tries a second apart and then refuses puts until restarted,
// where Sputnik takes puts again as soon as the write succeeds (space back
// on a full disk).
func (r *reputService) fail(err error) {
	if r.err == nil {
		r.err = err
		r.s.log.WithError(err).WithField("offset", r.from.Load()).Error("dispatch failed; refusing puts until it succeeds")
	}
	r.s.dispatchFailed.Store(true)
}

// resume ends a failure: the record that failed is dispatched.
func (r *reputService) resume() {
	r.s.log.WithField("offset", r.from.Load()).Info("dispatch resumed; taking puts again")
	r.err = nil
	r.s.dispatchFailed.Store(false)
}
