package scenario

// Sending and consuming through the broker under test (issue #6, items 1
// and 2): the Java producer's sync, async, oneway and batch sends consumed
// by a Java push consumer; client-go's SendSync/SendAsync/SendOneWay
// consumed by a client-go push consumer; and both directions across the
// clients. Bodies, tags, keys and user properties must arrive intact.
// Java 4.9.8 mirror: SendMessageProcessor, PullMessageProcessor,
// DefaultMQProducerImpl.sendKernelImpl, MessageDecoder.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
)

func init() {
	Register(
		&Scenario{
			Name:    "broker/send/java-modes",
			Doc:     "Java DefaultMQProducer sync, async, oneway and batch sends; a Java push consumer gets every message once with body, tags, keys and user properties intact",
			Tags:    tags("quick", "javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerJavaSendModes,
		},
		&Scenario{
			Name: "broker/send/java-rocketmq-serialize",
			Doc: "Java clients with rocketmq.serialize.type=ROCKETMQ (binary headers on every request): sync, async, oneway and batch " +
				"sends, a push consumer woken by messages sent while its pulls are held, and an orderly consumer get every message intact",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerJavaRocketMQSerialize,
		},
		&Scenario{
			Name:    "broker/send/go-modes",
			Doc:     "client-go SendSync, SendAsync and SendOneWay (SEND_MESSAGE v1) and a SendSync batch (SEND_BATCH_MESSAGE); a client-go push consumer gets every message with body, tags, keys and user properties intact",
			Tags:    tags("goclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerGoSendModes,
		},
		&Scenario{
			Name:    "broker/send/java-to-go",
			Doc:     "messages of a Java producer (SEND_MESSAGE_V2) reach a client-go push consumer intact",
			Tags:    tags("javaclient", "goclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerJavaToGo,
		},
		&Scenario{
			Name:    "broker/consume/reconsume-later",
			Doc:     "a Java push consumer answers RECONSUME_LATER once: CONSUMER_SEND_MSG_BACK, delay level 3 (10 s) through SCHEDULE_TOPIC_XXXX into %RETRY%group, and the message comes back once with reconsumeTimes 1, its topic, body, tags, keys and user properties intact",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerReconsumeLater,
		},
		&Scenario{
			Name: "broker/consume/dead-letter",
			Doc: "a Java push consumer with maxReconsumeTimes 1 answers RECONSUME_LATER to every delivery: each message comes " +
				"back once from the retry topic, then goes to %DLQ%group (1 queue, read-write), where a consumer of that topic gets " +
				"it with its body, tags, keys and user properties, the same property names and reconsume count as on Java",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerDeadLetter,
		},
		&Scenario{
			Name: "broker/consume/namespace",
			Doc: "Java clients in a client namespace (setNamespace): the producer sends to ns%topic, a push consumer of " +
				"ns%group gets each message, answers RECONSUME_LATER once and gets it again through %RETRY%ns%group, with the " +
				"retry properties and the retry topic's route Java's broker gives",
			Tags:    tags("javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerNamespace,
		},
		&Scenario{
			Name: "broker/consume/go-dead-letter",
			Doc: "a client-go push consumer with MaxReconsumeTimes 1 answers ConsumeRetryLater to every delivery: each message " +
				"comes back once from the retry topic, then goes to %DLQ%group, where a client-go consumer of that topic gets it " +
				"with its body, tags, keys and user properties, the same property names and reconsume count as on Java",
			Tags:    tags("goclient", "javaclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerGoDeadLetter,
		},
		&Scenario{
			Name:    "broker/send/go-to-java",
			Doc:     "messages of a client-go producer (SEND_MESSAGE v1) reach a Java push consumer intact",
			Tags:    tags("quick", "javaclient", "goclient"),
			Timeout: brokerScenarioLimit,
			Run:     brokerGoToJava,
		},
	)
}

// sentLines renders sends as sorted "body status" lines.
func sentLines(sent []sentMsg) string {
	lines := make([]string, 0, len(sent))
	for _, s := range sent {
		lines = append(lines, s.Body+" "+s.Status)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func brokerJavaSendModes(ctx context.Context, env *Env) error {
	const topic, n = "BrokerJavaSendModes", 4
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	all, sent, err := javaSendAllModes(ctx, env, nil, topic, "CONF_BROKER_JSEND_PG", "jsend", n)
	if err != nil {
		return err
	}
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_JSEND_CG", Prefix: "jsend",
		Count: len(all), Quiet: time.Second})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("java push consumer got %d deliveries, not all %d messages", len(res.Messages), len(all))
	}
	if err := checkDelivered(all, res.Messages, false); err != nil {
		return fmt.Errorf("java push consumer: %w", err)
	}
	env.Observe("sent", sentLines(sent))
	env.Observe("received", contentLines(res.Messages))
	return nil
}

func brokerJavaRocketMQSerialize(ctx context.Context, env *Env) error {
	return javaSerializeRoundTrip(ctx, env, "BrokerJavaRocketMQSerialize", "CONF_BROKER_JRMQ", "jrmq", "ROCKETMQ")
}

// javaSerializeRoundTrip creates topic and runs Java clients with
// rocketmq.serialize.type st ("" for the default) against it: every send
// mode, a push consumer whose held pulls later sends wake, and an orderly
// consumer, each of which must get every message intact.
func javaSerializeRoundTrip(ctx context.Context, env *Env, topic, group, prefix, st string) error {
	const n = 4
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	var extra map[string]any
	if st != "" {
		extra = map[string]any{javaclient.SerializeTypeParam: st}
	}
	all, sent, err := javaSendAllModes(ctx, env, extra, topic, group+"_PG", prefix, n)
	if err != nil {
		return err
	}
	env.Observe("sent", sentLines(sent))
	// The consumer reaches the end of every queue, its pulls are held,
	// and the messages sent then wake them.
	late := specs(prefix+"-late", "TagLate", 2*n)
	want := append(append([]msgSpec(nil), all...), late...)
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: group + "_CG", Prefix: prefix, Count: len(want),
		Produce: late, ProduceDelay: time.Second, Quiet: time.Second, Serialize: st})
	if err != nil {
		return err
	}
	if err := checkConsumed("push consumer", want, res); err != nil {
		return err
	}
	env.Observe("received", contentLines(res.Messages))
	res, err = javaConsume(ctx, env, consumeReq{Topic: topic, Group: group + "_OCG", Prefix: prefix, Count: len(want),
		Orderly: true, Quiet: time.Second, Serialize: st})
	if err != nil {
		return err
	}
	if err := checkConsumed("orderly consumer", want, res); err != nil {
		return err
	}
	env.Observe("received in order", contentLines(res.Messages))
	return nil
}

// javaSendAllModes sends n messages each with the Java producer's sync,
// async, oneway and batch sends (extra: more BrokerOp parameters) and
// checks that the batch landed in one queue at consecutive offsets.
func javaSendAllModes(ctx context.Context, env *Env, extra map[string]any, topic, group, prefix string, n int) ([]msgSpec, []sentMsg, error) {
	var all []msgSpec
	var sent []sentMsg
	for _, mode := range []string{"sync", "async", "oneway", "batch"} {
		ss := specs(prefix+"-"+mode, "Tag"+mode, n)
		s, err := javaProduceWith(ctx, env, extra, topic, group, mode, ss)
		if err != nil {
			return nil, nil, fmt.Errorf("java %s send: %w", mode, err)
		}
		if len(s) != n {
			return nil, nil, fmt.Errorf("java %s send: %d results, want %d", mode, len(s), n)
		}
		all, sent = append(all, ss...), append(sent, s...)
	}
	return all, sent, checkBatchOffsets(sent[3*n:])
}

// checkConsumed checks that a consume op got every spec once, intact.
func checkConsumed(who string, ss []msgSpec, res *consumeResult) error {
	if !res.Complete {
		return fmt.Errorf("java %s got %d deliveries, not all %d messages", who, len(res.Messages), len(ss))
	}
	if err := checkDelivered(ss, res.Messages, false); err != nil {
		return fmt.Errorf("java %s: %w", who, err)
	}
	return nil
}

// checkBatchOffsets checks that a batch went to one queue at consecutive
// offsets (SendResult.queueOffset is the first message's).
func checkBatchOffsets(sent []sentMsg) error {
	for i, s := range sent {
		if s.BrokerName != sent[0].BrokerName || s.QueueID != sent[0].QueueID {
			return fmt.Errorf("batch message %s on %s:%d, first on %s:%d", s.Body, s.BrokerName, s.QueueID, sent[0].BrokerName, sent[0].QueueID)
		}
		if s.QueueOffset != sent[0].QueueOffset+int64(i) {
			return fmt.Errorf("batch message %d offset %d, want %d", i, s.QueueOffset, sent[0].QueueOffset+int64(i))
		}
	}
	return nil
}

func brokerGoSendModes(ctx context.Context, env *Env) error {
	return goSendModesRoundTrip(ctx, env, "BrokerGoSendModes", "CONF_BROKER_GSEND_CG", "gsend")
}

// goSendModesRoundTrip creates topic, sends to it with every client-go send
// mode and checks that a client-go push consumer of group gets every
// message intact.
func goSendModesRoundTrip(ctx context.Context, env *Env, topic, group, prefix string) error {
	const n = 4
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	var all []msgSpec
	var sent []sentMsg
	for _, mode := range []string{"sync", "async", "oneway", "batch"} {
		ss := specs(prefix+"-"+mode, "Tag"+mode, n)
		s, err := goProduce(ctx, env, topic, mode, ss)
		if err != nil {
			return err
		}
		all, sent = append(all, ss...), append(sent, s...)
	}
	if err := checkBatchOffsets(sent[3*n:]); err != nil {
		return fmt.Errorf("client-go batch: %w", err)
	}
	got, err := goConsumeMsgs(ctx, env, topic, group, "", prefix, len(all), brokerConsumeWait)
	if err != nil {
		return err
	}
	if err := checkDelivered(all, got, true); err != nil {
		return fmt.Errorf("client-go push consumer: %w", err)
	}
	env.Observe("client-go sent", sentLines(sent))
	env.Observe("client-go received", contentLines(got))
	return nil
}

func brokerJavaToGo(ctx context.Context, env *Env) error {
	const topic = "BrokerJavaToGo"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := specs("j2g", "FromJava", 8)
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_J2G_PG", "sync", ss); err != nil {
		return err
	}
	got, err := goConsumeMsgs(ctx, env, topic, "CONF_BROKER_J2G_CG", "", "j2g", len(ss), brokerConsumeWait)
	if err != nil {
		return err
	}
	if err := checkDelivered(ss, got, true); err != nil {
		return fmt.Errorf("client-go push consumer: %w", err)
	}
	env.Observe("received", contentLines(got))
	return nil
}

func brokerGoToJava(ctx context.Context, env *Env) error {
	const topic = "BrokerGoToJava"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := specs("g2j", "FromGo", 8)
	if _, err := goProduce(ctx, env, topic, "sync", ss); err != nil {
		return err
	}
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_G2J_CG", Prefix: "g2j",
		Count: len(ss), Quiet: time.Second})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("java push consumer got %d deliveries, not all %d messages", len(res.Messages), len(ss))
	}
	if err := checkDelivered(ss, res.Messages, false); err != nil {
		return fmt.Errorf("java push consumer: %w", err)
	}
	env.Observe("received", contentLines(res.Messages))
	return nil
}

