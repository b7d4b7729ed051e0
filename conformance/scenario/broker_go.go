package scenario

// client-go producers (SendSync, SendAsync, SendOneWay) and a push consumer
// that keeps every delivered message's content, for the broker scenarios.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// systemProps are Java MessageConst's system property names (the
// STRING_HASH_SET of 4.9.8) plus client-go's SHARDING_KEY; the rest of a
// message's properties are user properties.
var systemProps = map[string]bool{}

func init() {
	for _, k := range strings.Fields("KEYS TAGS WAIT DELAY RETRY_TOPIC REAL_TOPIC REAL_QID TRAN_MSG PGROUP " +
		"MIN_OFFSET MAX_OFFSET BUYER_ID ORIGIN_MESSAGE_ID TRANSFER_FLAG CORRECTION_FLAG RECONSUME_TIME " +
		"MSG_REGION TRACE_ON UNIQ_KEY MAX_RECONSUME_TIMES CONSUME_START_TIME TRAN_PREPARED_QUEUE_OFFSET " +
		"TRANSACTION_CHECK_TIMES CHECK_IMMUNITY_TIME_IN_SECONDS INSTANCE_ID CORRELATION_ID REPLY_TO_CLIENT " +
		"TTL ARRIVE_TIME PUSH_REPLY_TIME CLUSTER MSG_TYPE INNER_MULTI_DISPATCH INNER_MULTI_QUEUE_OFFSET " +
		"SHARDING_KEY") {
		systemProps[k] = true
	}
}

// goMessage builds a client-go message from a spec.
func goMessage(topic string, s msgSpec) *primitive.Message {
	m := primitive.NewMessage(topic, []byte(s.Body))
	if s.Tags != "" {
		m.WithTag(s.Tags)
	}
	if s.Keys != "" {
		m.WithKeys(strings.Fields(s.Keys))
	}
	for k, v := range s.Props {
		m.WithProperty(k, v)
	}
	if s.ShardingKey != "" {
		m.WithShardingKey(s.ShardingKey) // what NewHashQueueSelector hashes
	}
	return m
}

// goProduce sends specs from a fresh client-go producer with SendSync
// ("sync", one message a call; "batch", all in one call: SEND_BATCH_MESSAGE),
// SendAsync ("async") or SendOneWay ("oneway").
func goProduce(ctx context.Context, env *Env, topic, mode string, ss []msgSpec) ([]sentMsg, error) {
	return goProduceWith(ctx, env, nil, topic, mode, ss)
}

// goProduceWith is goProduce with a producer given opts too (after the
// defaults, so they override them).
func goProduceWith(ctx context.Context, env *Env, opts []producer.Option, topic, mode string, ss []msgSpec) ([]sentMsg, error) {
	p, err := producer.NewDefaultProducer(append([]producer.Option{
		producer.WithNameServer(primitive.NamesrvAddr{env.Namesrv}),
		producer.WithGroupName("CONF_GO_BROKER_PG"),
		producer.WithInstanceName(goInstance("producer")),
		producer.WithRetry(2),
		producer.WithSendMsgTimeout(5 * time.Second),
	}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("client-go NewDefaultProducer: %w", err)
	}
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("client-go producer Start: %w", err)
	}
	defer shutdownBounded(env, "producer", p.Shutdown)
	switch mode {
	case "sync":
		return goSendSync(ctx, p, topic, ss)
	case "async":
		return goSendAsync(ctx, p, topic, ss)
	case "batch":
		return goSendBatch(ctx, p, topic, ss)
	case "oneway":
		return goSendOneWay(ctx, env, p, topic, ss)
	}
	return nil, fmt.Errorf("unknown client-go send mode %q", mode)
}

// goOneWaySender is the part of client-go's producer oneway sends use.
type goOneWaySender interface {
	SendOneWay(ctx context.Context, msgs ...*primitive.Message) error
}

