package scenario

// Orderly consumption and consumer-group rebalancing (issue #6, items 5
// and 6): a MessageListenerOrderly push consumer fed through a
// sharding-key selector over 8 queues sees every key's messages in send
// order; two orderly consumers of one group never process the same queue
// at once (LOCK_BATCH_MQ / UNLOCK_BATCH_MQ); two clustering consumers split
// the queues and the survivor takes them all when one shuts down
// (UNREGISTER_CLIENT, NOTIFY_CONSUMER_IDS_CHANGED); broadcasting consumers
// each get everything. Java 4.9.8 mirror: RebalanceLockManager,
// ConsumeMessageOrderlyService, RebalanceImpl, AllocateMessageQueueAveragely.

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

const (
	orderlyQueues = 8
	orderlyKeys   = 8
)

func init() {
	Register(
		&Scenario{
			Name:    "broker/orderly/sharding-key",
			Doc:     "a Java orderly push consumer gets each sharding key's messages in send order, each key from its one queue floorMod(hashCode(key), 8)",
			Tags:    tags("quick", "javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     func(ctx context.Context, env *Env) error { return brokerOrderly(ctx, env, 1) },
		},
		&Scenario{
			Name:    "broker/orderly/lock-exclusive",
			Doc:     "two Java orderly consumers of one group hold 4 locked queues each, never process one queue at the same time, and keep per-key order",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     func(ctx context.Context, env *Env) error { return brokerOrderly(ctx, env, 2) },
		},
		&Scenario{
			Name: "broker/orderly/go-sharding-key",
			Doc: "a client-go producer with the hash queue selector sends by sharding key, and a client-go orderly push " +
				"consumer (LOCK_BATCH_MQ) gets each key's messages in send order from its one queue",
			Tags:    tags("goclient", "javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerGoOrderly,
		},
		&Scenario{
			Name:    "broker/rebalance/clustering",
			Doc:     "two Java push consumers of one group split 8 queues 4/4 and share the messages; after one shuts down gracefully the other holds all 8 and gets every new message",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerRebalanceClustering,
		},
		&Scenario{
			Name:    "broker/rebalance/broadcast",
			Doc:     "two Java push consumers of one group in BROADCASTING mode each hold all queues and each get every message",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerBroadcast,
		},
	)
}

// orderlySpecs makes perKey messages for each of orderlyKeys keys, body
// "prefix-key<k>-<seq>", interleaved key by key, sent by sharding key.
func orderlySpecs(prefix string, perKey int) []msgSpec {
	var out []msgSpec
	for i := 0; i < perKey; i++ {
		for k := 0; k < orderlyKeys; k++ {
			key := fmt.Sprintf("key%d", k)
			out = append(out, msgSpec{Body: fmt.Sprintf("%s-%s-%d", prefix, key, i), Tags: "Orderly",
				Keys: key, ShardingKey: key})
		}
	}
	return out
}

// checkKeyOrder checks that each key's first deliveries come in sequence
// order from a single queue, and returns "key -> queue" lines.
func checkKeyOrder(prefix string, got []recvMsg, perKey int) (string, error) {
	next := map[string]int{}
	queue := map[string]string{}
	seen := map[string]bool{}
	for _, m := range withPrefix(got, prefix) {
		if seen[m.Body] {
			continue
		}
		seen[m.Body] = true
		parts := strings.Split(strings.TrimPrefix(m.Body, prefix+"-"), "-")
		if len(parts) != 2 {
			return "", fmt.Errorf("unexpected body %q", m.Body)
		}
		key := parts[0]
		seq, err := strconv.Atoi(parts[1])
		if err != nil {
			return "", fmt.Errorf("unexpected body %q", m.Body)
		}
		if seq != next[key] {
			return "", fmt.Errorf("key %s: got seq %d, want %d (order broken)", key, seq, next[key])
		}
		next[key]++
		q := fmt.Sprintf("%s:%d", m.BrokerName, m.QueueID)
		if queue[key] != "" && queue[key] != q {
			return "", fmt.Errorf("key %s from queues %s and %s", key, queue[key], q)
		}
		queue[key] = q
	}
	var lines []string
	for key, n := range next {
		if n != perKey {
			return "", fmt.Errorf("key %s: %d of %d messages", key, n, perKey)
		}
		lines = append(lines, key+" -> "+queue[key])
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}

func brokerOrderly(ctx context.Context, env *Env, consumers int) error {
	topic := fmt.Sprintf("BrokerOrderly%d", consumers)
	if err := createTopic(ctx, env, topic, orderlyQueues, 6); err != nil {
		return err
	}
	const perKey = 6
	prefix := fmt.Sprintf("orderly%d", consumers)
	ss := orderlySpecs(prefix, perKey)
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_ORDERLY_CG_" + strconv.Itoa(consumers),
		Prefix: prefix, Count: len(ss), Orderly: true, Consumers: consumers, Sleep: 10 * time.Millisecond,
		Produce: ss, Quiet: brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Ready {
		return fmt.Errorf("orderly consumers did not lock all %d queues within %s: locked %v", orderlyQueues, brokerReadyWait, res.Assignment)
	}
	if want := evenSplit(orderlyQueues, consumers); !slices.Equal(res.Assignment, want) {
		return fmt.Errorf("locked queues per consumer %v, want %v", res.Assignment, want)
	}
	if len(res.Violations) > 0 {
		return fmt.Errorf("queue processed by two listeners at once: %s", strings.Join(res.Violations, "; "))
	}
	if !res.Complete {
		return fmt.Errorf("orderly consumers got %d deliveries, not all %d messages", len(res.Messages), len(ss))
	}
	keys, err := checkKeyOrder(prefix, res.Messages, perKey)
	if err != nil {
		return err
	}
	env.Observe("assignment", fmt.Sprint(res.Assignment))
	env.Observe("key queues", keys)
	env.Observe("sent", sentPlacement(res.Sent))
	return nil
}

// evenSplit is AllocateMessageQueueAveragely's share per consumer, sorted.
func evenSplit(queues, consumers int) []int {
	out := make([]int, consumers)
	for i := range out {
		out[i] = queues / consumers
		if i < queues%consumers {
			out[i]++
		}
	}
	sort.Ints(out)
	return out
}

// sentPlacement renders sends as sorted "body broker:queue@offset" lines.
func sentPlacement(sent []sentMsg) string {
	lines := make([]string, len(sent))
	for i, s := range sent {
		lines[i] = fmt.Sprintf("%s %s:%d@%d %s", s.Body, s.BrokerName, s.QueueID, s.QueueOffset, s.Status)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func brokerRebalanceClustering(ctx context.Context, env *Env) error {
	const topic, n = "BrokerRebalance", 16
	if err := createTopic(ctx, env, topic, orderlyQueues, 6); err != nil {
		return err
	}
	var res struct {
		SplitReady     bool      `json:"splitReady"`
		Split          []int     `json:"split"`
		FirstComplete  bool      `json:"firstComplete"`
		TakeoverReady  bool      `json:"takeoverReady"`
		Takeover       []int     `json:"takeover"`
		SecondComplete bool      `json:"secondComplete"`
		Messages       []recvMsg `json:"messages"`
	}
	err := env.Java.BrokerOp(ctx, map[string]any{"op": "rebalance", "ns": env.Namesrv, "topic": topic,
		"group": "CONF_BROKER_REBALANCE_CG", "produceGroup": "CONF_BROKER_REBALANCE_PG", "prefix": "rebal",
		"count": n, "timeoutMs": brokerConsumeWait.Milliseconds(), "readyTimeoutMs": brokerReadyWait.Milliseconds(),
		"quietMs": brokerQuiet.Milliseconds()}, &res, 2*brokerConsumeWait+2*brokerReadyWait+brokerOpSlack)
	if err != nil {
		return err
	}
	switch {
	case !res.SplitReady || !slices.Equal(res.Split, []int{4, 4}):
		return fmt.Errorf("two consumers hold %v queues, want [4 4]", res.Split)
	case !res.FirstComplete:
		return fmt.Errorf("first batch: not all %d messages consumed by the two consumers", n)
	case !res.TakeoverReady || !slices.Equal(res.Takeover, []int{0, 8}):
		return fmt.Errorf("after consumer 1 shut down: queues held %v, want [0 8]", res.Takeover)
	case !res.SecondComplete:
		return fmt.Errorf("second batch: consumer 0 did not get all %d messages", n)
	}
	per := map[int]int{}
	for _, m := range withPrefix(res.Messages, "rebal-a") {
		per[m.Consumer]++
	}
	if per[0] == 0 || per[1] == 0 {
		return fmt.Errorf("first batch per consumer %v: both consumers should get some", per)
	}
	for _, m := range withPrefix(res.Messages, "rebal-b") {
		if m.Consumer != 0 {
			return fmt.Errorf("second batch message %s went to the stopped consumer %d", m.Body, m.Consumer)
		}
	}
	env.Observe("split", fmt.Sprint(res.Split))
	env.Observe("takeover", fmt.Sprint(res.Takeover))
	return nil
}

func brokerBroadcast(ctx context.Context, env *Env) error {
	const topic = "BrokerBroadcast"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := sharded(specs("bcast", "Bcast", 8))
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_BCAST_CG", Prefix: "bcast",
		Count: len(ss), Broadcast: true, Consumers: 2, Produce: ss, Quiet: brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Ready || !slices.Equal(res.Assignment, []int{4, 4}) {
		return fmt.Errorf("broadcasting consumers hold %v queues, want all 4 each", res.Assignment)
	}
	if !res.Complete {
		return fmt.Errorf("broadcasting consumers: not every consumer got all %d messages", len(ss))
	}
	for c := 0; c < 2; c++ {
		var mine []recvMsg
		for _, m := range res.Messages {
			if m.Consumer == c {
				mine = append(mine, m)
			}
		}
		if err := checkDelivered(ss, mine, false); err != nil {
			return fmt.Errorf("broadcasting consumer %d: %w", c, err)
		}
	}
	env.Observe("placement", placementLines(res.Messages))
	return nil
}
