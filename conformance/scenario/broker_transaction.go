package scenario

// Transactional messages (Java TransactionMQProducer): the half message
// waits in RMQ_SYS_TRANS_HALF_TOPIC until END_TRANSACTION commits it to
// its topic or rolls it back. Java 4.9.8 mirror: SendMessageProcessor's
// half path, EndTransactionProcessor.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

func init() {
	Register(&Scenario{
		Name: "broker/transaction/check",
		Doc: "a Java transactional producer leaves 3 messages unknown, commits 1 and rolls 1 back: the broker's transaction " +
			"check (every second here) asks the producer, which commits them; the consumer gets the 4 committed",
		Tags:    tags("javaclient", "transaction"),
		Timeout: brokerScenarioLimit,
		Run:     brokerTxCheck,
	})
	Register(&Scenario{
		Name: "broker/transaction/resumeCheck",
		Doc: "mqadmin's resumeCheckHalfMessage (RESUME_CHECK_HALF_MESSAGE) on 2 unknown half messages writes each again " +
			"with TRANSACTION_CHECK_TIMES 0: the check asks the producer about both copies, which it commits, so each " +
			"is delivered twice; a committed message once",
		Tags:    tags("javaclient", "transaction"),
		Timeout: brokerScenarioLimit,
		Run:     brokerTxResume,
	})
	Register(&Scenario{
		Name: "broker/transaction/commitRollback",
		Doc: "a Java transactional producer commits 4 messages and rolls 4 back in its local transaction: " +
			"a push consumer gets exactly the committed ones, with the properties Java's broker stores",
		Tags:    tags("javaclient", "transaction"),
		Timeout: brokerScenarioLimit,
		Run:     brokerTxCommitRollback,
	})
}

func brokerTxCommitRollback(ctx context.Context, env *Env) error {
	const topic = "BrokerTxCommitRollback"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	var ss []msgSpec
	for i := range 4 {
		ss = append(ss, msgSpec{Body: fmt.Sprintf("tx-commit-%d", i), Tags: "TagTx", Keys: fmt.Sprintf("key-c%d", i),
			Props: map[string]string{"idx": fmt.Sprint(i)}})
		ss = append(ss, msgSpec{Body: fmt.Sprintf("tx-rollback-%d", i), Tags: "TagTx", Keys: fmt.Sprintf("key-r%d", i)})
	}
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_TX_CG", Prefix: "tx-commit", Count: 4,
		Produce: ss, ProduceMode: "transaction", Quiet: 3 * time.Second})
	if err != nil {
		return err
	}
	for _, s := range res.Sent {
		if s.Status != "SEND_OK" {
			return fmt.Errorf("half message %s: status %s", s.Body, s.Status)
		}
	}
	env.Observe("local states", strings.Join(txLocalStates(res.Sent), " "))
	if !res.Complete {
		return fmt.Errorf("the consumer got %d messages, not the 4 committed", len(res.Messages))
	}
	var bodies []string
	keys := map[string]bool{}
	for _, m := range res.Messages {
		if strings.Contains(m.Body, "rollback") {
			return fmt.Errorf("rolled-back message %s was delivered", m.Body)
		}
		bodies = append(bodies, fmt.Sprintf("%s tags=%s keys=%s props=%v", m.Body, m.Tags, m.Keys, m.Props))
		for _, k := range m.PropKeys {
			keys[k] = true
		}
	}
	sort.Strings(bodies)
	env.Observe("delivered", strings.Join(bodies, "\n"))
	env.Observe("property names", strings.Join(slices.Sorted(maps.Keys(keys)), " "))
	return nil
}

// brokerTxCheck relies on the conformance brokers' transactionCheckInterval
// of 1 s (conformance/cluster): an unknown half message is checked once
// it is older than transactionTimeOut (6 s).
func brokerTxCheck(ctx context.Context, env *Env) error {
	const topic = "BrokerTxCheck"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := []msgSpec{{Body: "txc-commit-0", Tags: "TagTx"}, {Body: "txc-rollback-0", Tags: "TagTx"}}
	for i := range 3 {
		ss = append(ss, msgSpec{Body: fmt.Sprintf("txc-unknown-%d", i), Tags: "TagTx", Keys: fmt.Sprintf("key-u%d", i),
			Props: map[string]string{"idx": fmt.Sprint(i)}})
	}
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_TXCHECK_CG", Prefix: "txc", Count: 4,
		Produce: ss, ProduceMode: "transaction", Quiet: 3 * time.Second, Wait: 45 * time.Second})
	if err != nil {
		return err
	}
	env.Observe("local states", strings.Join(txLocalStates(res.Sent), " "))
	if !res.Complete {
		return fmt.Errorf("the consumer got %d messages, not the 4 committed", len(res.Messages))
	}
	seen := map[string]int{}
	var bodies []string
	for _, m := range res.Messages {
		if strings.Contains(m.Body, "rollback") {
			return fmt.Errorf("rolled-back message %s was delivered", m.Body)
		}
		seen[m.Body]++
		if seen[m.Body] == 1 {
			bodies = append(bodies, fmt.Sprintf("%s tags=%s keys=%s props=%v", m.Body, m.Tags, m.Keys, m.Props))
		}
	}
	for b, n := range seen {
		if n > 1 {
			return fmt.Errorf("%s delivered %d times", b, n)
		}
	}
	sort.Strings(bodies)
	env.Observe("delivered", strings.Join(bodies, "\n"))
	return nil
}

