package commitlog

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

// Staged appends (Java transientStorePoolEnable, only for an async-flush
// master): records are copied into a staging buffer in memory and a
// committer writes them to the segment files with pwrite(2) (Java
// CommitRealTimeService committing MappedFile.writeBuffer to the file
// channel); readers and the flusher see only what is committed.
//
// Java gives each new segment a whole segment-sized direct buffer from a
// pool of transientStorePoolSize (5 GiB, mlocked, with 1 GiB segments).
// Sputnik stages through one ring: a shared-memory file of ringSize bytes
// mapped twice back to back, so a record that wraps past the end is still
// one contiguous slice. The ring holds the log's bytes [committed,
// written) at offset mod size; an append that would overrun it commits
// first. The ring's pages are reused, so copying into it faults only the
// first time round, and the committer's pwrites fill the page cache
// without the kernel zeroing each new page first, as a write through the
// mapping makes it do (whole pages only; the partial pages at either end
// of a commit are read-modify-written).
//
// Like Java, and unlike appends through the mapping, staged data not yet
// committed is lost if the process is killed.

// defaultRingSize is the ring's size unless a record needs more.
const defaultRingSize = 16 << 20

// ring is the mapped staging memory (stage_linux.go).
type ring interface {
	// at returns n bytes of the ring at offset off (mod its size); n must
	// not exceed the size.
	at(off int64, n int) []byte
	size() int64
	close() error
}

type stage struct {
	r ring
	q *segment.Queue

	commitMu  sync.Mutex   // one commit at a time
	written   atomic.Int64 // log offset just past the staged bytes
	committed atomic.Int64 // log offset up to which they are in the files
	stamp     atomic.Int64 // store time of the newest staged record
}

// ringSizeFor is a ring that holds at least two of the largest puts (a
// record and the end-of-file blank before it), in whole pages.
func ringSizeFor(maxMessageSize int) int64 {
	maxPut := int64(message.MaxRecordSize(maxMessageSize)) + message.BlankSize
	n := max(int64(defaultRingSize), 2*maxPut)
	return (n + segment.PageSize - 1) &^ (segment.PageSize - 1)
}

func newStage(q *segment.Queue, size int64) (*stage, error) {
	r, err := mapRing(size)
	if err != nil {
		return nil, fmt.Errorf("commitlog: staging ring of %d bytes: %w", size, err)
	}
	return &stage{r: r, q: q}, nil
}

// pending is how many staged bytes are not committed yet.
func (s *stage) pending() int64 { return s.written.Load() - s.committed.Load() }

// reserve returns the ring slice for n bytes staged at log offset off,
// committing first when the ring has no room for them. off must follow
// the staged bytes, or start a new run when nothing is pending.
// The append lock must be held.
func (s *stage) reserve(off int64, n int) ([]byte, error) {
	if int64(n) > s.r.size() {
		return nil, fmt.Errorf("%w: %d bytes, staging ring %d", ErrTooLarge, n, s.r.size())
	}
	if s.written.Load() != off {
		if err := s.commit(0); err != nil {
			return nil, err
		}
		if p := s.pending(); p != 0 {
			return nil, fmt.Errorf("commitlog: staging at %d with %d bytes pending before %d", off, p, s.written.Load())
		}
		s.commitMu.Lock()
		s.committed.Store(off)
		s.written.Store(off)
		s.commitMu.Unlock()
	}
	if s.pending()+int64(n) > s.r.size() {
		if err := s.commit(0); err != nil { // all of it: then n fits
			return nil, err
		}
	}
	return s.r.at(off, n), nil
}

// staged publishes n bytes filled at the end of the ring, whose newest
// record was stamped at ts. The append lock must be held.
func (s *stage) staged(n int, ts int64) {
	s.written.Add(int64(n))
	s.stamp.Store(ts)
}

// commit writes the pending bytes to the segment files when at least
// leastPages pages are pending or a segment's end is (Java
// MappedFile.isAbleToCommit; 0 commits anything pending).
func (s *stage) commit(leastPages int) error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	ts := s.stamp.Load() // before written: every byte of that record is staged by then
	from, to := s.committed.Load(), s.written.Load()
	if !s.worthCommitting(from, to, leastPages) {
		return nil
	}
	for from < to {
		seg := s.q.Find(from)
		if seg == nil {
			return fmt.Errorf("commitlog: no segment holds staged offset %d", from)
		}
		// One write per segment: what it commits becomes readable at once,
		// so it must end on a record boundary (a staged put always does,
		// and records never span segments).
		n := min(to, seg.End()) - from
		if err := seg.Commit(s.r.at(from, int(n)), ts); err != nil {
			return err
		}
		from += n
		s.committed.Store(from)
	}
	return nil
}

func (s *stage) worthCommitting(from, to int64, leastPages int) bool {
	if to == from {
		return false
	}
	size := s.q.SegmentSize()
	if leastPages <= 0 || (to-1)/size != from/size || to%size == 0 {
		return true // anything, or a full segment
	}
	return to/segment.PageSize-from/segment.PageSize >= int64(leastPages)
}

// committer is the background commit service (Java CommitRealTimeService):
// woken by appends and every interval, it commits when at least leastPages
// pages are pending, everything once thorough has passed since the last
// commit, then wakes the flusher.
type committer struct {
	c    *CommitLog
	s    *stage
	wake chan struct{}
	done chan struct{}
	wg   sync.WaitGroup
}

func newCommitter(c *CommitLog, s *stage) *committer {
	return &committer{c: c, s: s, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

func (m *committer) start() {
	m.wg.Add(1)
	go m.run()
}

func (m *committer) appended() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *committer) run() {
	defer m.wg.Done()
	cfg := m.c.cfg
	tick := time.NewTicker(cfg.CommitInterval)
	defer tick.Stop()
	var last time.Time
	for {
		select {
		case <-m.done:
			return
		case <-m.wake:
		case <-tick.C:
		}
		least := cfg.CommitLeastPages
		if now := time.Now(); now.Sub(last) >= cfg.CommitThoroughInterval {
			last, least = now, 0
		}
		before := m.s.committed.Load()
		if err := m.s.commit(least); err != nil {
			m.c.cfg.Log.WithError(err).Error("commit log commit failed")
			continue
		}
		if m.s.committed.Load() != before {
			last = time.Now()
			m.c.flush.appended()
			if cfg.Committed != nil {
				cfg.Committed()
			}
		}
	}
}

// stop ends the service and commits everything staged.
func (m *committer) stop() error {
	select {
	case <-m.done:
	default:
		close(m.done)
	}
	m.wg.Wait()
	return m.s.commit(0)
}
