package commitlog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

// normalRecoveryFiles is how many of the newest segments a normal recovery
// scans (Java recoverNormally starts at the third-last file).
const normalRecoveryFiles = 3

// Scan is what a recovery scan found.
type Scan struct {
	End      int64 // offset just past the last valid record: the new max
	Records  int   // valid records scanned
	Stopped  error // why the scan stopped before a clean end, if it did
	FromFile int64 // base offset of the first segment scanned
}

// RecoverNormally finds the end of the log after a clean shutdown (Java
// recoverNormally): scan the last three segments record by record,
// following end-of-file blanks, stop at the first record that does not
// check out, and cut everything after it. An empty log recovers to 0.
func (c *CommitLog) RecoverNormally(checkCRC bool) (Scan, error) {
	segs := c.q.Segments()
	return c.recoverFrom(segs, max(len(segs)-normalRecoveryFiles, 0), checkCRC, nil)
}

// RecoverAbnormally finds the end of the log after a crash (Java
// recoverAbnormally): start at the newest segment whose first record was
// stored at or before safeBefore (the checkpoint's min timestamp; the
// oldest segment if none), hand every valid record from there to dispatch
// so consume queues and the index catch up, and cut the log after the last
// valid record.
func (c *CommitLog) RecoverAbnormally(checkCRC bool, safeBefore int64, dispatch func(*message.Record) error) (Scan, error) {
	segs := c.q.Segments()
	from := 0
	for i := len(segs) - 1; i >= 0; i-- {
		if startsBefore(segs[i], safeBefore) {
			from = i
			break
		}
	}
	return c.recoverFrom(segs, from, checkCRC, dispatch)
}

// startsBefore is Java isMappedFileMatchedRecover: the segment's first
// record is a message with a non-zero store time not after ts.
func startsBefore(s *segment.Segment, ts int64) bool {
	stored, ok := message.PeekStoreTimestamp(s.Mapped())
	return ok && stored != 0 && stored <= ts
}

func (c *CommitLog) recoverFrom(segs []*segment.Segment, from int, checkCRC bool, dispatch func(*message.Record) error) (Scan, error) {
	if len(segs) == 0 {
		c.q.SetFlushedWhere(0)
		return Scan{}, nil
	}
	scan := Scan{FromFile: segs[from].Base()}
	end, err := c.scan(segs[from:], checkCRC, dispatch, &scan)
	if err != nil {
		return scan, err
	}
	scan.End = end
	c.q.SetFlushedWhere(end)
	if err := c.q.TruncateAndClear(end); err != nil {
		return scan, fmt.Errorf("commitlog: truncate after %d: %w", end, err)
	}
	return scan, nil
}

// ErrTornTopic: a record's topic is empty or holds a NUL byte. No broker
// accepts such a topic (TopicValidator), so it can only be a torn write
// that zeroed the end of the record, where no CRC reaches. Java 4.9.8
// accepts the record; recovery here ends the log before it.
var ErrTornTopic = errors.New("commitlog: record topic is empty or holds NUL bytes (torn write)")

func checkTopic(topic string) error {
	if topic == "" || strings.IndexByte(topic, 0) >= 0 {
		return fmt.Errorf("%w: %q", ErrTornTopic, topic)
	}
	return nil
}

// scan walks the segments from the first given, returning the end of the
// valid data. Only dispatch errors abort recovery; a bad record just ends
// the log, as in Java. With dispatch, the records go to it in order on a
// goroutine of its own (dispatchPipe).
func (c *CommitLog) scan(segs []*segment.Segment, checkCRC bool, dispatch func(*message.Record) error, scan *Scan) (int64, error) {
	if dispatch == nil {
		return walk(segs, checkCRC, scan, func(*message.Record) bool { return true }), nil
	}
	p := newDispatchPipe(dispatch)
	end := walk(segs, checkCRC, scan, p.add)
	if err := p.close(); err != nil {
		return 0, err
	}
	return end, nil
}

// walk decodes the records of segs in order, hands each valid one to
// emit (which must not keep the pointer), and returns the offset just
// past the last valid record; it stops early, returning 0, when emit says
// so.
func walk(segs []*segment.Segment, checkCRC bool, scan *Scan, emit func(*message.Record) bool) int64 {
	var rec message.Record // one for the whole walk: emit gets its address
	for i, s := range segs {
		data := s.Mapped()
		pos := 0
		for {
			var err error
			rec, err = message.DecodeRecord(data[pos:], checkCRC)
			if errors.Is(err, message.ErrBlank) {
				if i == len(segs)-1 {
					// A blank ends the newest segment (its successor was
					// never created). Java ends the log at the blank, so the
					// next record overwrites it; so do we.
					return s.Base() + int64(pos)
				}
				break // the rest of this segment is padding: next segment
			}
			if err == nil {
				err = checkTopic(rec.Topic)
			}
			if err != nil {
				scan.Stopped = fmt.Errorf("offset %d: %w", s.Base()+int64(pos), err)
				return s.Base() + int64(pos)
			}
			if !emit(&rec) {
				return 0
			}
			scan.Records++
			pos += int(rec.TotalSize)
		}
	}
	return 0
}
