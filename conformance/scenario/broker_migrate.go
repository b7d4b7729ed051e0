package scenario

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The in-place migration: an operator stops a broker, starts the other
// implementation on the same broker.conf and store directory, and later
// goes back. Under the Java column that is Java → Sputnik → Java, under
// the Sputnik columns Sputnik → Java → Sputnik; the checks are the same.

func init() {
	Register(&Scenario{
		Name: "broker/migrate/in-place-and-back",
		Doc: "a broker stopped and replaced by the other implementation on the same config and store keeps every " +
			"topic (topics.json), committed offset (consumerOffset.json), stored message, index entry and pending " +
			"delayed message (delayOffset.json, SCHEDULE_TOPIC_XXXX); consumers resume without re-delivery, and the " +
			"same holds going back",
		Tags:    tags("quick", "javaclient", "mqadmin", "raw", "lifecycle", "migrate"),
		Timeout: 5 * time.Minute,
		Run:     brokerMigrate,
	}, &Scenario{
		Name: "broker/migrate/after-kill",
		Doc: "a broker killed with SIGKILL (abort file left, nothing flushed at shutdown) and replaced by the other " +
			"implementation on the same store recovers every acknowledged message (abnormal recovery of the other's " +
			"commit log and consume queues); a new group reads them all, and the same going back",
		Tags:    tags("javaclient", "lifecycle", "migrate"),
		Timeout: 4 * time.Minute,
		Run:     brokerMigrateAfterKill,
	}, &Scenario{
		Name: "broker/migrate/pending-transaction",
		Doc: "half messages left unknown on one implementation (their producer gone) are checked by the other after the " +
			"switch: it reads the half and op topics and the check progress the first one wrote, asks the group's new " +
			"producer, and delivers the committed ones once; a rolled-back one never comes",
		Tags:    tags("javaclient", "transaction", "lifecycle", "migrate"),
		Timeout: 4 * time.Minute,
		Run:     brokerMigratePendingTx,
	})
}

const (
	migrateTopic, migrateGroup           = "BrokerMigrate", "CONF_BROKER_MIGRATE_CG"
	migrateDelayTopic, migrateDelayGroup = "BrokerMigrateDelay", "CONF_BROKER_MIGRATE_DELAY_CG"
	migrateProducer                      = "CONF_BROKER_MIGRATE_PG"
	// migrateQueues is not the auto-created topic's 4, so a topic the new
	// broker re-created instead of reading topics.json would show.
	migrateQueues = 3
	// migrateDelayLevel is 10 s (messageDelayLevel "1s 5s 10s …"): due
	// while the first broker stops or just after the other one started.
	migrateDelayLevel = 3
)

// migrateState is what must read the same on both sides of a switch.
type migrateState struct {
	route   string // the topic's queue data
	offsets string // the group's committed offsets
	keys    map[string]string
}

func brokerMigrate(ctx context.Context, env *Env) error {
	addr := env.Brokers[0].Addr
	if err := createTopic(ctx, env, migrateTopic, migrateQueues, 6); err != nil {
		return err
	}
	if err := createTopic(ctx, env, migrateDelayTopic, 1, 6); err != nil {
		return err
	}
	for _, g := range []struct{ group, topic string }{{migrateGroup, migrateTopic}, {migrateDelayGroup, migrateDelayTopic}} {
		if err := seedOffsets(ctx, addr, g.group, g.topic); err != nil {
			return err
		}
	}
	// A delayed message delivered before the switch must not come again
	// after it: the delay offsets moved past it (delayOffset.json).
	e := []msgSpec{{Body: "mig-e-0", Tags: "MigE", Keys: "mig-e-0", DelayLevel: 1}}
	if err := migrateSend(ctx, env, migrateDelayTopic, e); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, migrateDelayTopic, migrateDelayGroup, "mig-e", e); err != nil {
		return fmt.Errorf("the delayed message before the switch: %w", err)
	}
	a := sharded(specs("mig-a", "MigA", 8))
	if err := migrateSend(ctx, env, migrateTopic, a); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, migrateTopic, migrateGroup, "mig-a", a); err != nil {
		return fmt.Errorf("before the switch: %w", err)
	}
	if _, err := awaitOffsets(ctx, addr, migrateGroup, migrateTopic, migrateQueues, int64(len(a))); err != nil {
		return fmt.Errorf("committed offsets before the switch: %w", err)
	}
	b := sharded(specs("mig-b", "MigB", 6))
	if err := migrateSend(ctx, env, migrateTopic, b); err != nil {
		return err
	}
	d := []msgSpec{{Body: "mig-d-0", Tags: "MigD", Keys: "mig-d-0 k-mig-d", DelayLevel: migrateDelayLevel}}
	if err := migrateSend(ctx, env, migrateDelayTopic, d); err != nil {
		return err
	}

	// Over to the other implementation: every message of A and B, read
	// from the other's files, and the delayed one it still holds (and
	// only that one).
	if err := migrateSwitch(ctx, env, map[string]int{"k-mig-a": len(a), "k-mig-b": len(b)}, "first switch"); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, migrateTopic, migrateGroup, "mig-b", b); err != nil {
		return fmt.Errorf("after the first switch: %w", err)
	}
	if err := consumeExactly(ctx, env, migrateDelayTopic, migrateDelayGroup, "mig", d); err != nil {
		return fmt.Errorf("the delayed message after the first switch: %w", err)
	}
	if _, err := awaitOffsets(ctx, addr, migrateGroup, migrateTopic, migrateQueues, int64(len(a)+len(b))); err != nil {
		return fmt.Errorf("committed offsets after the first switch: %w", err)
	}
	c := sharded(specs("mig-c", "MigC", 5))
	if err := migrateSend(ctx, env, migrateTopic, c); err != nil {
		return err
	}

	// And back: what the other implementation wrote reads here too.
	if err := migrateSwitch(ctx, env, map[string]int{"k-mig-a": len(a), "k-mig-c": len(c)}, "switch back"); err != nil {
		return err
	}
	if err := consumeExactly(ctx, env, migrateTopic, migrateGroup, "mig-c", c); err != nil {
		return fmt.Errorf("after switching back: %w", err)
	}
	// A new group from the first offset reads every record, whichever
	// implementation wrote it.
	all := slices.Concat(a, b, c)
	if err := consumeExactly(ctx, env, migrateTopic, migrateGroup+"_NEW", "mig", all); err != nil {
		return fmt.Errorf("a new group after switching back: %w", err)
	}
	return nil
}