// goSendOneWay sends specs with SendOneWay and waits until the broker has
// stored them before the producer may shut down. A oneway request is only
// written to the socket, and client-go's Shutdown closes the connection at
// once; when the broker had replied to something the producer had not read
// yet (a heartbeat), the close resets the connection and the broker's
// kernel drops the frames it had not read. A Java producer's shutdown first
// unregisters with a request on the same connection, which keeps its
// oneway frames safe. Seen once in all-Sputnik (15 of 16 messages, the
// last oneway missing from the commit log).
func goSendOneWay(ctx context.Context, env *Env, p goOneWaySender, topic string, ss []msgSpec) ([]sentMsg, error) {
	before, err := storedCount(ctx, env, topic)
	if err != nil {
		return nil, err
	}
	out := make([]sentMsg, 0, len(ss))
	for _, s := range ss {
		if err := p.SendOneWay(ctx, goMessage(topic, s)); err != nil {
			return out, fmt.Errorf("client-go SendOneWay %s: %w", s.Body, err)
		}
		out = append(out, sentMsg{Body: s.Body, Status: "ONEWAY"})
	}
	err = Eventually(ctx, brokerConsumeWait, 50*time.Millisecond, func() error {
		n, err := storedCount(ctx, env, topic)
		if err == nil && n < before+int64(len(ss)) {
			err = fmt.Errorf("%s holds %d messages, %d before %d oneway sends", topic, n, before, len(ss))
		}
		return err
	})
	return out, err
}

func goSent(body string, r *primitive.SendResult) sentMsg {
	s := sentMsg{Body: body, Status: fmt.Sprint(r.Status), QueueOffset: r.QueueOffset}
	if r.Status == primitive.SendOK {
		s.Status = "SEND_OK"
	}
	if r.MessageQueue != nil {
		s.BrokerName, s.QueueID = r.MessageQueue.BrokerName, r.MessageQueue.QueueId
	}
	return s
}

// goSender is the part of client-go's producer the sends use.
type goSender interface {
	SendSync(ctx context.Context, msgs ...*primitive.Message) (*primitive.SendResult, error)
	SendAsync(ctx context.Context, f func(context.Context, *primitive.SendResult, error), msgs ...*primitive.Message) error
}

func goSendSync(ctx context.Context, p goSender, topic string, ss []msgSpec) ([]sentMsg, error) {
	out := make([]sentMsg, 0, len(ss))
	for _, s := range ss {
		r, err := p.SendSync(ctx, goMessage(topic, s))
		if err != nil {
			return out, fmt.Errorf("client-go SendSync %s: %w", s.Body, err)
		}
		if r.Status != primitive.SendOK {
			return out, fmt.Errorf("client-go SendSync %s: status %d", s.Body, r.Status)
		}
		out = append(out, goSent(s.Body, r))
	}
	return out, nil
}

// goSendBatch sends all specs in one SendSync call (a batch); the result
// names the first message's queue offset.
func goSendBatch(ctx context.Context, p goSender, topic string, ss []msgSpec) ([]sentMsg, error) {
	msgs := make([]*primitive.Message, len(ss))
	for i, s := range ss {
		msgs[i] = goMessage(topic, s)
	}
	r, err := p.SendSync(ctx, msgs...)
	if err != nil {
		return nil, fmt.Errorf("client-go SendSync batch: %w", err)
	}
	if r.Status != primitive.SendOK {
		return nil, fmt.Errorf("client-go SendSync batch: status %d", r.Status)
	}
	out := make([]sentMsg, len(ss))
	for i, s := range ss {
		out[i] = goSent(s.Body, r)
		out[i].QueueOffset += int64(i)
	}
	return out, nil
}

