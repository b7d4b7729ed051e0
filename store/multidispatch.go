package store

// Multi-dispatch and light message queues (LMQ), Java 4.9.8's MultiDispatch
// and the LMQ parts of DefaultMessageStore and ConsumeQueue.
//
// With enableMultiDispatch, a message whose INNER_MULTI_DISPATCH property
// names further queues ("q1,q2,…") also enters each of them: under the
// append lock it takes the next offset of every one and carries them in
// INNER_MULTI_QUEUE_OFFSET ("o1,o2,…"; its properties are then written
// again in HashMap order, without WAIT), and dispatch puts a unit for the
// same record at that offset in each queue, with the message's tags code.
// A queue is the named topic's queue of the message's queue id, or, with
// enableLmq, queue 0 of a name starting with %LMQ%.
//
// With enableLmq and enableMultiDispatch, once more than
// maxLmqConsumeQueueNum LMQ topics have consume queues, multi-dispatch puts
// are refused with LMQ_CONSUME_QUEUE_NUM_EXCEEDED. Better than Java: Java
// 4.9.8 tests the wrong status there, so its puts never fail; instead its
// reads of every LMQ return nothing past the limit. Sputnik refuses the
// puts and keeps serving reads.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/store/commitlog"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// ErrLmqExceeded: too many LMQ consume queues for another multi-dispatch
// put (LMQ_CONSUME_QUEUE_NUM_EXCEEDED).
var ErrLmqExceeded = errors.New("store: lmq consumeQueue num exceed maxLmqConsumeQueueNum")

// ErrBadQueueName: INNER_MULTI_DISPATCH names a queue that cannot be a
// consume-queue directory (empty, over 127 bytes, ".", "..", or holding a
// path separator or NUL). Java would create such directories wherever the
// name leads, outside the store too; Sputnik refuses the message
// (MESSAGE_ILLEGAL) and skips such names in records it dispatches.
var ErrBadQueueName = errors.New("store: INNER_MULTI_DISPATCH names an invalid queue")

// validQueueName reports whether name can be a consume-queue directory.
func validQueueName(name string) bool {
	return name != "" && name != "." && name != ".." && len(name) <= message.MaxTopicLen &&
		!strings.ContainsAny(name, "/\\\x00")
}

// multiQueueNames is a multi-dispatch message's INNER_MULTI_DISPATCH split
// as Java's String.split(",") does (trailing empty names dropped), or nil
// when multi-dispatch is off or the property is absent or blank.
func (s *Store) multiQueueNames(props []byte) []string {
	if !s.cfg.EnableMultiDispatch {
		return nil
	}
	v, ok := message.LookupProperty(props, message.PropInnerMultiDispatch)
	if !ok || strings.TrimSpace(string(v)) == "" {
		return nil
	}
	return javaSplit(string(v))
}

