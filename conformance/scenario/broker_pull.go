package scenario

// Pulling from the broker under test (issue #6, items 3, 4 and 8): what a
// raw PULL_MESSAGE returns (decoded by the Java MessageDecoder, not
// filtered by the client) against DefaultMQPullConsumer and
// DefaultLitePullConsumer; messages sent with SEND_MESSAGE (client-go, v1
// header) and SEND_MESSAGE_V2 (Java) stored alike; tag filtering by
// String.hashCode on the broker and by string in the client. Java 4.9.8
// mirror: PullMessageProcessor, DefaultMessageFilter (tags code),
// PullAPIWrapper.processPullResult, SendMessageRequestHeaderV2.

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

func init() {
	Register(
		&Scenario{
			Name:    "broker/pull/v1-v2-stored",
			Doc:     "the same message sent by client-go (SEND_MESSAGE, v1 header) and by the Java producer (SEND_MESSAGE_V2) is stored with the same body, flag, tags, keys and user properties; raw pulls show every stored property",
			Tags:    tags("quick", "javaclient", "goclient", "raw"),
			Timeout: brokerScenarioLimit,
			Run:     brokerV1V2Stored,
		},
		&Scenario{
			Name:    "broker/filter/tag-hash-collision",
			Doc:     "tags Aa and BB share String.hashCode: the broker's tag filter (by hash) returns both to a raw pull subscribed to Aa, the Java pull and push consumers and client-go's push consumer (by string) keep only Aa",
			Tags:    tags("quick", "javaclient", "goclient", "raw"),
			Timeout: brokerScenarioLimit,
			Run:     brokerTagHashCollision,
		},
		&Scenario{
			Name:    "broker/pull/long-polling-wakeup",
			Doc:     "a Java push consumer's pull held by the broker (long polling, brokerSuspendMaxTimeMillis 15 s) is answered as soon as a message arrives, not when the hold expires",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerLongPollWakeup,
		},
		&Scenario{
			Name:    "broker/pull/lite",
			Doc:     "a DefaultLitePullConsumer (subscribe, consume from first offset) polls every message with its content and queue placement",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerLitePull,
		},
		&Scenario{
			Name:    "broker/pull/raw",
			Doc:     "DefaultMQPullConsumer.pull from offset 0 of every queue and a raw PULL_MESSAGE return the same messages at the same offsets; statuses and min/max/next offsets as Java's",
			Tags:    tags("javaclient", "raw"),
			Timeout: brokerScenarioLimit,
			Run:     brokerRawPull,
		},
	)
}

// storedMsg is a pulled message with every property (UNIQ_KEY masked).
type storedMsg struct {
	Body           string            `json:"body"`
	BrokerName     string            `json:"brokerName"`
	QueueID        int               `json:"queueId"`
	QueueOffset    int64             `json:"queueOffset"`
	Flag           int               `json:"flag"`
	SysFlag        int               `json:"sysFlag"`
	StoreSize      int               `json:"storeSize"`
	BodyCRC        int64             `json:"bodyCRC"`
	ReconsumeTimes int               `json:"reconsumeTimes"`
	Properties     map[string]string `json:"properties"`
}

// pullResult is the answer of the "pull" op.
type pullResult struct {
	Statuses []string    `json:"statuses"`
	Client   []storedMsg `json:"client"`
	Raw      []storedMsg `json:"raw"`
}