func brokerMigrateAfterKill(ctx context.Context, env *Env) error {
	const topic = "BrokerMigrateKill"
	if err := createTopic(ctx, env, topic, migrateQueues, 6); err != nil {
		return err
	}
	var sent []msgSpec
	for i, prefix := range []string{"kill-a", "kill-b"} {
		ss := sharded(specs(prefix, "Kill", 7))
		if err := migrateSend(ctx, env, topic, ss); err != nil {
			return err
		}
		sent = append(sent, ss...)
		if err := replaceBroker(ctx, env, env.Nodes.KillBroker); err != nil {
			return fmt.Errorf("kill %d: %w", i+1, err)
		}
		if err := waitRoute(ctx, env, topic, 1); err != nil {
			return fmt.Errorf("kill %d: %w", i+1, err)
		}
		group := fmt.Sprintf("CONF_BROKER_MIGRATE_KILL_CG%d", i+1)
		if err := consumeExactly(ctx, env, topic, group, "kill", sent); err != nil {
			return fmt.Errorf("a new group after kill %d: %w", i+1, err)
		}
		env.Observe(fmt.Sprintf("after kill %d", i+1), fmt.Sprintf("%d messages", len(sent)))
	}
	return nil
}

// brokerMigratePendingTx relies, like brokerTxCheck, on the conformance
// brokers' transactionCheckInterval of 1 s and transactionTimeOut of 6 s:
// the switch comes well within the 15 checks (transactionCheckMax) a half
// message gets while no producer of its group is there to answer.
func brokerMigratePendingTx(ctx context.Context, env *Env) error {
	const topic = "BrokerMigrateTx"
	if err := createTopic(ctx, env, topic, migrateQueues, 6); err != nil {
		return err
	}
	before := []msgSpec{
		{Body: "mtx-commit-0", Tags: "TagTx"}, {Body: "mtx-rollback-0", Tags: "TagTx"},
		{Body: "mtx-unknown-0", Tags: "TagTx", Keys: "key-mtx0", Props: map[string]string{"idx": "0"}},
		{Body: "mtx-unknown-1", Tags: "TagTx", Keys: "key-mtx1", Props: map[string]string{"idx": "1"}},
	}
	// The group consumeReq's producer joins later (startTxProducer): the
	// check goes to a producer of the half message's group.
	sent, err := javaProduce(ctx, env, topic, "CONF_BROKER_PG", "transaction", before)
	if err != nil {
		return err
	}
	env.Observe("local states", strings.Join(txLocalStates(sent), " "))
	if err := replaceBroker(ctx, env, env.Nodes.StopBroker); err != nil {
		return err
	}
	if err := waitRoute(ctx, env, topic, 1); err != nil {
		return err
	}
	after := []msgSpec{{Body: "mtx-commit-1", Tags: "TagTx"}}
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_MIGRATE_TX_CG", Prefix: "mtx", Count: 4,
		Produce: after, ProduceMode: "transaction", Quiet: 3 * time.Second, Wait: 60 * time.Second})
	if err != nil {
		return err
	}
	// A message committed by a check carries how often it was checked
	// (TRANSACTION_CHECK_TIMES, which both implementations add; how often
	// depends on when the producer came back), then left out of the
	// comparison with what was sent.
	var checked []string
	for _, m := range res.Messages {
		if n, ok := m.Props["TRANSACTION_CHECK_TIMES"]; ok {
			if times, err := strconv.Atoi(n); err != nil || times < 1 {
				return fmt.Errorf("%s: TRANSACTION_CHECK_TIMES %q", m.Body, n)
			}
			checked = append(checked, m.Body)
			delete(m.Props, "TRANSACTION_CHECK_TIMES")
		}
	}
	slices.Sort(checked)
	env.Observe("committed by a check", strings.Join(checked, ", "))
	want := []msgSpec{before[0], before[2], before[3], after[0]}
	if err := checkDelivered(want, res.Messages, false); err != nil {
		return fmt.Errorf("after the switch: %w", err)
	}
	env.Observe("delivered after the switch", fmt.Sprintf("%d messages, each once", len(want)))
	return nil
}

