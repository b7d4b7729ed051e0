package scenario

// Name server with two master brokers in one cluster (broker-a, broker-b):
// routes with queue data of both, messages sent and consumed through those
// routes by the Java client and client-go, the mqadmin commands of
// namesrv_mqadmin.go again with two brokers, and the route dropping a
// killed broker. Java 4.9.8 mirror: RouteInfoManager.pickupTopicRouteData,
// onChannelDestroy; MQClientInstance.topicRouteData2TopicPublishInfo.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
)

// twoBrokers is the cluster shape of this file.
var twoBrokers = Needs{Brokers: 2}

const (
	messagesPerRun  = 16 // two per queue of a 2×4-queue topic
	consumeWait     = 45 * time.Second
	brokerDropLimit = registrationExpiryTimeout
)

func init() {
	Register(
		&Scenario{
			Name:  "namesrv/two-brokers/cluster-info",
			Doc:   "both brokers of the cluster in examineBrokerClusterInfo and in the raw GET_BROKER_CLUSTER_INFO body (fastjson text in Java's map order)",
			Tags:  []string{"quick", "namesrv", "javaclient", "raw"},
			Needs: twoBrokers,
			Run:   twoBrokersClusterInfo,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/route",
			Doc:   "a topic made with mqadmin updateTopic -c has queue data of both brokers; the Java producer and client-go admin see 2×4 writable queues",
			Tags:  []string{"quick", "namesrv", "mqadmin", "javaclient", "goclient"},
			Needs: twoBrokers,
			Run:   twoBrokersRoute,
		},
		&Scenario{
			Name:    "namesrv/two-brokers/java-send-consume",
			Doc:     "a Java DefaultMQProducer spreads messages over both brokers through the name server's route; a DefaultMQPushConsumer consumes them all",
			Tags:    []string{"quick", "namesrv", "javaclient"},
			Needs:   twoBrokers,
			Timeout: 2 * time.Minute,
			Run:     twoBrokersJavaMessaging,
		},
		&Scenario{
			Name:    "namesrv/two-brokers/go-send-consume",
			Doc:     "a client-go producer spreads messages over both brokers through the name server's route; a client-go push consumer consumes them all",
			Tags:    []string{"quick", "namesrv", "goclient"},
			Needs:   twoBrokers,
			Timeout: 2 * time.Minute,
			Run:     twoBrokersGoMessaging,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/mqadmin/clusterList",
			Doc:   "mqadmin clusterList prints a row for each broker (BID 0) in Java's order",
			Tags:  []string{"namesrv", "mqadmin"},
			Needs: twoBrokers,
			Run:   mqadminClusterList,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/mqadmin/topicRoute",
			Doc:   "mqadmin topicRoute (JSON and -l table) of a topic on both brokers",
			Tags:  []string{"namesrv", "mqadmin"},
			Needs: twoBrokers,
			Run:   mqadminTopicRoute,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/mqadmin/topicList",
			Doc:   "mqadmin topicList lists the topics of both brokers (cluster, broker-a, broker-b, TBW102, created); client-go agrees",
			Tags:  []string{"namesrv", "mqadmin", "goclient"},
			Needs: twoBrokers,
			Run:   mqadminTopicList,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/mqadmin/getNamesrvConfig",
			Doc:   "mqadmin getNamesrvConfig with two brokers registered: same items as Java's",
			Tags:  []string{"namesrv", "mqadmin"},
			Needs: twoBrokers,
			Run:   mqadminGetNamesrvConfig,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/mqadmin/kv",
			Doc:   "mqadmin updateKvConfig / deleteKvConfig with two brokers registered: same output as Java's",
			Tags:  []string{"namesrv", "mqadmin"},
			Needs: twoBrokers,
			Run:   kvMQAdmin,
		},
		&Scenario{
			Name:  "namesrv/two-brokers/mqadmin/write-perm",
			Doc:   "mqadmin wipeWritePerm / addWritePerm of broker-a: perm 6 -> 4 -> 6 on broker-a only, counting the topics routed to broker-a",
			Tags:  []string{"namesrv", "mqadmin"},
			Needs: twoBrokers,
			Run:   twoBrokersWritePerm,
		},
		&Scenario{
			Name:    "namesrv/two-brokers/kill9-broker-b",
			Doc:     "kill -9 of broker-b: routes and cluster info drop it once its connection closes, sends (Java and client-go) go to broker-a; after restart it is routed again",
			Tags:    []string{"quick", "namesrv", "javaclient", "goclient", "lifecycle"},
			Needs:   twoBrokers,
			Timeout: 3 * time.Minute,
			Run:     twoBrokersKillB,
		},
	)
}