func javaPull(ctx context.Context, env *Env, topic, group, sub string) (*pullResult, error) {
	var res pullResult
	err := env.Java.BrokerOp(ctx, map[string]any{"op": "pull", "ns": env.Namesrv, "topic": topic,
		"group": group, "sub": sub, "max": 32}, &res, brokerOpSlack)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

func storedLine(m storedMsg, withProps bool) string {
	s := fmt.Sprintf("%s:%d@%d %s flag=%d sysFlag=%d storeSize=%d bodyCRC=%d reconsume=%d",
		m.BrokerName, m.QueueID, m.QueueOffset, m.Body, m.Flag, m.SysFlag, m.StoreSize, m.BodyCRC, m.ReconsumeTimes)
	if withProps {
		s += " props=" + propsString(m.Properties)
	}
	return s
}

func storedLines(ms []storedMsg, withProps bool) string {
	lines := make([]string, len(ms))
	for i, m := range ms {
		lines[i] = storedLine(m, withProps)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// userProps keeps the non-system properties.
func userProps(p map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range p {
		if !systemProps[k] {
			out[k] = v
		}
	}
	return out
}

func brokerV1V2Stored(ctx context.Context, env *Env) error {
	const topic = "BrokerV1V2Stored"
	if err := createTopic(ctx, env, topic, 1, 6); err != nil {
		return err
	}
	spec := msgSpec{Body: "v1v2-same body ✓", Tags: "Same", Keys: "key-1 key-2",
		Props: map[string]string{"color": "red", "text": "grüße", "n": "42"}}
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_V2_PG", "sync", []msgSpec{spec}); err != nil {
		return err
	}
	if _, err := goProduce(ctx, env, topic, "sync", []msgSpec{spec}); err != nil {
		return err
	}
	res, err := javaPull(ctx, env, topic, "CONF_BROKER_V1V2_CG", "*")
	if err != nil {
		return err
	}
	if len(res.Raw) != 2 {
		return fmt.Errorf("raw pull returned %d messages, want 2 (java v2 at 0, client-go v1 at 1): %v", len(res.Raw), res.Statuses)
	}
	v2, v1 := res.Raw[0], res.Raw[1]
	if v2.Body != v1.Body || v2.Flag != v1.Flag || v2.BodyCRC != v1.BodyCRC {
		return fmt.Errorf("stored differently: v2 %q flag %d crc %d, v1 %q flag %d crc %d", v2.Body, v2.Flag, v2.BodyCRC, v1.Body, v1.Flag, v1.BodyCRC)
	}
	for _, k := range []string{"TAGS", "KEYS"} {
		if v2.Properties[k] != v1.Properties[k] {
			return fmt.Errorf("property %s: v2 %q, v1 %q", k, v2.Properties[k], v1.Properties[k])
		}
	}
	if !maps.Equal(userProps(v2.Properties), userProps(v1.Properties)) || !maps.Equal(userProps(v1.Properties), spec.Props) {
		return fmt.Errorf("user properties: v2 %v, v1 %v, sent %v", userProps(v2.Properties), userProps(v1.Properties), spec.Props)
	}
	env.Observe("statuses", strings.Join(res.Statuses, "\n"))
	env.Observe("stored v2 (java)", storedLine(v2, true))
	env.Observe("stored v1 (client-go)", storedLine(v1, true))
	return nil
}

func brokerTagHashCollision(ctx context.Context, env *Env) error {
	const topic = "BrokerTagHash"
	if jhash.String("Aa") != jhash.String("BB") {
		return fmt.Errorf("test premise: hashCode(Aa)=%d, hashCode(BB)=%d", jhash.String("Aa"), jhash.String("BB"))
	}
	if err := createTopic(ctx, env, topic, 1, 6); err != nil {
		return err
	}
	var ss []msgSpec
	for i, tag := range []string{"Aa", "BB", "Aa", "C", "BB", "Aa"} {
		ss = append(ss, msgSpec{Body: fmt.Sprintf("taghash-%d-%s", i, tag), Tags: tag})
	}
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_TAGHASH_PG", "sync", ss); err != nil {
		return err
	}
	res, err := javaPull(ctx, env, topic, "CONF_BROKER_TAGHASH_PULL_CG", "Aa")
	if err != nil {
		return err
	}
	if err := expectTags("raw pull (broker filter)", res.Raw, "Aa,BB", 5); err != nil {
		return err
	}
	if err := expectTags("DefaultMQPullConsumer", res.Client, "Aa", 3); err != nil {
		return err
	}
	push, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_TAGHASH_CG", Sub: "Aa",
		Prefix: "taghash", Count: 3, Quiet: 2 * brokerQuiet})
	if err != nil {
		return err
	}
	if !push.Complete {
		return fmt.Errorf("java push consumer (Aa): %d deliveries, want the 3 Aa messages", len(push.Messages))
	}
	for _, m := range push.Messages {
		if m.Tags != "Aa" {
			return fmt.Errorf("java push consumer subscribed to Aa got %q with tags %q", m.Body, m.Tags)
		}
	}
	gogot, err := goConsumeMsgs(ctx, env, topic, "CONF_BROKER_TAGHASH_GO_CG", "Aa", "taghash", 3, brokerConsumeWait)
	if err != nil {
		return err
	}
	for _, m := range gogot {
		if m.Tags != "Aa" {
			return fmt.Errorf("client-go push consumer subscribed to Aa got %q with tags %q", m.Body, m.Tags)
		}
	}
	env.Observe("raw pull Aa", storedLines(res.Raw, false))
	env.Observe("client pull Aa", storedLines(res.Client, false))
	env.Observe("push Aa", placementLines(push.Messages))
	return nil
}

