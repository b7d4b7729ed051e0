package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// runWorker is one cycle, in a process of its own: send o.msgs messages,
// receive every one of them with the cycle's group, then shut down (even
// cycles) or just exit (odd ones).
func runWorker(o options) int {
	var slot, cycle int
	if _, err := fmt.Sscanf(o.worker, "%d,%d", &slot, &cycle); err != nil {
		fmt.Println("-worker:", err)
		return 2
	}
	p, sent, err := produce(o, slot, cycle)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	c, err := consume(o, slot, cycle, sent)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	if cycle%2 == 0 {
		_ = c.Shutdown()
		_ = p.Shutdown()
	}
	return 0
}

// produce sends the cycle's messages; sent holds their bodies.
func produce(o options, slot, cycle int) (rocketmq.Producer, map[string]bool, error) {
	p, err := rocketmq.NewProducer(producer.WithNameServer(primitive.NamesrvAddr{o.namesrv}),
		producer.WithGroupName(producerGroupOf(cycle)), producer.WithInstanceName(instanceOf(slot, cycle)))
	if err != nil {
		return nil, nil, fmt.Errorf("producer: %w", err)
	}
	if err := p.Start(); err != nil {
		return nil, nil, fmt.Errorf("producer start: %w", err)
	}
	sent := map[string]bool{}
	for i := range o.msgs {
		body := fmt.Sprintf("%s-%d", instanceOf(slot, cycle), i)
		if err := sendRetrying(p, topicOf(slot), body, o.cycleTimeout); err != nil {
			return nil, nil, fmt.Errorf("send %d: %w", i, err)
		}
		sent[body] = true
	}
	return p, sent, nil
}

// sendRetrying sends body until a send is acknowledged (SEND_OK) or
// within passed: the broker may be restarting. A send that failed may
// still have been stored, so the consumer may see a body twice.
func sendRetrying(p rocketmq.Producer, topic, body string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		r, err := p.SendSync(ctx, primitive.NewMessage(topic, []byte(body)))
		cancel()
		if err == nil && r.Status != primitive.SendOK {
			err = fmt.Errorf("status %v", r)
		}
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// consume starts the cycle's push consumer and waits until it received
// every body in want.
func consume(o options, slot, cycle int, want map[string]bool) (rocketmq.PushConsumer, error) {
	var mu sync.Mutex
	done := make(chan struct{})
	receive := func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			if want[string(m.Body)] {
				delete(want, string(m.Body))
				if len(want) == 0 {
					close(done)
				}
			}
		}
		return consumer.ConsumeSuccess, nil
	}
	deadline := time.Now().Add(o.cycleTimeout)
	c, err := startConsumer(o, slot, cycle, receive, deadline)
	if err != nil {
		return nil, err
	}
	select {
	case <-done:
		return c, nil
	case <-time.After(time.Until(deadline)):
		mu.Lock()
		defer mu.Unlock()
		return nil, fmt.Errorf("group %s received %d of %d messages in %v", groupOf(slot, cycle), o.msgs-len(want), o.msgs, o.cycleTimeout)
	}
}

// startConsumer starts a push consumer of the cycle's group, trying again
// until deadline: client-go's Start fails when the name server has no
// route for the topic, as while a broker restarts (it unregisters when it
// stops). Each try is a client of its own instance name.
func startConsumer(o options, slot, cycle int, receive func(context.Context, ...*primitive.MessageExt) (consumer.ConsumeResult, error),
	deadline time.Time) (rocketmq.PushConsumer, error) {
	for try := 0; ; try++ {
		c, err := rocketmq.NewPushConsumer(consumer.WithNameServer(primitive.NamesrvAddr{o.namesrv}),
			consumer.WithGroupName(groupOf(slot, cycle)), consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
			consumer.WithInstance(fmt.Sprintf("%s-%d", instanceOf(slot, cycle), try)))
		if err != nil {
			return nil, fmt.Errorf("consumer: %w", err)
		}
		if err := c.Subscribe(topicOf(slot), consumer.MessageSelector{}, receive); err != nil {
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