// rawClusterInfo returns GET_BROKER_CLUSTER_INFO decoded and as sent.
func rawClusterInfo(ctx context.Context, env *Env) (*rawclient.ClusterInfo, []byte, error) {
	resp, err := rawCall(ctx, env, rawclient.Request(codeGetBrokerClusterInfo))
	if err != nil {
		return nil, nil, err
	}
	if err := expectCode("GET_BROKER_CLUSTER_INFO", resp, respSuccess, "*"); err != nil {
		return nil, nil, err
	}
	var ci rawclient.ClusterInfo
	if err := rawclient.UnmarshalFastJSON(resp.Body, &ci); err != nil {
		return nil, nil, fmt.Errorf("cluster info body %s: %w", resp.Body, err)
	}
	return &ci, resp.Body, nil
}

// rawRouteBody returns the v409 GET_ROUTEINFO_BY_TOPIC body as sent.
func rawRouteBody(ctx context.Context, env *Env, topic string) ([]byte, error) {
	req := rawclient.Request(codeGetRouteInfoByTopic, "topic", topic)
	req.Version = javaVersion409
	resp, err := rawCall(ctx, env, req)
	if err != nil {
		return nil, err
	}
	if resp.Code != respSuccess {
		return nil, &codeError{Code: resp.Code, Remark: resp.Remark}
	}
	return resp.Body, nil
}

func twoBrokersClusterInfo(ctx context.Context, env *Env) error {
	if err := clusterInfoJava(ctx, env); err != nil {
		return err
	}
	ci, body, err := rawClusterInfo(ctx, env)
	if err != nil {
		return err
	}
	for i, b := range env.Brokers {
		if got, want := ci.BrokerAddrTable[b.Name].BrokerAddrs, wantBrokerAddrs(env, i); !maps.Equal(got, want) {
			return fmt.Errorf("raw cluster info: %s brokerAddrs %v, want %v", b.Name, got, want)
		}
	}
	env.Observe("raw body", env.Mask(string(body)))
	return nil
}

// updateTopicCluster runs mqadmin updateTopic -c (the brokers come from
// the route of the cluster-named topic), waits until every broker is in
// the topic's route and returns the output's lines, masked and sorted
// (mqadmin walks a HashSet of addresses).
func updateTopicCluster(ctx context.Context, env *Env, topic string, queues int) (string, error) {
	q := fmt.Sprint(queues)
	out, err := mqadminOK(ctx, env, "updateTopic", "-n", env.Namesrv, "-c", env.Cluster, "-t", topic, "-r", q, "-w", q)
	if err != nil {
		return "", err
	}
	for _, b := range env.Brokers {
		if want := "create topic to " + b.Addr + " success."; !strings.Contains(out, want) {
			return "", fmt.Errorf("updateTopic -c printed %q, lacks %q", out, want)
		}
	}
	if err := waitRoute(ctx, env, topic, len(env.Brokers)); err != nil {
		return "", err
	}
	return strings.Join(sortedLines(env.Mask(out)), "\n"), nil
}

func twoBrokersRoute(ctx context.Context, env *Env) error {
	const topic = "ConfTwoRoute"
	out, err := updateTopicCluster(ctx, env, topic, 4)
	if err != nil {
		return err
	}
	env.Observe("updateTopic -c", out)
	body, err := rawRouteBody(ctx, env, topic)
	if err != nil {
		return err
	}
	var rd rawclient.TopicRouteData
	if err := rawclient.UnmarshalFastJSON(body, &rd); err != nil {
		return fmt.Errorf("route body %s: %w", body, err)
	}
	for i, b := range env.Brokers {
		qi := slices.IndexFunc(rd.QueueDatas, func(q rawclient.QueueData) bool { return q.BrokerName == b.Name })
		bi := slices.IndexFunc(rd.BrokerDatas, func(d rawclient.BrokerData) bool { return d.BrokerName == b.Name })
		if qi < 0 || bi < 0 {
			return fmt.Errorf("route of %s lacks %s: %s", topic, b.Name, body)
		}
		if q := rd.QueueDatas[qi]; q.ReadQueueNums != 4 || q.WriteQueueNums != 4 || q.Perm != 6 {
			return fmt.Errorf("route of %s: queue data %+v", topic, q)
		}
		if got, want := rd.BrokerDatas[bi].BrokerAddrs, wantBrokerAddrs(env, i); !maps.Equal(got, want) || rd.BrokerDatas[bi].Cluster != env.Cluster {
			return fmt.Errorf("route of %s: broker data %+v, want brokerAddrs %v", topic, rd.BrokerDatas[bi], want)
		}
	}
	env.Observe("route body", env.Mask(string(body)))

	want := expectedQueues(env, topic, 4)
	qs, err := env.Java.PublishQueues(ctx, env.Namesrv, topic)
	if err != nil {
		return fmt.Errorf("java fetchPublishMessageQueues: %w", err)
	}
	if got := queuesString(qs, func(q javaclient.Queue) (string, string, int) { return q.Topic, q.BrokerName, q.QueueID }); got != want {
		return fmt.Errorf("java client queues %q, want %q", got, want)
	}
	got, err := goPublishQueues(ctx, env, topic)
	if err != nil {
		return fmt.Errorf("client-go FetchPublishMessageQueues: %w", err)
	}
	if got != want {
		return fmt.Errorf("client-go queues %q, want %q", got, want)
	}
	env.Observe("queues", got)
	return nil
}

