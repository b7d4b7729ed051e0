package body

import (
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// The bodies of the offset-reset and consumer-status requests a broker
// relays between mqadmin and the consumers of a group:
//
//	ResetOffsetBody          {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:12,...}}
//	ResetOffsetBodyForC      {"offsetTable":[{"brokerName":"b","offset":12,"queueId":0,"topic":"T"},...]}
//	GetConsumerStatusBody    {"consumerTable":{"clientId":{{mq}:12,...}},"messageQueueTable":{{mq}:12,...}}
//
// A Map<MessageQueue, Long> is a HashMap: fastjson writes it in Java's
// iteration order, the queue objects as keys. Java 4.9.8 mirror:
// common/protocol/body/{ResetOffsetBody,ResetOffsetBodyForC,GetConsumerStatusBody}
// and common/message/MessageQueueForC.

// MQOffset is one entry of a Map<MessageQueue, Long>.
type MQOffset struct {
	MQ     MessageQueue
	Offset int64
}

// mqOffsetMap is the HashMap the rows fill, in order (a later row for the
// same queue replaces the earlier value and keeps its place).
func mqOffsetMap(rows []MQOffset) *jhash.Map[MessageQueue, int64] {
	m := jhash.NewMap[MessageQueue, int64](MessageQueue.HashCode, -1)
	for _, r := range rows {
		m.Put(r.MQ, r.Offset)
	}
	return m
}

// inJavaOrder returns the rows as the HashMap they fill iterates them.
func inJavaOrder(rows []MQOffset) []MQOffset {
	out := make([]MQOffset, 0, len(rows))
	mqOffsetMap(rows).Range(func(mq MessageQueue, off int64) bool {
		out = append(out, MQOffset{MQ: mq, Offset: off})
		return true
	})
	return out
}

func writeMQOffsetMap(w *fastjson.Writer, rows []MQOffset) {
	w.BeginObject()
	for _, r := range inJavaOrder(rows) {
		w.KeyObject(r.MQ.write)
		w.Int64(r.Offset)
	}
	w.EndObject()
}

// EncodeResetOffsetBody is ResetOffsetBody.encode() of a table filled with
// rows in order: the RESET_CONSUMER_CLIENT_OFFSET request's body and the
// INVOKE_BROKER_TO_RESET_OFFSET answer's.
func EncodeResetOffsetBody(rows []MQOffset) []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("offsetTable")
		writeMQOffsetMap(w, rows)
		w.EndObject()
	})
}

// EncodeResetOffsetBodyForC is ResetOffsetBodyForC.encode(): the same
// table as a list of MessageQueueForC (fields in fastjson's alphabetical
// order), in the HashMap's iteration order, for C++ clients.
func EncodeResetOffsetBodyForC(rows []MQOffset) []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("offsetTable")
		w.BeginArray()
		for _, r := range inJavaOrder(rows) {
			w.BeginObject()
			w.Key("brokerName")
			w.String(r.MQ.BrokerName)
			w.Key("offset")
			w.Int64(r.Offset)
			w.Key("queueId")
			w.Int(int(r.MQ.QueueID))
			w.Key("topic")
			w.String(r.MQ.Topic)
			w.EndObject()
		}
		w.EndArray()
		w.EndObject()
	})
}

// ConsumerStatus is one entry of GetConsumerStatusBody.consumerTable: a
// client's offsets per queue.
type ConsumerStatus struct {
	ClientID string
	Offsets  []MQOffset
}

var consumerStatusFields = fields("consumerTable", "messageQueueTable")

// DecodeConsumerStatusOffsets reads the messageQueueTable of a client's
// GET_CONSUMER_STATUS_FROM_CLIENT answer (a GetConsumerStatusBody), in the
// decoded HashMap's iteration order. A null key or value is skipped.
func DecodeConsumerStatusOffsets(data []byte) ([]MQOffset, error) {
	root, err := parseRoot(data, "GetConsumerStatusBody")
	if err != nil {
		return nil, err
	}
	var d fastjson.Decoder
	var rows []MQOffset
	for k, fv := range root.Members() {
		if consumerStatusFields.match(k) != "messageQueueTable" || fv.IsNull() {
			continue
		}
		for mk, mv := range d.Object(fv).Members() {
			if mk.IsNull() || mv.IsNull() {
				continue
			}
			rows = append(rows, MQOffset{MQ: decodeMQ(&d, mk), Offset: d.Int64(mv, 0)})
		}
	}
	if err := finish(&d, "GetConsumerStatusBody"); err != nil {
		return nil, err
	}
	return inJavaOrder(rows), nil
}

// EncodeGetConsumerStatusBody is GetConsumerStatusBody.encode() with the
// consumerTable filled with table in order (a HashMap keyed by client id)
// and an empty messageQueueTable: the INVOKE_BROKER_TO_GET_CONSUMER_STATUS
// answer.
func EncodeGetConsumerStatusBody(table []ConsumerStatus) []byte {
	m := jhash.NewMap[string, []MQOffset](jhash.String, -1)
	for _, s := range table {
		m.Put(s.ClientID, s.Offsets)
	}
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("consumerTable")
		w.BeginObject()
		m.Range(func(id string, rows []MQOffset) bool {
			w.Key(id)
			writeMQOffsetMap(w, rows)
			return true
		})
		w.EndObject()
		w.Key("messageQueueTable")
		w.BeginObject()
		w.EndObject()
		w.EndObject()
	})
}

// QueueOffset is one queue's offset in a map keyed by queue id.
type QueueOffset struct {
	QueueID int32
	Offset  int64
}

// EncodeQueryCorrectionOffsetBody is QueryCorrectionOffsetBody.encode():
// {"correctionOffsets":{0:5,1:9}}, the HashMap<Integer, Long> in the order
// of rows (the caller's Java map order).
func EncodeQueryCorrectionOffsetBody(rows []QueueOffset) []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("correctionOffsets")
		w.BeginObject()
		for _, r := range rows {
			w.KeyInt(int64(r.QueueID))
			w.Int64(r.Offset)
		}
		w.EndObject()
		w.EndObject()
	})
}
