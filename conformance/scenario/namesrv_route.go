package scenario

// Name server: topic routes (GET_ROUTEINFO_BY_TOPIC, 105) as the Java
// client, client-go and raw frames see them. Java 4.9.8 mirror:
// DefaultRequestProcessor.getRouteInfoByTopic, RouteInfoManager.pickupTopicRouteData.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	goerrors "github.com/apache/rocketmq-client-go/v2/errors"
	"github.com/apache/rocketmq-client-go/v2/primitive"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func init() {
	Register(
		&Scenario{
			Name: "namesrv/route/java-producer",
			Doc:  "a topic created on the broker is routed to the Java DefaultMQProducer (fetchPublishMessageQueues)",
			Tags: []string{"quick", "namesrv", "javaclient"},
			Run:  routeJavaProducer,
		},
		&Scenario{
			Name: "namesrv/route/go-admin",
			Doc:  "a topic created with client-go admin.CreateTopic is routed to client-go and to the Java client alike",
			Tags: []string{"quick", "namesrv", "goclient"},
			Run:  routeGoAdmin,
		},
		&Scenario{
			Name: "namesrv/route/topic-not-exist-raw",
			Doc:  "route of a missing topic: code 17 TOPIC_NOT_EXIST with Java's remark, in the request's serialize type, version 409",
			Tags: []string{"quick", "namesrv", "raw"},
			Run:  routeMissingRaw,
		},
		&Scenario{
			Name: "namesrv/route/topic-not-exist-clients",
			Doc:  "route of a missing topic: Java admin gets MQClientException code 17, client-go gets ErrTopicNotExist",
			Tags: []string{"namesrv", "javaclient", "goclient"},
			Run:  routeMissingClients,
		},
		&Scenario{
			Name: "namesrv/route/json-dialects",
			Doc:  "route body is standard JSON for version >= 4.9.4 or acceptStandardJsonOnly, fastjson (bare numeric keys) for client-go's 317",
			Tags: []string{"namesrv", "raw"},
			Run:  routeJSONDialects,
		},
		&Scenario{
			Name: "namesrv/route/broker-system-topics",
			Doc:  "the broker registers topics named after its cluster and itself, and TBW102; the name server routes them",
			Tags: []string{"quick", "namesrv", "raw"},
			Run:  routeBrokerTopics,
		},
	)
}

func routeJavaProducer(ctx context.Context, env *Env) error {
	const topic = "ConfRouteJava"
	if err := createTopic(ctx, env, topic, 4, 6); err != nil {
		return err
	}
	want := expectedQueues(env, topic, 4)
	var got string
	err := Eventually(ctx, routeVisibleTimeout, 300*time.Millisecond, func() error {
		qs, err := env.Java.PublishQueues(ctx, env.Namesrv, topic)
		if err != nil {
			return err
		}
		got = queuesString(qs, func(q javaclient.Queue) (string, string, int) { return q.Topic, q.BrokerName, q.QueueID })
		if got != want {
			return fmt.Errorf("java queues %q, want %q", got, want)
		}
		return nil
	})
	if err != nil {
		return err
	}
	env.Observe("java queues", got)
	return nil
}

func goPublishQueues(ctx context.Context, env *Env, topic string) (string, error) {
	adm, err := goAdmin(env)
	if err != nil {
		return "", err
	}
	defer adm.Close()
	mqs, err := adm.FetchPublishMessageQueues(ctx, topic)
	if err != nil {
		return "", err
	}
	return queuesString(mqs, func(q *primitive.MessageQueue) (string, string, int) { return q.Topic, q.BrokerName, q.QueueId }), nil
}

func routeGoAdmin(ctx context.Context, env *Env) error {
	const topic = "ConfRouteGo"
	adm, err := goAdmin(env)
	if err != nil {
		return err
	}
	for _, b := range env.Brokers {
		err := adm.CreateTopic(ctx, admin.WithTopicCreate(topic), admin.WithBrokerAddrCreate(b.Addr),
			admin.WithReadQueueNums(4), admin.WithWriteQueueNums(4))
		if err != nil {
			adm.Close()
			return fmt.Errorf("client-go CreateTopic on %s: %w", b.Name, err)
		}
	}
	adm.Close()
	want := expectedQueues(env, topic, 4)
	var goQueues string
	err = Eventually(ctx, routeVisibleTimeout, 300*time.Millisecond, func() error {
		got, err := goPublishQueues(ctx, env, topic)
		if err != nil {
			return fmt.Errorf("client-go FetchPublishMessageQueues: %w", err)
		}
		if got != want {
			return fmt.Errorf("client-go queues %q, want %q", got, want)
		}
		goQueues = got
		return nil
	})
	if err != nil {
		return err
	}
	qs, err := env.Java.PublishQueues(ctx, env.Namesrv, topic)
	if err != nil {
		return fmt.Errorf("java fetchPublishMessageQueues: %w", err)
	}
	javaQueues := queuesString(qs, func(q javaclient.Queue) (string, string, int) { return q.Topic, q.BrokerName, q.QueueID })
	if javaQueues != goQueues {
		return fmt.Errorf("java client sees %q, client-go %q", javaQueues, goQueues)
	}
	env.Observe("queues", goQueues)
	return nil
}

