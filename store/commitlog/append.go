package commitlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

// prefaultWindow is how far ahead of the write position the current
// segment's pages are faulted in, in the background.
const prefaultWindow = 8 << 20

// writeMin is the smallest put written with pwrite(2) rather than copied
// through the mapping.
const writeMin = 32 << 10

// Put is one append: a single record, or the records of a batch, encoded
// back to back (store/message), all for the same queue.
type Put struct {
	// Records are the encoded records; or, when Record is set, the record
	// to encode straight into the segment (one copy of the body instead of
	// two) under the append lock. Record must encode without error:
	// validate before appending.
	Records []byte
	Record  *message.Record
	// QueueKey is "topic-queueId", the counter the records take their
	// queue offsets from.
	QueueKey string
	// Consumable records (transaction types NOT_TYPE and COMMIT) take queue
	// offsets; PREPARED and ROLLBACK records are stamped with queue offset
	// 0 and leave the counter alone (Java doAppend).
	Consumable bool
	// MultiQueues, for a single Record, are the keys of the further queues
	// a multi-dispatch message enters (Java MultiDispatch): under the lock
	// Rewrite gets each one's next offset and returns the record to append
	// in Record's place (with the offsets among its properties), and a
	// consumable put then advances each of those counters by one.
	MultiQueues []string
	Rewrite     func(offsets []int64) (*message.Record, error)
}

// ErrRewrite: a multi-dispatch record could not be rewritten with its
// queue offsets (its properties grew too long); nothing was appended.
var ErrRewrite = errors.New("commitlog: multi-dispatch rewrite failed")

// Result says where a put landed.
type Result struct {
	WroteOffset    int64 // commit-log offset of the first record
	WroteBytes     int   // bytes of all records
	QueueOffset    int64 // queue offset of the first record
	StoreTimestamp int64 // the store time stamped on every record
	Count          int   // number of records
}

// End is the commit-log offset just past the put.
func (r Result) End() int64 { return r.WroteOffset + int64(r.WroteBytes) }

// Append places the records at the end of the log, stamping each with its
// queue offset, commit-log offset and the store time taken inside the
// lock (as Java does, so store times are ordered like offsets). A put that
// does not fit in the current segment with room for a blank record leaves
// an end-of-file blank there and goes to the next segment; a put that could
// never fit fails with ErrTooLarge. Durability is separate: see
// WaitFlushed and OnFlushed.
func (c *CommitLog) Append(p *Put) (Result, error) {
	n, err := c.putSize(p)
	if err != nil {
		return Result{}, err
	}
	c.mu.Lock()
	now := c.cfg.Now()
	c.lockedSince.Store(now)
	defer c.unlock()
	if c.closed {
		return Result{}, ErrClosed
	}
	rec, multi, multiAt, err := c.multiDispatch(p)
	if err != nil {
		return Result{}, err
	}
	if rec != p.Record {
		rewritten := *p
		rewritten.Record = rec
		p = &rewritten
		if n, err = c.putSize(p); err != nil {
			return Result{}, err
		}
	}
	seg, err := c.segmentFor(n)
	if err != nil {
		return Result{}, err
	}
	res := Result{WroteBytes: int(n), StoreTimestamp: now, WroteOffset: seg.Base() + seg.Wrote()}
	var next *int64 // the queue's counter
	if p.Consumable {
		next = c.queueCounter(p.QueueKey)
		res.QueueOffset = *next
	}
	if p.Record != nil && c.writes(seg, int(n)) {
		err = c.writeRecord(seg, p.Record, &res)
	} else {
		err = c.place(seg, int(n), res.StoreTimestamp, func(b []byte) {
			if p.Record != nil {
				_, _ = message.AppendRecord(b[:0:len(b)], p.Record)
			} else {
				copy(b, p.Records)
			}
			res.Count = stamp(b, res, p.Consumable)
		})
	}
	if err != nil {
		return Result{}, err
	}
	if next != nil {
		*next = res.QueueOffset + int64(res.Count)
		for i, m := range multi {
			*m = multiAt[i] + 1 // set, not added: a queue named twice takes one offset, as in Java
		}
	}
	c.appended()
	return res, nil
}