func brokerNamespace(ctx context.Context, env *Env) error {
	const namespace, topic, group = "MQ_INST_conf", "BrokerNamespaced", "CONF_BROKER_NS_CG"
	if err := createTopic(ctx, env, namespace+"%"+topic, 4, 6); err != nil {
		return err
	}
	ss := specs("nsmsg", "Ns", 2)
	sent, err := javaProduceWith(ctx, env, map[string]any{"namespace": namespace}, topic, "CONF_BROKER_NS_PG", "sync", ss)
	if err != nil {
		return err
	}
	env.Observe("sent", sentLines(sent))
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: group, Prefix: "nsmsg", Count: len(ss),
		MinReconsume: 1, Namespace: namespace, PollNameServer: time.Second, Wait: 50 * time.Second, Quiet: brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("retried messages did not come back within 50 s: %d deliveries", len(res.Messages))
	}
	env.Observe("received", contentLines(res.Messages))
	env.Observe("deliveries", deliveryLines(res.Messages))
	return observeQueueData(ctx, env, "retry topic route", "%RETRY%"+namespace+"%"+group)
}

func brokerDeadLetter(ctx context.Context, env *Env) error {
	const topic, group = "BrokerDeadLetter", "CONF_BROKER_DLQ_CG"
	const dlq = "%DLQ%" + group
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := sharded(specs("dlq", "Dead", 2))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_DLQ_PG", "sync", ss); err != nil {
		return err
	}
	// Delivered with reconsumeTimes 0, answered later: back through the
	// retry topic (level 3, 10 s); with 1, answered later: 1 reaches
	// maxReconsumeTimes, so the dead-letter queue.
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: group, Prefix: "dlq", Count: len(ss),
		MinReconsume: 1, AlwaysLater: true, MaxReconsume: 1, PollNameServer: time.Second, Wait: 50 * time.Second,
		Quiet: brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("retried messages did not come back within 50 s: %d deliveries", len(res.Messages))
	}
	env.Observe("deliveries", deliveryLines(res.Messages))
	if err := waitRoute(ctx, env, dlq, len(env.Brokers)); err != nil {
		return err
	}
	if err := observeQueueData(ctx, env, "dead-letter route", dlq); err != nil {
		return err
	}
	dead, err := javaConsume(ctx, env, consumeReq{Topic: dlq, Group: "CONF_BROKER_DLQ_READER", Prefix: "dlq",
		Count: len(ss), PollNameServer: time.Second, Quiet: brokerQuiet})
	if err != nil {
		return err
	}
	if err := checkDelivered(ss, dead.Messages, false); err != nil {
		return fmt.Errorf("dead-letter consumer: %w", err)
	}
	env.Observe("dead letters", contentLines(dead.Messages))
	env.Observe("dead-letter deliveries", deliveryLines(dead.Messages))
	return nil
}