func routeMissingRaw(ctx context.Context, env *Env) error {
	const topic = "ConfNoSuchTopic"
	want := topicNotExistRemarkPrefix + topic + faqSuffix
	for _, st := range []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ} {
		req := rawclient.Request(codeGetRouteInfoByTopic, "topic", topic)
		req.Serialize = st
		resp, err := rawCall(ctx, env, req)
		if err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
		if err := expectCode(st.String(), resp, respTopicNotExist, want); err != nil {
			return err
		}
		if resp.Serialize != st {
			return fmt.Errorf("%s request answered in %s", st, resp.Serialize)
		}
		if !resp.IsResponse() || resp.IsOneway() {
			return fmt.Errorf("%s: response flag %b", st, resp.Flag)
		}
		if resp.Version != javaVersion409 {
			return fmt.Errorf("%s: response version %d, want 409", st, resp.Version)
		}
		if resp.Language != wire.LanguageJava {
			return fmt.Errorf("%s: response language %s, want JAVA", st, resp.Language)
		}
		if len(resp.Body) != 0 {
			return fmt.Errorf("%s: unexpected body %q", st, resp.Body)
		}
	}
	return nil
}

func routeMissingClients(ctx context.Context, env *Env) error {
	const topic = "ConfNoSuchTopic2"
	err := env.Java.Admin(ctx, env.Namesrv, "examineTopicRouteInfo", nil, topic)
	if code := javaclient.CodeOf(err); code != int(respTopicNotExist) {
		return fmt.Errorf("java examineTopicRouteInfo: want code %d, got %v", respTopicNotExist, err)
	}
	if !strings.Contains(err.Error(), topicNotExistRemarkPrefix+topic) {
		return fmt.Errorf("java examineTopicRouteInfo: remark lacks %q: %v", topicNotExistRemarkPrefix+topic, err)
	}
	if _, err := env.Java.PublishQueues(ctx, env.Namesrv, topic); err == nil {
		return errors.New("java fetchPublishMessageQueues of a missing topic succeeded")
	}
	_, err = goPublishQueues(ctx, env, topic)
	if !errors.Is(err, goerrors.ErrTopicNotExist) {
		return fmt.Errorf("client-go FetchPublishMessageQueues: want ErrTopicNotExist, got %v", err)
	}
	return nil
}

func routeJSONDialects(ctx context.Context, env *Env) error {
	const topic = "ConfRouteDialects"
	if err := createTopic(ctx, env, topic, 2, 6); err != nil {
		return err
	}
	cases := []struct {
		name     string
		version  int32
		standard string // acceptStandardJsonOnly, "" = absent
		strict   bool   // body must parse as standard JSON
	}{
		{"v409", javaVersion409, "", true},
		{"v317", clientGoVersion, "", false},
		{"v317+acceptStandardJsonOnly", clientGoVersion, "true", true},
	}
	for _, c := range cases {
		req := rawclient.Request(codeGetRouteInfoByTopic, "topic", topic)
		if c.standard != "" {
			req.AddExt("acceptStandardJsonOnly", c.standard)
		}
		req.Version = c.version
		resp, err := rawCall(ctx, env, req)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if err := expectCode(c.name, resp, respSuccess, "*"); err != nil {
			return err
		}
		var rd rawclient.TopicRouteData
		strictErr := json.Unmarshal(resp.Body, &rd)
		if c.strict && strictErr != nil {
			return fmt.Errorf("%s: body is not standard JSON (%v): %s", c.name, strictErr, resp.Body)
		}
		if !c.strict {
			if strictErr == nil {
				return fmt.Errorf("%s: want fastjson's bare numeric keys, got standard JSON: %s", c.name, resp.Body)
			}
			if err := rawclient.UnmarshalFastJSON(resp.Body, &rd); err != nil {
				return fmt.Errorf("%s: %w: %s", c.name, err, resp.Body)
			}
		}
		if len(rd.QueueDatas) != len(env.Brokers) || rd.QueueDatas[0].ReadQueueNums != 2 || rd.QueueDatas[0].Perm != 6 {
			return fmt.Errorf("%s: unexpected route %s", c.name, resp.Body)
		}
		env.Observe("body "+c.name, env.Mask(string(resp.Body)))
	}
	return nil
}

func routeBrokerTopics(ctx context.Context, env *Env) error {
	topics := []string{env.Cluster, "TBW102"}
	for _, b := range env.Brokers {
		topics = append(topics, b.Name)
	}
	for _, topic := range topics {
		rd, err := rawRoute(ctx, env, topic, javaVersion409)
		if err != nil {
			return fmt.Errorf("route of %s: %w", topic, err)
		}
		if len(rd.BrokerDatas) == 0 || len(rd.QueueDatas) == 0 {
			return fmt.Errorf("route of %s is empty", topic)
		}
		env.Observe("route "+topic, env.Mask(prettyJSON(rd)))
	}
	return nil
}
