package scenario

// Name server: cluster info (GET_BROKER_CLUSTER_INFO 106), broker
// registration, expiry and unregistration, and what it does with codes it
// does not know. Java 4.9.8 mirror: DefaultRequestProcessor
// (getBrokerClusterInfo; processRequest returns null for unknown codes),
// RouteInfoManager (registerBroker, onChannelDestroy, unregisterBroker),
// BrokerHousekeepingService.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func init() {
	Register(
		&Scenario{
			Name: "namesrv/cluster-info/java-admin",
			Doc:  "DefaultMQAdminExt.examineBrokerClusterInfo lists every broker under the cluster with its id 0 address",
			Tags: []string{"quick", "namesrv", "javaclient"},
			Run:  clusterInfoJava,
		},
		&Scenario{
			Name: "namesrv/cluster-info/raw",
			Doc:  "raw GET_BROKER_CLUSTER_INFO in JSON and ROCKETMQ serialize types: same fastjson body, answered in the request's type",
			Tags: []string{"namesrv", "raw"},
			Run:  clusterInfoRaw,
		},
		&Scenario{
			Name:    "namesrv/broker-expiry/kill9",
			Doc:     "kill -9 of a broker: the name server drops it from cluster info and routes once the connection closes; it comes back after restart",
			Tags:    []string{"quick", "namesrv", "lifecycle"},
			Timeout: 2 * time.Minute,
			Run:     brokerExpiryKill9,
		},
		&Scenario{
			Name:    "namesrv/broker-unregister/sigterm",
			Doc:     "a gracefully stopped broker unregisters (UNREGISTER_BROKER) and disappears from routes; it comes back after restart",
			Tags:    []string{"namesrv", "lifecycle"},
			Timeout: 2 * time.Minute,
			Run:     brokerUnregisterSigterm,
		},
		&Scenario{
			Name: "namesrv/raw/unknown-code",
			Doc:  "the name server does not answer request codes it does not serve (9999, SEND_MESSAGE) and keeps the connection usable",
			Tags: []string{"quick", "namesrv", "raw"},
			Run:  unknownCode,
		},
	)
}

type javaClusterInfo struct {
	BrokerAddrTable map[string]struct {
		Cluster     string            `json:"cluster"`
		BrokerName  string            `json:"brokerName"`
		BrokerAddrs map[string]string `json:"brokerAddrs"`
	} `json:"brokerAddrTable"`
	ClusterAddrTable map[string][]string `json:"clusterAddrTable"`
}

// wantBrokerAddrs is the brokerAddrs of broker group i with every node
// running: {"0": master} plus {"1": slave} when the group has one.
func wantBrokerAddrs(env *Env, i int) map[string]string {
	m := map[string]string{"0": env.Brokers[i].Addr}
	if i < len(env.Slaves) {
		m["1"] = env.Slaves[i].Addr
	}
	return m
}

func clusterInfoJava(ctx context.Context, env *Env) error {
	var ci javaClusterInfo
	if err := env.Java.Admin(ctx, env.Namesrv, "examineBrokerClusterInfo", &ci); err != nil {
		return err
	}
	var names []string
	for i, b := range env.Brokers {
		names = append(names, b.Name)
		bd, ok := ci.BrokerAddrTable[b.Name]
		if !ok {
			return fmt.Errorf("brokerAddrTable lacks %s: %+v", b.Name, ci)
		}
		if want := wantBrokerAddrs(env, i); bd.Cluster != env.Cluster || bd.BrokerName != b.Name || !maps.Equal(bd.BrokerAddrs, want) {
			return fmt.Errorf("brokerAddrTable[%s] = %+v, want brokerAddrs %v", b.Name, bd, want)
		}
	}
	got := slices.Clone(ci.ClusterAddrTable[env.Cluster])
	slices.Sort(got)
	if !slices.Equal(got, names) || len(ci.ClusterAddrTable) != 1 {
		return fmt.Errorf("clusterAddrTable = %v, want {%s: %v}", ci.ClusterAddrTable, env.Cluster, names)
	}
	env.Observe("cluster info", env.Mask(prettyJSON(ci)))
	return nil
}

