package consumequeue

import "github.com/sputnikmq/sputnik/store/segment"

// StoreTimeLookup reads the store timestamp of the commit-log record at
// phy of size bytes (Java CommitLog.pickupStoreTimestamp); ok is false
// when the record is not there. It keeps this package free of the commit
// log.
type StoreTimeLookup func(phy int64, size int32) (storeTimestamp int64, ok bool)

// OffsetByTime is Java 4.9.8 getOffsetInQueueByTime. It picks the first
// file last modified at or after ts (else the last file), binary-searches
// its units — skipping those whose record starts before minPhyOffset, the
// commit log's first offset — for a record stored at ts, and otherwise
// returns the nearer of its neighbours (the later one on a tie). A failed
// lookup, or an empty queue or file, gives 0. Java's quirks are kept: with
// several records at ts any of them may be returned, and when only earlier
// or skipped units were seen the answer is derived from offset -1.
func (q *Queue) OffsetByTime(ts, minPhyOffset int64, lookup StoreTimeLookup) int64 {
	s := q.fileByTime(ts)
	if s == nil || !s.Acquire() {
		return 0
	}
	defer s.Release()
	b, err := s.Bytes(0, s.Wrote())
	if err != nil || len(b) == 0 {
		return 0 // Java: selectMappedBuffer(0) is null
	}
	off, ok := searchByTime(b, q.lowInFile(s), ts, minPhyOffset, lookup)
	if !ok {
		return 0
	}
	return (s.Base() + int64(off)) / UnitSize
}

// fileByTime is Java getMappedFileByTime: the first file whose
// modification time (ms) is at or after ts, else the last. A file whose
// time cannot be read counts as time 0, as File.lastModified reports.
func (q *Queue) fileByTime(ts int64) *segment.Segment {
	segs := q.files.Segments()
	for _, s := range segs {
		var ms int64
		if mt, err := s.ModTime(); err == nil {
			ms = mt.UnixMilli()
		}
		if ms >= ts {
			return s
		}
	}
	if len(segs) == 0 {
		return nil
	}
	return segs[len(segs)-1]
}

// lowInFile is the byte position in s of the minimum offset, or 0 (Java
// casts the difference to int).
func (q *Queue) lowInFile(s *segment.Segment) int32 {
	if m := q.minLogic.Load(); m > s.Base() {
		return int32(m - s.Base())
	}
	return 0
}

// searchByTime is the binary search of getOffsetInQueueByTime over the
// written units b, in Java's int arithmetic. It returns the chosen byte
// position (possibly -1) and false when a lookup failed.
func searchByTime(b []byte, low int32, ts, minPhy int64, lookup StoreTimeLookup) (int32, bool) {
	high := int32(len(b)) - UnitSize
	target, left, right := int32(-1), int32(-1), int32(-1)
	leftValue, rightValue := int64(-1), int64(-1)
	for high >= low {
		mid := (low + high) / (2 * UnitSize) * UnitSize
		if mid < 0 || int(mid)+UnitSize > len(b) {
			break // cannot happen for low ≥ 0; keeps a bad minimum from panicking
		}
		u := unitAt(b, int(mid))
		if u.Phy < minPhy {
			low, left = mid+UnitSize, mid
			continue
		}
		st, ok := lookup(u.Phy, u.Size)
		if !ok || st < 0 {
			return 0, false
		}
		switch {
		case st == ts:
			target = mid
		case st > ts:
			high, right, rightValue = mid-UnitSize, mid, st
		default:
			low, left, leftValue = mid+UnitSize, mid, st
		}
		if target != -1 {
			break
		}
	}
	switch {
	case target != -1:
		return target, true
	case leftValue == -1:
		return right, true
	case rightValue == -1:
		return left, true
	case abs(ts-leftValue) > abs(ts-rightValue):
		return right, true
	default:
		return left, true
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// EarliestTime is the store time of the unit at the minimum offset, or -1
// (Java getEarliestMessageTime(topic, queueId)).
func (q *Queue) EarliestTime(lookup StoreTimeLookup) int64 {
	return q.StoreTime(q.MinOffset(), lookup)
}

// StoreTime is the store time of the record at a logical offset, or -1
// (Java getMessageStoreTimeStamp).
func (q *Queue) StoreTime(offset int64, lookup StoreTimeLookup) int64 {
	u, err := q.Get(offset)
	if err != nil {
		return -1
	}
	st, ok := lookup(u.Phy, u.Size)
	if !ok {
		return -1
	}
	return st
}