// putSize is the size p appends, or ErrTooLarge.
func (c *CommitLog) putSize(p *Put) (int64, error) {
	n := int64(len(p.Records))
	if p.Record != nil {
		n = int64(message.EncodedSize(p.Record))
	}
	if n == 0 || n+message.BlankSize > c.cfg.SegmentSize {
		return 0, fmt.Errorf("%w: %d bytes, segment size %d", ErrTooLarge, n, c.cfg.SegmentSize)
	}
	return n, nil
}

// multiDispatch returns the record p appends and, for a multi-dispatch
// put, the counters of its further queues (created at 0, as Java's
// wrapMultiDispatch does) and their offsets, after rewriting the record
// with them. The lock should be held.
func (c *CommitLog) multiDispatch(p *Put) (*message.Record, []*int64, []int64, error) {
	if len(p.MultiQueues) == 0 || p.Record == nil || p.Rewrite == nil {
		return p.Record, nil, nil, nil
	}
	counters := make([]*int64, len(p.MultiQueues))
	offsets := make([]int64, len(p.MultiQueues))
	for i, k := range p.MultiQueues {
		counters[i] = c.queueCounter(k)
		offsets[i] = *counters[i]
	}
	rec, err := p.Rewrite(offsets)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", ErrRewrite, err)
	}
	return rec, counters, offsets, nil
}

func (c *CommitLog) unlock() {
	c.lockedSince.Store(0)
	c.mu.Unlock()
}

// LockHeld is how long (ms, at now) the append in progress has held the
// append lock, 0 when none does (Java CommitLog.lockTimeMills).
func (c *CommitLog) LockHeld(now int64) int64 {
	if since := c.lockedSince.Load(); since > 0 {
		return max(now-since, 0)
	}
	return 0
}

// PageCacheBusy reports that an append has held the lock for more than
// limit ms (the clock read only then): the page cache, or the disk behind
// it, is stalling (Java DefaultMessageStore.isOSPageCacheBusy, which also
// ignores a hold of 10,000,000 ms or more, a clock that jumped).
func (c *CommitLog) PageCacheBusy(now func() int64, limit int64) bool {
	since := c.lockedSince.Load()
	if since == 0 {
		return false
	}
	held := now() - since
	return held > limit && held < 10_000_000
}

// queueCounter returns the next-offset counter of queue key, adding one at
// 0 for a new queue. Only a new queue's key is kept (a copy), so the put's
// key, usually built for the put, need not outlive it: a put then
// allocates nothing of its own. The lock should be held.
func (c *CommitLog) queueCounter(key string) *int64 {
	if n := c.queueOffsets[key]; n != nil {
		return n
	}
	n := new(int64)
	c.queueOffsets[strings.Clone(key)] = n
	return n
}

// place writes n bytes at the end of seg with fill: through the mapping;
// with pwrite(2) when n is writeMin or more; or into the staging ring when
// the log is staged and seg was started that way (a segment written
// through the mapping before a restart stays so, as Java gives a
// writeBuffer only to new files). Only through the mapping does fill see
// the file's bytes (zeros); otherwise b holds old data. The lock should
// be held.
func (c *CommitLog) place(seg *segment.Segment, n int, ts int64, fill func(b []byte)) error {
	switch {
	case c.stagedFor(seg):
		b, err := c.stage.reserve(seg.Base()+seg.Wrote(), n)
		if err != nil {
			return err
		}
		if _, err := seg.Reserve(n); err != nil {
			return err
		}
		fill(b)
		c.stage.staged(n, ts)
	case c.writes(seg, n):
		if cap(c.wbuf) < n {
			c.wbuf = make([]byte, n)
		}
		b := c.wbuf[:n]
		fill(b)
		if _, err := seg.Write(b); err != nil {
			return err
		}
	default:
		if _, err := seg.Append(n, fill); err != nil {
			return err
		}
		seg.Prefault(prefaultWindow)
	}
	seg.SetStoreTimestamp(ts)
	return nil
}

