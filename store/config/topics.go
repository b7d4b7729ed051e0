package config

import (
	"fmt"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// TopicFilterType is org.apache.rocketmq.common.TopicFilterType; the zero
// value is Java's null (left out when written).
type TopicFilterType uint8

// TopicFilterType values; the names are what topics.json holds.
const (
	FilterTypeNull TopicFilterType = iota
	SingleTag                      // "SINGLE_TAG", ordinal 0
	MultiTag                       // "MULTI_TAG", ordinal 1
)

func (t TopicFilterType) String() string {
	switch t {
	case SingleTag:
		return "SINGLE_TAG"
	case MultiTag:
		return "MULTI_TAG"
	}
	return "null"
}

// Java TopicConfig defaults (TopicConfig.defaultReadQueueNums etc.).
const (
	DefaultTopicQueueNums = 16
	DefaultTopicPerm      = 6 // PermName.PERM_READ | PermName.PERM_WRITE
)

// TopicConfig is org.apache.rocketmq.common.TopicConfig.
type TopicConfig struct {
	TopicName       string
	TopicNameNull   bool // Java null: topicName left out
	ReadQueueNums   int32
	WriteQueueNums  int32
	Perm            int32
	TopicFilterType TopicFilterType
	TopicSysFlag    int32
	Order           bool
}

// NewTopicConfig is `new TopicConfig(name)`: 16/16 queues, perm 6,
// SINGLE_TAG.
func NewTopicConfig(name string) TopicConfig {
	return TopicConfig{TopicName: name, ReadQueueNums: DefaultTopicQueueNums,
		WriteQueueNums: DefaultTopicQueueNums, Perm: DefaultTopicPerm, TopicFilterType: SingleTag}
}

var topicConfigFields = fields("order?", "perm", "readQueueNums", "topicFilterType", "topicName",
	"topicSysFlag", "writeQueueNums")

func (tc TopicConfig) write(w *fastjson.Writer) {
	w.BeginObject()
	w.Key("order")
	w.Bool(tc.Order)
	w.Key("perm")
	w.Int(int(tc.Perm))
	w.Key("readQueueNums")
	w.Int(int(tc.ReadQueueNums))
	if tc.TopicFilterType != FilterTypeNull {
		w.Key("topicFilterType")
		w.String(tc.TopicFilterType.String())
	}
	writeString(w, "topicName", tc.TopicName, tc.TopicNameNull)
	w.Key("topicSysFlag")
	w.Int(int(tc.TopicSysFlag))
	w.Key("writeQueueNums")
	w.Int(int(tc.WriteQueueNums))
	w.EndObject()
}

func decodeTopicConfig(d *fastjson.Decoder, v fastjson.Value) TopicConfig {
	tc := NewTopicConfig("")
	tc.TopicNameNull = true
	for k, fv := range d.Object(v).Members() {
		switch matchField(k, topicConfigFields) {
		case "order":
			tc.Order = d.Bool(fv, tc.Order)
		case "perm":
			tc.Perm = d.Int(fv, tc.Perm)
		case "readQueueNums":
			tc.ReadQueueNums = d.Int(fv, tc.ReadQueueNums)
		case "writeQueueNums":
			tc.WriteQueueNums = d.Int(fv, tc.WriteQueueNums)
		case "topicSysFlag":
			tc.TopicSysFlag = d.Int(fv, tc.TopicSysFlag)
		case "topicFilterType":
			tc.TopicFilterType = decodeFilterType(d, fv)
		case "topicName":
			tc.TopicName, tc.TopicNameNull = nullableString(d, fv)
		}
	}
	return tc
}

// decodeFilterType is fastjson's EnumDeserializer: a name (an unknown one
// is null), an ordinal, or null.
func decodeFilterType(d *fastjson.Decoder, v fastjson.Value) TopicFilterType {
	switch v.Kind() {
	case fastjson.String:
		switch v.Text() {
		case "SINGLE_TAG":
			return SingleTag
		case "MULTI_TAG":
			return MultiTag
		}
		return FilterTypeNull
	case fastjson.Number:
		switch d.Int(v, -1) {
		case 0:
			return SingleTag
		case 1:
			return MultiTag
		}
		d.Fail(fmt.Errorf("topicFilterType ordinal %s out of range", v.Text()))
	case fastjson.Null, fastjson.Absent:
	default:
		d.Fail(fmt.Errorf("topicFilterType: %s is not an enum value", v.Kind()))
	}
	return FilterTypeNull
}

// Topics is the content of topics.json (TopicConfigSerializeWrapper):
// TopicConfigManager's topicConfigTable and dataVersion.
type Topics struct {
	DataVersion DataVersion
	table       *chm[string, TopicConfig]
}

// NewTopics returns an empty table as TopicConfigManager creates it (the
// broker adds its system topics).
func NewTopics(nowMillis int64) *Topics {
	return &Topics{DataVersion: NewDataVersion(nowMillis), table: newCHM[string, TopicConfig](stringHash, capTopics)}
}

// Get returns the config of topic.
func (t *Topics) Get(topic string) (TopicConfig, bool) { return t.table.Get(topic) }

// Put stores tc under topic (topicConfigTable.put).
func (t *Topics) Put(topic string, tc TopicConfig) { t.table.Put(topic, tc) }

// Remove deletes topic.
func (t *Topics) Remove(topic string) (TopicConfig, bool) { return t.table.Remove(topic) }

// Len returns the number of topics.
func (t *Topics) Len() int { return t.table.Len() }

// PutAll is topicConfigTable.putAll(from's table), as TopicConfigManager.
// decode and SlaveSynchronize.syncTopicConfig call it: the table first
// grows for from's size (ConcurrentHashMap.tryPresize), then takes from's
// topics in from's order. The growth decides the order of a table given
// 683 topics or more at once.
func (t *Topics) PutAll(from *Topics) { t.table.PutAll(from.table) }

// Clear is topicConfigTable.clear(): no topic is left, and the table keeps
// the size it has grown to.
func (t *Topics) Clear() { t.table.Clear() }

// Range calls f in the file's order until f returns false.
func (t *Topics) Range(f func(topic string, tc TopicConfig) bool) { t.table.Range(f) }

// Encode is TopicConfigManager.encode(true).
func (t *Topics) Encode() []byte {
	return encodePretty(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("dataVersion")
		t.DataVersion.write(w)
		w.Key("topicConfigTable")
		w.BeginObject()
		t.table.Range(func(k string, tc TopicConfig) bool {
			w.Key(k)
			tc.write(w)
			return true
		})
		w.EndObject()
		w.EndObject()
	})
}

