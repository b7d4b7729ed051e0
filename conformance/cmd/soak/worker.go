package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// runWorker is one cycle, in a process of its own: send o.msgs messages
// of the cycle's kind, receive every one of them that should arrive with
// the cycle's group, checking what the kind promises, then shut down
// (even cycles) or just exit (odd ones).
func runWorker(o options) int {
	var slot, cycle int
	if _, err := fmt.Sscanf(o.worker, "%d,%d", &slot, &cycle); err != nil {
		fmt.Println("-worker:", err)
		return 2
	}
	kind := kindOf(o.kinds, slot, cycle)
	p, want, err := produce(o, kind, slot, cycle)
	if err != nil {
		fmt.Printf("%s: %v\n", kind, err)
		return 1
	}
	c, err := consume(o, kind, slot, cycle, want)
	if err != nil {
		fmt.Printf("%s: %v\n", kind, err)
		return 1
	}
	if shutsDown(cycle) {
		_ = c.Shutdown()
		_ = p.Shutdown()
	}
	return 0
}

// sender is a started producer of one kind.
type sender interface {
	// send sends message i with body until the broker acknowledged it.
	send(ctx context.Context, body string, i int) error
	Shutdown() error
}

// produce sends the cycle's messages; want holds the bodies its consumer
// must receive.
func produce(o options, kind string, slot, cycle int) (sender, map[string]bool, error) {
	s, err := newSender(o, kind, slot, cycle)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for i := range o.msgs {
		body := bodyOf(slot, cycle, kind, i)
		if err := retrying(o.cycleTimeout, func(ctx context.Context) error { return s.send(ctx, body, i) }); err != nil {
			return nil, nil, fmt.Errorf("send %d: %w", i, err)
		}
		if !rolledBack(body) && !filteredOut(kind, i) {
			want[body] = true
		}
	}
	return s, want, nil
}

// retrying calls send until it succeeds or within has passed: the broker
// may be restarting. A send that failed may still have been stored, so
// the consumer may see a body twice.
func retrying(within time.Duration, send func(context.Context) error) error {
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := send(ctx)
		cancel()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func newSender(o options, kind string, slot, cycle int) (sender, error) {
	opts := []producer.Option{producer.WithNameServer(primitive.NamesrvAddr{o.namesrv}),
		producer.WithGroupName(producerGroupOf(kind, cycle)), producer.WithInstanceName(instanceOf(slot, cycle))}
	if kind == kindTx {
		p, err := rocketmq.NewTransactionProducer(txListener{}, opts...)
		if err != nil {
			return nil, fmt.Errorf("producer: %w", err)
		}
		if err := p.Start(); err != nil {
			return nil, fmt.Errorf("producer start: %w", err)
		}
		return txSender{p: p, topic: topicOf(slot)}, nil
	}
	if kind == kindOrderly {
		opts = append(opts, producer.WithQueueSelector(producer.NewHashQueueSelector()))
	}
	p, err := rocketmq.NewProducer(opts...)
	if err != nil {
		return nil, fmt.Errorf("producer: %w", err)
	}
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("producer start: %w", err)
	}
	return syncSender{p: p, topic: topicOf(slot), kind: kind}, nil
}

type syncSender struct {
	p     rocketmq.Producer
	topic string
	kind  string
}

func (s syncSender) send(ctx context.Context, body string, i int) error {
	m := primitive.NewMessage(s.topic, []byte(body))
	switch s.kind {
	case kindOrderly:
		m.WithShardingKey(strconv.Itoa(i % shardingKeys))
	case kindDelay:
		m.WithDelayTimeLevel(delayLevel)
	case kindTag:
		m.WithTag(parityOf(i))
	case kindSQL:
		m.WithProperty(sqlProperty, parityOf(i))
	}
	r, err := s.p.SendSync(ctx, m)
	if err == nil && r.Status != primitive.SendOK {
		err = fmt.Errorf("status %v", r)
	}
	return err
}

func (s syncSender) Shutdown() error { return s.p.Shutdown() }

type txSender struct {
	p     rocketmq.TransactionProducer
	topic string
}

// send sends a half message and ends it as txOutcome says. A new message
// each try: client-go writes the transaction's properties into it.
func (s txSender) send(ctx context.Context, body string, _ int) error {
	r, err := s.p.SendMessageInTransaction(ctx, primitive.NewMessage(s.topic, []byte(body)))
	if err == nil && r.Status != primitive.SendOK {
		err = fmt.Errorf("status %v", r.SendResult)
	}
	return err
}

func (s txSender) Shutdown() error { return s.p.Shutdown() }

