package scenario

// Message trace (issue #6: "trace topic when enabled"; the Java client's
// enableMsgTrace): a traced producer and consumer send their trace data to
// RMQ_SYS_TRACE_TOPIC, which the broker creates from TBW102 on the first
// trace send, and the real mqadmin queryMsgTraceById finds a message's
// trace there by its id (QUERY_MESSAGE on the trace topic's index).

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

func init() {
	Register(&Scenario{
		Name: "broker/trace/query-by-id",
		Doc: "a Java producer and push consumer with enableMsgTrace send and consume messages; the real mqadmin " +
			"queryMsgTraceById finds each one's Pub and Sub (SubAfter) records in RMQ_SYS_TRACE_TOPIC (auto-created from TBW102) " +
			"with the groups and statuses Java's broker gives",
		Tags:    tags("javaclient", "mqadmin"),
		Timeout: brokerScenarioLimit,
		Run:     brokerTraceQuery,
	})
}

type tracedSent struct {
	Body   string `json:"body"`
	MsgID  string `json:"msgId"`
	Status string `json:"status"`
}

type tracedResult struct {
	Sent     []tracedSent `json:"sent"`
	Received []string     `json:"received"`
}

func brokerTraceQuery(ctx context.Context, env *Env) error {
	const topic, group, n = "BrokerTraced", "CONF_BROKER_TRACE", 2
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	var res tracedResult
	err := env.Java.BrokerOp(ctx, map[string]any{"op": "traced", "ns": env.Namesrv, "topic": topic, "group": group,
		"count": n, "timeoutMs": brokerConsumeWait.Milliseconds(), "settleMs": 3000}, &res, brokerOpSlack)
	if err != nil {
		return err
	}
	if len(res.Sent) != n || len(res.Received) != n {
		return fmt.Errorf("traced op: sent %v, received %v", res.Sent, res.Received)
	}
	for _, s := range res.Sent {
		if s.Status != "SEND_OK" {
			return fmt.Errorf("traced send of %s: %s", s.Body, s.Status)
		}
		var trace string
		err := Eventually(ctx, 30*time.Second, 500*time.Millisecond, func() error {
			out, err := mqadminOK(ctx, env, "queryMsgTraceById", "-n", env.Namesrv, "-i", s.MsgID)
			if err != nil {
				return err
			}
			trace = traceRecords(out)
			if !strings.Contains(trace, "Pub ") || !strings.Contains(trace, "Sub ") {
				return fmt.Errorf("trace of %s so far: %q", s.Body, trace)
			}
			return nil
		})
		if err != nil {
			return err
		}
		env.Observe("trace of "+s.Body, trace)
	}
	return observeQueueData(ctx, env, "trace topic route", traceTopic)
}

// traceTopic is the Java client's default trace topic (TopicValidator.RMQ_SYS_TRACE_TOPIC).
const traceTopic = "RMQ_SYS_TRACE_TOPIC"

// traceRecords keeps the records of queryMsgTraceById's output (Pub, and
// Sub for each consumer group's SubAfter) as sorted "type group status"
// lines: the client host, time and cost differ from run to run.
func traceRecords(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || (f[0] != "Pub" && f[0] != "Sub") {
			continue
		}
		lines = append(lines, f[0]+" "+f[1]+" "+f[len(f)-1])
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
