package scenario

// Requests in the ROCKETMQ serialize type (issue #6: "JSON and ROCKETMQ
// binary headers"). Java answers a request in the request's own type when
// the answer goes back through NettyRemotingAbstract's callback, and in the
// server's configured type (JSON unless rocketmq.serialize.type says
// otherwise) when it is written any other way: a held pull answered when
// its hold ends (PullMessageProcessor.executeRequestWhenWakeup), a found
// QUERY_MESSAGE or VIEW_MESSAGE_BY_ID (QueryMessageProcessor writes a
// FileRegion with response.encodeHeader), an unknown request code, and a
// request whose processing threw (its SYSTEM_ERROR). Each answer's code,
// serialize type and the header fields that do not depend on time or
// address are recorded and compared with Java's.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

const (
	serTopic = "serTopic" // RW, 2 queues: messages in queue 0, none ever in queue 1
	serKey   = "serKey"
)

func init() {
	Register(&Scenario{
		Name: "broker/raw/rocketmq-serialize",
		Doc: "raw requests in the ROCKETMQ serialize type are answered in it, except where Java writes the answer outside its " +
			"request callback (a held pull whose hold ends, a found query or message by id, an unknown code, a request that " +
			"threw), which Java answers in the server's own type, JSON",
		Tags:    tags("raw", "javaclient"),
		Timeout: brokerScenarioLimit,
		Run:     brokerRocketMQSerialize,
	})
	Register(&Scenario{
		Name: "namesrv/raw/rocketmq-serialize",
		Doc: "the requests of namesrv/errors/bad-requests in the ROCKETMQ serialize type: answered in it, except where Java's " +
			"processor throws (a field it cannot do without, a body that is not JSON), which Java answers in JSON",
		Tags: []string{"namesrv", "raw"},
		Run:  namesrvRocketMQSerialize,
	})
}

func namesrvRocketMQSerialize(ctx context.Context, env *Env) error {
	return namesrvSerialized(ctx, env, wire.SerializeRocketMQ)
}

// namesrvSerialized sends the requests of namesrv/errors/bad-requests in
// serialize type st and records each answer.
func namesrvSerialized(ctx context.Context, env *Env, st wire.SerializeType) error {
	conn, err := rawclient.Dial(ctx, env.Namesrv)
	if err != nil {
		return err
	}
	defer conn.Close()
	var cases []serCase
	for _, c := range append(namesrvOddRequests(), namesrvMissingFields()...) {
		cases = append(cases, serCase{name: c.name, req: c.req, remark: c.remark})
	}
	_, err = observeSerialized(ctx, env, conn, st, cases)
	return err
}

// serCase is one ROCKETMQ-serialized request and what of its answer is
// recorded beside the code and serialize type.
type serCase struct {
	name    string
	req     *wire.Command
	remark  bool
	ext     []string
	bodyLen bool
	timeout time.Duration
}

func brokerRocketMQSerialize(ctx context.Context, env *Env) error {
	if err := serializedReadsAndWrites(ctx, env, serTopic, wire.SerializeRocketMQ); err != nil {
		return err
	}
	return errorsIn(ctx, env, wire.SerializeRocketMQ)
}

