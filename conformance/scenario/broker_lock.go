package scenario

// Queue locks of orderly consumption seen raw (issue #6, item 5):
// LOCK_BATCH_MQ (41) grants a client only the queues no other client of
// the group holds, UNLOCK_BATCH_MQ (42) releases them. Java 4.9.8 mirror:
// AdminBrokerProcessor.lockBatchMQ / unlockBatchMQ, RebalanceLockManager
// (locks expire after 60 s, far beyond this scenario).

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

const (
	codeLockBatchMQ   = int32(protocol.ReqLockBatchMq)
	codeUnlockBatchMQ = int32(protocol.ReqUnlockBatchMq)
)

func init() {
	Register(&Scenario{
		Name:    "broker/orderly/raw-lock",
		Doc:     "raw LOCK_BATCH_MQ / UNLOCK_BATCH_MQ from two client ids of one group: each gets only the queues the other does not hold; unlocked queues go to the other",
		Tags:    tags("quick", "raw", "javaclient"),
		Timeout: brokerScenarioLimit,
		Run:     brokerRawLock,
	})
}

type lockMQ struct {
	BrokerName string `json:"brokerName"`
	QueueID    int    `json:"queueId"`
	Topic      string `json:"topic"`
}

// lockBody is LockBatchRequestBody / UnlockBatchRequestBody.
type lockBody struct {
	ClientID      string   `json:"clientId"`
	ConsumerGroup string   `json:"consumerGroup"`
	MQSet         []lockMQ `json:"mqSet"`
}

func lockQueues(topic, broker string, ids ...int) []lockMQ {
	out := make([]lockMQ, len(ids))
	for i, id := range ids {
		out[i] = lockMQ{BrokerName: broker, QueueID: id, Topic: topic}
	}
	return out
}

// rawLock sends LOCK_BATCH_MQ and returns the granted queue ids, sorted.
func rawLock(ctx context.Context, addr string, body lockBody) ([]int, error) {
	req := rawclient.Request(codeLockBatchMQ)
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req.Body = b
	resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
	if err != nil {
		return nil, fmt.Errorf("LOCK_BATCH_MQ: %w", err)
	}
	if err := expectCode("LOCK_BATCH_MQ", resp, respSuccess, "*"); err != nil {
		return nil, err
	}
	var r struct {
		LockOKMQSet []lockMQ `json:"lockOKMQSet"`
	}
	if err := rawclient.UnmarshalFastJSON(resp.Body, &r); err != nil {
		return nil, fmt.Errorf("LOCK_BATCH_MQ body %q: %w", resp.Body, err)
	}
	ids := make([]int, 0, len(r.LockOKMQSet))
	for _, q := range r.LockOKMQSet {
		ids = append(ids, q.QueueID)
	}
	sort.Ints(ids)
	return ids, nil
}

func rawUnlock(ctx context.Context, addr string, body lockBody) error {
	req := rawclient.Request(codeUnlockBatchMQ)
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req.Body = b
	resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("UNLOCK_BATCH_MQ: %w", err)
	}
	return expectCode("UNLOCK_BATCH_MQ", resp, respSuccess, "*")
}

func brokerRawLock(ctx context.Context, env *Env) error {
	const topic, group = "BrokerRawLock", "CONF_BROKER_RAWLOCK_CG"
	if err := createTopic(ctx, env, topic, 8, 6); err != nil {
		return err
	}
	b := env.Brokers[0]
	a := func(ids ...int) lockBody { return lockBody{"client-A", group, lockQueues(topic, b.Name, ids...)} }
	bb := func(ids ...int) lockBody { return lockBody{"client-B", group, lockQueues(topic, b.Name, ids...)} }
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	steps := []struct {
		what string
		body lockBody
		want string
	}{
		{"A locks 0-3", a(0, 1, 2, 3), "[0 1 2 3]"},
		{"B locks 0-7", bb(all...), "[4 5 6 7]"},
		{"A locks 0-7 again", a(all...), "[0 1 2 3]"},
		{"B in another group locks 0-7", lockBody{"client-B", group + "_OTHER", lockQueues(topic, b.Name, all...)}, "[0 1 2 3 4 5 6 7]"},
	}
	var log []string
	for _, s := range steps {
		got, err := rawLock(ctx, b.Addr, s.body)
		if err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
		if fmt.Sprint(got) != s.want {
			return fmt.Errorf("%s: granted %v, want %s", s.what, got, s.want)
		}
		log = append(log, fmt.Sprintf("%s: %v", s.what, got))
	}
	if err := rawUnlock(ctx, b.Addr, a(0, 1)); err != nil {
		return err
	}
	got, err := rawLock(ctx, b.Addr, bb(0, 1, 2, 3))
	if err != nil {
		return err
	}
	if fmt.Sprint(got) != "[0 1]" {
		return fmt.Errorf("B locks 0-3 after A unlocked 0-1: granted %v, want [0 1]", got)
	}
	log = append(log, fmt.Sprintf("B locks 0-3 after A unlocked 0-1: %v", got))
	env.Observe("locks", strings.Join(log, "\n"))
	return nil
}
