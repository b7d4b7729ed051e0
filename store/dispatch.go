package store

import (
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// dispatchRecord builds the consume-queue unit and the index entries of
// one commit-log record (Java doDispatch with
// CommitLogDispatcherBuildConsumeQueue and CommitLogDispatcherBuildIndex).
// Only NOT_TYPE and COMMIT records enter a consume queue; the index skips
// ROLLBACK records itself.
func (s *Store) dispatchRecord(rec *message.Record) error {
	_, err := s.dispatch(rec)
	return err
}

// dispatched is what the arrival notices need of a dispatched record.
type dispatched struct {
	tagsCode int64
	multi    []Arrival // the further queues of a multi-dispatch record
}

// dispatch is dispatchRecord returning what the arrival notices need.
func (s *Store) dispatch(rec *message.Record) (dispatched, error) {
	var props [len(dispatchKeys)][]byte
	message.LookupProperties(rec.Properties, dispatchKeys[:], props[:])
	d := dispatched{tagsCode: s.tagsCode(rec, props[propTags], props[propDelay])}
	if message.Consumable(rec.SysFlag) {
		if err := s.putUnit(rec, d.tagsCode); err != nil {
			return d, err
		}
		var err error
		if d.multi, err = s.dispatchMulti(rec, d.tagsCode, props[propMultiQueues], props[propMultiOffsets]); err != nil {
			return d, err
		}
	}
	if s.cfg.MessageIndexEnable {
		if err := s.buildIndex(rec, props[propUniqKey], props[propKeys]); err != nil {
			return d, fmt.Errorf("store: index record at %d: %w", rec.PhysicalOffset, err)
		}
	}
	return d, nil
}

// dispatchKeys are the properties dispatch reads, looked up in one pass;
// the prop* constants index them.
var dispatchKeys = [...]string{message.PropTags, message.PropDelay, message.PropUniqKey, message.PropKeys,
	message.PropInnerMultiDispatch, message.PropInnerMultiQueueOffset}

const (
	propTags = iota
	propDelay
	propUniqKey
	propKeys
	propMultiQueues
	propMultiOffsets
)

func (s *Store) putUnit(rec *message.Record, tagsCode int64) error {
	q, err := s.cqs.Find(rec.Topic, rec.QueueID)
	if err != nil {
		return fmt.Errorf("store: consume queue %s-%d: %w", rec.Topic, rec.QueueID, err)
	}
	req := consumequeue.Request{Phy: rec.PhysicalOffset, Size: rec.TotalSize, TagsCode: tagsCode,
		QueueOffset: rec.QueueOffset, StoreTimestamp: rec.StoreTimestamp}
	if s.opt.FilterBitMap != nil && s.cfg.EnableConsumeQueueExt {
		req.BitMap = s.opt.FilterBitMap(rec.Topic, rec.Properties)
	}
	if err := q.PutRequest(&req); err != nil {
		return fmt.Errorf("store: consume queue %s-%d offset %d: %w", rec.Topic, rec.QueueID, rec.QueueOffset, err)
	}
	s.cp.SetLogics(rec.StoreTimestamp)
	return nil
}

// tagsCode is what the consume queue stores for a record (Java
// checkMessageAndReturnSize): the hash of tags (its TAGS property), or for
// a schedule-topic record with a DELAY level the time it is due. Absent
// properties are nil.
func (s *Store) tagsCode(rec *message.Record, tags, delay []byte) int64 {
	var code int64
	if tags != nil {
		code = tagsCodeOf(tags)
	}
	if rec.Topic != ScheduleTopic || delay == nil {
		return code
	}
	level, err := javalang.ParseInt(javalang.DecodeUTF8(delay))
	if err != nil {
		return code // Java throws and the record is not dispatched; keep it visible
	}
	level = min(level, s.delays.Max())
	if level > 0 {
		return s.delays.DeliverAt(level, rec.StoreTimestamp)
	}
	return code
}

// tagsCodeOf is message.TagsCode of the tag as Java decodes its bytes,
// without allocating a string for valid UTF-8 (ranging over the converted
// bytes yields the same code points Java's decoder does).
func tagsCodeOf(tag []byte) int64 {
	if !utf8.Valid(tag) {
		return message.TagsCode(javalang.DecodeUTF8(tag))
	}
	return int64(jhash.Bytes(tag))
}

// buildIndex indexes the record's UNIQ_KEY and KEYS properties (nil when
// absent; Java IndexService.buildIndex).
func (s *Store) buildIndex(rec *message.Record, uniqKey, keys []byte) error {
	var uniq, ks string
	if uniqKey != nil {
		uniq = keyView(uniqKey)
	}
	if keys != nil {
		ks = keyView(keys)
	}
	return s.index.Build(rec.Topic, uniq, ks, rec.PhysicalOffset, rec.StoreTimestamp, rec.SysFlag)
}

// keyView is a property value as Java decodes it, for index.Build only:
// valid UTF-8 (what every client sends) is viewed in place rather than
// copied, since Build hashes its keys and keeps none of them, and the
// record's bytes outlive the call. Anything else is decoded to a copy.
func keyView(b []byte) string {
	if len(b) == 0 || !utf8.Valid(b) {
		return javalang.DecodeUTF8(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// notifyArrival tells long polling about a dispatched message, and about
// its arrival in each further queue of a multi-dispatch (Java
// ReputMessageService with notifyMessageArrive4MultiQueue, master only).
func (s *Store) notifyArrival(rec *message.Record, d dispatched) {
	if s.opt.OnArrival == nil || s.cfg.BrokerRole == Slave || !message.Consumable(rec.SysFlag) {
		return
	}
	s.opt.OnArrival(Arrival{
		Topic:          rec.Topic,
		QueueID:        rec.QueueID,
		NextOffset:     rec.QueueOffset + 1,
		TagsCode:       d.tagsCode,
		StoreTimestamp: rec.StoreTimestamp,
		Properties:     rec.Properties,
	})
	for _, a := range d.multi {
		s.opt.OnArrival(a)
	}
}