// consume starts the cycle's push consumer and waits until it received
// every body in want, failing at the first broken promise.
func consume(o options, kind string, slot, cycle int, want map[string]bool) (rocketmq.PushConsumer, error) {
	ch := newChecker(kind, instanceOf(slot, cycle), want)
	deadline := time.Now().Add(o.cycleTimeout)
	c, err := startConsumer(o, kind, slot, cycle, ch.receive, deadline)
	if err != nil {
		return nil, err
	}
	select {
	case <-ch.done:
	case <-time.After(time.Until(deadline)):
	}
	if err := ch.result(o.msgs); err != nil {
		return nil, fmt.Errorf("group %s: %w", groupOf(slot, cycle), err)
	}
	return c, nil
}

// checker is a cycle's consumer side: what it still waits for and what
// went wrong.
type checker struct {
	kind, instance string

	mu        sync.Mutex
	want      map[string]bool
	wanted    int
	firstSeen map[string]bool   // orderly: bodies delivered at least once
	lastFirst [shardingKeys]int // orderly: index of each key's latest first delivery
	broken    []string          // promises broken, the first few
	done      chan struct{}     // closed when want is empty or a promise broke
	closed    bool
}

func newChecker(kind, instance string, want map[string]bool) *checker {
	ch := &checker{kind: kind, instance: instance, want: want, wanted: len(want),
		firstSeen: map[string]bool{}, done: make(chan struct{})}
	for k := range ch.lastFirst {
		ch.lastFirst[k] = -1
	}
	return ch
}

// receive is the consumer's callback.
func (ch *checker) receive(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	result := consumer.ConsumeSuccess
	for _, m := range msgs {
		body := string(m.Body)
		if rolledBack(body) {
			ch.breakf("received %s, a rolled-back transactional message (msgId %s)", body, m.MsgId)
			continue
		}
		if !strings.HasPrefix(body, ch.instance+"-") {
			continue // an earlier cycle's, redelivered to this group
		}
		_, i, _ := parseBody(body)
		if filteredOut(ch.kind, i) {
			ch.breakf("received %s, which the consumer's %s selector excludes", body, ch.kind)
			continue
		}
		switch ch.kind {
		case kindOrderly:
			ch.checkOrder(body, i)
		case kindDelay:
			if early := time.UnixMilli(m.BornTimestamp).Add(delayOf).Sub(time.Now()); early > 0 {
				ch.breakf("%s arrived %v before its delay of %v ended", body, early, delayOf)
			}
		case kindRetry:
			if m.ReconsumeTimes == 0 {
				result = consumer.ConsumeRetryLater
				continue
			}
		}
		delete(ch.want, body)
	}
	if len(ch.want) == 0 {
		ch.finish()
	}
	return result, nil
}

// checkOrder: the first delivery of message i of a key must follow the
// first delivery of the key's messages before i.
func (ch *checker) checkOrder(body string, i int) {
	if ch.firstSeen[body] {
		return
	}
	ch.firstSeen[body] = true
	k := i % shardingKeys
	if i < ch.lastFirst[k] {
		ch.breakf("key %d: message %d first delivered after message %d", k, i, ch.lastFirst[k])
	}
	ch.lastFirst[k] = i
}

func (ch *checker) breakf(format string, args ...any) {
	if len(ch.broken) < 5 {
		ch.broken = append(ch.broken, fmt.Sprintf(format, args...))
	}
	ch.finish()
}

func (ch *checker) finish() {
	if !ch.closed {
		ch.closed = true
		close(ch.done)
	}
}

// result is nil when every wanted message arrived and no promise broke.
func (ch *checker) result(sent int) error {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if len(ch.broken) > 0 {
		return fmt.Errorf("%s", strings.Join(ch.broken, "; "))
	}
	if len(ch.want) > 0 {
		return fmt.Errorf("received %d of the %d messages it should (of %d sent)", ch.wanted-len(ch.want), ch.wanted, sent)
	}
	return nil
}

// startConsumer starts a push consumer of the cycle's group, trying again
// until deadline: client-go's Start fails when the name server has no
// route for the topic, as while a broker restarts (it unregisters when it
// stops). Each try is a client of its own instance name.
func startConsumer(o options, kind string, slot, cycle int, receive func(context.Context, ...*primitive.MessageExt) (consumer.ConsumeResult, error),
	deadline time.Time) (rocketmq.PushConsumer, error) {
	for try := 0; ; try++ {
		c, err := rocketmq.NewPushConsumer(consumer.WithNameServer(primitive.NamesrvAddr{o.namesrv}),
			consumer.WithGroupName(groupOf(slot, cycle)), consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
			consumer.WithConsumerOrder(kind == kindOrderly),
			consumer.WithInstance(fmt.Sprintf("%s-%d", instanceOf(slot, cycle), try)))
		if err != nil {
			return nil, fmt.Errorf("consumer: %w", err)
		}
		if err := c.Subscribe(topicOf(slot), selectorOf(kind), receive); err != nil {
			return nil, fmt.Errorf("subscribe: %w", err)
		}
		err = c.Start()
		if err == nil {
			return c, nil
		}
		_ = c.Shutdown()
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("consumer start: %w", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
