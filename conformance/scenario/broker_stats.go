package scenario

// The broker's statistics of a delayed message. Java 4.9.8 mirror:
// CommitLog.asyncPutMessage moves a delayed message to SCHEDULE_TOPIC_XXXX
// before SendMessageProcessor counts the put under the message's (now
// changed) topic; ScheduleMessageService counts the delivery as a put to
// the real topic and a get of SCHEDULE_CONSUMER
// (enableScheduleMessageStats, on by default). VIEW_BROKER_STATS_DATA
// tells whether an item exists.

import (
	"context"
	"fmt"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

const (
	codeViewBrokerStatsData = int32(protocol.ReqViewBrokerStatsData)
	respSystemError         = int32(protocol.RespSystemError)
	scheduleTopic           = "SCHEDULE_TOPIC_XXXX"
	scheduleStatsGroupKey   = scheduleTopic + "@SCHEDULE_CONSUMER"
	delayedStatsLevel       = 3 // 10 s: the checks before delivery have time
	delayedStatsWait        = 40 * time.Second
)

func init() {
	Register(&Scenario{
		Name: "broker/stats/delayed-send",
		Doc: "a Java producer's message with delay level 3 counts under SCHEDULE_TOPIC_XXXX at send (its topic has no " +
			"TOPIC_PUT_NUMS item yet); once it is due its topic's item and SCHEDULE_TOPIC_XXXX@SCHEDULE_CONSUMER's GROUP_GET_NUMS exist",
		Tags:    tags("javaclient", "raw"),
		Timeout: brokerScenarioLimit,
		Run:     brokerDelayedSendStats,
	})
}

func brokerDelayedSendStats(ctx context.Context, env *Env) error {
	topic := "BrokerStatsDelayed"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_PG_stats", "sync",
		[]msgSpec{{Body: "later", Tags: "T", DelayLevel: delayedStatsLevel}}); err != nil {
		return err
	}
	addr := env.Brokers[0].Addr
	for _, c := range []struct {
		name, key string
		exists    bool
	}{
		{"TOPIC_PUT_NUMS", topic, false},
		{"TOPIC_PUT_NUMS", scheduleTopic, true},
	} {
		if err := statsItemExists(ctx, env, addr, c.name, c.key, c.exists); err != nil {
			return fmt.Errorf("right after the send: %w", err)
		}
	}
	deadline := time.Now().Add(delayedStatsWait)
	for statsItemExists(ctx, env, addr, "TOPIC_PUT_NUMS", topic, true) != nil {
		if time.Now().After(deadline) {
			return fmt.Errorf("TOPIC_PUT_NUMS %s: no item %s after the send, the message is due after 10 s", topic, delayedStatsWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return statsItemExists(ctx, env, addr, "GROUP_GET_NUMS", scheduleStatsGroupKey, true)
}

// statsItemExists asks VIEW_BROKER_STATS_DATA for one item and requires it
// to exist or not ("The stats <NAME> <KEY> not exist").
func statsItemExists(ctx context.Context, env *Env, addr, name, key string, exists bool) error {
	resp, err := rawclient.Call(ctx, addr, rawclient.Request(codeViewBrokerStatsData, "statsName", name, "statsKey", key), defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("VIEW_BROKER_STATS_DATA %s %s: %w", name, key, err)
	}
	if !exists {
		return expectCode("VIEW_BROKER_STATS_DATA "+name+" "+key, resp, respSystemError, fmt.Sprintf("The stats <%s> <%s> not exist", name, key))
	}
	return expectCode("VIEW_BROKER_STATS_DATA "+name+" "+key, resp, respSuccess, "*")
}
