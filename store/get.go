package store

import (
	"errors"
	"strconv"
	"sync"
	"syscall"

	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/segment"
)

// GetStatus is Java's GetMessageStatus.
type GetStatus int

// The statuses of 4.9.8, in Java's order.
const (
	Found GetStatus = iota
	NoMatchedMessage
	MessageWasRemoving
	OffsetFoundNull
	OffsetOverflowBadly
	OffsetOverflowOne
	OffsetTooSmall
	NoMatchedLogicQueue
	NoMessageInQueue
)

var getStatusNames = [...]string{
	"FOUND", "NO_MATCHED_MESSAGE", "MESSAGE_WAS_REMOVING", "OFFSET_FOUND_NULL",
	"OFFSET_OVERFLOW_BADLY", "OFFSET_OVERFLOW_ONE", "OFFSET_TOO_SMALL",
	"NO_MATCHED_LOGIC_QUEUE", "NO_MESSAGE_IN_QUEUE",
}

func (s GetStatus) String() string {
	if int(s) < len(getStatusNames) {
		return getStatusNames[s]
	}
	return "GetStatus(" + strconv.Itoa(int(s)) + ")"
}

// Filter decides which messages a pull returns (Java MessageFilter). The
// consume-queue check sees the tags code (ok false when an ext address
// could not be resolved) and the ext unit when there is one; the
// commit-log check sees the whole record.
type Filter interface {
	MatchTagsCode(tagsCode int64, ok bool, ext *consumequeue.ExtUnit) bool
	MatchRecord(record []byte) bool
}

// GetResult is Java's GetMessageResult. Messages point into the commit
// log's mapping; Release gives them back once the response is written.
type GetResult struct {
	Status          GetStatus
	NextBeginOffset int64
	MinOffset       int64
	MaxOffset       int64
	Messages        []segment.View // one record each
	QueueOffsets    []int64        // the queue offset of each message
	BufferTotalSize int
	// SuggestPullingFromSlave: the consumer is so far behind that its reads
	// leave memory (Java: more than accessMessageInMemoryMaxRatio of RAM).
	SuggestPullingFromSlave bool
	// FallBehind is how many commit-log bytes lay past the last unit the
	// read looked at; FallRecorded says the read reached the queue's units
	// and diskFallRecorded is on (Java then records FallBehind in the
	// broker's GROUP_GET_FALL_SIZE).
	FallBehind   int64
	FallRecorded bool
}

// MessageCount is the number of messages found.
func (r *GetResult) MessageCount() int { return len(r.Messages) }

// Release gives every message view back.
func (r *GetResult) Release() {
	for i := range r.Messages {
		r.Messages[i].Release()
	}
	r.Messages = nil
}

// ErrNotReadable: the store is shut down (Java getMessage returns null).
var ErrNotReadable = errors.New("store: not readable")

// GetMessage reads up to maxMsgNums messages of a queue from offset, as
// Java 4.9.8 DefaultMessageStore.getMessage does: the status and the next
// offset follow Java case for case, scanning at most max(16000 bytes,
// maxMsgNums units) of the consume queue, stopping at the transfer limits
// (which differ for data likely in memory or on disk), and skipping to the
// next commit-log file when a record is gone.
func (s *Store) GetMessage(group, topic string, queueID int32, offset int64, maxMsgNums int, filter Filter) (*GetResult, error) {
	if s.closed.Load() {
		return nil, ErrNotReadable
	}
	begun := s.opt.Now()
	res := s.getMessage(topic, queueID, offset, maxMsgNums, filter)
	s.stats.got(res)
	s.stats.latency.get(s.opt.Now() - begun)
	return res, nil
}

// getMessage is GetMessage without the statistics.
func (s *Store) getMessage(topic string, queueID int32, offset int64, maxMsgNums int, filter Filter) *GetResult {
	res := &GetResult{Status: NoMessageInQueue, NextBeginOffset: offset}
	q, err := s.cqs.Find(topic, queueID) // Java findConsumeQueue creates it
	if err != nil {
		res.Status = NoMatchedLogicQueue
		res.NextBeginOffset = s.nextOffsetCorrection(offset, 0)
		return res
	}
	res.MinOffset, res.MaxOffset = q.MinOffset(), q.MaxOffset()
	switch {
	case res.MaxOffset == 0:
		res.Status, res.NextBeginOffset = NoMessageInQueue, s.nextOffsetCorrection(offset, 0)
	case offset < res.MinOffset:
		res.Status, res.NextBeginOffset = OffsetTooSmall, s.nextOffsetCorrection(offset, res.MinOffset)
	case offset == res.MaxOffset:
		res.Status, res.NextBeginOffset = OffsetOverflowOne, s.nextOffsetCorrection(offset, offset)
	case offset > res.MaxOffset:
		res.Status, res.NextBeginOffset = OffsetOverflowBadly, s.nextOffsetCorrection(offset, res.MaxOffset)
	default:
		s.readQueue(q, res, offset, maxMsgNums, filter)
	}
	return res
}

// nextOffsetCorrection is Java's: a slave keeps the client's offset unless
// offsetCheckInSlave.
func (s *Store) nextOffsetCorrection(old, corrected int64) int64 {
	if s.cfg.BrokerRole != Slave || s.cfg.OffsetCheckInSlave {
		return corrected
	}
	return old
}

