package store

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"

	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

// queue is Java findConsumeQueue: the queue, created (without files) when
// it does not exist yet, so lookups on unknown queues answer like Java's
// (max 0, min 0). Nil only if the queue cannot be opened.
func (s *Store) queue(topic string, queueID int32) *consumequeue.Queue {
	q, err := s.cqs.Find(topic, queueID)
	if err != nil {
		s.log.WithError(err).WithField("topic", topic).Warn("open consume queue")
		return nil
	}
	return q
}

// MaxOffsetInQueue is the queue's next offset (Java getMaxOffsetInQueue).
func (s *Store) MaxOffsetInQueue(topic string, queueID int32) int64 {
	if q := s.queue(topic, queueID); q != nil {
		return q.MaxOffset()
	}
	return 0
}

// MinOffsetInQueue is the queue's first offset (Java getMinOffsetInQueue).
func (s *Store) MinOffsetInQueue(topic string, queueID int32) int64 {
	if q := s.queue(topic, queueID); q != nil {
		return q.MinOffset()
	}
	return -1
}

// CommitLogOffsetInQueue is the commit-log offset of a queue offset's
// message, 0 if none (Java getCommitLogOffsetInQueue).
func (s *Store) CommitLogOffsetInQueue(topic string, queueID int32, offset int64) int64 {
	if q := s.queue(topic, queueID); q != nil {
		if u, err := q.Get(offset); err == nil {
			return u.Phy
		}
	}
	return 0
}

// OffsetInQueueByTime is Java getOffsetInQueueByTime.
func (s *Store) OffsetInQueueByTime(topic string, queueID int32, ts int64) int64 {
	if q := s.queue(topic, queueID); q != nil {
		return q.OffsetByTime(ts, s.cl.MinOffset(), s.storeTimeAt)
	}
	return 0
}

// storeTimeAt is Java CommitLog.pickupStoreTimestamp.
func (s *Store) storeTimeAt(phy int64, size int32) (int64, bool) {
	if phy < s.cl.MinOffset() {
		return 0, false
	}
	v, err := s.cl.Read(phy, int(size))
	if err != nil {
		return 0, false
	}
	defer v.Release()
	return message.PeekStoreTimestamp(v.B)
}

// EarliestMessageTime is the store time of a queue's first message, -1 if
// none (Java getEarliestMessageTime(topic, queueId)).
func (s *Store) EarliestMessageTime(topic string, queueID int32) int64 {
	if q := s.queue(topic, queueID); q != nil {
		return q.EarliestTime(s.storeTimeAt)
	}
	return -1
}

// EarliestTime is the store time of the commit log's first record (Java
// getEarliestMessageTime()).
func (s *Store) EarliestTime() int64 {
	v, err := s.cl.ReadFrom(max(s.cl.MinOffset(), 0))
	if err != nil {
		return -1
	}
	defer v.Release()
	if ts, ok := message.PeekStoreTimestamp(v.B); ok {
		return ts
	}
	return -1
}

// MessageStoreTime is the store time of the message at a queue offset, -1
// if none (Java getMessageStoreTimeStamp).
func (s *Store) MessageStoreTime(topic string, queueID int32, offset int64) int64 {
	if q := s.queue(topic, queueID); q != nil {
		return q.StoreTime(offset, s.storeTimeAt)
	}
	return -1
}

// MessageTotalInQueue is max − min offset, -1 without a queue (Java
// getMessageTotalInQueue).
func (s *Store) MessageTotalInQueue(topic string, queueID int32) int64 {
	if q := s.queue(topic, queueID); q != nil {
		return q.MessageCount()
	}
	return -1
}

// SelectOneMessage returns the record at a commit-log offset as a held
// view (Java selectOneMessageByOffset).
func (s *Store) SelectOneMessage(offset int64) (segment.View, bool) {
	head, err := s.cl.Read(offset, 4)
	if err != nil {
		return segment.View{}, false
	}
	size := int32(binary.BigEndian.Uint32(head.B))
	head.Release()
	if size <= 0 {
		return segment.View{}, false
	}
	v, err := s.cl.Read(offset, int(size))
	return v, err == nil
}

// LookMessage decodes the record at a commit-log offset (Java
// lookMessageByOffset); the record's byte fields are copies.
func (s *Store) LookMessage(offset int64) (message.Record, bool) {
	v, ok := s.SelectOneMessage(offset)
	if !ok {
		return message.Record{}, false
	}
	defer v.Release()
	rec, err := message.DecodeRecord(v.B, false)
	if err != nil {
		return message.Record{}, false
	}
	rec.Body = slices.Clone(rec.Body)
	rec.Properties = slices.Clone(rec.Properties)
	return rec, true
}

// CommitLogData returns the log from offset to the end of its segment, for
// replication (Java getCommitLogData).
func (s *Store) CommitLogData(offset int64) (segment.View, bool) {
	if s.closed.Load() {
		return segment.View{}, false
	}
	v, err := s.cl.ReadFrom(offset)
	return v, err == nil
}

