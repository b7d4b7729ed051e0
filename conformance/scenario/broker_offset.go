package scenario

// Consumer offsets on the broker under test (issue #6, item 7): a
// restarted consumer resumes at its committed offset; a new group's
// CONSUME_FROM_FIRST/LAST/TIMESTAMP start; a graceful broker restart keeps
// the committed offsets (consumerOffset.json). Java 4.9.8 mirror:
// ConsumerManageProcessor.queryConsumerOffset (a group without an offset
// on a queue whose first message is still in memory gets 0, not
// QUERY_NOT_FOUND), ConsumerOffsetManager, RebalancePushImpl.computePullFromWhere.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

const (
	codeQueryConsumerOffset  = int32(protocol.ReqQueryConsumerOffset)
	codeUpdateConsumerOffset = int32(protocol.ReqUpdateConsumerOffset)
	codeGetMaxOffset         = int32(protocol.ReqGetMaxOffset)
)

// seedOffsets commits offset 0 for group on topic's queue 0 with one
// request, before the group's consumer first runs. Java 4.9.x brokers
// lose offsets otherwise: ConsumerOffsetManager.commitOffset creates a
// topic@group's queue map unsynchronised, so when the first commits of a
// group arrive together — the Java consumer's shutdown sends one oneway
// UPDATE_CONSUMER_OFFSET per queue, handled on several threads — each
// thread puts its own one-queue map and the last one wins (seen as
// "q0=0 q1=0 q2=2 q3=0"). Offset 0 is where CONSUME_FROM_FIRST_OFFSET
// starts anyway. Sputnik commits under a lock (broker/offsets
// TestConcurrentFirstCommits).
func seedOffsets(ctx context.Context, addr, group, topic string) error {
	req := rawclient.Request(codeUpdateConsumerOffset, "consumerGroup", group, "topic", topic, "queueId", "0", "commitOffset", "0")
	resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("UPDATE_CONSUMER_OFFSET %s: %w", topic, err)
	}
	if resp.Code != respSuccess {
		return fmt.Errorf("UPDATE_CONSUMER_OFFSET %s: %w", topic, &codeError{Code: resp.Code, Remark: resp.Remark})
	}
	return nil
}

func init() {
	Register(
		&Scenario{
			Name:    "broker/offset/resume",
			Doc:     "a Java push consumer group restarted after a graceful shutdown gets only the messages sent since, from its committed offsets",
			Tags:    tags("javaclient", "raw"),
			Timeout: brokerScenarioLimit,
			Run:     brokerOffsetResume,
		},
		&Scenario{
			Name: "broker/offset/go-consume-from",
			Doc: "client-go push consumers of new groups with ConsumeFromFirstOffset, ConsumeFromLastOffset and " +
				"ConsumeFromTimestamp on a fresh topic: the broker answers offset 0 (first message still in memory), so each gets " +
				"every message",
			Tags:    tags("goclient", "javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerGoConsumeFrom,
		},
		&Scenario{
			Name:    "broker/offset/consume-from",
			Doc:     "new groups with CONSUME_FROM_FIRST_OFFSET, _LAST_OFFSET and _TIMESTAMP on a fresh topic: the broker answers offset 0 (first message still in memory), so each gets every message",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerConsumeFrom,
		},
		&Scenario{
			Name:    "broker/offset/broker-restart",
			Doc:     "committed offsets survive a graceful broker restart (SIGTERM): QUERY_CONSUMER_OFFSET answers the same, and the group resumes without re-delivery",
			Tags:    tags("javaclient", "raw", "lifecycle"),
			Timeout: 3 * time.Minute,
			Run:     brokerOffsetRestart,
		},
	)
}

// queryOffsets asks broker addr for group's committed offset of each of
// topic's n queues (raw QUERY_CONSUMER_OFFSET): "q0=… q1=…", code 22
// shown as "q0=none".
func queryOffsets(ctx context.Context, addr, group, topic string, n int) (string, int64, error) {
	parts := make([]string, n)
	var sum int64
	for q := 0; q < n; q++ {
		req := rawclient.Request(codeQueryConsumerOffset, "consumerGroup", group, "topic", topic, "queueId", strconv.Itoa(q))
		resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
		if err != nil {
			return "", 0, fmt.Errorf("QUERY_CONSUMER_OFFSET %s q%d: %w", topic, q, err)
		}
		switch resp.Code {
		case respSuccess:
			var h protocol.QueryConsumerOffsetResponseHeader
			if err := h.DecodeFrom(resp); err != nil {
				return "", 0, fmt.Errorf("QUERY_CONSUMER_OFFSET %s q%d: %w", topic, q, err)
			}
			sum += h.Offset
			parts[q] = fmt.Sprintf("q%d=%d", q, h.Offset)
		case respQueryNotFound:
			parts[q] = fmt.Sprintf("q%d=none", q)
		default:
			return "", 0, fmt.Errorf("QUERY_CONSUMER_OFFSET %s q%d: %w", topic, q, &codeError{Code: resp.Code, Remark: resp.Remark})
		}
	}
	return strings.Join(parts, " "), sum, nil
}

// awaitOffsets polls (5 s) until group's committed offsets on topic's n
// queues add up to want and returns them as queryOffsets shows them. The
// Java consumer commits at shutdown with oneway UPDATE_CONSUMER_OFFSETs,
// which may land just after it has gone; an operator's next step comes
// later than the next instant.
func awaitOffsets(ctx context.Context, addr, group, topic string, n int, want int64) (string, error) {
	var offsets string
	err := Eventually(ctx, 5*time.Second, 20*time.Millisecond, func() error {
		o, sum, err := queryOffsets(ctx, addr, group, topic, n)
		offsets = o
		if err == nil && sum != want {
			err = fmt.Errorf("offsets %s, want %d in all", o, want)
		}
		return err
	})
	return offsets, err
}

// consumeExactly runs a Java push consumer of group until the specs
// arrived and brokerQuiet more, and checks nothing else came.
func consumeExactly(ctx context.Context, env *Env, topic, group, prefix string, ss []msgSpec) error {
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: group, Prefix: prefix, Count: len(ss),
		Quiet: 2 * brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("group %s: %d deliveries, not all %d %s messages", group, len(res.Messages), len(ss), prefix)
	}
	if err := checkDelivered(ss, res.Messages, false); err != nil {
		return fmt.Errorf("group %s: %w", group, err)
	}
	return nil
}

