package scenario

// SQL92 message selectors (MessageSelector.bySql) against the broker under
// test, with enablePropertyFilter=true: a push consumer's filter comes
// from its heartbeat (ConsumerFilterManager.register) and a lite pull
// consumer carries its expression in every pull; either way the broker
// evaluates it on each message's properties and delivers only the
// messages it selects. CHECK_CLIENT_CONFIG compiles the expression
// (checked first in sql92-push).
// Java 4.9.8 mirror: PullMessageProcessor (SQL92 branch),
// ExpressionMessageFilter.isMatchedByCommitLog, ConsumerFilterManager,
// ClientManageProcessor.checkClientConfig, the filter module's
// SelectorParser.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

func init() {
	Register(
		&Scenario{
			Name:    "broker/filter/sql92-push",
			Doc:     "CHECK_CLIENT_CONFIG (raw) accepts a valid SQL92 selector and answers SUBSCRIPTION_PARSE_FAILED for invalid ones; a Java push consumer subscribed with MessageSelector.bySql gets exactly the messages whose user properties the expression selects (BETWEEN, IS NOT NULL, a non-ASCII string, a missing property)",
			Tags:    tags("quick", "javaclient", "raw"),
			Timeout: brokerScenarioLimit,
			Run:     brokerSQLPush,
		},
		&Scenario{
			Name:    "broker/filter/sql92-lite-pull",
			Doc:     "a Java lite pull consumer carrying a bySql selector in each pull gets exactly the selected messages",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerSQLLitePull,
		},
	)
}

// sqlSelect is the selector of these scenarios over specs(prefix, …, 10),
// and the indexes it selects.
func sqlSelect(prefix string) (string, []int) {
	return fmt.Sprintf("(idx BETWEEN 3 AND 6 AND prefix IS NOT NULL) OR text = 'grüße ✓ %s-8' OR missing > 1", prefix),
		[]int{3, 4, 5, 6, 8}
}

func selected(ss []msgSpec, idx []int) []msgSpec {
	var out []msgSpec
	for _, i := range idx {
		out = append(out, ss[i])
	}
	return out
}

func brokerSQLPush(ctx context.Context, env *Env) error {
	if err := brokerSQLCheck(ctx, env); err != nil {
		return err
	}
	const topic = "BrokerSQLPush"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	prefix := runPrefix("sql")
	ss := specs(prefix, "SqlTag", 10)
	expr, idx := sqlSelect(prefix)
	want := selected(ss, idx)
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_SQL_CG", SQL: expr,
		Prefix: prefix, Count: len(want), Produce: ss, Quiet: 2 * brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("push consumer: %d deliveries, not all %d selected messages", len(res.Messages), len(want))
	}
	if err := checkDelivered(want, res.Messages, false); err != nil {
		return fmt.Errorf("push consumer with %q: %w", expr, err)
	}
	return nil
}

func brokerSQLLitePull(ctx context.Context, env *Env) error {
	const topic = "BrokerSQLLite"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	prefix := runPrefix("sqllite")
	ss := specs(prefix, "SqlTag", 10)
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_SQL_PG", "sync", ss); err != nil {
		return err
	}
	expr, idx := sqlSelect(prefix)
	want := selected(ss, idx)
	var res struct {
		Complete bool      `json:"complete"`
		Messages []recvMsg `json:"messages"`
	}
	err := env.Java.BrokerOp(ctx, map[string]any{"op": "litePull", "ns": env.Namesrv, "topic": topic,
		"group": "CONF_BROKER_SQL_LITE_CG", "sql": expr, "prefix": prefix, "count": len(want),
		"timeoutMs": brokerConsumeWait.Milliseconds()}, &res, brokerConsumeWait+brokerOpSlack)
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("lite pull consumer: %d deliveries, not all %d selected messages", len(res.Messages), len(want))
	}
	if err := checkDelivered(want, res.Messages, false); err != nil {
		return fmt.Errorf("lite pull consumer with %q: %w", expr, err)
	}
	return nil
}

// checkClientConfig sends CHECK_CLIENT_CONFIG for an SQL92 subscription.
func checkClientConfig(ctx context.Context, addr, expr string) (int32, error) {
	body, err := json.Marshal(map[string]any{"clientId": "127.0.0.1@conf", "group": "CONF_BROKER_SQL_CHECK",
		"subscriptionData": map[string]any{"topic": "BrokerSQLCheck", "subString": expr, "expressionType": "SQL92",
			"classFilterMode": false, "tagsSet": []string{}, "codeSet": []int{}, "subVersion": 1}})
	if err != nil {
		return 0, err
	}
	req := rawclient.Request(int32(protocol.ReqCheckClientConfig))
	req.Body = body
	resp, err := rawclient.Call(ctx, addr, req, defaultRawTimeout)
	if err != nil {
		return 0, err
	}
	return resp.Code, nil
}

func brokerSQLCheck(ctx context.Context, env *Env) error {
	for _, c := range []struct {
		expr string
		code int32
	}{
		{"a > 1 AND b = 'x'", respSuccess},
		{"a >", int32(protocol.RespSubscriptionParseFailed)},
		{"a = 'unterminated", int32(protocol.RespSubscriptionParseFailed)},
	} {
		got, err := checkClientConfig(ctx, env.Brokers[0].Addr, c.expr)
		if err != nil {
			return err
		}
		if got != c.code {
			return fmt.Errorf("CHECK_CLIENT_CONFIG %q: code %d, want %d", c.expr, got, c.code)
		}
	}
	return nil
}