func migrateSend(ctx context.Context, env *Env, topic string, ss []msgSpec) error {
	_, err := javaProduce(ctx, env, topic, migrateProducer, "sync", ss)
	return err
}

// migrateSwitch stops broker 0, starts the other implementation in its
// place and checks that the topic's route, the group's committed offsets
// and the messages found by each key (as many as keys says) read the same
// as before.
func migrateSwitch(ctx context.Context, env *Env, keys map[string]int, step string) error {
	before, err := awaitMigrateRead(ctx, env, keys)
	if err != nil {
		return fmt.Errorf("%s, before: %w", step, err)
	}
	if err := replaceBroker(ctx, env, env.Nodes.StopBroker); err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	after, err := awaitMigrateRead(ctx, env, keys)
	if err != nil {
		return fmt.Errorf("%s, after: %w", step, err)
	}
	if after.route != before.route {
		return fmt.Errorf("%s: the topic's route changed: before %s, after %s", step, before.route, after.route)
	}
	if after.offsets != before.offsets {
		return fmt.Errorf("%s: committed offsets changed: before %s, after %s", step, before.offsets, after.offsets)
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if after.keys[k] != before.keys[k] {
			return fmt.Errorf("%s: messages with key %s changed:\nbefore:\n%s\nafter:\n%s", step, k, before.keys[k], after.keys[k])
		}
	}
	env.Observe(step+" route", after.route)
	env.Observe(step+" offsets", after.offsets)
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		env.Observe(step+" key "+k, fmt.Sprintf("%d messages", keys[k]))
	}
	return nil
}

// replaceBroker ends broker 0 with end (StopBroker or KillBroker) and
// starts the other implementation in its place.
func replaceBroker(ctx context.Context, env *Env, end func(int) error) error {
	if err := end(0); err != nil {
		return fmt.Errorf("end broker: %w", err)
	}
	if err := env.Nodes.SwitchBroker(0); err != nil {
		return err
	}
	if err := env.Nodes.StartBroker(ctx, 0); err != nil {
		return fmt.Errorf("start the other broker: %w", err)
	}
	return nil
}

// awaitMigrateRead is migrateRead, polled until it succeeds (the index
// and the route catch up; mqadmin reads through the name server).
func awaitMigrateRead(ctx context.Context, env *Env, keys map[string]int) (*migrateState, error) {
	var st *migrateState
	err := Eventually(ctx, routeVisibleTimeout, 500*time.Millisecond, func() error {
		var err error
		st, err = migrateRead(ctx, env, keys)
		return err
	})
	return st, err
}

// migrateRead reads the topic's route, the group's committed offsets and,
// through the real mqadmin queryMsgByKey (the index), the messages of
// each key: "msgId queueId queueOffset" lines, sorted, as many as keys
// says.
func migrateRead(ctx context.Context, env *Env, keys map[string]int) (*migrateState, error) {
	rd, err := rawRoute(ctx, env, migrateTopic, javaVersion409)
	if err != nil {
		return nil, fmt.Errorf("route: %w", err)
	}
	if len(rd.QueueDatas) != 1 {
		return nil, fmt.Errorf("route of %s: %d queue datas, want 1", migrateTopic, len(rd.QueueDatas))
	}
	q := rd.QueueDatas[0]
	st := &migrateState{
		route: fmt.Sprintf("read %d write %d perm %d sysflag %d", q.ReadQueueNums, q.WriteQueueNums, q.Perm, q.TopicSysFlag),
		keys:  map[string]string{},
	}
	if st.offsets, _, err = queryOffsets(ctx, env.Brokers[0].Addr, migrateGroup, migrateTopic, migrateQueues); err != nil {
		return nil, err
	}
	for k, want := range keys {
		lines, err := queryMsgByKey(ctx, env, migrateTopic, k, want)
		if err != nil {
			return nil, err
		}
		st.keys[k] = strings.Join(lines, "")
	}
	return st, nil
}

// queryMsgByKey runs the real mqadmin queryMsgByKey and returns the
// messages it lists ("msgId queueId queueOffset" lines, sorted), which
// must be want.
func queryMsgByKey(ctx context.Context, env *Env, topic, key string, want int) ([]string, error) {
	out, err := mqadminOK(ctx, env, "queryMsgByKey", "-n", env.Namesrv, "-t", topic, "-k", key)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 3 && !strings.HasPrefix(f[0], "#") {
			lines = append(lines, strings.Join(f, " ")+"\n")
		}
	}
	if len(lines) != want {
		return nil, fmt.Errorf("queryMsgByKey %s found %d messages, want %d:\n%s", key, len(lines), want, out)
	}
	slices.Sort(lines)
	return lines, nil
}