func brokerOffsetResume(ctx context.Context, env *Env) error {
	const topic, group = "BrokerOffsetResume", "CONF_BROKER_RESUME_CG"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	if err := seedOffsets(ctx, env.Brokers[0].Addr, group, topic); err != nil {
		return err
	}
	first := sharded(specs("resume1", "Resume", 8))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_RESUME_PG", "sync", first); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, topic, group, "resume1", first); err != nil {
		return fmt.Errorf("first run: %w", err)
	}
	offsets, err := awaitOffsets(ctx, env.Brokers[0].Addr, group, topic, 4, int64(len(first)))
	if err != nil {
		return fmt.Errorf("first run's offsets: %w", err)
	}
	second := sharded(specs("resume2", "Resume", 8))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_RESUME_PG", "sync", second); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, topic, group, "resume2", second); err != nil {
		return fmt.Errorf("restarted consumer: %w", err)
	}
	after, _, err := queryOffsets(ctx, env.Brokers[0].Addr, group, topic, 4)
	if err != nil {
		return err
	}
	env.Observe("offsets after first run", offsets)
	env.Observe("offsets after second run", after)
	return nil
}

func brokerConsumeFrom(ctx context.Context, env *Env) error {
	const topic = "BrokerConsumeFrom"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	start := time.Now()
	ss := sharded(specs("from", "From", 6))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_FROM_PG", "sync", ss); err != nil {
		return err
	}
	wheres := []string{"first", "last", "timestamp"}
	results := make([]*consumeResult, len(wheres))
	errs := make([]error, len(wheres))
	var wg sync.WaitGroup
	for i, where := range wheres {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_FROM_" + strings.ToUpper(where) + "_CG",
				Prefix: "from", Count: len(ss), FromWhere: where, TimestampMs: start.Add(-time.Minute).UnixMilli(),
				Wait: 20 * time.Second, Quiet: brokerQuiet})
		}()
	}
	wg.Wait()
	var counts []string
	for i, where := range wheres {
		if errs[i] != nil {
			return fmt.Errorf("consume from %s: %w", where, errs[i])
		}
		got := distinctBodies(withPrefix(results[i].Messages, "from"))
		counts = append(counts, fmt.Sprintf("%s=%d", where, got))
		if got != len(ss) {
			return fmt.Errorf("new group consuming from %s got %d of %d messages (java: offset 0 while the first message is in memory)", where, got, len(ss))
		}
	}
	env.Observe("counts", strings.Join(counts, " "))
	return nil
}

func distinctBodies(ms []recvMsg) int {
	seen := map[string]bool{}
	for _, m := range ms {
		seen[m.Body] = true
	}
	return len(seen)
}

func brokerOffsetRestart(ctx context.Context, env *Env) error {
	const topic, group = "BrokerOffsetRestart", "CONF_BROKER_RESTART_CG"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	addr := env.Brokers[0].Addr
	if err := seedOffsets(ctx, addr, group, topic); err != nil {
		return err
	}
	first := sharded(specs("restart1", "Restart", 8))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_RESTART_PG", "sync", first); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, topic, group, "restart1", first); err != nil {
		return fmt.Errorf("before restart: %w", err)
	}
	before, err := awaitOffsets(ctx, addr, group, topic, 4, int64(len(first)))
	if err != nil {
		return fmt.Errorf("committed offsets before restart: %w", err)
	}
	if err := env.Nodes.StopBroker(0); err != nil {
		return fmt.Errorf("stop broker: %w", err)
	}
	if err := env.Nodes.StartBroker(ctx, 0); err != nil {
		return fmt.Errorf("start broker: %w", err)
	}
	var after string
	err = Eventually(ctx, routeVisibleTimeout, 500*time.Millisecond, func() error {
		after, _, err = queryOffsets(ctx, addr, group, topic, 4)
		return err
	})
	if err != nil {
		return fmt.Errorf("after restart: %w", err)
	}
	if after != before {
		return fmt.Errorf("committed offsets changed by the restart: before %s, after %s", before, after)
	}
	if err := waitRoute(ctx, env, topic, 1); err != nil {
		return err
	}
	second := sharded(specs("restart2", "Restart", 4))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_RESTART_PG", "sync", second); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, topic, group, "restart2", second); err != nil {
		return fmt.Errorf("after restart: %w", err)
	}
	env.Observe("offsets", after)
	return nil
}