func goSendAsync(ctx context.Context, p goSender, topic string, ss []msgSpec) ([]sentMsg, error) {
	out := make([]sentMsg, len(ss))
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		err := p.SendAsync(ctx, func(_ context.Context, r *primitive.SendResult, err error) {
			defer wg.Done()
			switch {
			case err != nil:
				errs[i] = fmt.Errorf("client-go SendAsync %s: %w", s.Body, err)
			case r.Status != primitive.SendOK:
				errs[i] = fmt.Errorf("client-go SendAsync %s: status %d", s.Body, r.Status)
			default:
				out[i] = goSent(s.Body, r)
			}
		}, goMessage(topic, s))
		if err != nil {
			wg.Done()
			errs[i] = fmt.Errorf("client-go SendAsync %s: %w", s.Body, err)
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("client-go SendAsync: callbacks missing after 30 s")
	}
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// goConsumeMsgs runs a fresh client-go push consumer of group (clustering,
// from first offset, subscription expr or all) until count distinct
// bodies with prefix arrived or wait passed; it returns every delivery.
func goConsumeMsgs(ctx context.Context, env *Env, topic, group, expr, prefix string, count int, wait time.Duration) ([]recvMsg, error) {
	return goConsumeMsgsWith(ctx, env, nil, topic, group, expr, prefix, count, wait)
}

// goConsumeMsgsWith is goConsumeMsgs with a consumer given opts too.
func goConsumeMsgsWith(ctx context.Context, env *Env, opts []consumer.Option, topic, group, expr, prefix string, count int, wait time.Duration) ([]recvMsg, error) {
	return goCollect(ctx, env, opts, newGoCollector(prefix, count), topic, group, expr, wait)
}

// goCollect runs a client-go push consumer of group with opts on topic
// (subscription expr or all) until col has its count or wait passed; it
// returns every delivery.
func goCollect(ctx context.Context, env *Env, opts []consumer.Option, col *goCollector, topic, group, expr string, wait time.Duration) ([]recvMsg, error) {
	c, err := newGoPushConsumer(env, group, opts...)
	if err != nil {
		return nil, err
	}
	count := col.count
	sel := consumer.MessageSelector{}
	if expr != "" {
		sel = consumer.MessageSelector{Type: consumer.TAG, Expression: expr}
	}
	if err := c.Subscribe(topic, sel, col.listen); err != nil {
		return nil, fmt.Errorf("client-go Subscribe: %w", err)
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("client-go push consumer Start: %w", err)
	}
	defer shutdownBounded(env, "push consumer", c.Shutdown)
	select {
	case <-col.done:
		return col.messages(), nil
	case <-time.After(wait):
		got := col.messages()
		return got, fmt.Errorf("client-go push consumer: %d of %d messages after %s", len(col.seen), count, wait)
	case <-ctx.Done():
		return col.messages(), ctx.Err()
	}
}

// goCollector is a client-go listener that keeps every delivery and is
// done once count distinct bodies with prefix came with reconsumeTimes
// minReconsume or more. It answers ConsumeSuccess, or ConsumeRetryLater to
// every delivery when later is set.
type goCollector struct {
	prefix       string
	count        int
	minReconsume int
	later        bool
	mu           sync.Mutex
	got          []recvMsg
	seen         map[string]bool
	done         chan struct{}
	once         sync.Once
}

func newGoCollector(prefix string, count int) *goCollector {
	return &goCollector{prefix: prefix + "-", count: count, seen: map[string]bool{}, done: make(chan struct{})}
}

// deliveryProps are the system properties a broker sets the same way every
// run, recorded as recvMsg.SysProps (the Java driver's DELIVERY_PROPS).
var deliveryProps = []string{"RETRY_TOPIC", "REAL_TOPIC", "REAL_QID", "DELAY", "WAIT", "CLUSTER"}

func (c *goCollector) listen(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range msgs {
		r := recvMsg{Body: string(m.Body), Tags: m.GetTags(), Keys: m.GetKeys(), Props: map[string]string{},
			QueueOffset: m.QueueOffset, ReconsumeTimes: int(m.ReconsumeTimes)}
		if m.Queue != nil {
			r.BrokerName, r.QueueID = m.Queue.BrokerName, m.Queue.QueueId
		}
		props := m.GetProperties()
		for k, v := range props {
			if !systemProps[k] {
				r.Props[k] = v
			}
		}
		r.PropKeys = slices.Sorted(maps.Keys(props))
		r.SysProps = map[string]string{}
		for _, k := range deliveryProps {
			if v, ok := props[k]; ok {
				r.SysProps[k] = v
			}
		}
		c.got = append(c.got, r)
		if strings.HasPrefix(r.Body, c.prefix) && r.ReconsumeTimes >= c.minReconsume {
			c.seen[r.Body] = true
		}
	}
	if len(c.seen) >= c.count {
		c.once.Do(func() { close(c.done) })
	}
	if c.later {
		return consumer.ConsumeRetryLater, nil
	}
	return consumer.ConsumeSuccess, nil
}

func (c *goCollector) messages() []recvMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]recvMsg(nil), c.got...)
}

// storedCount is how many messages topic's queues hold on the master of
// every broker group in its route (raw GET_MAX_OFFSET per write queue).
func storedCount(ctx context.Context, env *Env, topic string) (int64, error) {
	rd, err := rawRoute(ctx, env, topic, javaVersion409)
	if err != nil {
		return 0, fmt.Errorf("route of %s: %w", topic, err)
	}
	var sum int64
	for _, qd := range rd.QueueDatas {
		addr := env.BrokerAddr(qd.BrokerName)
		for q := range qd.WriteQueueNums {
			req := rawclient.Request(codeGetMaxOffset, "topic", topic, "queueId", strconv.Itoa(q))
			resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
			if err != nil {
				return 0, fmt.Errorf("GET_MAX_OFFSET %s q%d at %s: %w", topic, q, addr, err)
			}
			if resp.Code != respSuccess {
				return 0, fmt.Errorf("GET_MAX_OFFSET %s q%d at %s: %w", topic, q, addr, &codeError{Code: resp.Code, Remark: resp.Remark})
			}
			var h protocol.GetMaxOffsetResponseHeader
			if err := h.DecodeFrom(resp); err != nil {
				return 0, fmt.Errorf("GET_MAX_OFFSET %s q%d at %s: %w", topic, q, addr, err)
			}
			sum += h.Offset
		}
	}
	return sum, nil
}

