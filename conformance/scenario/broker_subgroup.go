package scenario

// What a subscription group's settings do (issue #6: subscription groups,
// consumeEnable, broadcast flags, retry queue numbers), set with the real
// mqadmin updateSubGroup and observed through raw heartbeats and pulls:
// Java's PullMessageProcessor refuses a group with consumeEnable=false, and
// a broadcasting group whose consumeBroadcastEnable is false when the pull
// carries no subscription; the heartbeat creates the retry topic with the
// group's retryQueueNums; a send-back without maxReconsumeTimes takes the
// group's retryMaxTimes.

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

func init() {
	Register(&Scenario{
		Name: "broker/admin/subscription-group-effects",
		Doc: "mqadmin updateSubGroup's settings take effect as on Java: consumeEnable=false refuses pulls, " +
			"consumeBroadcastEnable=false refuses a broadcasting group's pulls without a subscription, retryQueueNums sizes " +
			"the retry topic a heartbeat creates, retryMaxTimes 0 sends a message sent back without maxReconsumeTimes to the " +
			"dead-letter queue",
		Tags:    tags("mqadmin", "raw"),
		Timeout: brokerScenarioLimit,
		Run:     brokerSubGroupEffects,
	})
}

func brokerSubGroupEffects(ctx context.Context, env *Env) error {
	const topic = "BrokerSubGroups"
	const off, noBroadcast, retry, noRetry = "CONF_SG_OFF", "CONF_SG_NOBC", "CONF_SG_RETRY", "CONF_SG_NORETRY"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	addr := env.Brokers[0].Addr
	for _, args := range [][]string{{"-g", off, "-s", "false"}, {"-g", noBroadcast, "-d", "false"}, {"-g", retry, "-q", "3"},
		{"-g", noRetry, "-r", "0"}} {
		if _, err := mqadminOK(ctx, env, append([]string{"updateSubGroup", "-n", env.Namesrv, "-b", addr}, args...)...); err != nil {
			return err
		}
	}
	conn, err := rawclient.Dial(ctx, addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	steps := []struct {
		name, group, model string
		pull               []string // the pull's fields beside pull()'s defaults; nil: no pull
	}{
		{"consume disabled", off, "CLUSTERING", []string{"consumerGroup", off}},
		{"broadcast disabled, no subscription in the pull", noBroadcast, "BROADCASTING",
			[]string{"consumerGroup", noBroadcast, "sysFlag", "0"}},
		{"broadcast disabled, subscription in the pull", noBroadcast, "BROADCASTING", []string{"consumerGroup", noBroadcast}},
		{"three retry queues", retry, "CLUSTERING", nil},
	}
	for i, s := range steps {
		if _, err := rawHeartbeat(ctx, conn, fmt.Sprintf("127.0.0.1@subGroup%d", i), s.group, topic, s.model); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		if s.pull == nil {
			continue
		}
		resp, err := conn.Invoke(ctx, pull(topic, 0, s.pull...), defaultRawTimeout)
		if err != nil {
			return fmt.Errorf("%s: pull: %w", s.name, err)
		}
		env.Observe(s.name, fmt.Sprintf("code %d: %s", resp.Code, env.Mask(resp.Remark)))
	}
	if err := waitRoute(ctx, env, "%RETRY%"+retry, len(env.Brokers)); err != nil {
		return err
	}
	if err := observeQueueData(ctx, env, "retry topic route", "%RETRY%"+retry); err != nil {
		return err
	}
	return sendBackWithoutMax(ctx, env, conn, topic, noRetry)
}

// sendBackWithoutMax sends a message to topic and sends it back for group,
// whose retryMaxTimes is 0, with no maxReconsumeTimes in the header: Java
// then takes the group's, so the message goes to the dead-letter queue at
// once.
func sendBackWithoutMax(ctx context.Context, env *Env, conn *rawclient.Conn, topic, group string) error {
	offset, err := sendOneTo(ctx, conn, topic, "sent back")
	if err != nil {
		return err
	}
	back, err := conn.Invoke(ctx, rawclient.Request(int32(protocol.ReqConsumerSendMsgBack), "offset", strconv.FormatInt(offset, 10),
		"group", group, "delayLevel", "0", "originTopic", topic), defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("send back: %w", err)
	}
	env.Observe("send back without maxReconsumeTimes", fmt.Sprintf("code %d: %s", back.Code, env.Mask(back.Remark)))
	n, err := awaitDispatched(ctx, conn, "%DLQ%"+group)
	if err != nil {
		return fmt.Errorf("dead-letter queue of %s: %w", group, err)
	}
	env.Observe("dead-letter queue of the group with retryMaxTimes 0", fmt.Sprintf("max offset %d", n))
	return nil
}
