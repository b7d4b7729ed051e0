package commitlog

import (
	"errors"
	"sync"
	"time"
)

// flusher makes appended data durable, in one of Java's two ways:
//   - async (FlushRealTimeService): every FlushInterval, or when woken by
//     an append unless FlushTimed, flush when at least FlushLeastPages
//     pages are dirty, and everything every FlushThoroughInterval;
//   - sync (GroupCommitService): woken by appends, flush everything; all
//     waiters whose data is then durable are released together (group
//     commit), and waiters past SyncFlushTimeout get ErrFlushTimeout.
//
// After a flush of everything it records the log's durable store time in
// the checkpoint, when one is attached.
type flusher struct {
	c    *CommitLog
	wake chan struct{}
	done chan struct{}
	wg   sync.WaitGroup

	mu      sync.Mutex
	waiters []waiter // in offset order: appends are
	err     error    // sticky flush error
	stopped bool

	checkpoint *Checkpoint
}

type waiter struct {
	end      int64
	deadline time.Time
	fn       func(error)
}

func newFlusher(c *CommitLog) *flusher {
	return &flusher{c: c, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

func (f *flusher) start() {
	f.wg.Add(1)
	go f.run()
}

// appended nudges the flusher after an append.
func (f *flusher) appended() {
	if f.c.cfg.SyncFlush || !f.c.cfg.FlushTimed {
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
}

func (f *flusher) run() {
	defer f.wg.Done()
	interval := f.c.cfg.FlushInterval
	if f.c.cfg.SyncFlush {
		interval = 10 * time.Millisecond // GroupCommitService waits 10 ms
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	lastThorough := time.Now()
	for {
		select {
		case <-f.done:
			f.flushAll()
			return
		case <-f.wake:
		case <-tick.C:
		}
		if f.c.cfg.SyncFlush || time.Since(lastThorough) >= f.c.cfg.FlushThoroughInterval {
			lastThorough = time.Now()
			f.flushAll()
		} else {
			f.flushSome(f.c.cfg.FlushLeastPages)
		}
	}
}

// flushSome flushes segments with at least leastPages dirty pages.
func (f *flusher) flushSome(leastPages int) {
	for {
		progressed, err := f.c.q.Flush(leastPages)
		if err != nil {
			f.fail(err)
			return
		}
		if !progressed {
			f.release(f.c.q.FlushedWhere(), time.Now())
			return
		}
	}
}

// flushAll makes everything durable and releases the waiters.
func (f *flusher) flushAll() {
	if err := f.c.q.FlushAll(); err != nil {
		f.fail(err)
		return
	}
	if cp := f.checkpoint; cp != nil {
		if ts := f.c.q.FlushTimestamp(); ts > 0 {
			cp.SetPhysic(ts)
		}
	}
	f.release(f.c.q.FlushedWhere(), time.Now())
}

// release calls the waiters whose data is durable and those past their
// deadline.
func (f *flusher) release(flushed int64, now time.Time) {
	f.mu.Lock()
	var ready []waiter
	keep := f.waiters[:0]
	for _, w := range f.waiters {
		switch {
		case w.end <= flushed:
			ready = append(ready, w)
		case now.After(w.deadline):
			w.fn = timeoutOf(w.fn)
			ready = append(ready, w)
		default:
			keep = append(keep, w)
		}
	}
	f.waiters = keep
	f.mu.Unlock()
	for _, w := range ready {
		w.fn(nil)
	}
}

func timeoutOf(fn func(error)) func(error) {
	return func(error) { fn(ErrFlushTimeout) }
}

// fail makes a flush error sticky and fails every waiter.
func (f *flusher) fail(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	ws := f.waiters
	f.waiters = nil
	f.mu.Unlock()
	f.c.cfg.Log.WithError(err).Error("commit log flush failed")
	for _, w := range ws {
		w.fn(err)
	}
}

// onFlushed calls fn once the log is durable up to end, with
// ErrFlushTimeout after timeout, or with the flush error.
func (f *flusher) onFlushed(end int64, timeout time.Duration, fn func(error)) {
	if f.c.q.FlushedWhere() >= end {
		fn(nil)
		return
	}
	f.mu.Lock()
	if err := f.err; err != nil || f.stopped {
		f.mu.Unlock()
		fn(errors.Join(err, ErrClosed))
		return
	}
	f.waiters = append(f.waiters, waiter{end: end, deadline: time.Now().Add(timeout), fn: fn})
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *flusher) stop() error {
	f.mu.Lock()
	if f.stopped {
		f.mu.Unlock()
		return f.err
	}
	f.stopped = true
	f.mu.Unlock()
	select {
	case <-f.done:
	default:
		close(f.done)
	}
	f.wg.Wait()
	if f.err == nil {
		f.flushAll() // not started: still flush
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range f.waiters {
		w.fn(ErrClosed)
	}
	f.waiters = nil
	return f.err
}

// AttachCheckpoint makes flushes of everything record the log's durable
// store time.
func (c *CommitLog) AttachCheckpoint(cp *Checkpoint) { c.flush.checkpoint = cp }

// OnFlushed calls fn (on the flush goroutine, or at once) when the log is
// durable up to end, or with ErrFlushTimeout when that takes longer than
// the sync-flush timeout. For SYNC_FLUSH puts that wait for the store.
func (c *CommitLog) OnFlushed(end int64, fn func(error)) {
	c.flush.onFlushed(end, c.cfg.SyncFlushTimeout, fn)
}

// WaitFlushed blocks until OnFlushed would call back.
func (c *CommitLog) WaitFlushed(end int64) error {
	ch := make(chan error, 1)
	c.OnFlushed(end, func(err error) { ch <- err })
	return <-ch
}

// Flush makes everything appended so far durable now (Java flush()).
func (c *CommitLog) Flush() error {
	if err := c.q.FlushAll(); err != nil {
		return err
	}
	c.flush.release(c.q.FlushedWhere(), time.Now())
	return nil
}
