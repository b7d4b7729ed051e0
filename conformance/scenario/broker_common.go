package scenario

// Helpers of the broker scenarios (issue #6): message specs, the Java
// BrokerOps operations (javaclient.Driver.BrokerOp, conformance/java
// BrokerOps/BrokerMessaging/BrokerGroup/BrokerStories), comparisons and
// normalizations of what the clients received.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
)

const (
	brokerOpSlack       = 60 * time.Second // JVM start, client start and shutdown around an op
	brokerConsumeWait   = 30 * time.Second
	brokerReadyWait     = 45 * time.Second // orderly locks may need one 20 s rebalance round
	brokerScenarioLimit = 2 * time.Minute
	brokerQuiet         = time.Second // after the last expected delivery, to catch extra ones
)

// brokerTags are the tags of every broker scenario.
var brokerTags = []string{"broker"}

func tags(extra ...string) []string { return append(slices.Clone(brokerTags), extra...) }

// msgSpec is one message to send: body, tags, keys (space separated), user
// properties and, when set, the sharding key the Java selector hashes
// (queue = floorMod(String.hashCode(key), queues)).
type msgSpec struct {
	Body        string            `json:"body"`
	Tags        string            `json:"tags,omitempty"`
	Keys        string            `json:"keys,omitempty"`
	Props       map[string]string `json:"props,omitempty"`
	ShardingKey string            `json:"shardingKey,omitempty"`
	DelayLevel  int               `json:"delayLevel,omitempty"` // Message.setDelayTimeLevel
}

// sentMsg is what a send reported.
type sentMsg struct {
	Body        string `json:"body"`
	Status      string `json:"status"`
	BrokerName  string `json:"brokerName"`
	QueueID     int    `json:"queueId"`
	QueueOffset int64  `json:"queueOffset"`
	LocalState  string `json:"localState"` // transaction mode: the local transaction's state
	Resumed     *bool  `json:"resumed"`    // transaction-resume mode: RESUME_CHECK_HALF_MESSAGE's answer
}

// recvMsg is one delivery to a consumer (props: user properties only).
type recvMsg struct {
	Consumer       int               `json:"consumer"`
	Body           string            `json:"body"`
	Tags           string            `json:"tags"`
	Keys           string            `json:"keys"`
	Props          map[string]string `json:"props"`
	BrokerName     string            `json:"brokerName"`
	QueueID        int               `json:"queueId"`
	QueueOffset    int64             `json:"queueOffset"`
	ReconsumeTimes int               `json:"reconsumeTimes"`
	At             int64             `json:"at"`       // Unix ms the Java listener got it (consume op)
	PropKeys       []string          `json:"propKeys"` // every property name, sorted (Java consumer)
	// SysProps are the system properties a broker sets the same way every
	// run (RETRY_TOPIC, REAL_TOPIC, REAL_QID, DELAY, WAIT, CLUSTER), when
	// present (Java consumer).
	SysProps map[string]string `json:"sysProps"`
}

// consumeResult is the answer of the "consume" op.
type consumeResult struct {
	Ready        bool      `json:"ready"`
	ProducedAtMs int64     `json:"producedAtMs"`
	Assignment   []int     `json:"assignment"`
	Sent         []sentMsg `json:"sent"`
	Complete     bool      `json:"complete"`
	Violations   []string  `json:"violations"`
	Messages     []recvMsg `json:"messages"`
}

// specs makes n messages prefix-0 … with tags, keys "prefix-i k-prefix" and
// user properties idx, prefix and a non-ASCII one.
func specs(prefix, tag string, n int) []msgSpec {
	out := make([]msgSpec, n)
	for i := range out {
		body := fmt.Sprintf("%s-%d", prefix, i)
		out[i] = msgSpec{
			Body:  body,
			Tags:  tag,
			Keys:  body + " k-" + prefix,
			Props: map[string]string{"idx": fmt.Sprint(i), "prefix": prefix, "text": "grüße ✓ " + body},
		}
	}
	return out
}

// sharded sets every spec's sharding key to its body.
func sharded(ss []msgSpec) []msgSpec {
	for i := range ss {
		ss[i].ShardingKey = ss[i].Body
	}
	return ss
}

