package scenario

// Servers started with ROCKETMQ_SERIALIZE_TYPE=ROCKETMQ (issue #6: "JSON and
// ROCKETMQ binary headers"; Java's RemotingCommand reads the variable when
// the rocketmq.serialize.type property is unset). Both servers then print
// serializeType=ROCKETMQ in their boot lines (the harness checks every boot
// line against the type it started the server with), send their own
// requests in ROCKETMQ (a broker's registration, NOTIFY_CONSUMER_IDS_CHANGED)
// and write in ROCKETMQ what they answer outside a request's callback, while
// a request answered through its callback keeps the request's type. Clients
// of either kind, which speak JSON, must not notice.

import (
	"context"
	"fmt"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// serverSerialize is the type the servers of these scenarios run with.
const serverSerialize = "ROCKETMQ"

func init() {
	needs := Needs{Brokers: 1, Serialize: serverSerialize}
	Register(&Scenario{
		Name: "broker/raw/server-rocketmq-serialize",
		Doc: "a broker started with ROCKETMQ_SERIALIZE_TYPE=ROCKETMQ answers JSON requests in JSON through their callback and " +
			"in ROCKETMQ where Java writes the answer itself (a held pull whose hold ends, a found query or message by id, a " +
			"request that threw), and sends NOTIFY_CONSUMER_IDS_CHANGED in ROCKETMQ",
		Tags:    tags("quick", "raw", "javaclient"), // the topic is made with the Java admin client
		Needs:   needs,
		Timeout: brokerScenarioLimit,
		Run:     brokerServerRocketMQ,
	})
	Register(&Scenario{
		Name: "broker/send/server-rocketmq-serialize",
		Doc: "Java and client-go producers and push consumers, which speak JSON, work unchanged against servers started with " +
			"ROCKETMQ_SERIALIZE_TYPE=ROCKETMQ: every send mode, held pulls woken by later sends, an orderly consumer",
		Tags:    tags("javaclient", "goclient"),
		Needs:   needs,
		Timeout: brokerScenarioLimit,
		Run:     brokerServerRocketMQClients,
	})
	Register(&Scenario{
		Name: "namesrv/raw/server-rocketmq-serialize",
		Doc: "a name server started with ROCKETMQ_SERIALIZE_TYPE=ROCKETMQ answers the requests of namesrv/errors/bad-requests " +
			"in JSON through their callback and in ROCKETMQ where its processor throws",
		Tags:  []string{"namesrv", "raw"},
		Needs: needs,
		Run: func(ctx context.Context, env *Env) error {
			return namesrvSerialized(ctx, env, wire.SerializeJSON)
		},
	})
}

func brokerServerRocketMQ(ctx context.Context, env *Env) error {
	if err := serializedReadsAndWrites(ctx, env, "srvSerTopic", wire.SerializeJSON); err != nil {
		return err
	}
	if err := errorsIn(ctx, env, wire.SerializeJSON); err != nil {
		return err
	}
	return observeNotify(ctx, env)
}

// observeNotify joins two consumers of one group on two connections (raw
// HEART_BEATs) and records the NOTIFY_CONSUMER_IDS_CHANGED the second join
// sends to the first connection.
func observeNotify(ctx context.Context, env *Env) error {
	const topic, group = "srvSerTopic", "srvSerGroup"
	first, err := rawclient.Dial(ctx, env.Brokers[0].Addr)
	if err != nil {
		return err
	}
	defer first.Close()
	second, err := rawclient.Dial(ctx, env.Brokers[0].Addr)
	if err != nil {
		return err
	}
	defer second.Close()
	for i, c := range []*rawclient.Conn{first, second} {
		resp, err := rawHeartbeat(ctx, c, fmt.Sprintf("127.0.0.1@srvSer%d", i), group, topic, "CLUSTERING")
		if err != nil {
			return err
		}
		env.Observe(fmt.Sprintf("heartbeat %d", i), fmt.Sprintf("code %d in %v", resp.Code, resp.Serialize))
	}
	notify, err := first.ReadRequest(ctx, 10*time.Second)
	if err != nil {
		return fmt.Errorf("first consumer's connection: %w", err)
	}
	group2, _ := notify.ExtValue("consumerGroup")
	env.Observe("request to the first consumer", fmt.Sprintf("code %d in %v (%v, version %d, flag %d), ext keys %s consumerGroup=%s",
		notify.Code, notify.Serialize, notify.Language, notify.Version, notify.Flag, extKeyOrder(notify), group2))
	return nil
}

func brokerServerRocketMQClients(ctx context.Context, env *Env) error {
	if err := javaSerializeRoundTrip(ctx, env, "BrokerServerRocketMQ", "CONF_BROKER_SRMQ", "srmq", ""); err != nil {
		return err
	}
	return goSendModesRoundTrip(ctx, env, "BrokerServerRocketMQGo", "CONF_BROKER_SRMQ_GCG", "srmqg")
}
