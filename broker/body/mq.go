package body

import (
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// MessageQueue is org.apache.rocketmq.common.message.MessageQueue. A
// literal has non-null strings; a decoded one remembers a null topic or
// brokerName (unexported, so that equality stays Java's equals and a null
// field stays left out when written back).
type MessageQueue struct {
	Topic      string
	BrokerName string
	QueueID    int32
	nulls      uint8 // nullTopic | nullBroker
}

const (
	nullTopic uint8 = 1 << iota
	nullBroker
)

// HashCode is MessageQueue.hashCode (4.9.8): 31-based over brokerName,
// queueId, topic.
func (mq MessageQueue) HashCode() int32 {
	h := int32(1)
	h = 31*h + jhash.String(mq.BrokerName)
	h = 31*h + mq.QueueID
	h = 31*h + jhash.String(mq.Topic)
	return h
}

var mqFields = fields("brokerName", "queueId", "topic")

func decodeMQ(d *fastjson.Decoder, v fastjson.Value) MessageQueue {
	mq := MessageQueue{nulls: nullTopic | nullBroker}
	for k, fv := range d.Object(v).Members() {
		switch mqFields.match(k) {
		case "brokerName":
			s := decodeNullString(d, fv)
			mq.BrokerName = s.S
			mq.nulls = setNull(mq.nulls, nullBroker, !s.Valid)
		case "queueId":
			mq.QueueID = d.Int(fv, 0)
		case "topic":
			s := decodeNullString(d, fv)
			mq.Topic = s.S
			mq.nulls = setNull(mq.nulls, nullTopic, !s.Valid)
		}
	}
	return mq
}

func setNull(bits, bit uint8, null bool) uint8 {
	if null {
		return bits | bit
	}
	return bits &^ bit
}

func (mq MessageQueue) write(w *fastjson.Writer) {
	w.BeginObject()
	if mq.nulls&nullBroker == 0 {
		w.Key("brokerName")
		w.String(mq.BrokerName)
	}
	w.Key("queueId")
	w.Int(int(mq.QueueID))
	if mq.nulls&nullTopic == 0 {
		w.Key("topic")
		w.String(mq.Topic)
	}
	w.EndObject()
}

// NewMQSet returns an empty HashSet<MessageQueue> as `new HashSet<>()`
// (initialCapacity < 0) or `new HashSet<>(initialCapacity)` creates it.
func NewMQSet(initialCapacity int) jhash.Set[MessageQueue] {
	return jhash.NewSet(MessageQueue.HashCode, initialCapacity)
}

// decodeMQSet reads a Set<MessageQueue>: a HashSet filled in array order,
// returned in its iteration order. A JSON null is nil.
func decodeMQSet(d *fastjson.Decoder, v fastjson.Value) []MessageQueue {
	if v.IsNull() {
		return nil
	}
	set := NewMQSet(-1)
	for _, e := range beanElems(d, v) {
		if e.IsNull() {
			continue // documented divergence: Java keeps a null element
		}
		set.Add(decodeMQ(d, e))
	}
	return nonNil(set.Keys())
}

func writeMQs(w *fastjson.Writer, key string, mqs []MessageQueue) {
	if mqs == nil {
		return
	}
	w.Key(key)
	w.BeginArray()
	for _, mq := range mqs {
		mq.write(w)
	}
	w.EndArray()
}
