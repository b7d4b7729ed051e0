package brokerbench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"
)

// DrainResult is a push consumer draining a pre-filled topic.
type DrainResult struct {
	Received int64 `json:"received"`
	// First is from Start to the first message; Drain from the first
	// message to the last expected one; Total from Start to the last.
	First time.Duration `json:"firstNanos"`
	Drain time.Duration `json:"drainNanos"`
	Total time.Duration `json:"totalNanos"`
	// TPS is Received / Drain.
	TPS float64 `json:"tps"`
}

// finish computes the durations and the rate.
func (d *DrainResult) finish(start, first, last time.Time) {
	if first.IsZero() {
		first = last
	}
	d.First, d.Drain, d.Total = first.Sub(start), last.Sub(first), last.Sub(start)
	if d.Drain > 0 {
		d.TPS = float64(d.Received) / d.Drain.Seconds()
	}
}

// QuietClientGo turns client-go's own logging down to errors.
func QuietClientGo() { rlog.SetLogLevel("error") }

// Drain starts a client-go (v2.1.2) push consumer of group on topic from
// the first offset and times it until expected messages arrived or
// timeout passed (then the result says how many did, with an error).
func Drain(ctx context.Context, namesrv, topic, group string, expected int64, timeout time.Duration) (DrainResult, error) {
	c, err := consumer.NewPushConsumer(
		consumer.WithNameServer(primitive.NamesrvAddr{namesrv}),
		consumer.WithGroupName(group),
		consumer.WithConsumerModel(consumer.Clustering),
		consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
	)
	if err != nil {
		return DrainResult{}, fmt.Errorf("brokerbench: client-go push consumer: %w", err)
	}
	var (
		n           atomic.Int64
		mu          sync.Mutex
		first, last time.Time // Lock should be held
		done        = make(chan struct{})
		once        sync.Once
	)
	err = c.Subscribe(topic, consumer.MessageSelector{}, func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		now := time.Now()
		total := n.Add(int64(len(msgs)))
		mu.Lock()
		if first.IsZero() {
			first = now
		}
		if total >= expected && last.IsZero() {
			last = now
			once.Do(func() { close(done) })
		}
		mu.Unlock()
		return consumer.ConsumeSuccess, nil
	})
	if err != nil {
		return DrainResult{}, fmt.Errorf("brokerbench: client-go subscribe: %w", err)
	}
	start := time.Now()
	if err := c.Start(); err != nil {
		return DrainResult{}, fmt.Errorf("brokerbench: client-go consumer start: %w", err)
	}
	var waitErr error
	select {
	case <-done:
	case <-time.After(timeout):
		waitErr = fmt.Errorf("brokerbench: drained %d of %d messages in %v", n.Load(), expected, timeout)
	case <-ctx.Done():
		waitErr = ctx.Err()
	}
	mu.Lock()
	f, l := first, last
	mu.Unlock()
	if l.IsZero() {
		l = time.Now()
	}
	go func() { _ = c.Shutdown() }() // client-go's shutdown can hang; do not wait for it
	r := DrainResult{Received: n.Load()}
	r.finish(start, f, l)
	return r, waitErr
}
