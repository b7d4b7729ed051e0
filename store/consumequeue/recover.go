package consumequeue

import (
	"errors"
	"fmt"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Recover finds the end of the queue after a restart (Java
// ConsumeQueue.recover): it scans from the third-last file, file after
// file while they are full of valid units, stops at the first invalid
// unit (Unit.Valid), moves the write and flush positions there and removes
// any later file. MaxPhysicalOffset becomes the end of the last valid
// unit. With ext files, they are recovered and cut after the last ext
// address seen.
func (q *Queue) Recover() error {
	segs := q.files.Segments()
	if len(segs) == 0 {
		return nil
	}
	i := max(len(segs)-3, 0)
	maxExt := int64(1)
	var end int64
	for {
		s := segs[i]
		n := q.scanValid(s.Mapped(), &maxExt)
		if n == q.size && i+1 < len(segs) {
			i++
			continue
		}
		end = s.Base() + n
		q.log.Infof("recover consume queue over %s %d", segment.FileName(s.Base()), end)
		break
	}
	q.files.SetFlushedWhere(end)
	if err := q.files.TruncateAndClear(end); err != nil {
		return fmt.Errorf("consumequeue %s-%d: recover: %w", q.topic, q.queueID, err)
	}
	if q.ext == nil {
		return nil
	}
	if err := q.ext.Recover(); err != nil {
		return err
	}
	return q.ext.TruncateByMaxAddress(maxExt)
}

// scanValid returns the length of the run of valid units at the start of
// b, updating maxPhy and *maxExt from them.
func (q *Queue) scanValid(b []byte, maxExt *int64) int64 {
	var n int64
	for pos := 0; pos+UnitSize <= len(b); pos += UnitSize {
		u := unitAt(b, pos)
		if !u.Valid() {
			break
		}
		n = int64(pos + UnitSize)
		q.notePhy(u)
		if IsExtAddr(u.TagsCode) {
			*maxExt = u.TagsCode
		}
	}
	return n
}

// TruncateAfter drops the units whose record starts at or after phyOffset,
// the end of the recovered commit log (Java truncateDirtyLogicFiles). It
// works back from the last file: a file whose first unit is dirty goes
// entirely; otherwise the file keeps its valid units below phyOffset.
// MaxPhysicalOffset becomes the end of the last unit kept, or phyOffset
// when none is.
//
// As in Java, the ext files are only cut when every file went (and then
// maxExt is still 1, so nothing happens): ext units of dropped units stay.
//
// One difference from Java, where Java would leave a wrong queue: Java
// keeps an invalid first unit (an all-zero file left by a crash right
// after it was created) as if it were a record, which adds a zero-size
// unit and stops the truncation before the dirty units of the previous
// file; here such a file is removed like a dirty one.
func (q *Queue) TruncateAfter(phyOffset int64) error {
	q.maxPhy.Store(phyOffset)
	maxExt := int64(1)
	for {
		s := q.files.Last()
		if s == nil {
			break
		}
		b := s.Mapped()
		s.SetWrote(0)
		if first := unitAt(b, 0); !first.Valid() || first.Phy >= phyOffset {
			if err := q.deleteLast(s); err != nil {
				return err
			}
			continue
		}
		q.keepPrefix(s, b, phyOffset, &maxExt)
		// The dirty units go (Java leaves them): a later recovery would
		// take them back once new units reach up to them, pointing at
		// records the commit log has since written anew.
		if err := s.ClearFrom(s.Wrote()); err != nil {
			return fmt.Errorf("consumequeue %s-%d: truncate: %w", q.topic, q.queueID, err)
		}
		return nil // Java returns here, leaving the ext files alone
	}
	if q.ext == nil {
		return nil
	}
	return q.ext.TruncateByMaxAddress(maxExt) // 1: no ext address kept, a no-op
}

// notePhy makes a recovered unit's record end the queue's
// MaxPhysicalOffset. Blank units (front fill, filled gaps) have none: Java
// takes their offset 0 + Integer.MAX_VALUE, so a queue whose last unit
// left by a crash is Blank (a kill between a front fill and its unit, a
// power cut tearing a filled gap) would count every later record as built
// already and start dispatch at 2^31-1.
func (q *Queue) notePhy(u Unit) {
	if !u.IsBlank() {
		q.maxPhy.Store(u.End())
	}
}

// keepPrefix moves s's write position past its leading units that are
// valid and start below phyOffset.
func (q *Queue) keepPrefix(s *segment.Segment, b []byte, phyOffset int64, maxExt *int64) {
	for pos := 0; pos+UnitSize <= len(b); pos += UnitSize {
		u := unitAt(b, pos)
		if !u.Valid() || u.Phy >= phyOffset {
			return
		}
		s.SetWrote(int64(pos + UnitSize))
		q.notePhy(u)
		if IsExtAddr(u.TagsCode) {
			*maxExt = u.TagsCode
		}
	}
}

// deleteLast removes the last segment (Java deleteLastMappedFile).
// segment.Queue only cuts at an offset, and TruncateDirty(base) would keep
// the segment empty, so it cuts one byte earlier: the segment before (if
// any) is then rescanned from scratch by TruncateAfter anyway.
func (q *Queue) deleteLast(s *segment.Segment) error {
	q.log.Infof("on recover, destroy a logic mapped file %s", segment.FileName(s.Base()))
	if err := q.files.TruncateDirty(s.Base() - 1); err != nil {
		return fmt.Errorf("consumequeue %s-%d: truncate: %w", q.topic, q.queueID, err)
	}
	q.firstSeg.CompareAndSwap(s, nil)
	return nil
}

// CorrectMinOffset moves the minimum offset to the first unit of the first
// file whose record starts at or after phyMinOffset, the commit log's
// first offset (Java correctMinOffset). It leaves the minimum alone when
// no unit qualifies. Blank front-fill units (offset 0) qualify when
// phyMinOffset is 0, as in Java. With ext files, those wholly before the
// first kept unit's ext address go.
func (q *Queue) CorrectMinOffset(phyMinOffset int64) error {
	minExt := int64(1)
	if s := q.files.First(); s != nil {
		if !s.Acquire() {
			return nil
		}
		b, err := s.Bytes(0, s.Wrote())
		if err != nil || len(b) == 0 {
			s.Release()
			return nil // Java: selectMappedBuffer(0) is null, nothing more done
		}
		for pos := 0; pos+UnitSize <= len(b); pos += UnitSize {
			u := unitAt(b, pos)
			if u.Phy >= phyMinOffset {
				q.minLogic.Store(s.Base() + int64(pos))
				if IsExtAddr(u.TagsCode) {
					minExt = u.TagsCode
				}
				break
			}
		}
		s.Release()
	}
	if q.ext == nil {
		return nil
	}
	return q.ext.TruncateByMinAddress(minExt)
}

// DeleteBefore removes the leading files whose last unit's record starts
// before phyMinOffset, never the newest file, then corrects the minimum
// offset (Java deleteExpiredFile: deleteExpiredFileByOffset +
// correctMinOffset). It returns how many files went.
func (q *Queue) DeleteBefore(phyMinOffset int64) (int, error) {
	n, err := q.files.DeleteFirst(0, func(s *segment.Segment) bool {
		return q.lastUnitBefore(s, phyMinOffset)
	})
	if err != nil {
		err = fmt.Errorf("consumequeue %s-%d: delete files: %w", q.topic, q.queueID, err)
	}
	return n, errors.Join(err, q.CorrectMinOffset(phyMinOffset))
}

// lastUnitBefore reports whether s is full and its last unit's record
// starts before phyMinOffset. Java stops at a file that is not full.
func (q *Queue) lastUnitBefore(s *segment.Segment, phyMinOffset int64) bool {
	if !s.Acquire() {
		return true // already destroyed: Java deletes a "hanged" file
	}
	defer s.Release()
	b, err := s.Bytes(q.size-UnitSize, UnitSize)
	if err != nil {
		return false
	}
	return unitAt(b, 0).Phy < phyMinOffset
}