// runPrefix makes message bodies unique to one scenario run.
func runPrefix(name string) string { return fmt.Sprintf("%s-%d", name, time.Now().UnixNano()) }

// javaSend sends n messages with the Java client and checks every send
// was SEND_OK; it returns the broker of each.
func javaSend(ctx context.Context, env *Env, topic, prefix string, n int) ([]string, error) {
	sent, err := env.Java.Produce(ctx, env.Namesrv, topic, "ConfJavaPG", prefix, n)
	if err != nil {
		return nil, fmt.Errorf("java send: %w", err)
	}
	brokers := make([]string, 0, len(sent))
	for _, s := range sent {
		if s.Status != "SEND_OK" {
			return nil, fmt.Errorf("java send %s: status %s", s.Body, s.Status)
		}
		brokers = append(brokers, s.BrokerName)
	}
	if len(brokers) != n {
		return nil, fmt.Errorf("java send: %d results for %d messages", len(brokers), n)
	}
	return brokers, nil
}

// javaReceive consumes n messages of prefix with a Java push consumer of
// group and returns body → broker.
func javaReceive(ctx context.Context, env *Env, topic, group, prefix string, n int) (map[string]string, error) {
	msgs, complete, err := env.Java.Consume(ctx, env.Namesrv, topic, group, prefix, n, consumeWait)
	if err != nil {
		return nil, fmt.Errorf("java push consumer: %w", err)
	}
	got := make(map[string]string, len(msgs))
	for _, m := range msgs {
		got[m.Body] = m.BrokerName
	}
	if !complete {
		return got, fmt.Errorf("java push consumer received %d of %d messages within %s", len(got), n, consumeWait)
	}
	return got, nil
}

// checkDelivery compares what was sent (broker per body index) with what
// was received (body → broker).
func checkDelivery(prefix string, sent []string, received map[string]string) error {
	if len(received) != len(sent) {
		return fmt.Errorf("received %d distinct messages, sent %d", len(received), len(sent))
	}
	for i, b := range sent {
		body := fmt.Sprintf("%s-%d", prefix, i)
		if got, ok := received[body]; !ok || got != b {
			return fmt.Errorf("message %s sent to %s, received from %q (present %v)", body, b, got, ok)
		}
	}
	return nil
}

// spreadOver checks that sends reached exactly the brokers named.
func spreadOver(sent []string, brokers ...string) error {
	got := slices.Compact(slices.Sorted(slices.Values(sent)))
	if !slices.Equal(got, brokers) {
		return fmt.Errorf("messages went to %s, want every one of %v", countByBroker(sent), brokers)
	}
	return nil
}

func brokerNames(env *Env) []string {
	var names []string
	for _, b := range env.Brokers {
		names = append(names, b.Name)
	}
	return names
}

func twoBrokersJavaMessaging(ctx context.Context, env *Env) error {
	const topic = "ConfTwoJava"
	if _, err := updateTopicCluster(ctx, env, topic, 4); err != nil {
		return err
	}
	prefix := runPrefix("java")
	sent, err := javaSend(ctx, env, topic, prefix, messagesPerRun)
	if err != nil {
		return err
	}
	if err := spreadOver(sent, brokerNames(env)...); err != nil {
		return err
	}
	got, err := javaReceive(ctx, env, topic, "ConfJavaCG", prefix, messagesPerRun)
	if err != nil {
		return err
	}
	if err := checkDelivery(prefix, sent, got); err != nil {
		return err
	}
	env.Observe("java sent", countByBroker(sent))
	return nil
}

