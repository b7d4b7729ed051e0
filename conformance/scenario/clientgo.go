package scenario

// client-go (v2.1.2 in the main module, the newest in clientgo-latest)
// producers and push consumers routed through the name server under test.
// Every client gets its own instance name: client-go keeps one client per
// instance name in the process and refuses a second name server for it,
// and both columns of a run share the process.

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

var goInstanceSeq atomic.Int64

// goInstance returns a process-unique client-go instance name.
func goInstance(kind string) string {
	return fmt.Sprintf("conformance-go-%s-%d-%d", kind, os.Getpid(), goInstanceSeq.Add(1))
}

// goShutdownTimeout bounds client-go's Shutdown (it persists offsets and
// unregisters from every broker, some of which a scenario may have killed).
const goShutdownTimeout = 15 * time.Second

// shutdownBounded runs f and gives up waiting after goShutdownTimeout.
func shutdownBounded(env *Env, what string, f func() error) {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			env.Log.Printf("client-go %s shutdown: %v", what, err)
		}
	case <-time.After(goShutdownTimeout):
		env.Log.Printf("client-go %s shutdown still running after %s; left behind", what, goShutdownTimeout)
	}
}

// goSend sends n messages with bodies prefix-0 … prefix-(n-1) from a fresh
// client-go DefaultProducer, synchronously, and returns the broker each was
// stored on, in send order.
func goSend(ctx context.Context, env *Env, topic, prefix string, n int) ([]string, error) {
	p, err := producer.NewDefaultProducer(
		producer.WithNameServer(primitive.NamesrvAddr{env.Namesrv}),
		producer.WithGroupName("CONF_GO_PG"),
		producer.WithInstanceName(goInstance("producer")),
		producer.WithRetry(2),
		producer.WithSendMsgTimeout(5*time.Second),
	)
	if err != nil {
		return nil, fmt.Errorf("client-go NewDefaultProducer: %w", err)
	}
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("client-go producer Start: %w", err)
	}
	defer shutdownBounded(env, "producer", p.Shutdown)
	brokers := make([]string, 0, n)
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("%s-%d", prefix, i)
		msg := primitive.NewMessage(topic, []byte(body))
		msg.WithTag("conformance")
		msg.WithKeys([]string{body})
		res, err := p.SendSync(ctx, msg)
		if err != nil {
			return brokers, fmt.Errorf("client-go SendSync %s: %w", body, err)
		}
		if res.Status != primitive.SendOK {
			return brokers, fmt.Errorf("client-go SendSync %s: status %d", body, res.Status)
		}
		brokers = append(brokers, res.MessageQueue.BrokerName)
	}
	return brokers, nil
}

// newGoPushConsumer is a client-go push consumer of group: clustering,
// from the first offset, then opts.
func newGoPushConsumer(env *Env, group string, opts ...consumer.Option) (rocketmq.PushConsumer, error) {
	c, err := consumer.NewPushConsumer(append([]consumer.Option{
		consumer.WithNameServer(primitive.NamesrvAddr{env.Namesrv}),
		consumer.WithGroupName(group),
		consumer.WithInstance(goInstance("consumer")),
		consumer.WithConsumerModel(consumer.Clustering),
		consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
	}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("client-go NewPushConsumer: %w", err)
	}
	return c, nil
}

// goConsume runs a fresh client-go push consumer of group (clustering,
// consume from first offset) on topic until n distinct bodies with prefix
// arrived or wait passed. It returns body → broker of what arrived and an
// error when some are missing.
func goConsume(ctx context.Context, env *Env, topic, group, prefix string, n int, wait time.Duration) (map[string]string, error) {
	c, err := newGoPushConsumer(env, group)
	if err != nil {
		return nil, err
	}
	var (
		mu   sync.Mutex
		got  = map[string]string{}
		done = make(chan struct{})
		once sync.Once
	)
	err = c.Subscribe(topic, consumer.MessageSelector{}, func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			if body := string(m.Body); strings.HasPrefix(body, prefix+"-") {
				if _, seen := got[body]; !seen {
					got[body] = m.Queue.BrokerName
				}
			}
		}
		if len(got) >= n {
			once.Do(func() { close(done) })
		}
		return consumer.ConsumeSuccess, nil
	})
	if err != nil {
		return nil, fmt.Errorf("client-go Subscribe: %w", err)
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("client-go push consumer Start: %w", err)
	}
	defer shutdownBounded(env, "push consumer", c.Shutdown)
	var waitErr error
	select {
	case <-done:
	case <-time.After(wait):
		waitErr = fmt.Errorf("client-go push consumer: timed out after %s", wait)
	case <-ctx.Done():
		waitErr = ctx.Err()
	}
	mu.Lock()
	defer mu.Unlock()
	out := make(map[string]string, len(got))
	for k, v := range got {
		out[k] = v
	}
	if waitErr != nil {
		return out, fmt.Errorf("%w: received %d of %d messages", waitErr, len(out), n)
	}
	return out, nil
}

// countByBroker renders "broker-a=8 broker-b=8" for a list of broker names.
func countByBroker(brokers []string) string {
	counts := map[string]int{}
	for _, b := range brokers {
		counts[b]++
	}
	names := make([]string, 0, len(counts))
	for b := range counts {
		names = append(names, b)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, b := range names {
		parts = append(parts, fmt.Sprintf("%s=%d", b, counts[b]))
	}
	return strings.Join(parts, " ")
}
