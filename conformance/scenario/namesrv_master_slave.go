package scenario

// Name server with a master/slave pair: broker-a id 0 (ASYNC_MASTER) and
// broker-a id 1 (SLAVE, no haMasterAddress). The slave learns its master
// from the name server's answer to REGISTER_BROKER (masterAddr for
// SlaveSynchronize, haServerAddr for HA replication); routes list both ids;
// killing either drops only its id. Java 4.9.8 mirror:
// RouteInfoManager.registerBroker (RegisterBrokerResult), onChannelDestroy;
// BrokerController.doRegisterBrokerAll (updateHaMasterAddress,
// slaveSynchronize.setMasterAddr).

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// masterSlave is the cluster shape of this file: master and slave follow
// -broker-impl, so with Sputnik brokers these scenarios also check
// Sputnik's replication and slave sync (broker_ha.go mixes the two
// implementations).
var masterSlave = Needs{Brokers: 1, Slave: true}

const (
	codeGetAllTopicConfig = int32(protocol.ReqGetAllTopicConfig) // what a slave syncs from its master
	// The slave syncs its master's topic config every 10 s (SlaveSynchronize)
	// and reconnects HA every 5 s; both start once it has registered.
	slaveSyncTimeout = 40 * time.Second
)

func init() {
	Register(
		&Scenario{
			Name:  "namesrv/master-slave/cluster-info",
			Doc:   "examineBrokerClusterInfo and a topic's route list broker-a with brokerAddrs {0: master, 1: slave}; the Java producer writes to the master's queues only",
			Tags:  []string{"quick", "namesrv", "javaclient", "raw"},
			Needs: masterSlave,
			Run:   masterSlaveClusterInfo,
		},
		&Scenario{
			Name:  "namesrv/master-slave/mqadmin/clusterList",
			Doc:   "mqadmin clusterList prints broker-a twice, BID 0 (master) and BID 1 (slave)",
			Tags:  []string{"quick", "namesrv", "mqadmin"},
			Needs: masterSlave,
			Run:   mqadminClusterList,
		},
		&Scenario{
			Name:    "namesrv/master-slave/discovery",
			Doc:     "the slave gets its master from the name server's registration answer: it syncs a topic created on the master (masterAddr) and replicates the master's commit log (haServerAddr)",
			Tags:    []string{"quick", "namesrv", "javaclient"},
			Needs:   masterSlave,
			Timeout: 2 * time.Minute,
			Run:     masterSlaveDiscovery,
		},
		&Scenario{
			Name:    "namesrv/master-slave/kill-slave",
			Doc:     "kill -9 of the slave: id 1 leaves cluster info and routes, the master stays; after restart id 1 is back",
			Tags:    []string{"namesrv", "lifecycle"},
			Needs:   masterSlave,
			Timeout: 2 * time.Minute,
			Run:     masterSlaveKillSlave,
		},
		&Scenario{
			Name:    "namesrv/master-slave/kill-master",
			Doc:     "kill -9 of the master: the route keeps broker-a with only the slave (and its queue data) as Java does; a Java push consumer reads from the slave; after restart id 0 is back",
			Tags:    []string{"namesrv", "javaclient", "lifecycle"},
			Needs:   masterSlave,
			Timeout: 3 * time.Minute,
			Run:     masterSlaveKillMaster,
		},
	)
}

// routeBrokerAddrs returns the brokerAddrs of broker in topic's route and
// whether the route has queue data of it.
func routeBrokerAddrs(ctx context.Context, env *Env, topic, broker string) (map[string]string, bool, []byte, error) {
	body, err := rawRouteBody(ctx, env, topic)
	if err != nil {
		return nil, false, nil, err
	}
	var rd rawclient.TopicRouteData
	if err := rawclient.UnmarshalFastJSON(body, &rd); err != nil {
		return nil, false, nil, fmt.Errorf("route body %s: %w", body, err)
	}
	var addrs map[string]string
	for _, bd := range rd.BrokerDatas {
		if bd.BrokerName == broker {
			addrs = bd.BrokerAddrs
		}
	}
	hasQueues := false
	for _, q := range rd.QueueDatas {
		hasQueues = hasQueues || q.BrokerName == broker
	}
	return addrs, hasQueues, body, nil
}

