package config

import (
	"fmt"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// FilterCleanSpan is how long ConsumerFilterManager.clean keeps a dead
// filter when there is no BrokerController (MS_24_HOUR), which is also
// BrokerConfig.filterDataCleanTimeSpan's default.
const FilterCleanSpan = 24 * 3600 * 1000

// filterDeadGrace is how far back ConsumerFilterManager.decode dates the
// death of a filter that was alive when written (30 s).
const filterDeadGrace = 30 * 1000

// BloomFilterData is org.apache.rocketmq.filter.util.BloomFilterData.
type BloomFilterData struct {
	BitPos []int32 // nil is Java null (left out); empty is []
	BitNum int32
}

// ConsumerFilterData is org.apache.rocketmq.broker.filter.ConsumerFilterData.
// A String field is Java null when its ...Null flag is set.
type ConsumerFilterData struct {
	ConsumerGroup, Topic, Expression, ExpressionType                 string
	ConsumerGroupNull, TopicNull, ExpressionNull, ExpressionTypeNull bool
	BornTime, DeadTime, ClientVersion                                int64
	BloomFilterData                                                  *BloomFilterData // nil is null
}

// Dead is ConsumerFilterData.isDead (written as "dead").
func (f *ConsumerFilterData) Dead() bool { return f.DeadTime >= f.BornTime }

// EncodePretty is JSON.toJSONString(filterData, true), as
// QUERY_CONSUME_QUEUE shows a group's filter.
func (f *ConsumerFilterData) EncodePretty() []byte { return encodePretty(f.write) }

var filterDataFields = fields("bloomFilterData", "bornTime", "clientVersion", "consumerGroup",
	"deadTime", "expression", "expressionType", "topic")

func (f *ConsumerFilterData) write(w *fastjson.Writer) {
	w.BeginObject()
	if b := f.BloomFilterData; b != nil {
		w.Key("bloomFilterData")
		w.BeginObject()
		w.Key("bitNum")
		w.Int(int(b.BitNum))
		if b.BitPos != nil {
			w.Key("bitPos")
			w.BeginInlineArray()
			for _, p := range b.BitPos {
				w.Int(int(p))
			}
			w.EndInlineArray()
		}
		w.EndObject()
	}
	w.Key("bornTime")
	w.Int64(f.BornTime)
	w.Key("clientVersion")
	w.Int64(f.ClientVersion)
	writeString(w, "consumerGroup", f.ConsumerGroup, f.ConsumerGroupNull)
	w.Key("dead")
	w.Bool(f.Dead())
	w.Key("deadTime")
	w.Int64(f.DeadTime)
	writeString(w, "expression", f.Expression, f.ExpressionNull)
	writeString(w, "expressionType", f.ExpressionType, f.ExpressionTypeNull)
	writeString(w, "topic", f.Topic, f.TopicNull)
	w.EndObject()
}

func decodeFilterData(d *fastjson.Decoder, v fastjson.Value) *ConsumerFilterData {
	f := &ConsumerFilterData{ConsumerGroupNull: true, TopicNull: true, ExpressionNull: true, ExpressionTypeNull: true}
	for k, fv := range d.Object(v).Members() {
		switch matchField(k, filterDataFields) {
		case "bloomFilterData":
			f.BloomFilterData = decodeBloom(d, fv)
		case "bornTime":
			f.BornTime = d.Int64(fv, f.BornTime)
		case "clientVersion":
			f.ClientVersion = d.Int64(fv, f.ClientVersion)
		case "deadTime":
			f.DeadTime = d.Int64(fv, f.DeadTime)
		case "consumerGroup":
			f.ConsumerGroup, f.ConsumerGroupNull = nullableString(d, fv)
		case "expression":
			f.Expression, f.ExpressionNull = nullableString(d, fv)
		case "expressionType":
			f.ExpressionType, f.ExpressionTypeNull = nullableString(d, fv)
		case "topic":
			f.Topic, f.TopicNull = nullableString(d, fv)
		}
	}
	return f
}

var bloomFields = fields("bitNum", "bitPos")

func decodeBloom(d *fastjson.Decoder, v fastjson.Value) *BloomFilterData {
	if v.IsNull() {
		return nil
	}
	b := &BloomFilterData{}
	for k, fv := range d.Object(v).Members() {
		switch matchField(k, bloomFields) {
		case "bitNum":
			b.BitNum = d.Int(fv, b.BitNum)
		case "bitPos":
			b.BitPos = nil
			arr := d.Array(fv)
			if arr.Kind() == fastjson.Array {
				b.BitPos = make([]int32, 0, arr.Len())
			}
			for _, e := range arr.Elems() {
				b.BitPos = append(b.BitPos, d.Int(e, 0))
			}
		}
	}
	return b
}

// FilterDataMapByTopic is ConsumerFilterManager.FilterDataMapByTopic: a
// topic's filters by consumer group.
type FilterDataMapByTopic struct {
	Topic     string
	TopicNull bool
	groups    *chm[string, *ConsumerFilterData]
}

func newFilterDataMapByTopic() *FilterDataMapByTopic {
	return &FilterDataMapByTopic{TopicNull: true, groups: newCHM[string, *ConsumerFilterData](stringHash, capDefaultCHM)}
}

// Get returns group's filter.
func (m *FilterDataMapByTopic) Get(group string) (*ConsumerFilterData, bool) {
	return m.groups.Get(group)
}

// Remove drops group's filter.
func (m *FilterDataMapByTopic) Remove(group string) { m.groups.Remove(group) }

// Len returns the number of groups.
func (m *FilterDataMapByTopic) Len() int { return m.groups.Len() }

// Range calls f in the file's order until f returns false.
func (m *FilterDataMapByTopic) Range(f func(group string, data *ConsumerFilterData) bool) {
	m.groups.Range(f)
}

var filterMapFields = fields("groupFilterData", "topic")

func (m *FilterDataMapByTopic) write(w *fastjson.Writer) {
	w.BeginObject()
	w.Key("groupFilterData")
	w.BeginObject()
	m.groups.Range(func(g string, f *ConsumerFilterData) bool {
		w.Key(g)
		f.write(w)
		return true
	})
	w.EndObject()
	writeString(w, "topic", m.Topic, m.TopicNull)
	w.EndObject()
}

func decodeFilterMap(d *fastjson.Decoder, v fastjson.Value) *FilterDataMapByTopic {
	m := newFilterDataMapByTopic()
	for k, fv := range d.Object(v).Members() {
		switch matchField(k, filterMapFields) {
		case "groupFilterData":
			if fv.IsNull() { // ConsumerFilterManager.decode then throws
				d.Fail(fmt.Errorf("groupFilterData is null"))
			}
			m.groups = newCHM[string, *ConsumerFilterData](stringHash, capDefaultCHM)
			decodeStringTable(d, fv, m.groups, decodeFilterData)
		case "topic":
			m.Topic, m.TopicNull = nullableString(d, fv)
		}
	}
	return m
}

// ConsumerFilters is the content of consumerFilter.json:
// ConsumerFilterManager.filterDataByTopic.
type ConsumerFilters struct {
	table *chm[string, *FilterDataMapByTopic]
}

// NewConsumerFilters returns an empty table as ConsumerFilterManager
// creates it (capacity 256).
func NewConsumerFilters() *ConsumerFilters {
	return &ConsumerFilters{table: newCHM[string, *FilterDataMapByTopic](stringHash, capFilterTopics)}
}

// Put stores data under its topic and group, creating the topic's map
// (`new FilterDataMapByTopic(topic)`) on first use.
func (c *ConsumerFilters) Put(data *ConsumerFilterData) {
	m, ok := c.table.Get(data.Topic)
	if !ok {
		m = newFilterDataMapByTopic()
		m.Topic, m.TopicNull = data.Topic, false
		c.table.Put(data.Topic, m)
	}
	m.groups.Put(data.ConsumerGroup, data)
}

// Topic returns topic's filters.
func (c *ConsumerFilters) Topic(topic string) (*FilterDataMapByTopic, bool) {
	return c.table.Get(topic)
}

// Len returns the number of topics.
func (c *ConsumerFilters) Len() int { return c.table.Len() }

// Range calls f in the file's order until f returns false.
func (c *ConsumerFilters) Range(f func(topic string, m *FilterDataMapByTopic) bool) { c.table.Range(f) }

// Clean is ConsumerFilterManager.clean, which Java's encode runs first:
// filters dead for span ms or more (FilterCleanSpan by default) are
// removed, then topics left without filters.
func (c *ConsumerFilters) Clean(nowMillis, span int64) {
	for _, topic := range c.table.Keys() {
		m, _ := c.table.Get(topic)
		for _, g := range m.groups.Keys() {
			f, _ := m.groups.Get(g)
			if f.Dead() && nowMillis-f.DeadTime >= span {
				m.groups.Remove(g)
			}
		}
		if m.groups.Len() == 0 {
			c.table.Remove(topic)
		}
	}
}

// Restore is the rest of ConsumerFilterManager.decode after fastjson: if
// any filter's bloom data does not match the broker's bloom filter (bitNum
// != m, or not k positions) the whole file is dropped (ok false: the
// caller keeps an empty table); otherwise a filter that was alive when
// written is taken as dead since 30 s before now (but not before its
// birth). Expressions are not compiled here.
func (c *ConsumerFilters) Restore(nowMillis int64, bloomBits, bloomHashes int32) (ok bool) {
	ok = true
	c.table.Range(func(_ string, m *FilterDataMapByTopic) bool {
		m.groups.Range(func(_ string, f *ConsumerFilterData) bool {
			b := f.BloomFilterData
			if b == nil || b.BitNum != bloomBits || b.BitPos == nil || len(b.BitPos) != int(bloomHashes) {
				ok = false
				return false
			}
			if f.DeadTime == 0 {
				f.DeadTime = max(nowMillis-filterDeadGrace, f.BornTime)
			}
			return true
		})
		return true
	})
	return ok
}

// Encode is what ConsumerFilterManager.encode(true) writes after its
// clean(); call Clean first to get the same content.
func (c *ConsumerFilters) Encode() []byte {
	return encodePretty(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("filterDataByTopic")
		w.BeginObject()
		c.table.Range(func(k string, m *FilterDataMapByTopic) bool {
			w.Key(k)
			m.write(w)
			return true
		})
		w.EndObject()
		w.EndObject()
	})
}

// DecodeConsumerFilters is the fastjson half of
// ConsumerFilterManager.decode: the table fastjson builds (default
// capacities, file order), which Java then installs as the manager's table
// after the checks of Restore. A missing or null filterDataByTopic is an
// empty table (Java keeps its own).
func DecodeConsumerFilters(data []byte) (*ConsumerFilters, error) {
	c := NewConsumerFilters()
	root, ok, err := parseRoot(data, consumerFilterFile)
	if !ok {
		return c, err
	}
	var d fastjson.Decoder
	for k, v := range root.Members() {
		if matchField(k, filterManagerFields) != "filterDataByTopic" || v.IsNull() {
			continue
		}
		c.table = newCHM[string, *FilterDataMapByTopic](stringHash, capDefaultCHM)
		decodeStringTable(&d, v, c.table, decodeFilterMap)
	}
	return c, finish(&d, consumerFilterFile)
}

var filterManagerFields = fields("filterDataByTopic")
