package scenario

// A client-go push consumer reset through the broker (issue #6, offsets):
// INVOKE_BROKER_TO_RESET_OFFSET reaches the consumer as
// RESET_CONSUMER_CLIENT_OFFSET and it consumes the topic again;
// INVOKE_BROKER_TO_GET_CONSUMER_STATUS collects its offsets
// (GET_CONSUMER_STATUS_FROM_CLIENT). Java 4.9.8 mirror:
// AdminBrokerProcessor.resetOffset / getConsumerStatus, Broker2Client.

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func init() {
	Register(&Scenario{
		Name: "broker/go/resetOffset",
		Doc: "client-go push consumer: INVOKE_BROKER_TO_GET_CONSUMER_STATUS lists its offsets, INVOKE_BROKER_TO_RESET_OFFSET to 0 " +
			"answers the new offsets and the consumer gets every message again; CONSUMER_NOT_ONLINE once it is gone",
		Tags:    tags("goclient", "raw"),
		Timeout: brokerScenarioLimit,
		Run:     brokerGoResetOffset,
	})
}

var statusClientRE = regexp.MustCompile(`"[^"]*@[^"]*":\{`)

func brokerGoResetOffset(ctx context.Context, env *Env) error {
	const topic, group, prefix, n, queues = "BrokerGoReset", "CONF_GO_RESET_CG", "reset", 8, 4
	if err := createTopic(ctx, env, topic, queues, 6); err != nil {
		return err
	}
	addr := env.Brokers[0].Addr
	// The reset needs an offset of the group on every queue (Java answers
	// "consumer group not exist" otherwise); commit 0, where the consumer
	// starts anyway.
	for q := range queues {
		if err := rawOK(ctx, addr, rawclient.Request(codeUpdateConsumerOffset, "consumerGroup", group, "topic", topic,
			"queueId", strconv.Itoa(q), "commitOffset", "0")); err != nil {
			return err
		}
	}
	if _, err := goSend(ctx, env, topic, prefix, n); err != nil {
		return err
	}
	c, deliveries, err := startCountingConsumer(env, topic, group, prefix)
	if err != nil {
		return err
	}
	defer shutdownBounded(env, "push consumer", c.Shutdown)
	if err := atLeast(ctx, deliveries, n); err != nil {
		return fmt.Errorf("first delivery: %d of %d messages: %w", deliveries(), n, err)
	}

	status, err := brokerCall(ctx, addr, rawclient.Request(int32(protocol.ReqInvokeBrokerToGetConsumerStatus),
		"topic", topic, "group", group))
	if err != nil {
		return err
	}
	if status.Code != respSuccess || strings.Count(string(status.Body), `"topic":"`+topic+`"`) != queues {
		return fmt.Errorf("consumer status: code %d %q, body %s", status.Code, status.Remark, status.Body)
	}
	env.Observe("status clients", strconv.Itoa(len(statusClientRE.FindAllString(string(status.Body), -1))))

	reset, err := brokerCall(ctx, addr, rawclient.Request(int32(protocol.ReqInvokeBrokerToResetOffset),
		"topic", topic, "group", group, "timestamp", "0", "isForce", "true"))
	if err != nil {
		return err
	}
	if reset.Code != respSuccess {
		return fmt.Errorf("reset: code %d %q", reset.Code, reset.Remark)
	}
	env.Observe("reset body", env.Mask(string(reset.Body)))
	if err := atLeast(ctx, deliveries, 2*n); err != nil {
		return fmt.Errorf("after the reset the consumer got %d deliveries, want %d: %w", deliveries(), 2*n, err)
	}

	shutdownBounded(env, "push consumer", c.Shutdown)
	// The consumer's unregistration is oneway: the broker may still list it
	// for a moment.
	var gone *wire.Command
	err = Eventually(ctx, 10*time.Second, 100*time.Millisecond, func() error {
		var err error
		gone, err = brokerCall(ctx, addr, rawclient.Request(int32(protocol.ReqInvokeBrokerToResetOffset),
			"topic", topic, "group", group, "timestamp", "-1", "isForce", "true"))
		if err == nil && gone.Code != int32(protocol.RespConsumerNotOnline) {
			return fmt.Errorf("reset answered %d %q", gone.Code, gone.Remark)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("after the consumer shut down: %w", err)
	}
	env.Observe("reset offline", fmt.Sprintf("%d %s", gone.Code, gone.Remark))
	return nil
}

// startCountingConsumer starts a client-go push consumer of group on
// topic (from the first offset) and returns a counter of the deliveries
// of bodies with prefix, redeliveries included.
func startCountingConsumer(env *Env, topic, group, prefix string) (rocketmq.PushConsumer, func() int, error) {
	c, err := newGoPushConsumer(env, group)
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	count := 0
	err = c.Subscribe(topic, consumer.MessageSelector{}, func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			if strings.HasPrefix(string(m.Body), prefix+"-") {
				count++
			}
		}
		return consumer.ConsumeSuccess, nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("client-go Subscribe: %w", err)
	}
	if err := c.Start(); err != nil {
		return nil, nil, fmt.Errorf("client-go push consumer Start: %w", err)
	}
	return c, func() int {
		mu.Lock()
		defer mu.Unlock()
		return count
	}, nil
}

// brokerCall sends one request to addr.
func brokerCall(ctx context.Context, addr string, req *wire.Command) (*wire.Command, error) {
	resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
	if err != nil {
		return nil, fmt.Errorf("request %d to %s: %w", req.Code, addr, err)
	}
	return resp, nil
}

// rawOK sends one request to addr and wants SUCCESS.
func rawOK(ctx context.Context, addr string, req *wire.Command) error {
	resp, err := brokerCall(ctx, addr, req)
	if err != nil {
		return err
	}
	if resp.Code != respSuccess {
		return fmt.Errorf("request %d: %w", req.Code, &codeError{Code: resp.Code, Remark: resp.Remark})
	}
	return nil
}

// atLeast waits until count() reaches n.
func atLeast(ctx context.Context, count func() int, n int) error {
	return Eventually(ctx, brokerConsumeWait, 50*time.Millisecond, func() error {
		if got := count(); got < n {
			return fmt.Errorf("%d of %d", got, n)
		}
		return nil
	})
}

func init() {
	Register(&Scenario{
		Name: "broker/go/transaction",
		Doc: "client-go transaction producer: 2 committed, 1 rolled back and 2 left unknown that the broker's check " +
			"(every second here) resolves by asking the producer, which commits them; a client-go consumer gets the 4",
		Tags:    tags("goclient", "transaction"),
		Timeout: brokerScenarioLimit,
		Run:     brokerGoTransaction,
	})
}

// goTxListener decides by body like the Java side's: "-commit-" commits,
// "-rollback-" rolls back, the rest stay unknown until checked (commit).
type goTxListener struct {
	mu     sync.Mutex
	checks map[string]int
}

func (l *goTxListener) ExecuteLocalTransaction(m *primitive.Message) primitive.LocalTransactionState {
	switch body := string(m.Body); {
	case strings.Contains(body, "-commit-"):
		return primitive.CommitMessageState
	case strings.Contains(body, "-rollback-"):
		return primitive.RollbackMessageState
	}
	return goTxUnknown
}

// goTxUnknown is the unknown local state, spelled UnknowState in client-go
// v2.1.2 and UnkonwnState in newer ones: the value after rollback in both.
const goTxUnknown = primitive.RollbackMessageState + 1

func (l *goTxListener) CheckLocalTransaction(m *primitive.MessageExt) primitive.LocalTransactionState {
	l.mu.Lock()
	l.checks[string(m.Body)]++
	l.mu.Unlock()
	return primitive.CommitMessageState
}

func brokerGoTransaction(ctx context.Context, env *Env) error {
	const topic, group, prefix = "BrokerGoTransaction", "CONF_GO_TX_CG", "gotx"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	c, deliveries, err := startCountingConsumer(env, topic, group, prefix)
	if err != nil {
		return err
	}
	defer shutdownBounded(env, "push consumer", c.Shutdown)
	l := &goTxListener{checks: map[string]int{}}
	p, err := rocketmq.NewTransactionProducer(l,
		producer.WithNameServer(primitive.NamesrvAddr{env.Namesrv}),
		producer.WithGroupName("CONF_GO_TX_PG"),
		producer.WithInstanceName(goInstance("txproducer")),
		producer.WithRetry(2))
	if err != nil {
		return fmt.Errorf("client-go NewTransactionProducer: %w", err)
	}
	if err := p.Start(); err != nil {
		return fmt.Errorf("client-go transaction producer Start: %w", err)
	}
	defer shutdownBounded(env, "transaction producer", p.Shutdown)
	var states []string
	for _, b := range []string{"commit-0", "commit-1", "rollback-0", "unknown-0", "unknown-1"} {
		body := prefix + "-" + b
		res, err := p.SendMessageInTransaction(ctx, primitive.NewMessage(topic, []byte(body)))
		if err != nil {
			return fmt.Errorf("client-go SendMessageInTransaction %s: %w", body, err)
		}
		if res.Status != primitive.SendOK {
			return fmt.Errorf("half message %s: status %d", body, res.Status)
		}
		states = append(states, fmt.Sprintf("%s=%d", body, res.State))
	}
	env.Observe("local states", strings.Join(states, " "))
	if err := Eventually(ctx, 45*time.Second, 100*time.Millisecond, func() error {
		if got := deliveries(); got < 4 {
			return fmt.Errorf("%d of 4 committed messages", got)
		}
		return nil
	}); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // a rolled-back or twice-committed message would show up now
	if got := deliveries(); got != 4 {
		return fmt.Errorf("%d deliveries, want exactly the 4 committed", got)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range []string{"unknown-0", "unknown-1"} {
		if l.checks[prefix+"-"+b] == 0 {
			return fmt.Errorf("%s-%s was never checked", prefix, b)
		}
	}
	return nil
}