// waitBrokerAddrs waits until both the cluster info and topic's route list
// broker with exactly want as brokerAddrs.
func waitBrokerAddrs(ctx context.Context, env *Env, topic, broker string, want map[string]string, timeout time.Duration) error {
	return Eventually(ctx, timeout, 200*time.Millisecond, func() error {
		ci, _, err := rawClusterInfo(ctx, env)
		if err != nil {
			return err
		}
		if got := ci.BrokerAddrTable[broker].BrokerAddrs; !maps.Equal(got, want) {
			return fmt.Errorf("cluster info: %s brokerAddrs %v, want %v", broker, got, want)
		}
		got, _, _, err := routeBrokerAddrs(ctx, env, topic, broker)
		if err != nil {
			return fmt.Errorf("route of %s: %w", topic, err)
		}
		if !maps.Equal(got, want) {
			return fmt.Errorf("route of %s: %s brokerAddrs %v, want %v", topic, broker, got, want)
		}
		return nil
	})
}

func masterSlaveClusterInfo(ctx context.Context, env *Env) error {
	if err := clusterInfoJava(ctx, env); err != nil {
		return err
	}
	const topic = "ConfMSRoute"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	addrs, hasQueues, body, err := routeBrokerAddrs(ctx, env, topic, env.Brokers[0].Name)
	if err != nil {
		return err
	}
	if want := wantBrokerAddrs(env, 0); !maps.Equal(addrs, want) || !hasQueues {
		return fmt.Errorf("route of %s: brokerAddrs %v (want %v), queue data %v: %s", topic, addrs, want, hasQueues, body)
	}
	env.Observe("route body", env.Mask(string(body)))
	// The producer writes to masters only (topicRouteData2TopicPublishInfo).
	qs, err := env.Java.PublishQueues(ctx, env.Namesrv, topic)
	if err != nil {
		return fmt.Errorf("java fetchPublishMessageQueues: %w", err)
	}
	if len(qs) != 4 {
		return fmt.Errorf("java client sees %d queues of %s, want the master's 4: %v", len(qs), topic, qs)
	}
	return nil
}

// slaveTopics asks a broker for its topic config table (GET_ALL_TOPIC_CONFIG).
func slaveTopics(ctx context.Context, addr string) (map[string]json.RawMessage, error) {
	resp, err := rawclient.Call(ctx, addr, rawclient.Request(codeGetAllTopicConfig), defaultRawTimeout)
	if err != nil {
		return nil, err
	}
	if err := expectCode("GET_ALL_TOPIC_CONFIG", resp, respSuccess, "*"); err != nil {
		return nil, err
	}
	var w struct {
		TopicConfigTable map[string]json.RawMessage `json:"topicConfigTable"`
	}
	if err := rawclient.UnmarshalFastJSON(resp.Body, &w); err != nil {
		return nil, fmt.Errorf("topic config body: %w", err)
	}
	return w.TopicConfigTable, nil
}

// commitLogMaxOffset is a broker's commitLogMaxOffset runtime stat.
// Java 4.9.x fails GET_BROKER_RUNTIME_INFO for a while after a start
// (StoreStatsService.getPutTps on an empty sample list), so failures are
// retried for a few seconds.
func commitLogMaxOffset(ctx context.Context, env *Env, addr string) (int64, error) {
	var stats map[string]string
	err := Eventually(ctx, 15*time.Second, 500*time.Millisecond, func() error {
		return env.Java.Admin(ctx, env.Namesrv, "fetchBrokerRuntimeStats", &stats, addr)
	})
	if err != nil {
		return 0, err
	}
	v, ok := stats["commitLogMaxOffset"]
	if !ok {
		return 0, fmt.Errorf("runtime stats of %s lack commitLogMaxOffset", addr)
	}
	return strconv.ParseInt(v, 10, 64)
}

// waitReplicated sends n messages to the master and waits until the
// slave's commit log has caught up with the master's.
func waitReplicated(ctx context.Context, env *Env, topic, prefix string, n int) error {
	sent, err := javaSend(ctx, env, topic, prefix, n)
	if err != nil {
		return err
	}
	if err := spreadOver(sent, env.Brokers[0].Name); err != nil {
		return err
	}
	master, err := commitLogMaxOffset(ctx, env, env.Brokers[0].Addr)
	if err != nil {
		return err
	}
	if master <= 0 {
		return fmt.Errorf("master commitLogMaxOffset %d after %d sends", master, n)
	}
	return Eventually(ctx, slaveSyncTimeout, 500*time.Millisecond, func() error {
		slave, err := commitLogMaxOffset(ctx, env, env.Slaves[0].Addr)
		if err != nil {
			return err
		}
		if slave < master {
			return fmt.Errorf("slave commitLogMaxOffset %d, master %d: the slave does not replicate (no HA master address?)", slave, master)
		}
		return nil
	})
}

