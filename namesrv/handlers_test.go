package namesrv_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sputnikmq/sputnik/namesrv"
	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func StartTestNamesrv(t *testing.T, opts ...func(*namesrv.Options)) *namesrv.Server {
	t.Helper()
	return namesrvtest.StartTestNamesrv(t, opts...)
}

func request(code protocol.RequestCode, ext ...string) *wire.Command {
	req := wire.NewRequest(int32(code))
	for i := 0; i+1 < len(ext); i += 2 {
		req.AddExt(ext[i], ext[i+1])
	}
	return req
}

// registerReq is a broker's REGISTER_BROKER with a JSON body serving
// topics (name:queues pairs) at data version counter.
func registerReq(cluster, name string, id int, addr string, counter int, topics ...string) *wire.Command {
	req := request(protocol.ReqRegisterBroker, "brokerName", name, "brokerAddr", addr, "clusterName", cluster,
		"haServerAddr", addr+"0", "brokerId", strconv.Itoa(id), "compressed", "false", "bodyCrc32", "0")
	var b strings.Builder
	b.WriteString(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":` + strconv.Itoa(counter) + `,"timestamp":1},"topicConfigTable":{`)
	for i, tq := range topics {
		n, q, _ := strings.Cut(tq, ":")
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + n + `":{"perm":6,"readQueueNums":` + q + `,"topicName":"` + n + `","writeQueueNums":` + q + `}`)
	}
	b.WriteString(`}}}`)
	req.Body = []byte(b.String())
	return req
}

func routeReq(topic string) *wire.Command {
	return request(protocol.ReqGetRouteinfoByTopic, "topic", topic)
}

func mustCode(t *testing.T, resp *wire.Command, code protocol.ResponseCode) {
	t.Helper()
	if resp.Code != int32(code) {
		t.Fatalf("code %d remark %q, want %d", resp.Code, resp.Remark, code)
	}
}

// Java 4.9.8: DefaultRequestProcessor.processRequest returns null for
// codes it does not serve, so nothing is written back.
func TestUnknownCodesGetNoResponse(t *testing.T) {
	s := StartTestNamesrv(t)
	c := namesrvtest.Dial(t, s.Addr().String())
	for _, code := range []int32{9999, int32(protocol.ReqGetBrokerConfig), int32(protocol.ReqSendMessage), int32(protocol.ReqHeartBeat), -5} {
		c.Send(wire.NewRequest(code))
		probe := c.Call(request(protocol.ReqGetBrokerClusterInfo)) // fails if anything else arrives first
		mustCode(t, probe, protocol.RespSuccess)
	}
}

func TestMissingAndBadHeaderFields(t *testing.T) {
	s := StartTestNamesrv(t)
	c := namesrvtest.Dial(t, s.Addr().String())
	noID := registerReq("c", "a", 0, "h:1", 1)
	noID.Ext = noID.Ext[:4] // drop brokerId and the rest
	badID := registerReq("c", "a", 0, "h:1", 1)
	badID.SetExt("brokerId", "x")
	tests := []struct {
		name   string
		req    *wire.Command
		code   protocol.ResponseCode
		remark string
	}{
		// Java serves these as for a name nobody registered
		// (namesrv/errors/bad-requests compares them all).
		{"route without topic", request(protocol.ReqGetRouteinfoByTopic), protocol.RespTopicNotExist,
			"No topic route info in name server for the topic: null" + protocol.FAQSuggestTodo},
		{"register without brokerId", noID, protocol.RespSystemError, "the custom field <brokerId> is null"},
		{"register with bad brokerId", badID, protocol.RespSystemError, `the custom field <brokerId> is invalid: For input string: "x"`},
		{"put kv without key", request(protocol.ReqPutKvConfig, "namespace", "n", "value", "v"), protocol.RespSystemError, "namespace or key is null"},
		{"get kv without key", request(protocol.ReqGetKvConfig, "namespace", "n"), protocol.RespQueryNotFound, "No config item, Namespace: n Key: null"},
		{"topics by cluster without cluster", request(protocol.ReqGetTopicsByCluster), protocol.RespSuccess, ""},
		{"wipe without broker", request(protocol.ReqWipeWritePermOfBroker), protocol.RespSuccess, ""},
		{"unregister without brokerId", request(protocol.ReqUnregisterBroker, "brokerName", "b", "brokerAddr", "h:1", "clusterName", "c"),
			protocol.RespSystemError, "the custom field <brokerId> is null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := c.Call(tt.req)
			mustCode(t, resp, tt.code)
			if resp.Remark != tt.remark {
				t.Errorf("remark %q, want %q", resp.Remark, tt.remark)
			}
		})
	}
}