func twoBrokersGoMessaging(ctx context.Context, env *Env) error {
	const topic = "ConfTwoGo"
	if _, err := updateTopicCluster(ctx, env, topic, 4); err != nil {
		return err
	}
	prefix := runPrefix("go")
	sent, err := goSend(ctx, env, topic, prefix, messagesPerRun)
	if err != nil {
		return err
	}
	if err := spreadOver(sent, brokerNames(env)...); err != nil {
		return err
	}
	got, err := goConsume(ctx, env, topic, "ConfGoCG", prefix, messagesPerRun, consumeWait)
	if err != nil {
		return err
	}
	if err := checkDelivery(prefix, sent, got); err != nil {
		return err
	}
	env.Observe("client-go sent", countByBroker(sent))
	return nil
}

func twoBrokersWritePerm(ctx context.Context, env *Env) error {
	if err := mqadminWritePerm(ctx, env); err != nil {
		return err
	}
	// broker-b was never touched.
	rd, err := rawRoute(ctx, env, "ConfWritePerm", javaVersion409)
	if err != nil {
		return err
	}
	for _, q := range rd.QueueDatas {
		if q.Perm != 6 {
			return fmt.Errorf("after wipe/add of %s: %s has perm %d", env.Brokers[0].Name, q.BrokerName, q.Perm)
		}
	}
	return nil
}

func twoBrokersKillB(ctx context.Context, env *Env) error {
	const topic = "ConfTwoKill"
	if _, err := updateTopicCluster(ctx, env, topic, 4); err != nil {
		return err
	}
	a, b := env.Brokers[0].Name, env.Brokers[1].Name
	t0 := time.Now()
	if err := env.Nodes.KillBroker(1); err != nil {
		return err
	}
	err := Eventually(ctx, brokerDropLimit, 200*time.Millisecond, func() error {
		return brokerGone(ctx, env, 1, topic)
	})
	if err != nil {
		return err
	}
	env.Log.Printf("%s gone from the name server %s after kill -9", b, time.Since(t0).Round(time.Millisecond))
	ci, ciBody, err := rawClusterInfo(ctx, env)
	if err != nil {
		return err
	}
	if got := ci.ClusterAddrTable[env.Cluster]; !slices.Equal(got, []string{a}) {
		return fmt.Errorf("cluster info after kill -9 of %s: clusterAddrTable %v", b, ci.ClusterAddrTable)
	}
	env.Observe("cluster info without broker-b", env.Mask(string(ciBody)))
	body, err := rawRouteBody(ctx, env, topic)
	if err != nil {
		return fmt.Errorf("route after kill -9 of %s: %w", b, err)
	}
	env.Observe("route without broker-b", env.Mask(string(body)))

	// Fresh clients route everything to broker-a.
	prefix := runPrefix("kill")
	sent, err := javaSend(ctx, env, topic, prefix+"-java", 8)
	if err != nil {
		return fmt.Errorf("with %s killed: %w", b, err)
	}
	if err := spreadOver(sent, a); err != nil {
		return fmt.Errorf("java, with %s killed: %w", b, err)
	}
	sent, err = goSend(ctx, env, topic, prefix+"-go", 8)
	if err != nil {
		return fmt.Errorf("with %s killed: %w", b, err)
	}
	if err := spreadOver(sent, a); err != nil {
		return fmt.Errorf("client-go, with %s killed: %w", b, err)
	}

	if err := env.Nodes.StartBroker(ctx, 1); err != nil {
		return err
	}
	if err := waitRoute(ctx, env, topic, 2); err != nil {
		return fmt.Errorf("after restart of %s: %w", b, err)
	}
	err = Eventually(ctx, routeVisibleTimeout, 200*time.Millisecond, func() error {
		ci, _, err := rawClusterInfo(ctx, env)
		if err != nil {
			return err
		}
		if got := ci.BrokerAddrTable[b].BrokerAddrs; !maps.Equal(got, wantBrokerAddrs(env, 1)) {
			return fmt.Errorf("%s brokerAddrs %v after restart", b, got)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sent, err = javaSend(ctx, env, topic, prefix+"-back", 8)
	if err != nil {
		return fmt.Errorf("after restart of %s: %w", b, err)
	}
	return spreadOver(sent, a, b)
}