// deliveryLines renders deliveries as sorted "body reconsumeTimes=n
// [property names] {system properties}" lines.
func deliveryLines(got []recvMsg) string {
	lines := make([]string, len(got))
	for i, m := range got {
		lines[i] = fmt.Sprintf("%s reconsumeTimes=%d %v %s", m.Body, m.ReconsumeTimes, m.PropKeys, propsString(m.SysProps))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func brokerReconsumeLater(ctx context.Context, env *Env) error {
	const topic = "BrokerReconsume"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	ss := sharded(specs("retry", "Retry", 2))
	if _, err := javaProduce(ctx, env, topic, "CONF_BROKER_RETRY_PG", "sync", ss); err != nil {
		return err
	}
	// The consumer learns the retry topic's route (created on the broker
	// at its first heartbeat) by polling the name server: every second
	// here instead of every 30 s; its next rebalance (20 s) assigns it.
	res, err := javaConsume(ctx, env, consumeReq{Topic: topic, Group: "CONF_BROKER_RETRY_CG", Prefix: "retry",
		Count: len(ss), MinReconsume: 1, PollNameServer: time.Second, Wait: 50 * time.Second, Quiet: brokerQuiet})
	if err != nil {
		return err
	}
	if !res.Complete {
		return fmt.Errorf("retried messages did not come back within 50 s: %d deliveries", len(res.Messages))
	}
	var first, again []recvMsg
	for _, m := range res.Messages {
		switch m.ReconsumeTimes {
		case 0:
			first = append(first, m)
		case 1:
			again = append(again, m)
		default:
			return fmt.Errorf("message %s delivered with reconsumeTimes %d", m.Body, m.ReconsumeTimes)
		}
	}
	if err := checkDelivered(ss, first, false); err != nil {
		return fmt.Errorf("first deliveries: %w", err)
	}
	if err := checkDelivered(ss, again, false); err != nil {
		return fmt.Errorf("redeliveries: %w", err)
	}
	env.Observe("redelivered", contentLines(again))
	return nil
}