func TestRegisterBodyErrors(t *testing.T) {
	s := StartTestNamesrv(t)
	c := namesrvtest.Dial(t, s.Addr().String())
	crc := registerReq("c", "a", 0, "h:1", 1, "T:4")
	crc.SetExt("bodyCrc32", "7")
	noBodyCRC := registerReq("c", "a", 0, "h:1", 1)
	noBodyCRC.Body = nil
	noBodyCRC.SetExt("bodyCrc32", "1")
	badZip := registerReq("c", "a", 0, "h:1", 1)
	badZip.SetExt("compressed", "true")
	badJSON := registerReq("c", "a", 0, "h:1", 1)
	badJSON.Body = []byte("{")
	legacy := registerReq("c", "a", 0, "h:1", 1)
	legacy.Version = 36
	legacy.Body = []byte("[")
	badVersion := request(protocol.ReqQueryDataVersion, "brokerName", "a", "brokerAddr", "h:1", "clusterName", "c", "brokerId", "0")
	tests := []struct {
		name   string
		req    *wire.Command
		remark string // prefix
	}{
		{"crc mismatch", crc, "crc32 not match"},
		{"crc without body", noBodyCRC, "crc32 not match"},
		{"compressed garbage", badZip, "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody"},
		{"json garbage", badJSON, "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody"},
		{"legacy garbage", legacy, "com.alibaba.fastjson.JSONException: "},
		{"data version without body", badVersion, "com.alibaba.fastjson.JSONException: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := c.Call(tt.req)
			mustCode(t, resp, protocol.RespSystemError)
			if !strings.HasPrefix(resp.Remark, tt.remark) {
				t.Errorf("remark %q, want prefix %q", resp.Remark, tt.remark)
			}
		})
	}
	mustCode(t, c.Call(routeReq("T")), protocol.RespTopicNotExist)
}

func TestRegistrationAnswersInRequestSerializeType(t *testing.T) {
	s := StartTestNamesrv(t)
	c := namesrvtest.Dial(t, s.Addr().String())
	req := registerReq("c", "a", 0, "h:1", 1, "T:4")
	req.Serialize = wire.SerializeRocketMQ
	resp := c.Call(req)
	mustCode(t, resp, protocol.RespSuccess)
	route := routeReq("T")
	route.Serialize = wire.SerializeRocketMQ
	resp = c.Call(route)
	if resp.Serialize != wire.SerializeRocketMQ || resp.Code != 0 || resp.Version != wire.CurrentVersion {
		t.Fatalf("response %s", resp)
	}
}

func TestBrokerExpiresWithoutRegistration(t *testing.T) {
	clock := namesrvtest.NewClock(time.UnixMilli(1_700_000_000_000))
	s := StartTestNamesrv(t, func(o *namesrv.Options) {
		o.Now = clock.Now
		o.ScanDelay, o.ScanInterval = time.Millisecond, time.Millisecond
	})
	broker := namesrvtest.Dial(t, s.Addr().String())
	mustCode(t, broker.Call(registerReq("c", "a", 0, "h:1", 1, "T:4")), protocol.RespSuccess)
	admin := namesrvtest.Dial(t, s.Addr().String())

	clock.Advance(100 * time.Second)
	// An unchanged QUERY_DATA_VERSION refreshes the broker (forceRegister=false brokers).
	dv := request(protocol.ReqQueryDataVersion, "brokerName", "a", "brokerAddr", "h:1", "clusterName", "c", "brokerId", "0")
	dv.Body = []byte(`{"counter":1,"timestamp":1}`)
	resp := broker.Call(dv)
	if v, _ := resp.ExtValue("changed"); v != "false" || string(resp.Body) != `{"counter":1,"timestamp":1}` {
		t.Fatalf("QUERY_DATA_VERSION: changed=%s body=%s", v, resp.Body)
	}
	clock.Advance(100 * time.Second)
	mustCode(t, admin.Call(routeReq("T")), protocol.RespSuccess)

	clock.Advance(21 * time.Second)
	waitFor(t, "the broker to expire", func() bool {
		return admin.Call(routeReq("T")).Code == int32(protocol.RespTopicNotExist)
	})
	// Java closes the expired broker's channel.
	if _, err := readUntilError(broker); !errors.Is(err, io.EOF) {
		t.Errorf("broker connection: %v", err)
	}
}

// readUntilError reads frames off a client whose connection the server
// closes.
func readUntilError(c *namesrvtest.Client) (*wire.Command, error) {
	return c.TryRead(10 * time.Second)
}

func TestBrokerLeavesWhenItsConnectionCloses(t *testing.T) {
	s := StartTestNamesrv(t)
	master := namesrvtest.Dial(t, s.Addr().String())
	slave := namesrvtest.Dial(t, s.Addr().String())
	admin := namesrvtest.Dial(t, s.Addr().String())
	mustCode(t, master.Call(registerReq("c", "a", 0, "h:1", 1, "T:4")), protocol.RespSuccess)
	resp := slave.Call(registerReq("c", "a", 1, "h:2", 1, "T:4"))
	if m, _ := resp.ExtValue("masterAddr"); m != "h:1" {
		t.Fatalf("slave's masterAddr %q", m)
	}
	if ha, _ := resp.ExtValue("haServerAddr"); ha != "h:10" {
		t.Fatalf("slave's haServerAddr %q", ha)
	}
	master.Close()
	waitFor(t, "the master to leave", func() bool {
		return string(admin.Call(routeReq("T")).Body) == `{"brokerDatas":[{"brokerAddrs":{"1":"h:2"},"brokerName":"a","cluster":"c"}],"filterServerTable":{},`+
			`"queueDatas":[{"brokerName":"a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}`
	})
	slave.Close()
	waitFor(t, "the group to leave", func() bool {
		return admin.Call(routeReq("T")).Code == int32(protocol.RespTopicNotExist)
	})
}