// javaSplit is String.split(",").
func javaSplit(s string) []string {
	parts := strings.Split(s, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// multiQueueID is the queue a multi-dispatch message enters in the named
// topic (MultiDispatch.queueKey).
func (s *Store) multiQueueID(name string, queueID int32) int32 {
	if s.cfg.EnableLmq && strings.HasPrefix(name, LmqPrefix) {
		return 0
	}
	return queueID
}

// lmqExceeded reports that no more LMQ consume queues may be created
// (isLmqConsumeQueueNumExceeded).
func (s *Store) lmqExceeded() bool {
	return s.cfg.EnableLmq && s.cfg.EnableMultiDispatch && s.cqs.Counted() > int64(s.cfg.MaxLmqConsumeQueueNum)
}

// prepareMultiDispatch makes p, the append of m's record, a multi-dispatch
// put when m names further queues (wrapMultiDispatch, done by the commit
// log under its lock through p.Rewrite).
func (s *Store) prepareMultiDispatch(m *Message, p *commitlog.Put) (PutStatus, error) {
	names := s.multiQueueNames(m.Properties)
	if len(names) == 0 {
		return PutOK, nil
	}
	for _, n := range names {
		if !validQueueName(n) {
			return MessageIllegal, fmt.Errorf("%w: %q", ErrBadQueueName, n)
		}
	}
	if s.lmqExceeded() {
		return LmqConsumeQueueNumExceeded, fmt.Errorf("%w (%d)", ErrLmqExceeded, s.cfg.MaxLmqConsumeQueueNum)
	}
	p.MultiQueues = make([]string, len(names))
	for i, n := range names {
		p.MultiQueues[i] = consumequeue.QueueKey(n, s.multiQueueID(n, m.QueueID))
	}
	props := m.PropertyMap()
	base := *p.Record
	p.Rewrite = func(offsets []int64) (*message.Record, error) {
		strs := make([]string, len(offsets))
		for i, o := range offsets {
			strs[i] = strconv.FormatInt(o, 10)
		}
		props.Set(message.PropInnerMultiQueueOffset, strings.Join(strs, ","))
		// Java removes WAIT from the map it writes out after the offsets
		// went in, so the order is that of the map with WAIT.
		ordered := slices.DeleteFunc(props.HashMapOrder(), func(kv message.Property) bool { return kv.Key == message.PropWait })
		raw := message.AppendProperties(nil, ordered)
		if len(raw) > message.MaxPropertiesLen {
			return nil, message.ErrPropertiesTooLong
		}
		rec := base
		rec.Properties = raw
		return &rec, nil
	}
	return PutOK, nil
}

// multiTargets are the further queues and offsets a dispatched record
// carries in INNER_MULTI_DISPATCH and INNER_MULTI_QUEUE_OFFSET
// (checkMultiDispatchQueue), or nothing when multi-dispatch is off or
// either property is absent or blank, or their counts differ.
func (s *Store) multiTargets(queues, queueOffsets []byte) (names, offsets []string) {
	if !s.cfg.EnableMultiDispatch {
		return nil, nil
	}
	q, o := string(queues), string(queueOffsets)
	if strings.TrimSpace(q) == "" || strings.TrimSpace(o) == "" {
		return nil, nil
	}
	names, offsets = javaSplit(q), javaSplit(o)
	if len(names) != len(offsets) {
		s.log.Errorf("multi-dispatch: %d queues but %d offsets", len(names), len(offsets))
		return nil, nil
	}
	return names, offsets
}

// dispatchMulti puts rec's unit into each further queue it names
// (ConsumeQueue.multiDispatchLmqQueue: the plain tags code, no extension
// unit) and returns the queues with the offset after rec's in each, for
// the arrival notices. queues and queueOffsets are the record's
// INNER_MULTI_DISPATCH and INNER_MULTI_QUEUE_OFFSET values.
func (s *Store) dispatchMulti(rec *message.Record, tagsCode int64, queues, queueOffsets []byte) ([]Arrival, error) {
	names, offsets := s.multiTargets(queues, queueOffsets)
	var arrivals []Arrival
	for i, name := range names {
		off, err := strconv.ParseInt(offsets[i], 10, 64)
		if err != nil || !validQueueName(name) {
			s.log.WithField("queue", name).Errorf("multi-dispatch of the record at %d: bad queue or offset %q", rec.PhysicalOffset, offsets[i])
			continue
		}
		qid := s.multiQueueID(name, rec.QueueID)
		q, err := s.cqs.Find(name, qid)
		if err != nil {
			return arrivals, fmt.Errorf("store: consume queue %s-%d: %w", name, qid, err)
		}
		if err := q.Put(consumequeue.Unit{Phy: rec.PhysicalOffset, Size: rec.TotalSize, TagsCode: tagsCode}, off); err != nil {
			return arrivals, fmt.Errorf("store: consume queue %s-%d offset %d: %w", name, qid, off, err)
		}
		arrivals = append(arrivals, Arrival{Topic: name, QueueID: qid, NextOffset: off + 1, TagsCode: tagsCode,
			StoreTimestamp: rec.StoreTimestamp, Properties: rec.Properties})
	}
	return arrivals, nil
}