// DecodeTopics is TopicConfigManager.decode into a fresh manager: the
// wrapper's table is filled in file order, then putAll into a table of
// capacity 1024. A missing dataVersion is `new DataVersion()` (now). A
// missing or null topicConfigTable, or a null dataVersion, throws in Java
// and is ErrCorrupt here.
func DecodeTopics(data []byte) (*Topics, error) {
	t := NewTopics(nowMillis())
	root, ok, err := parseRoot(data, topicsFile)
	if !ok {
		return t, err
	}
	var d fastjson.Decoder
	wrapper := newCHM[string, TopicConfig](stringHash, capDefaultCHM)
	for k, v := range root.Members() {
		switch matchField(k, topicWrapperFields) {
		case "dataVersion":
			if v.IsNull() {
				d.Fail(fmt.Errorf("dataVersion is null"))
			}
			t.DataVersion = decodeDataVersion(&d, v, t.DataVersion)
		case "topicConfigTable":
			if v.IsNull() {
				d.Fail(fmt.Errorf("topicConfigTable is null"))
			}
			wrapper = newCHM[string, TopicConfig](stringHash, capDefaultCHM)
			decodeStringTable(&d, v, wrapper, decodeTopicConfig)
		}
	}
	t.table.PutAll(wrapper)
	return t, finish(&d, topicsFile)
}

var topicWrapperFields = fields("dataVersion", "topicConfigTable")

// decodeStringTable fills m from a JSON object with String keys, in file
// order (a repeated key keeps its first place and takes the last value).
// fastjson refuses a key that is not a string or identifier ({5:...}:
// "illegal identifier") in a Map<String, V>.
func decodeStringTable[V any](d *fastjson.Decoder, v fastjson.Value, m *chm[string, V],
	decode func(*fastjson.Decoder, fastjson.Value) V) {
	for k, ev := range d.Object(v).Members() {
		if k.Kind() != fastjson.String {
			d.Fail(fmt.Errorf("illegal %s key %s in a String-keyed table", k.Kind(), k))
			return
		}
		if !nonNull(d, ev, "value of "+k.Text()) {
			return
		}
		m.Put(k.Text(), decode(d, ev))
	}
}

// WriteJSON writes the TopicConfig bean as fastjson does, for bodies that
// embed it (RegisterBrokerBody, TopicConfigSerializeWrapper).
func (tc TopicConfig) WriteJSON(w *fastjson.Writer) { tc.write(w) }

// ParseTopicFilterType is TopicFilterType.valueOf: exact enum names only.
func ParseTopicFilterType(name string) (TopicFilterType, bool) {
	switch name {
	case "SINGLE_TAG":
		return SingleTag, true
	case "MULTI_TAG":
		return MultiTag, true
	}
	return FilterTypeNull, false
}