func TestConfigBlackList(t *testing.T) {
	s := StartTestNamesrv(t, func(o *namesrv.Options) { o.Config.ConfigBlackList = "listenPort;" })
	c := namesrvtest.Dial(t, s.Addr().String())
	update := func(body string) *wire.Command {
		req := request(protocol.ReqUpdateNamesrvConfig)
		req.Body = []byte(body)
		return c.Call(req)
	}
	// 4.9.8 always refuses the four keys, plus configBlackList's.
	for _, body := range []string{"rocketmqHome=/x", "kvConfigPath=/x", "configStorePath=/x", "configBlackList=", "listenPort=1", "a=b\nlistenPort=1"} {
		resp := update(body)
		if resp.Code != int32(protocol.RespNoPermission) || resp.Remark != "Can not update config in black list." {
			t.Errorf("%q: %d %q", body, resp.Code, resp.Remark)
		}
	}
	resp := update(`clusterTest=\uZZZZ`)
	if resp.Code != int32(protocol.RespSystemError) || resp.Remark != "string2Properties error" {
		t.Errorf("malformed body: %d %q", resp.Code, resp.Remark)
	}
	mustCode(t, update("productEnvName=test"), protocol.RespSuccess)
	get := c.Call(request(protocol.ReqGetNamesrvConfig))
	if !strings.Contains(string(get.Body), "\nproductEnvName=test\n") && !strings.HasPrefix(string(get.Body), "productEnvName=test\n") {
		t.Errorf("config %s", get.Body)
	}
}

func TestKVConfigSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv", "kvConfig.json")
	withPath := func(o *namesrv.Options) { o.Config.KvConfigPath = path }
	ctx := context.Background()

	s := namesrvtest.StartTestNamesrv(t, withPath)
	c := namesrvtest.Dial(t, s.Addr().String())
	mustCode(t, c.Call(request(protocol.ReqPutKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "T", "value", "a:4")), protocol.RespSuccess)
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	s = namesrvtest.StartTestNamesrv(t, withPath)
	c = namesrvtest.Dial(t, s.Addr().String())
	resp := c.Call(request(protocol.ReqGetKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "T"))
	if v, _ := resp.ExtValue("value"); resp.Code != 0 || v != "a:4" {
		t.Fatalf("after restart: %d %q", resp.Code, v)
	}
	// REGISTER_BROKER answers with the ORDER_TOPIC_CONFIG namespace.
	reg := c.Call(registerReq("c", "a", 0, "h:1", 1, "T:4"))
	if string(reg.Body) != `{"table":{"T":"a:4"}}` {
		t.Errorf("register body %s", reg.Body)
	}
}

// clusterTest mode (ClusterTestRequestProcessor): routes unknown here come
// from the product environment's name servers; the order configuration is
// always attached; the body is always fastjson's form.
func TestClusterTestModeFallsBackToProductNamesrv(t *testing.T) {
	product := StartTestNamesrv(t)
	pc := namesrvtest.Dial(t, product.Addr().String())
	mustCode(t, pc.Call(registerReq("prod", "p", 0, "h:9", 1, "ProdTopic:2")), protocol.RespSuccess)

	s := StartTestNamesrv(t, func(o *namesrv.Options) {
		o.Config.ClusterTest = true
		o.ProductNamesrvAddr = "127.0.0.1:1;" + product.Addr().String()
	})
	c := namesrvtest.Dial(t, s.Addr().String())
	resp := c.Call(routeReq("ProdTopic")) // version 409: still fastjson form
	want := `{"brokerDatas":[{"brokerAddrs":{0:"h:9"},"brokerName":"p","cluster":"prod"}],"filterServerTable":{},` +
		`"queueDatas":[{"brokerName":"p","perm":6,"readQueueNums":2,"topicSysFlag":0,"writeQueueNums":2}]}`
	if resp.Code != 0 || string(resp.Body) != want {
		t.Fatalf("fallback route: %d %s", resp.Code, resp.Body)
	}
	mustCode(t, c.Call(request(protocol.ReqPutKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "Local", "value", "x:1")), protocol.RespSuccess)
	mustCode(t, c.Call(registerReq("c", "x", 0, "h:1", 1, "Local:1")), protocol.RespSuccess)
	if body := string(c.Call(routeReq("Local")).Body); !strings.Contains(body, `"orderTopicConf":"x:1"`) || !strings.Contains(body, `{0:"h:1"}`) {
		t.Errorf("local route %s", body)
	}
	mustCode(t, c.Call(routeReq("Nowhere")), protocol.RespTopicNotExist)
}