// QueryResult is Java QueryMessageResult.
type QueryResult struct {
	Messages                 []segment.View
	IndexLastUpdateTimestamp int64
	IndexLastUpdatePhyOffset int64
	BufferTotalSize          int
}

// Release gives the views back.
func (r *QueryResult) Release() {
	for i := range r.Messages {
		r.Messages[i].Release()
	}
	r.Messages = nil
}

// QueryMessage finds messages by key in a time range (Java queryMessage):
// up to three index passes, each narrowing the end time to the first hit
// of the previous one, until something is found.
func (s *Store) QueryMessage(topic, key string, maxNum int, begin, end int64) *QueryResult {
	res := &QueryResult{}
	last := end
	for range 3 {
		offsets, lastTS, lastPhy := s.index.Query(topic, key, maxNum, begin, last)
		if len(offsets) == 0 {
			break
		}
		slices.Sort(offsets)
		res.IndexLastUpdatePhyOffset, res.IndexLastUpdateTimestamp = lastPhy, lastTS
		for m, off := range offsets {
			v, ok := s.SelectOneMessage(off)
			if !ok {
				continue
			}
			if m == 0 {
				if ts, ok := message.PeekStoreTimestamp(v.B); ok {
					last = ts
				}
			}
			res.Messages = append(res.Messages, v)
			res.BufferTotalSize += len(v.B)
		}
		if res.BufferTotalSize > 0 || last < begin {
			break
		}
	}
	return res
}

// InDiskByConsumeOffset reports whether the message at a queue offset is
// probably out of memory (Java checkInDiskByConsumeOffset); false when
// there is no such message.
func (s *Store) InDiskByConsumeOffset(topic string, queueID int32, offset int64) bool {
	inDisk, ok := s.inDiskAt(s.queue(topic, queueID), offset)
	return ok && inDisk
}

// InMemoryByConsumeOffset reports whether the message at a queue offset
// exists and is within the share of RAM messages may use behind the log's
// end (Java checkInDiskByCommitOffset false): a read of it should not wait
// for the disk. Like Java's check it is an estimate, not a residency test.
// It has no Java caller to mirror, so unlike Java's lookups it does not
// create a queue that does not exist: a request it screens may still be
// refused before it reaches the store (a pull of a queue the topic does
// not have), and then Java has no such queue either.
func (s *Store) InMemoryByConsumeOffset(topic string, queueID int32, offset int64) bool {
	inDisk, ok := s.inDiskAt(s.cqs.Get(topic, queueID), offset)
	return ok && !inDisk
}

// inDiskAt is inDisk for the message at an offset of q; ok is false when
// there is no such message.
func (s *Store) inDiskAt(q *consumequeue.Queue, offset int64) (inDisk, ok bool) {
	if q == nil {
		return false, false
	}
	u, err := q.Get(offset)
	if err != nil {
		return false, false
	}
	return s.inDisk(u.Phy, s.cl.MaxOffset()), true
}

// CleanUnusedTopics destroys the consume queues of every topic keep
// rejects, except the schedule, transaction-op and LMQ topics, and forgets
// their queue counters (Java cleanUnusedTopic). It returns the topics that
// went.
func (s *Store) CleanUnusedTopics(keep func(topic string) bool) ([]string, error) {
	var gone []string
	var errs []error
	for _, topic := range s.cqs.Topics() {
		if keep(topic) || topic == ScheduleTopic || topic == TransOpHalfTopic || strings.HasPrefix(topic, LmqPrefix) {
			continue
		}
		_, err := s.dropTopic(topic)
		errs = append(errs, err)
		gone = append(gone, topic)
	}
	return gone, errors.Join(errs...)
}

// CleanUnusedLmqTopic destroys the consume queue of one light message
// queue and forgets its counter (Java cleanUnusedLmqTopic); false when it
// has none.
func (s *Store) CleanUnusedLmqTopic(topic string) (bool, error) {
	return s.dropTopic(topic)
}

// dropTopic destroys topic's consume queues and forgets their counters;
// false when it had none.
func (s *Store) dropTopic(topic string) (bool, error) {
	keys, err := s.cqs.DeleteTopic(topic)
	for _, k := range keys {
		s.cl.RemoveQueue(k)
	}
	return len(keys) > 0, err
}

// CleanExpiredConsumeQueues destroys the consume queues whose last record
// lies wholly before the commit log's first offset (Java
// cleanExpiredConsumerQueue) and forgets their queue counters. It returns
// how many queues went.
func (s *Store) CleanExpiredConsumeQueues() (int, error) {
	keys, err := s.cqs.CleanExpired(s.cl.MinOffset())
	for _, k := range keys {
		s.cl.RemoveQueue(k)
	}
	return len(keys), err
}