// javaProduce sends specs from a fresh Java DefaultMQProducer of group in
// mode sync, async, oneway or batch.
func javaProduce(ctx context.Context, env *Env, topic, group, mode string, ss []msgSpec) ([]sentMsg, error) {
	return javaProduceAs(ctx, env, javaclient.Credentials{}, topic, group, mode, ss)
}

// javaProduceAs is javaProduce with a producer signing its requests with
// cred (a broker with ACL; the zero Credentials sign nothing).
func javaProduceAs(ctx context.Context, env *Env, cred javaclient.Credentials, topic, group, mode string, ss []msgSpec) ([]sentMsg, error) {
	return javaProduceWith(ctx, env, cred.AddTo(map[string]any{}), topic, group, mode, ss)
}

// javaProduceWith is javaProduce with extra BrokerOp parameters (signing
// credentials, the serialize type).
func javaProduceWith(ctx context.Context, env *Env, extra map[string]any, topic, group, mode string, ss []msgSpec) ([]sentMsg, error) {
	p := map[string]any{"op": "produce", "ns": env.Namesrv, "topic": topic, "group": group, "mode": mode, "messages": ss}
	for k, v := range extra {
		p[k] = v
	}
	var sent []sentMsg
	err := env.Java.BrokerOp(ctx, p, &sent, brokerOpSlack)
	if err != nil {
		return nil, err
	}
	for _, s := range sent {
		if mode != "oneway" && s.Status != "SEND_OK" {
			return sent, fmt.Errorf("java %s send of %s: status %s", mode, s.Body, s.Status)
		}
	}
	return sent, nil
}

// consumeReq is the "consume" op's request; zero fields take the Java
// side's defaults (one consumer, concurrently, CONSUME_FROM_FIRST_OFFSET,
// clustering, subscription "*").
type consumeReq struct {
	Topic, Group, Sub, Prefix string
	SQL                       string // MessageSelector.bySql instead of Sub
	Count                     int
	Orderly                   bool
	FromWhere                 string // first, last, timestamp
	TimestampMs               int64
	Broadcast                 bool
	Consumers                 int
	Quiet, Sleep              time.Duration
	Produce                   []msgSpec     // sent once the group holds every queue
	ProduceMode               string        // how: sync (default), transaction or transaction-resume (see startTxProducer)
	ProduceDelay              time.Duration // and this long after that
	Wait                      time.Duration
	MinReconsume              int    // RECONSUME_LATER until delivered this often; count only then
	AlwaysLater               bool   // RECONSUME_LATER to every delivery (MinReconsume still says which count)
	MaxReconsume              int    // the consumers' maxReconsumeTimes; 0 leaves Java's default (16)
	Namespace                 string // the consumers' (and Produce's producer's) client namespace
	PollNameServer            time.Duration
	Creds                     javaclient.Credentials // the consumers and the producer sign with these (ACL)
	Serialize                 string                 // the clients' rocketmq.serialize.type; "" is the default, JSON
}

// javaConsume runs the consume op.
func javaConsume(ctx context.Context, env *Env, r consumeReq) (*consumeResult, error) {
	if r.Wait == 0 {
		r.Wait = brokerConsumeWait
	}
	p := map[string]any{"op": "consume", "ns": env.Namesrv, "topic": r.Topic, "group": r.Group,
		"sub": r.Sub, "prefix": r.Prefix, "count": r.Count, "timeoutMs": r.Wait.Milliseconds(),
		"orderly": r.Orderly, "fromWhere": r.FromWhere, "timestampMs": r.TimestampMs,
		"consumers": r.Consumers, "quietMs": r.Quiet.Milliseconds(), "sleepMs": r.Sleep.Milliseconds(),
		"readyTimeoutMs": brokerReadyWait.Milliseconds(), "produceDelayMs": r.ProduceDelay.Milliseconds(),
		"minReconsume": r.MinReconsume, "pollNameServerMs": r.PollNameServer.Milliseconds()}
	if r.AlwaysLater {
		p["alwaysLater"] = true
	}
	if r.MaxReconsume > 0 {
		p["maxReconsume"] = r.MaxReconsume
	}
	if r.Namespace != "" {
		p["namespace"] = r.Namespace
	}
	r.Creds.AddTo(p)
	if r.Serialize != "" {
		p[javaclient.SerializeTypeParam] = r.Serialize
	}
	if r.Broadcast {
		p["model"] = "BROADCASTING"
	}
	if r.Sub == "" {
		delete(p, "sub")
	}
	if r.SQL != "" {
		p["sql"] = r.SQL
	}
	if r.Produce != nil {
		mode := r.ProduceMode
		if mode == "" {
			mode = "sync"
		}
		p["produce"] = map[string]any{"group": "CONF_BROKER_PG", "mode": mode, "messages": r.Produce}
	}
	var res consumeResult
	if err := env.Java.BrokerOp(ctx, p, &res, r.Wait+brokerReadyWait+brokerOpSlack); err != nil {
		return nil, err
	}
	return &res, nil
}

