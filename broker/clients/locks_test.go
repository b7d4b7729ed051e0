package clients

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/compat/oracle"
)

func mq(topic string, q int32) body.MessageQueue {
	return body.MessageQueue{Topic: topic, BrokerName: "b", QueueID: q}
}

// Java 4.9.8: RebalanceLockManager.tryLockBatch/unlockBatch, LockEntry.isExpired.
func TestRebalanceLockSteps(t *testing.T) {
	clk := newClock()
	m := NewRebalanceLockManager(clk.now, quietLog(), 0)
	q0, q1, q2 := mq("T", 0), mq("T", 1), mq("T", 2)
	steps := []struct {
		name    string
		advance time.Duration
		op      string // lock | unlock
		client  string
		mqs     []body.MessageQueue
		want    []body.MessageQueue // lock result as a set
	}{
		{"A takes free queues", 0, "lock", "A", []body.MessageQueue{q0, q1}, []body.MessageQueue{q0, q1}},
		{"B refused while A's lock lives", 30 * time.Second, "lock", "B", []body.MessageQueue{q0, q1, q2}, []body.MessageQueue{q2}},
		{"A renews q0 only", 20 * time.Second, "lock", "A", []body.MessageQueue{q0}, []body.MessageQueue{q0}},
		// q1 last renewed 50 s ago: exactly 60 s is still live (strictly greater expires).
		{"B at exactly 60 s", 10 * time.Second, "lock", "B", []body.MessageQueue{q1}, nil},
		{"B after 60 s takes q1", time.Millisecond, "lock", "B", []body.MessageQueue{q1}, []body.MessageQueue{q1}},
		{"A lost q1", 0, "lock", "A", []body.MessageQueue{q0, q1}, []body.MessageQueue{q0}},
		{"B cannot unlock A's q0 (but frees its own q1)", 0, "unlock", "B", []body.MessageQueue{q0, q1}, nil},
		{"q1 is free again", 0, "lock", "A", []body.MessageQueue{q1}, []body.MessageQueue{q1}},
		{"q0 still A's", 0, "lock", "B", []body.MessageQueue{q0}, nil},
		{"A unlocks q0", 0, "unlock", "A", []body.MessageQueue{q0}, nil},
		{"B gets q0", 0, "lock", "B", []body.MessageQueue{q0}, []body.MessageQueue{q0}},
		{"other group is independent", 0, "lock", "C", []body.MessageQueue{q0}, []body.MessageQueue{q0}},
	}
	for _, s := range steps {
		clk.advance(s.advance)
		group := "G"
		if s.client == "C" {
			group = "G2"
		}
		switch s.op {
		case "lock":
			got := m.TryLockBatch(group, s.mqs, s.client)
			require.ElementsMatch(t, s.want, got, s.name)
		case "unlock":
			m.UnlockBatch(group, s.mqs, s.client)
		}
	}
	holder, live := m.Holder("G", q0)
	require.Equal(t, "B", holder)
	require.True(t, live)
	require.True(t, m.TryLock("G", q2, "B"), "B's own q2 (expired or not) comes back to it")
}

// TestRebalanceLockJavaOrder runs one script through Java's
// RebalanceLockManager and ours: the lockOKMQSet bodies (which queues, and
// the HashSet order fastjson writes them in) must be equal byte for byte.
func TestRebalanceLockJavaOrder(t *testing.T) {
	var script strings.Builder
	list := func(mqs []body.MessageQueue) string {
		var parts []string
		for _, q := range mqs {
			parts = append(parts, fmt.Sprintf("%s:%s:%d", q.Topic, q.BrokerName, q.QueueID))
		}
		return strings.Join(parts, ",")
	}
	var many []body.MessageQueue
	for i := range 40 {
		many = append(many, body.MessageQueue{Topic: fmt.Sprintf("Topic%d", i%5), BrokerName: "broker-" + string(rune('a'+i%3)), QueueID: int32(i)})
	}
	type op struct {
		lock   bool
		group  string
		client string
		mqs    []body.MessageQueue
	}
	ops := []op{
		{true, "G", "A", many[:13]},
		{true, "G", "B", many[:30]},
		{true, "G", "A", many},
		{false, "G", "B", many[10:25]},
		{true, "G", "A", many[5:40]},
		{true, "H", "A", many[:1]},
		{true, "G", "C", many[:3]},
	}
	clk := newClock()
	m := NewRebalanceLockManager(clk.now, quietLog(), 0)
	var want []string
	for _, o := range ops {
		verb := "unlock"
		if o.lock {
			verb = "lock"
		}
		fmt.Fprintf(&script, "%s %s %s %s\n", verb, o.group, o.client, list(o.mqs))
		// The request's mqSet as fastjson fills it: a HashSet in list order.
		set := body.NewMQSet(-1)
		for _, q := range o.mqs {
			set.Add(q)
		}
		if o.lock {
			res := body.LockBatchResponse{LockOKMQSet: m.TryLockBatch(o.group, set.Keys(), o.client)}
			want = append(want, string(res.Encode()))
		} else {
			m.UnlockBatch(o.group, set.Keys(), o.client)
			want = append(want, "ok")
		}
	}
	got := oracle.Run(t, script.String(), nil, "BodyGolden", "lock")
	require.Equal(t, strings.Join(want, "\n")+"\n", got)
}
