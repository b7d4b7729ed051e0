package config

import (
	"fmt"
	"strings"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// OffsetKeySeparator joins topic and group in the consumer-offset table
// (ConsumerOffsetManager.TOPIC_GROUP_SEPARATOR). Part of the format.
const OffsetKeySeparator = "@"

// OffsetKey is the offset table key of topic and group: "topic@group".
func OffsetKey(topic, group string) string { return topic + OffsetKeySeparator + group }

// SplitOffsetKey splits a key as the Java managers do (key.split("@"),
// which drops trailing empty parts) and reports whether that gave exactly
// topic and group, the check scanUnsubscribedTopic and friends make.
func SplitOffsetKey(key string) (topic, group string, ok bool) {
	parts := strings.Split(key, OffsetKeySeparator)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// QueueOffsets is one key's Map<Integer queueId, Long offset>.
type QueueOffsets struct {
	table *chm[int32, int64]
}

func newQueueOffsets(capacity int) *QueueOffsets {
	return &QueueOffsets{table: newCHM[int32, int64](intHash, capacity)}
}

// Get returns the offset of queueID.
func (q *QueueOffsets) Get(queueID int32) (int64, bool) { return q.table.Get(queueID) }

// Put stores offset for queueID.
func (q *QueueOffsets) Put(queueID int32, offset int64) { q.table.Put(queueID, offset) }

// Copy is `new ConcurrentHashMap<>(q)` (ConsumerOffsetManager.cloneOffset):
// a table of its own, presized for q's queues, filled in q's order.
func (q *QueueOffsets) Copy() *QueueOffsets { return &QueueOffsets{table: newCHMCopy(q.table)} }

// Len returns the number of queues.
func (q *QueueOffsets) Len() int { return q.table.Len() }

// Range calls f in the file's order until f returns false.
func (q *QueueOffsets) Range(f func(queueID int32, offset int64) bool) { q.table.Range(f) }

func (q *QueueOffsets) write(w *fastjson.Writer) {
	w.BeginObject()
	q.table.Range(func(id int32, off int64) bool {
		w.KeyInt(int64(id))
		w.Int64(off)
		return true
	})
	w.EndObject()
}

// ConsumerOffsets is the content of consumerOffset.json
// (ConsumerOffsetManager.offsetTable), or of lmqConsumerOffset.json, which
// a broker with enableLmq writes instead (LmqConsumerOffsetManager: the
// same table plus lmqOffsetTable, "topic@group" → the offset of an LMQ
// group, whose queue is always 0).
type ConsumerOffsets struct {
	table *chm[string, *QueueOffsets]
	lmq   *chm[string, int64] // nil but for lmqConsumerOffset.json
}

// NewLmqConsumerOffsets returns an empty LmqConsumerOffsetManager table.
func NewLmqConsumerOffsets() *ConsumerOffsets {
	c := NewConsumerOffsets()
	c.lmq = newCHM[string, int64](stringHash, capOffsets)
	return c
}

// IsLmq reports whether c is an LmqConsumerOffsetManager table.
func (c *ConsumerOffsets) IsLmq() bool { return c.lmq != nil }

// CommitLmq sets an LMQ group's offset (LmqConsumerOffsetManager
// .commitOffset); c must be an LMQ table.
func (c *ConsumerOffsets) CommitLmq(key string, offset int64) { c.lmq.Put(key, offset) }

// QueryLmq is an LMQ group's offset; false when it has none or c is not
// an LMQ table.
func (c *ConsumerOffsets) QueryLmq(key string) (int64, bool) {
	if c.lmq == nil {
		return 0, false
	}
	return c.lmq.Get(key)
}

// NewConsumerOffsets returns an empty table as ConsumerOffsetManager
// creates it (capacity 512).
func NewConsumerOffsets() *ConsumerOffsets {
	return &ConsumerOffsets{table: newCHM[string, *QueueOffsets](stringHash, capOffsets)}
}

// Commit is ConsumerOffsetManager.commitOffset: the key's queue map is
// created (capacity 32) on first use. It returns the previous offset.
func (c *ConsumerOffsets) Commit(key string, queueID int32, offset int64) (prev int64, existed bool) {
	q, ok := c.table.Get(key)
	if !ok {
		q = newQueueOffsets(capOffsetQueues)
		q.Put(queueID, offset)
		c.table.Put(key, q)
		return 0, false
	}
	prev, existed = q.Get(queueID)
	q.Put(queueID, offset)
	return prev, existed
}

// Query returns the committed offset of key's queueID.
func (c *ConsumerOffsets) Query(key string, queueID int32) (int64, bool) {
	q, ok := c.table.Get(key)
	if !ok {
		return 0, false
	}
	return q.Get(queueID)
}

// Queues returns key's queue map (shared, not a copy).
func (c *ConsumerOffsets) Queues(key string) (*QueueOffsets, bool) { return c.table.Get(key) }

// Put is offsetTable.put: key takes q (shared, not copied); a key c has
// keeps its place.
func (c *ConsumerOffsets) Put(key string, q *QueueOffsets) { c.table.Put(key, q) }

// Remove deletes key.
func (c *ConsumerOffsets) Remove(key string) bool {
	_, ok := c.table.Remove(key)
	return ok
}

// Len returns the number of keys.
func (c *ConsumerOffsets) Len() int { return c.table.Len() }

// PutAll is offsetTable.putAll(from's table): the table first grows for
// from's size (ConcurrentHashMap.tryPresize, which decides its order from
// 341 keys on), then each of from's keys takes from's queue map itself,
// in from's order; a key c has keeps its place. The queue maps are then
// shared with from.
func (c *ConsumerOffsets) PutAll(from *ConsumerOffsets) { c.table.PutAll(from.table) }

// Range calls f in the file's order until f returns false.
func (c *ConsumerOffsets) Range(f func(key string, q *QueueOffsets) bool) { c.table.Range(f) }

// Encode is ConsumerOffsetManager.encode(true) (fastjson writes the
// fields by name: lmqOffsetTable first).
func (c *ConsumerOffsets) Encode() []byte {
	return encodePretty(func(w *fastjson.Writer) {
		w.BeginObject()
		if c.lmq != nil {
			w.Key("lmqOffsetTable")
			w.BeginObject()
			c.lmq.Range(func(k string, off int64) bool {
				w.Key(k)
				w.Int64(off)
				return true
			})
			w.EndObject()
		}
		w.Key("offsetTable")
		w.BeginObject()
		c.table.Range(func(k string, q *QueueOffsets) bool {
			w.Key(k)
			q.write(w)
			return true
		})
		w.EndObject()
		w.EndObject()
	})
}

// DecodeConsumerOffsets is ConsumerOffsetManager.decode: the manager's
// table is replaced by the one fastjson builds, a default-capacity
// ConcurrentHashMap of default-capacity maps, filled in file order. A
// missing offsetTable leaves a fresh manager's empty table; a null one
// would leave Java with a null table and is ErrCorrupt here.
func DecodeConsumerOffsets(data []byte) (*ConsumerOffsets, error) {
	c := NewConsumerOffsets()
	root, ok, err := parseRoot(data, consumerOffsetFile)
	if !ok {
		return c, err
	}
	var d fastjson.Decoder
	for k, v := range root.Members() {
		if matchField(k, offsetWrapperFields) != "offsetTable" {
			continue
		}
		if v.IsNull() {
			d.Fail(fmt.Errorf("offsetTable is null"))
		}
		c.table = newCHM[string, *QueueOffsets](stringHash, capDefaultCHM)
		decodeStringTable(&d, v, c.table, decodeQueueOffsets)
	}
	return c, finish(&d, consumerOffsetFile)
}

var offsetWrapperFields = fields("offsetTable")

// DecodeLmqConsumerOffsets is LmqConsumerOffsetManager.decode of
// lmqConsumerOffset.json: both tables as fastjson builds them; a missing
// one stays empty, a null one is ErrCorrupt.
func DecodeLmqConsumerOffsets(data []byte) (*ConsumerOffsets, error) {
	c, err := DecodeConsumerOffsets(data)
	c.lmq = newCHM[string, int64](stringHash, capOffsets)
	if err != nil {
		return c, err
	}
	root, ok, err := parseRoot(data, lmqConsumerOffsetFile)
	if !ok {
		return c, err
	}
	var d fastjson.Decoder
	for k, v := range root.Members() {
		if matchField(k, lmqOffsetWrapperFields) != "lmqOffsetTable" {
			continue
		}
		if v.IsNull() {
			d.Fail(fmt.Errorf("lmqOffsetTable is null"))
		}
		c.lmq = newCHM[string, int64](stringHash, capDefaultCHM)
		decodeStringTable(&d, v, c.lmq, func(d *fastjson.Decoder, v fastjson.Value) int64 { return d.Int64(v, 0) })
	}
	return c, finish(&d, lmqConsumerOffsetFile)
}

var lmqOffsetWrapperFields = fields("lmqOffsetTable", "offsetTable")

func decodeQueueOffsets(d *fastjson.Decoder, v fastjson.Value) *QueueOffsets {
	q := newQueueOffsets(capDefaultCHM)
	decodeIntTable(d, v, q.table)
	return q
}

// decodeIntTable fills a Map<Integer, Long> in file order: keys are
// numbers or numeric strings, values longs; nulls are refused.
func decodeIntTable(d *fastjson.Decoder, v fastjson.Value, m *chm[int32, int64]) {
	for k, ev := range d.Object(v).Members() {
		if !nonNull(d, k, "map key") || !nonNull(d, ev, "value of "+k.Text()) {
			return
		}
		id := d.Int(k, 0)
		off := d.Int64(ev, 0)
		if d.Err() != nil {
			return
		}
		m.Put(id, off)
	}
}