// checkDelivered checks that got holds exactly the specs' bodies (extra
// deliveries of the same body allowed only when dupOK) with their tags,
// keys and user properties intact.
func checkDelivered(ss []msgSpec, got []recvMsg, dupOK bool) error {
	want := map[string]msgSpec{}
	for _, s := range ss {
		want[s.Body] = s
	}
	seen := map[string]bool{}
	for _, m := range got {
		s, ok := want[m.Body]
		if !ok {
			return fmt.Errorf("unexpected message %q (tags %q)", m.Body, m.Tags)
		}
		if seen[m.Body] && !dupOK {
			return fmt.Errorf("message %q delivered twice", m.Body)
		}
		seen[m.Body] = true
		if err := sameContent(s, m); err != nil {
			return err
		}
	}
	if len(seen) != len(want) {
		return fmt.Errorf("received %d of %d messages; missing %s", len(seen), len(want), missing(want, seen))
	}
	return nil
}

func sameContent(s msgSpec, m recvMsg) error {
	if m.Tags != s.Tags {
		return fmt.Errorf("message %q: tags %q, want %q", m.Body, m.Tags, s.Tags)
	}
	if m.Keys != s.Keys {
		return fmt.Errorf("message %q: keys %q, want %q", m.Body, m.Keys, s.Keys)
	}
	want := s.Props
	if want == nil {
		want = map[string]string{}
	}
	if m.Props == nil {
		m.Props = map[string]string{}
	}
	if !maps.Equal(m.Props, want) {
		return fmt.Errorf("message %q: user properties %v, want %v", m.Body, m.Props, want)
	}
	return nil
}

func missing(want map[string]msgSpec, seen map[string]bool) string {
	var out []string
	for b := range want {
		if !seen[b] {
			out = append(out, b)
		}
	}
	sort.Strings(out)
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return strings.Join(out, ",")
}

// contentLines renders deliveries as sorted "body tags keys props" lines
// (one per distinct body), for observations.
func contentLines(got []recvMsg) string {
	seen := map[string]bool{}
	var lines []string
	for _, m := range got {
		if seen[m.Body] {
			continue
		}
		seen[m.Body] = true
		lines = append(lines, fmt.Sprintf("%s tags=%s keys=%s props=%s", m.Body, m.Tags, m.Keys, propsString(m.Props)))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func propsString(p map[string]string) string {
	keys := slices.Sorted(maps.Keys(p))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + p[k]
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// placementLines renders deliveries as sorted "body broker:queue@offset"
// lines, for observations where the placement is deterministic.
func placementLines(got []recvMsg) string {
	seen := map[string]bool{}
	var lines []string
	for _, m := range got {
		l := fmt.Sprintf("%s %s:%d@%d", m.Body, m.BrokerName, m.QueueID, m.QueueOffset)
		if !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// withPrefix keeps the deliveries whose body starts with prefix+"-".
func withPrefix(got []recvMsg, prefix string) []recvMsg {
	var out []recvMsg
	for _, m := range got {
		if strings.HasPrefix(m.Body, prefix+"-") {
			out = append(out, m)
		}
	}
	return out
}