func clusterInfoRaw(ctx context.Context, env *Env) error {
	var bodies []string
	for _, st := range []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ} {
		req := rawclient.Request(codeGetBrokerClusterInfo)
		req.Serialize = st
		resp, err := rawCall(ctx, env, req)
		if err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
		if err := expectCode(st.String(), resp, respSuccess, "*"); err != nil {
			return err
		}
		if resp.Serialize != st {
			return fmt.Errorf("%s request answered in %s", st, resp.Serialize)
		}
		var ci rawclient.ClusterInfo
		if err := rawclient.UnmarshalFastJSON(resp.Body, &ci); err != nil {
			return fmt.Errorf("%s: body %s: %w", st, resp.Body, err)
		}
		for _, b := range env.Brokers {
			if ci.BrokerAddrTable[b.Name].BrokerAddrs["0"] != b.Addr {
				return fmt.Errorf("%s: %s missing from %s", st, b.Name, resp.Body)
			}
		}
		bodies = append(bodies, string(resp.Body))
	}
	if bodies[0] != bodies[1] {
		return fmt.Errorf("JSON and ROCKETMQ requests got different bodies:\n%s\n%s", bodies[0], bodies[1])
	}
	if len(env.Brokers) == 1 { // with one broker the fastjson text has one order
		env.Observe("body", env.Mask(bodies[0]))
	}
	return nil
}

// brokerGone checks that broker i is in neither cluster info nor topic's route.
func brokerGone(ctx context.Context, env *Env, i int, topic string) error {
	resp, err := rawCall(ctx, env, rawclient.Request(codeGetBrokerClusterInfo))
	if err != nil {
		return err
	}
	var ci rawclient.ClusterInfo
	if err := rawclient.UnmarshalFastJSON(resp.Body, &ci); err != nil {
		return err
	}
	name := env.Brokers[i].Name
	if bd, ok := ci.BrokerAddrTable[name]; ok && len(bd.BrokerAddrs) > 0 {
		return fmt.Errorf("%s still in cluster info: %s", name, resp.Body)
	}
	rd, err := rawRoute(ctx, env, topic, javaVersion409)
	var ce *codeError
	switch {
	case errors.As(err, &ce) && ce.Code == respTopicNotExist:
		return nil
	case err != nil:
		return err
	}
	for _, q := range rd.QueueDatas {
		if q.BrokerName == name {
			return fmt.Errorf("%s still routed for %s", name, topic)
		}
	}
	return nil
}

func brokerExpiryKill9(ctx context.Context, env *Env) error {
	return brokerLeaves(ctx, env, "ConfExpiry", env.Nodes.KillBroker)
}

func brokerUnregisterSigterm(ctx context.Context, env *Env) error {
	return brokerLeaves(ctx, env, "ConfUnregister", env.Nodes.StopBroker)
}

func brokerLeaves(ctx context.Context, env *Env, topic string, stop func(int) error) error {
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	t0 := time.Now()
	if err := stop(0); err != nil {
		return err
	}
	err := Eventually(ctx, registrationExpiryTimeout, 200*time.Millisecond, func() error {
		return brokerGone(ctx, env, 0, topic)
	})
	if err != nil {
		return err
	}
	env.Log.Printf("%s gone from the name server %s after it was stopped", env.Brokers[0].Name, time.Since(t0).Round(time.Millisecond))
	// A missing route is code 17 for the Java client too.
	if len(env.Brokers) == 1 {
		if err := env.Java.Admin(ctx, env.Namesrv, "examineTopicRouteInfo", nil, topic); err == nil {
			return fmt.Errorf("java client still gets a route for %s", topic)
		}
	}
	if err := env.Nodes.StartBroker(ctx, 0); err != nil {
		return err
	}
	return waitRoute(ctx, env, topic, len(env.Brokers))
}

func unknownCode(ctx context.Context, env *Env) error {
	c, err := rawclient.Dial(ctx, env.Namesrv)
	if err != nil {
		return err
	}
	defer c.Close()
	for _, code := range []int32{9999, 10 /* SEND_MESSAGE: a broker code */} {
		resp, err := c.Invoke(ctx, rawclient.Request(code), 1500*time.Millisecond)
		if err == nil {
			return fmt.Errorf("code %d answered: code %d remark %q", code, resp.Code, resp.Remark)
		}
		if !errors.Is(err, rawclient.ErrNoResponse) {
			return fmt.Errorf("code %d: %w", code, err)
		}
	}
	resp, err := c.Invoke(ctx, rawclient.Request(codeGetBrokerClusterInfo), defaultRawTimeout)
	if err != nil {
		return fmt.Errorf("connection unusable after unknown codes: %w", err)
	}
	return expectCode("GET_BROKER_CLUSTER_INFO after unknown codes", resp, respSuccess, "*")
}