func brokerGoDeadLetter(ctx context.Context, env *Env) error {
	const topic, group = "BrokerGoDeadLetter", "CONF_BROKER_GDLQ_CG"
	const dlq = "%DLQ%" + group
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := specs("gdlq", "Dead", 2)
	if _, err := goProduce(ctx, env, topic, "sync", ss); err != nil {
		return err
	}
	col := newGoCollector("gdlq", len(ss))
	col.minReconsume, col.later = 1, true
	got, err := goCollect(ctx, env, []consumer.Option{consumer.WithMaxReconsumeTimes(1)}, col, topic, group, "", 50*time.Second)
	if err != nil {
		return err
	}
	env.Observe("deliveries", deliveryLines(got))
	if err := waitRoute(ctx, env, dlq, len(env.Brokers)); err != nil {
		return err
	}
	// The last answer's send-back may still be on its way: wait for both.
	dead, err := goConsumeMsgs(ctx, env, dlq, "CONF_BROKER_GDLQ_READER", "", "gdlq", len(ss), brokerConsumeWait)
	if err != nil {
		return err
	}
	if err := checkDelivered(ss, dead, false); err != nil {
		return fmt.Errorf("dead-letter consumer: %w", err)
	}
	env.Observe("dead letters", contentLines(dead))
	env.Observe("dead-letter deliveries", deliveryLines(dead))
	return nil
}

func brokerGoOrderly(ctx context.Context, env *Env) error {
	const topic, group, prefix, perKey = "BrokerGoOrderly", "CONF_BROKER_GORDER_CG", "gorder", 4
	if err := createTopic(ctx, env, topic, orderlyQueues, 6); err != nil {
		return err
	}
	ss := orderlySpecs(prefix, perKey)
	sent, err := goProduceWith(ctx, env, []producer.Option{producer.WithQueueSelector(producer.NewHashQueueSelector())},
		topic, "sync", ss)
	if err != nil {
		return err
	}
	got, err := goConsumeMsgsWith(ctx, env, []consumer.Option{consumer.WithConsumerOrder(true)}, topic, group, "", prefix,
		len(ss), brokerConsumeWait)
	if err != nil {
		return err
	}
	keys, err := checkKeyOrder(prefix, got, perKey)
	if err != nil {
		return err
	}
	env.Observe("key queues", keys)
	env.Observe("sent", sentPlacement(sent))
	return nil
}

func brokerGoConsumeFrom(ctx context.Context, env *Env) error {
	const topic = "BrokerGoConsumeFrom"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	start := time.Now()
	ss := specs("gfrom", "From", 6)
	if _, err := goProduce(ctx, env, topic, "sync", ss); err != nil {
		return err
	}
	wheres := []struct {
		name string
		opts []consumer.Option
	}{
		{"first", []consumer.Option{consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset)}},
		{"last", []consumer.Option{consumer.WithConsumeFromWhere(consumer.ConsumeFromLastOffset)}},
		{"timestamp", []consumer.Option{consumer.WithConsumeFromWhere(consumer.ConsumeFromTimestamp),
			consumer.WithConsumeTimestamp(start.Add(-time.Minute).Format("20060102150405"))}},
	}
	var counts []string
	for _, w := range wheres {
		got, err := goConsumeMsgsWith(ctx, env, w.opts, topic, "CONF_BROKER_GFROM_"+strings.ToUpper(w.name)+"_CG", "",
			"gfrom", len(ss), 20*time.Second)
		n := distinctBodies(withPrefix(got, "gfrom"))
		if err != nil && n != len(ss) {
			return fmt.Errorf("new group consuming from %s got %d of %d messages (java: offset 0 while the first message "+
				"is in memory): %w", w.name, n, len(ss), err)
		}
		counts = append(counts, fmt.Sprintf("%s=%d", w.name, n))
	}
	env.Observe("counts", strings.Join(counts, " "))
	return nil
}