// serializedReadsAndWrites creates topic (2 queues), sends to it, reads
// back every way and sends the requests Java answers outside their
// callback, all in serialize type st, recording each answer.
func serializedReadsAndWrites(ctx context.Context, env *Env, topic string, st wire.SerializeType) error {
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	conn, err := rawclient.Dial(ctx, env.Brokers[0].Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	offset, err := observeSerialized(ctx, env, conn, st, serSends(topic))
	if err != nil {
		return err
	}
	if err := awaitQueryable(ctx, conn, topic); err != nil {
		return err
	}
	_, err = observeSerialized(ctx, env, conn, st, serReads(topic, offset))
	return err
}

// errorsIn sends the requests of the broker/errors scenarios again, in
// serialize type st, and records each answer's code and type: which
// refusals Java answers through its callback and which through a caught
// exception.
func errorsIn(ctx context.Context, env *Env, st wire.SerializeType) error {
	if err := createErrTopics(ctx, env); err != nil {
		return err
	}
	conn, offset, err := dialAndSend(ctx, env)
	if err != nil {
		return err
	}
	defer conn.Close()
	var cases []serCase
	for _, c := range append(append(badRequests(env), missingFields(offset)...), badBodies(env, offset)...) {
		cases = append(cases, serCase{name: fmt.Sprintf("in %v: %s", st, c.name), req: c.req})
	}
	_, err = observeSerialized(ctx, env, conn, st, cases)
	return err
}

// serSends stores two messages in topic's queue 0, one with each send
// header version, both with the key serKey.
func serSends(topic string) []serCase {
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	props := "KEYS\x01" + serKey + "\x02TAGS\x01t\x02"
	v1 := rawclient.Request(int32(protocol.ReqSendMessage), "producerGroup", "serProducer", "topic", topic,
		"defaultTopic", "TBW102", "defaultTopicQueueNums", "4", "queueId", "0", "sysFlag", "0", "bornTimestamp", now,
		"flag", "0", "properties", props, "reconsumeTimes", "0", "unitMode", "false", "batch", "false")
	v1.Body = []byte("serialize v1")
	return []serCase{
		{name: "SEND_MESSAGE_V2", req: sendV2(topic, 0, []byte("serialize v2"), "a", "serProducer", "i", props), ext: []string{"queueId", "queueOffset"}},
		{name: "SEND_MESSAGE", req: v1, ext: []string{"queueId", "queueOffset"}},
	}
}

// serReads reads the messages back every way, and sends the requests Java
// answers in its own type. offset is the first message's commit-log offset.
func serReads(topic string, offset int64) []serCase {
	req := func(code protocol.RequestCode, ext ...string) *wire.Command {
		return rawclient.Request(int32(code), ext...)
	}
	pullHdr := []string{"nextBeginOffset", "minOffset", "maxOffset", "suggestWhichBrokerId"}
	return []serCase{
		{name: "pull two messages", req: pull(topic, 0), ext: pullHdr, bodyLen: true},
		{name: "pull past the end, no suspension", req: pull(topic, 0, "queueOffset", "2"), ext: pullHdr},
		{name: "pull an empty queue, held until the hold ends", req: pull(topic, 1, "sysFlag", "6", "suspendTimeoutMillis", "1000"),
			ext: pullHdr, timeout: 15 * time.Second},
		{name: "max offset", req: req(protocol.ReqGetMaxOffset, "topic", topic, "queueId", "0"), ext: []string{"offset"}},
		{name: "max offset of queue 9 of 2", req: req(protocol.ReqGetMaxOffset, "topic", topic, "queueId", "9"), remark: true},
		{name: "query the key", req: req(protocol.ReqQueryMessage, "topic", topic, "key", serKey, "maxNum", "32",
			"beginTimestamp", "0", "endTimestamp", "9999999999999"), bodyLen: true},
		{name: "query a key nobody sent", req: req(protocol.ReqQueryMessage, "topic", topic, "key", "serNoKey", "maxNum", "32",
			"beginTimestamp", "0", "endTimestamp", "9999999999999"), remark: true},
		{name: "view the first message by offset", req: req(protocol.ReqViewMessageById, "offset", strconv.FormatInt(offset, 10)), bodyLen: true},
		{name: "view a message at offset 99999999", req: req(protocol.ReqViewMessageById, "offset", "99999999"), remark: true},
		{name: "send to a topic with an illegal name", req: sendV2("ser topic!", 0, []byte("x")), remark: true},
		{name: "a request code nobody serves", req: req(9999), remark: true},
		{name: "max offset without a topic", req: req(protocol.ReqGetMaxOffset, "queueId", "0")},
		{name: "consumers of a group nobody joined", req: req(protocol.ReqGetConsumerListByGroup, "consumerGroup", "serNoGroup"), remark: true},
	}
}

// observeSerialized sends each case in serialize type st and records its
// answer; it returns the commit-log offset of the first successful send's
// message, if any.
func observeSerialized(ctx context.Context, env *Env, conn *rawclient.Conn, st wire.SerializeType, cases []serCase) (int64, error) {
	first := int64(-1)
	for _, c := range cases {
		c.req.Serialize = st
		timeout := c.timeout
		if timeout == 0 {
			timeout = defaultRawTimeout
		}
		resp, err := conn.Invoke(ctx, c.req, timeout)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", c.name, err)
		}
		env.Log.Printf("%s: code %d, serialize %v, remark %q, ext %v", c.name, resp.Code, resp.Serialize, resp.Remark, resp.Ext)
		text := fmt.Sprintf("code %d in %v (%v, version %d, flag %d), ext keys %s", resp.Code, resp.Serialize,
			resp.Language, resp.Version, resp.Flag, extKeyOrder(resp))
		if c.remark || resp.Code == respSuccess {
			text += ": " + env.Mask(resp.Remark)
		}
		for _, k := range c.ext {
			v, _ := resp.ExtValue(k)
			text += fmt.Sprintf(" %s=%s", k, v)
		}
		if c.bodyLen {
			text += fmt.Sprintf(" body %d bytes", len(resp.Body))
		}
		env.Observe(c.name, text)
		if first < 0 && resp.Code == respSuccess && c.req.Code == int32(protocol.ReqSendMessageV2) {
			if first, err = offsetOfMsgID(resp); err != nil {
				return 0, err
			}
		}
	}
	return first, nil
}

// awaitQueryable waits until both messages are in queue 0 and the index
// finds the key (both dispatches are asynchronous).
func awaitQueryable(ctx context.Context, conn *rawclient.Conn, topic string) error {
	return Eventually(ctx, 5*time.Second, 20*time.Millisecond, func() error {
		resp, err := conn.Invoke(ctx, rawclient.Request(int32(protocol.ReqQueryMessage), "topic", topic, "key", serKey,
			"maxNum", "32", "beginTimestamp", "0", "endTimestamp", "9999999999999"), defaultRawTimeout)
		if err != nil {
			return err
		}
		if resp.Code != respSuccess {
			return &codeError{Code: resp.Code, Remark: resp.Remark}
		}
		if n, _ := resp.ExtValue("indexLastUpdatePhyoffset"); n == "" {
			return fmt.Errorf("query %s: no index offset", serKey)
		}
		max, err := awaitDispatched(ctx, conn, topic)
		if err != nil || max < 2 {
			return fmt.Errorf("%s queue 0 max offset %d: %v", topic, max, err)
		}
		return nil
	})
}

// extKeyOrder lists a response's ext keys in wire order: Java writes them in
// its HashMap's order (a FastCodesHeader's own first in the binary form).
func extKeyOrder(c *wire.Command) string {
	keys := make([]string, len(c.Ext))
	for i, f := range c.Ext {
		keys[i] = f.Key
	}
	return "[" + strings.Join(keys, " ") + "]"
}
