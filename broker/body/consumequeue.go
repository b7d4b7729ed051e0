package body

import (
	"encoding/base64"
	"strings"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// QueryConsumeQueueResponse is
// org.apache.rocketmq.common.protocol.body.QueryConsumeQueueResponseBody,
// the QUERY_CONSUME_QUEUE answer (mqadmin queryCq):
//
//	{"filterData":"null","maxQueueIndex":8,"minQueueIndex":0,
//	 "queueData":[{"eval":false,"physicOffset":0,"physicSize":190,"tagsCode":0}],
//	 "subscriptionData":{...}}
//
// Fields in fastjson's alphabetical order; a nil SubscriptionData,
// FilterData or QueueData is Java null and left out.
type QueryConsumeQueueResponse struct {
	SubscriptionData *SubscriptionData
	FilterData       NullString
	QueueData        []ConsumeQueueData
	MaxQueueIndex    int64
	MinQueueIndex    int64
}

// ConsumeQueueData is org.apache.rocketmq.common.protocol.body.ConsumeQueueData:
// one consume-queue unit, and for a unit pointing into the ext file the
// ext unit's JSON, its filter bits and whether the group's filter takes it.
type ConsumeQueueData struct {
	PhysicOffset   int64
	PhysicSize     int32
	TagsCode       int64
	ExtendDataJSON NullString
	BitMap         NullString
	Eval           bool
	Msg            NullString
}

// Encode is QueryConsumeQueueResponseBody.encode().
func (r *QueryConsumeQueueResponse) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeNullString(w, "filterData", r.FilterData)
		w.Key("maxQueueIndex")
		w.Int64(r.MaxQueueIndex)
		w.Key("minQueueIndex")
		w.Int64(r.MinQueueIndex)
		if r.QueueData != nil {
			w.Key("queueData")
			w.BeginArray()
			for i := range r.QueueData {
				r.QueueData[i].write(w)
			}
			w.EndArray()
		}
		if r.SubscriptionData != nil {
			w.Key("subscriptionData")
			r.SubscriptionData.write(w)
		}
		w.EndObject()
	})
}

func (d *ConsumeQueueData) write(w *fastjson.Writer) {
	w.BeginObject()
	writeNullString(w, "bitMap", d.BitMap)
	w.Key("eval")
	w.Bool(d.Eval)
	writeNullString(w, "extendDataJson", d.ExtendDataJSON)
	writeNullString(w, "msg", d.Msg)
	w.Key("physicOffset")
	w.Int64(d.PhysicOffset)
	w.Key("physicSize")
	w.Int(int(d.PhysicSize))
	w.Key("tagsCode")
	w.Int64(d.TagsCode)
	w.EndObject()
}

// ExtUnitJSON is JSON.toJSONString(cqExtUnit) of
// ConsumeQueueExt.CqExtUnit: its getters in alphabetical order, the
// filter bitmap base64 and left out when empty.
func ExtUnitJSON(size int16, tagsCode, msgStoreTime int64, bitMap []byte) string {
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	if len(bitMap) > 0 {
		w.Key("filterBitMap")
		w.String(base64.StdEncoding.EncodeToString(bitMap))
	}
	w.Key("msgStoreTime")
	w.Int64(msgStoreTime)
	w.Key("size")
	w.Int(int(size))
	w.Key("tagsCode")
	w.Int64(tagsCode)
	w.EndObject()
	return string(w.Bytes())
}

// BitsString is BitsArray.create(bytes).toString(): the bits from the
// last byte's highest to the first byte's lowest, a line break after
// every byte whose index is a multiple of 8.
func BitsString(b []byte) string {
	var sb strings.Builder
	for i := len(b) - 1; i >= 0; i-- {
		for j := 7; j >= 0; j-- {
			if b[i]&(1<<j) != 0 {
				sb.WriteByte('1')
			} else {
				sb.WriteByte('0')
			}
		}
		if i%8 == 0 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// JSON is the subscription as fastjson writes it (the heartbeat
// form).
func (s *SubscriptionData) JSON() []byte {
	return encodeCompact(s.write)
}