func masterSlaveDiscovery(ctx context.Context, env *Env) error {
	const topic = "ConfMSSync"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	if err := waitSlaveTopic(ctx, env, topic); err != nil {
		return err
	}
	return waitReplicated(ctx, env, topic, runPrefix("ha"), 8)
}

// waitSlaveTopic waits until the slave has synced topic from its master.
func waitSlaveTopic(ctx context.Context, env *Env, topic string) error {
	// SlaveSynchronize.syncTopicConfig asks the masterAddr it was given.
	return Eventually(ctx, slaveSyncTimeout, 500*time.Millisecond, func() error {
		topics, err := slaveTopics(ctx, env.Slaves[0].Addr)
		if err != nil {
			return err
		}
		if _, ok := topics[topic]; !ok {
			return fmt.Errorf("slave has not synced %s from its master (no masterAddr?)", topic)
		}
		return nil
	})
}

func masterSlaveKillSlave(ctx context.Context, env *Env) error {
	const topic = "ConfMSKillSlave"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	name := env.Brokers[0].Name
	if err := env.Nodes.KillSlave(0); err != nil {
		return err
	}
	if err := waitBrokerAddrs(ctx, env, topic, name, map[string]string{"0": env.Brokers[0].Addr}, brokerDropLimit); err != nil {
		return fmt.Errorf("after kill -9 of the slave: %w", err)
	}
	body, err := rawRouteBody(ctx, env, topic)
	if err != nil {
		return err
	}
	env.Observe("route without the slave", env.Mask(string(body)))
	if err := env.Nodes.StartSlave(ctx, 0); err != nil {
		return err
	}
	if err := waitBrokerAddrs(ctx, env, topic, name, wantBrokerAddrs(env, 0), routeVisibleTimeout); err != nil {
		return fmt.Errorf("after restart of the slave: %w", err)
	}
	return nil
}

func masterSlaveKillMaster(ctx context.Context, env *Env) error {
	return killMasterReadSlave(ctx, env, "ConfMSKillMaster", "ConfMSSlaveCG")
}

// killMasterReadSlave replicates messages of topic, kills the master and
// consumes them from the slave with group.
func killMasterReadSlave(ctx context.Context, env *Env, topic, group string) error {
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	prefix := runPrefix("slave-read")
	const n = 8
	if err := waitReplicated(ctx, env, topic, prefix, n); err != nil {
		return err
	}
	// The slave serves pulls of topics it has synced only: with the master
	// gone it cannot sync any more.
	if err := waitSlaveTopic(ctx, env, topic); err != nil {
		return err
	}
	return readSlaveWithoutMaster(ctx, env, topic, group, prefix, n)
}

// readSlaveWithoutMaster kills the master, checks the route keeps its
// queue data with the slave's address alone, has a Java consumer read the
// n messages of prefix from the slave, and starts the master again.
func readSlaveWithoutMaster(ctx context.Context, env *Env, topic, group, prefix string, n int) error {
	name := env.Brokers[0].Name
	if err := env.Nodes.KillBroker(0); err != nil {
		return err
	}
	// Java drops only the master's address: broker-a stays, with the slave
	// and with its queue data (RouteInfoManager.onChannelDestroy removes a
	// broker name's queue data only when no address of it is left).
	slaveOnly := map[string]string{"1": env.Slaves[0].Addr}
	if err := waitBrokerAddrs(ctx, env, topic, name, slaveOnly, brokerDropLimit); err != nil {
		return fmt.Errorf("after kill -9 of the master: %w", err)
	}
	_, ciBody, err := rawClusterInfo(ctx, env)
	if err != nil {
		return err
	}
	env.Observe("cluster info without the master", env.Mask(string(ciBody)))
	_, hasQueues, body, err := routeBrokerAddrs(ctx, env, topic, name)
	if err != nil {
		return err
	}
	if !hasQueues {
		return fmt.Errorf("route without the master lost %s's queue data: %s", name, body)
	}
	env.Observe("route without the master", env.Mask(string(body)))
	// The Java consumer finds the slave through that route and reads from it.
	got, err := javaReceive(ctx, env, topic, group, prefix, n)
	if err != nil {
		return fmt.Errorf("consuming from the slave: %w", err)
	}
	if len(got) != n {
		return fmt.Errorf("consumed %d of %d messages from the slave", len(got), n)
	}
	if err := env.Nodes.StartBroker(ctx, 0); err != nil {
		return err
	}
	if err := waitBrokerAddrs(ctx, env, topic, name, wantBrokerAddrs(env, 0), routeVisibleTimeout); err != nil {
		return fmt.Errorf("after restart of the master: %w", err)
	}
	return nil
}