// writes reports whether n bytes go to seg with pwrite(2).
func (c *CommitLog) writes(seg *segment.Segment, n int) bool {
	return !c.stagedFor(seg) && n >= writeMin
}

// writeRecord writes r, a single record of writeMin bytes or more, at the
// end of seg with pwritev(2): its head and tail encoded into wbuf and
// stamped with res's positions, its body gathered from the put as it is
// (one copy of the body fewer than encoding it whole). The lock should be
// held.
func (c *CommitLog) writeRecord(seg *segment.Segment, r *message.Record, res *Result) error {
	parts, head, err := message.AppendRecordParts(c.wbuf[:0], r)
	if err != nil {
		return err
	}
	c.wbuf = parts
	if err := message.PatchPosition(parts[:head], res.QueueOffset, res.WroteOffset, res.StoreTimestamp); err != nil {
		return err
	}
	if _, err := seg.Write(parts[:head], r.Body, parts[head:]); err != nil {
		return err
	}
	seg.SetStoreTimestamp(res.StoreTimestamp)
	res.Count = 1
	return nil
}

// stagedFor reports whether appends to seg go through the ring.
func (c *CommitLog) stagedFor(seg *segment.Segment) bool {
	return c.stage != nil && (seg.Staged() || seg.Wrote() == 0)
}

// appended wakes the service that acts on new data: the committer when
// staged (Java wakes CommitRealTimeService), else the flusher.
func (c *CommitLog) appended() {
	if c.commit != nil {
		c.commit.appended()
		return
	}
	c.flush.appended()
}

// segmentFor returns the segment the next n bytes go to, writing the
// end-of-file blank into a segment that cannot take them (Java
// END_OF_FILE: the record needs n plus room for a blank).
// Lock should be held.
func (c *CommitLog) segmentFor(n int64) (*segment.Segment, error) {
	seg, err := c.q.LastForAppend(0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCreateSegment, err)
	}
	if rem := seg.Remaining(); n+message.BlankSize > rem {
		buffered := c.stagedFor(seg) || c.writes(seg, int(rem)) // fill gets a buffer, not the file's zeros
		err := c.place(seg, int(rem), c.cfg.Now(), func(b []byte) {
			if buffered {
				clear(b) // Java's blank is zeros past its 8 bytes, as the file is
			}
			_ = message.PutBlank(b, int32(rem))
		})
		if err != nil {
			return nil, err
		}
		if seg, err = c.q.LastForAppend(0); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCreateSegment, err)
		}
	}
	return seg, nil
}

// stamp writes each record's queue offset, commit-log offset and store
// time into b, which holds the records placed at r.WroteOffset, and
// returns how many records b holds.
func stamp(b []byte, r Result, consumable bool) int {
	count := 0
	queueOffset, off := r.QueueOffset, r.WroteOffset
	for len(b) > 0 {
		size := int(int32(binary.BigEndian.Uint32(b)))
		if size <= 0 || size > len(b) {
			break
		}
		_ = message.PatchPosition(b[:size], queueOffset, off, r.StoreTimestamp) // sizes come from records we encoded
		if consumable {
			queueOffset++
		}
		off += int64(size)
		count++
		b = b[size:]
	}
	return count
}

// AppendAt appends replicated bytes at off, on a slave (Java appendData):
// off must be where the log ends, or in an empty log the start of a
// segment, and the bytes must fit in off's segment (a master sends
// nothing across a file's end). They may end inside a record; dispatch
// waits for the rest.
func (c *CommitLog) AppendAt(off int64, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	seg, err := c.q.LastForAppend(off)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCreateSegment, err)
	}
	if end := seg.Base() + seg.Wrote(); end != off {
		return fmt.Errorf("%w: data at %d, the log ends at %d", ErrNotContiguous, off, end)
	}
	if int64(len(data)) > seg.Remaining() {
		return fmt.Errorf("%w: %d bytes at %d cross the end of the file at %d", ErrNotContiguous, len(data), off, seg.Base())
	}
	if _, err := seg.AppendBytes(data); err != nil {
		return err
	}
	seg.Prefault(prefaultWindow)
	c.appended()
	return nil
}