// expectTags checks that ms holds n messages, all with a tag out of the
// comma-separated allowed ones.
func expectTags(what string, ms []storedMsg, allowed string, n int) error {
	ok := map[string]bool{}
	for _, t := range strings.Split(allowed, ",") {
		ok[t] = true
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Body)
		if !ok[m.Properties["TAGS"]] {
			return fmt.Errorf("%s returned %q with tags %q (allowed %s)", what, m.Body, m.Properties["TAGS"], allowed)
		}
	}
	if len(ms) != n {
		return fmt.Errorf("%s returned %d messages %v, want %d", what, len(ms), got, n)
	}
	return nil
}

func brokerLitePull(ctx context.Context, env *Env) error {
	const topic = "BrokerLitePull"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := sharded(specs("lite", "Lite", 8))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_LITE_PG", "sync", ss); err != nil {
		return err
	}
	var res struct {
		Complete bool      `json:"complete"`
		Messages []recvMsg `json:"messages"`
	}
	err := env.Java.BrokerOp(ctx, map[string]any{"op": "litePull", "ns": env.Namesrv, "topic": topic,
		"group": "CONF_BROKER_LITE_CG", "prefix": "lite", "count": len(ss),
		"timeoutMs": brokerConsumeWait.Milliseconds()}, &res, brokerConsumeWait+brokerOpSlack)
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("lite pull consumer: %d deliveries, not all %d messages", len(res.Messages), len(ss))
	}
	if err := checkDelivered(ss, res.Messages, false); err != nil {
		return fmt.Errorf("lite pull consumer: %w", err)
	}
	env.Observe("received", contentLines(res.Messages))
	env.Observe("placement", placementLines(res.Messages))
	return nil
}

func brokerRawPull(ctx context.Context, env *Env) error {
	const topic = "BrokerRawPull"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := sharded(specs("rawpull", "RP", 8))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_RAWPULL_PG", "sync", ss); err != nil {
		return err
	}
	res, err := javaPull(ctx, env, topic, "CONF_BROKER_RAWPULL_CG", "*")
	if err != nil {
		return err
	}
	if len(res.Raw) != len(ss) {
		return fmt.Errorf("raw pulls returned %d messages, want %d: %v", len(res.Raw), len(ss), res.Statuses)
	}
	if c, r := storedLines(res.Client, false), storedLines(res.Raw, false); c != r {
		return fmt.Errorf("DefaultMQPullConsumer and raw pull differ:\n%s\n---\n%s", c, r)
	}
	env.Observe("statuses", strings.Join(res.Statuses, "\n"))
	env.Observe("stored", storedLines(res.Raw, true))
	return nil
}

// longPollLimit is how late a message may reach a consumer whose pull the
// broker holds: Java wakes held pulls on arrival (NotifyMessageArrivingListener),
// in milliseconds; PullRequestHoldService's own 5 s check would be too late.
const longPollLimit = 3 * time.Second

func brokerLongPollWakeup(ctx context.Context, env *Env) error {
	const topic = "BrokerLongPoll"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := sharded(specs("longpoll", "LP", 4))
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_LONGPOLL_CG", Prefix: "longpoll",
		Count: len(ss), Produce: ss, ProduceDelay: 2 * time.Second})
	if err != nil {
		return err
	}
	if !res.Ready || !res.Complete {
		return fmt.Errorf("consumer ready %v (queues %v), complete %v", res.Ready, res.Assignment, res.Complete)
	}
	if err := checkDelivered(ss, res.Messages, false); err != nil {
		return err
	}
	var worst int64
	for _, m := range res.Messages {
		worst = max(worst, m.At-res.ProducedAtMs)
	}
	lag := time.Duration(worst) * time.Millisecond
	env.Log.Printf("last message reached the consumer %s after the sends started", lag)
	if lag > longPollLimit {
		return fmt.Errorf("last message reached the consumer %s after the sends started, want < %s (held pulls not woken on arrival?)", lag, longPollLimit)
	}
	env.Observe("placement", placementLines(res.Messages))
	return nil
}
