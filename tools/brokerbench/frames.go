// Package brokerbench is a load generator for RocketMQ 4.9.8 brokers
// (Java's or Sputnik's) that speaks raw remoting frames, so that it
// measures the broker rather than a client library:
//
//   - Send: closed loop, Conns connections each with one SEND_MESSAGE_V2
//     in flight, for TPS and latency percentiles;
//   - SendAtRate: open loop, requests issued on a fixed schedule whatever
//     the replies do, latency counted from each request's scheduled time
//     (no coordinated omission);
//   - CreateTopic and WaitRegistered: the admin calls a run needs;
//   - Drain: a client-go push consumer timed while it drains a topic.
package brokerbench

import (
	"errors"
	"fmt"
	"time"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ErrBadReply reports a reply the generator cannot use: a frame it cannot
// decode, or a response code other than SUCCESS.
var ErrBadReply = errors.New("brokerbench: bad reply")

// defaultTopic is TBW102, the template topic of auto-creation
// (TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC in Java 4.9.8).
const defaultTopic = "TBW102"

// SendRequest builds one SEND_MESSAGE_V2 request as the Java 4.9.8
// producer sends it (JSON header, one-letter keys a..n), with body as the
// message body and no properties but WAIT=true.
func SendRequest(group, topic string, queueID int32, body []byte) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqSendMessageV2))
	req.Serialize = wire.SerializeJSON
	h := protocol.SendMessageRequestHeaderV2{
		ProducerGroup:         protocol.Some(group),
		Topic:                 topic,
		DefaultTopic:          protocol.Some(defaultTopic),
		DefaultTopicQueueNums: protocol.Some[int32](4),
		QueueId:               queueID,
		BornTimestamp:         time.Now().UnixMilli(),
		Properties:            "WAIT\x01true\x02",
		ReconsumeTimes:        protocol.Some(int32(0)),
		MaxReconsumeTimes:     protocol.Some(int32(16)),
	}
	h.EncodeTo(req)
	req.Body = body
	return req
}

// SendFrame encodes SendRequest with the given opaque, length field
// included.
func SendFrame(group, topic string, queueID int32, body []byte, opaque int32) ([]byte, error) {
	req := SendRequest(group, topic, queueID, body)
	req.Opaque = opaque
	return wire.AppendFrame(nil, req)
}

// CreateTopicRequest builds UPDATE_AND_CREATE_TOPIC for a read-write topic
// with queues read and write queues (perm 6 = PermName.PERM_READ|PERM_WRITE).
func CreateTopicRequest(topic string, queues int32) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqUpdateAndCreateTopic))
	req.Serialize = wire.SerializeJSON
	(&protocol.CreateTopicRequestHeader{
		Topic: topic, DefaultTopic: protocol.Some(defaultTopic), ReadQueueNums: queues, WriteQueueNums: queues,
		Perm: 6, TopicFilterType: "SINGLE_TAG",
	}).EncodeTo(req)
	return req
}

// Body returns n bytes of filler.
func Body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// replyError turns a non-SUCCESS reply into an error.
func replyError(c *wire.Command) error {
	if c.Code == int32(protocol.RespSuccess) {
		return nil
	}
	return fmt.Errorf("%w: code %d %s", ErrBadReply, c.Code, c.Remark)
}