// txLocalStates lists each transactional send as "body=local state", with
// " resumed=…" when the half message was resumed, sorted.
func txLocalStates(sent []sentMsg) []string {
	states := make([]string, 0, len(sent))
	for _, s := range sent {
		st := s.Body + "=" + s.LocalState
		if s.Resumed != nil {
			st += fmt.Sprintf(" resumed=%v", *s.Resumed)
		}
		states = append(states, st)
	}
	sort.Strings(states)
	return states
}

func brokerTxResume(ctx context.Context, env *Env) error {
	const topic = "BrokerTxResume"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := []msgSpec{{Body: "txr-commit-0", Tags: "TagTx"}}
	for i := range 2 {
		ss = append(ss, msgSpec{Body: fmt.Sprintf("txr-unknown-%d", i), Tags: "TagTx", Keys: fmt.Sprintf("key-r%d", i)})
	}
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_TXRESUME_CG", Prefix: "txr", Count: 3,
		Produce: ss, ProduceMode: "transaction-resume", Quiet: 5 * time.Second, Wait: 45 * time.Second})
	if err != nil {
		return err
	}
	env.Observe("local states", strings.Join(txLocalStates(res.Sent), "\n"))
	if !res.Complete {
		return fmt.Errorf("the consumer got %d messages, not the 3 committed", len(res.Messages))
	}
	seen := map[string]int{}
	for _, m := range res.Messages {
		seen[m.Body]++
	}
	var counts []string
	for b, n := range seen {
		counts = append(counts, fmt.Sprintf("%s x%d", b, n))
	}
	sort.Strings(counts)
	env.Observe("deliveries", strings.Join(counts, "\n"))
	if seen["txr-unknown-0"] != 2 || seen["txr-unknown-1"] != 2 || seen["txr-commit-0"] != 1 {
		return fmt.Errorf("deliveries %v, want each unknown message twice and the committed one once", counts)
	}
	return nil
}

func init() {
	Register(&Scenario{
		Name: "broker/reply/requestReply",
		Doc: "Java request/reply: DefaultMQProducer.request gets the reply a consumer sends with MessageUtil.createReplyMessage " +
			"(SEND_REPLY_MESSAGE_V2, pushed back as PUSH_REPLY_MESSAGE_TO_CLIENT)",
		Tags:    tags("javaclient"),
		Timeout: brokerScenarioLimit,
		Run:     brokerRequestReply,
	})
}

func brokerRequestReply(ctx context.Context, env *Env) error {
	const topic = "BrokerRequestReply"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	var res struct {
		Replies []struct {
			Request  string   `json:"request"`
			Reply    string   `json:"reply"`
			PropKeys []string `json:"propKeys"`
		} `json:"replies"`
		Errors []string `json:"errors"`
	}
	err := env.Java.BrokerOp(ctx, map[string]any{"op": "requestReply", "ns": env.Namesrv, "topic": topic,
		"group": "CONF_BROKER_REPLY", "count": 4, "timeoutMs": 15000}, &res, brokerConsumeWait+brokerOpSlack+time.Minute)
	if err != nil {
		return err
	}
	if len(res.Errors) > 0 {
		return fmt.Errorf("requests failed: %s", strings.Join(res.Errors, "; "))
	}
	var lines []string
	for _, r := range res.Replies {
		if r.Reply != "reply to "+r.Request {
			return fmt.Errorf("request %s got reply %q", r.Request, r.Reply)
		}
		lines = append(lines, r.Request+" -> "+r.Reply+" "+strings.Join(r.PropKeys, ","))
	}
	if len(lines) != 4 {
		return fmt.Errorf("%d replies, want 4", len(lines))
	}
	env.Observe("replies", strings.Join(lines, "\n"))
	return nil
}