func (s *Store) readQueue(q *consumequeue.Queue, res *GetResult, offset int64, maxMsgNums int, filter Filter) {
	units, err := q.Read(offset)
	if err != nil {
		res.Status = OffsetFoundNull
		res.NextBeginOffset = s.nextOffsetCorrection(offset, q.RollNextFile(offset))
		s.log.WithError(err).WithField("topic", q.Topic()).Warn("consumer read offset the consume queue cannot serve")
		return
	}
	defer units.Release()
	res.Status = NoMatchedMessage
	maxPhy := s.cl.MaxOffset()
	limit := min(units.Len(), max(16000, maxMsgNums*consumequeue.UnitSize)/consumequeue.UnitSize)
	if n := min(limit, maxMsgNums, int(s.cfg.MaxTransferCountOnMessageInMemory)); n > 0 {
		res.Messages = make([]segment.View, 0, n) // what a batch may hold, at once
		res.QueueOffsets = make([]int64, 0, n)
	}
	nextFile := int64(-1 << 63)
	var lastPhy int64
	i := 0
	for ; i < limit; i++ {
		u := units.At(i)
		if u.IsBlank() {
			continue // a gap's filler (consumequeue.Queue.Put)
		}
		lastPhy = u.Phy
		if nextFile != -1<<63 && u.Phy < nextFile {
			continue
		}
		if s.batchFull(res, u.Size, maxMsgNums, s.inDisk(u.Phy, maxPhy)) {
			break
		}
		switch s.takeUnit(q, res, u, units.Offset(i), filter) {
		case unitGone:
			nextFile = s.cl.RollNextFile(u.Phy)
		case unitTaken:
			nextFile = -1 << 63
		}
	}
	res.NextBeginOffset = offset + int64(i)
	res.SuggestPullingFromSlave = maxPhy-lastPhy > s.memoryForMessages()
	res.FallBehind, res.FallRecorded = maxPhy-lastPhy, s.cfg.DiskFallRecorded
}

type unitOutcome int

const (
	unitTaken unitOutcome = iota
	unitFiltered
	unitGone
)

// takeUnit filters one unit and adds its record to res.
func (s *Store) takeUnit(q *consumequeue.Queue, res *GetResult, u consumequeue.Unit, queueOffset int64, filter Filter) unitOutcome {
	tagsCode, tagsOK, ext := s.resolveTags(q, u)
	if filter != nil && !filter.MatchTagsCode(tagsCode, tagsOK, ext) {
		s.noMatch(res)
		return unitFiltered
	}
	v, err := s.cl.Read(u.Phy, int(u.Size))
	if err != nil {
		if res.BufferTotalSize == 0 {
			res.Status = MessageWasRemoving
		}
		return unitGone
	}
	if filter != nil && !filter.MatchRecord(v.B) {
		v.Release()
		s.noMatch(res)
		return unitFiltered
	}
	res.Messages = append(res.Messages, v)
	res.QueueOffsets = append(res.QueueOffsets, queueOffset)
	res.BufferTotalSize += len(v.B)
	res.Status = Found
	return unitTaken
}

func (s *Store) noMatch(res *GetResult) {
	if res.BufferTotalSize == 0 {
		res.Status = NoMatchedMessage
	}
}

// resolveTags follows a consume-queue ext address to the real tags code.
func (s *Store) resolveTags(q *consumequeue.Queue, u consumequeue.Unit) (int64, bool, *consumequeue.ExtUnit) {
	if !consumequeue.IsExtAddr(u.TagsCode) || q.Ext() == nil {
		return u.TagsCode, true, nil
	}
	ext, err := q.Ext().Get(u.TagsCode)
	if err != nil {
		s.log.WithError(err).WithField("addr", u.TagsCode).Error("consume queue ext unit missing")
		return 0, false, nil
	}
	return ext.TagsCode, true, &ext
}

// batchFull is Java isTheBatchFull.
func (s *Store) batchFull(res *GetResult, size int32, maxMsgNums int, inDisk bool) bool {
	total, count := res.BufferTotalSize, len(res.Messages)
	if total == 0 || count == 0 {
		return false
	}
	if maxMsgNums <= count {
		return true
	}
	maxBytes, maxCount := s.cfg.MaxTransferBytesOnMessageInMemory, s.cfg.MaxTransferCountOnMessageInMemory
	if inDisk {
		maxBytes, maxCount = s.cfg.MaxTransferBytesOnMessageInDisk, s.cfg.MaxTransferCountOnMessageInDisk
	}
	return total+int(size) > int(maxBytes) || count > int(maxCount)-1
}

// inDisk is Java checkInDiskByCommitOffset: the record is further behind
// the log's end than the share of RAM messages may use.
func (s *Store) inDisk(phy, maxPhy int64) bool {
	return maxPhy-phy > s.memoryForMessages()
}

func (s *Store) memoryForMessages() int64 {
	return int64(float64(totalMemory()) * float64(s.cfg.AccessMessageInMemoryMaxRatio) / 100.0)
}

// totalMemory is the machine's RAM, read once like Java's static
// StoreUtil.TOTAL_PHYSICAL_MEMORY_SIZE (a sysinfo call per message read
// was a sixth of the broker's CPU while a consumer drained a backlog).
var totalMemory = sync.OnceValue(func() int64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 24 << 30
	}
	return int64(info.Totalram) * int64(info.Unit)
})
