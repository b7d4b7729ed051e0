package broker

// QUERY_CONSUME_TIME_SPAN (303): for every write queue of a topic, the
// store times of its first and last message and of the group's last
// consumed one, and how long the next unconsumed one has waited
// (the console's consumer view; MQAdminExt.queryConsumeTimeSpan).
// Java 4.9.8 mirror: AdminBrokerProcessor.queryConsumeTimeSpan,
// QueryConsumeTimeSpanBody / QueueTimeSpan, whose *Str getters fastjson
// writes too ("yyyy-MM-dd#HH:mm:ss:SSS" in the broker's time zone).

import (
	"context"
	"fmt"
	"time"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// queueTimeSpan is one QueueTimeSpan.
type queueTimeSpan struct {
	queue                   int32
	minTS, maxTS, consumeTS int64
	delay                   int64
}

func (h *statsAdmin) consumeTimeSpan(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryConsumeTimeSpanRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	tc, ok := h.topics.Select(hdr.Topic)
	if !ok {
		return wire.NewResponse(req, int32(protocol.RespTopicNotExist), "topic["+hdr.Topic+"] not exist"), nil
	}
	now := time.Now().UnixMilli()
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("consumeTimeSpanSet")
	w.BeginArray()
	for q := range max(tc.WriteQueueNums, 0) {
		h.writeTimeSpan(w, hdr.Topic, h.timeSpan(hdr.Topic, hdr.Group, q, now))
	}
	w.EndArray()
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

// timeSpan computes one queue's QueueTimeSpan as Java does (a group
// without an offset counts from the queue's first message).
func (h *statsAdmin) timeSpan(topic, group string, q int32, now int64) queueTimeSpan {
	s := queueTimeSpan{queue: q, minTS: h.store.EarliestMessageTime(topic, q)}
	maxOff := h.store.MaxOffsetInQueue(topic, q)
	s.maxTS = h.store.MessageStoreTime(topic, q, maxOff-1)
	consumerOff := h.offsets.Query(group, topic, q)
	s.consumeTS = s.minTS
	if consumerOff > 0 {
		s.consumeTS = h.store.MessageStoreTime(topic, q, consumerOff-1)
	}
	if consumerOff < maxOff {
		s.delay = now - h.store.MessageStoreTime(topic, q, consumerOff)
	}
	return s
}

func (h *statsAdmin) writeTimeSpan(w *fastjson.Writer, topic string, s queueTimeSpan) {
	w.BeginObject()
	w.Key("consumeTimeStamp")
	w.Int64(s.consumeTS)
	w.Key("consumeTimeStampStr")
	w.String(javaDateMillis(s.consumeTS))
	w.Key("delayTime")
	w.Int64(s.delay)
	w.Key("maxTimeStamp")
	w.Int64(s.maxTS)
	w.Key("maxTimeStampStr")
	w.String(javaDateMillis(s.maxTS))
	w.Key("messageQueue")
	writeMQ(w, h.mq(topic, s.queue))
	w.Key("minTimeStamp")
	w.Int64(s.minTS)
	w.Key("minTimeStampStr")
	w.String(javaDateMillis(s.minTS))
	w.EndObject()
}

// javaDateMillis is UtilAll.formatDate(new Date(ms), "yyyy-MM-dd#HH:mm:ss:SSS")
// in the local time zone.
func javaDateMillis(ms int64) string {
	t := time.UnixMilli(ms)
	return fmt.Sprintf("%s:%03d", t.Format("2006-01-02#15:04:05"), t.Nanosecond()/int(time.Millisecond))
}
