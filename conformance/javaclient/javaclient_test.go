package javaclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With JAVACLIENT_FAKE set the test binary plays the Java driver: it
// ignores the JVM flags, says ready and answers requests: "ping" with
// pong, "mqadmin" by echoing its args (and $ROCKETMQ_HOME/conf/tools.yml
// as err), "admin" with an error carrying code
// 17, "route" with one queue, and "hang" never.
func TestMain(m *testing.M) {
	if os.Getenv("JAVACLIENT_FAKE") != "" {
		fakeDriver()
		return
	}
	os.Exit(m.Run())
}

func fakeDriver() {
	fmt.Println(`{"id":0,"ok":true,"result":"ready"}`)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var req map[string]any
		json.Unmarshal(sc.Bytes(), &req)
		id := req["id"]
		switch req["op"] {
		case "ping":
			fmt.Printf(`{"id":%v,"ok":true,"result":"pong"}`+"\n", id)
		case "mqadmin":
			b, _ := json.Marshal(req["args"])
			tools, _ := os.ReadFile(filepath.Join(os.Getenv("ROCKETMQ_HOME"), "conf", "tools.yml"))
			fmt.Printf(`{"id":%v,"ok":true,"out":%q,"err":%q}`+"\n", id, string(b), string(tools))
		case "admin":
			fmt.Printf(`{"id":%v,"ok":false,"error":"MQClientException: CODE: 17","code":17}`+"\n", id)
		case "route":
			fmt.Printf(`{"id":%v,"ok":true,"result":[{"topic":"T","brokerName":"broker-a","queueId":0}]}`+"\n", id)
		case "produce":
			fmt.Printf(`{"id":%v,"ok":true,"result":[{"body":"%v-0","status":"SEND_OK","brokerName":"broker-a","queueId":1,"msgId":"M"}]}`+"\n", id, req["prefix"])
		case "consume":
			fmt.Printf(`{"id":%v,"ok":true,"result":{"complete":%v,"messages":[{"body":"%v-0","brokerName":"broker-b","queueId":2,"queueOffset":7,"msgId":"M"}]}}`+"\n",
				id, req["timeoutMs"].(float64) > 0, req["prefix"])
		case "exit":
			fmt.Printf(`{"id":%v,"ok":true,"result":"exit"}`+"\n", id)
			return
		case "hang":
		}
	}
}

func fakeJava(t *testing.T) Config {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	java := filepath.Join(dir, "java")
	script := fmt.Sprintf("#!/bin/sh\nJAVACLIENT_FAKE=1 exec %q\n", exe)
	if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return Config{Java: java, Dir: dir, Home: dir, LogFile: filepath.Join(dir, "driver.log")}
}

func TestDriverProtocol(t *testing.T) {
	d := New(fakeJava(t))
	defer d.Close()
	ctx := context.Background()
	if err := d.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := d.MQAdmin(ctx, "clusterList", "-n", "x")
	if err != nil || out != `["clusterList","-n","x"]` {
		t.Fatalf("MQAdmin = %q, %v", out, err)
	}
	err = d.Admin(ctx, "ns", "examineTopicRouteInfo", nil, "T")
	if CodeOf(err) != 17 || !strings.Contains(err.Error(), "CODE: 17") {
		t.Fatalf("Admin error %v", err)
	}
	qs, err := d.PublishQueues(ctx, "ns", "T")
	if err != nil || len(qs) != 1 || qs[0].BrokerName != "broker-a" {
		t.Fatalf("PublishQueues = %v, %v", qs, err)
	}
	sent, err := d.Produce(ctx, "ns", "T", "PG", "p1", 1)
	if err != nil || len(sent) != 1 || sent[0] != (Sent{Body: "p1-0", Status: "SEND_OK", BrokerName: "broker-a", QueueID: 1, MsgID: "M"}) {
		t.Fatalf("Produce = %+v, %v", sent, err)
	}
	got, complete, err := d.Consume(ctx, "ns", "T", "CG", "p1", 1, time.Second)
	if err != nil || !complete || len(got) != 1 || got[0] != (Received{Body: "p1-0", BrokerName: "broker-b", QueueID: 2, QueueOffset: 7, MsgID: "M"}) {
		t.Fatalf("Consume = %+v, %v, %v", got, complete, err)
	}
}

func TestMQAdminAs(t *testing.T) {
	cfg := fakeJava(t)
	if err := os.MkdirAll(filepath.Join(cfg.Home, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := New(cfg)
	defer d.Close()
	ctx := context.Background()
	out, tools, err := d.MQAdminAs(ctx, Credentials{AccessKey: "ak1", SecretKey: "sk1"}, "clusterAclConfigVersion")
	if err != nil || out != `["clusterAclConfigVersion"]` || tools != "accessKey: \"ak1\"\nsecretKey: \"sk1\"\n" {
		t.Fatalf("MQAdminAs = %q, %q, %v", out, tools, err)
	}
	// The file is gone afterwards: plain MQAdmin calls stay unsigned.
	if _, tools, err := d.MQAdmin(ctx, "clusterAclConfigVersion"); err != nil || tools != "" {
		t.Fatalf("MQAdmin after MQAdminAs saw tools.yml %q, %v", tools, err)
	}
}

func TestDriverTimeoutRestarts(t *testing.T) {
	d := New(fakeJava(t))
	defer d.Close()
	ctx := context.Background()
	if _, err := d.call(ctx, map[string]any{"op": "hang"}, 200*time.Millisecond); err == nil {
		t.Fatal("hang answered")
	}
	// The hung driver was killed; the next call starts a fresh one.
	if err := d.Ping(ctx); err != nil {
		t.Fatalf("no restart after timeout: %v", err)
	}
}

func TestMQAdminFailed(t *testing.T) {
	if !MQAdminFailed("", "org.apache.rocketmq.tools.command.SubCommandException: TopicRouteSubCommand command failed") {
		t.Error("exception not detected")
	}
	if MQAdminFailed("create topic to 127.0.0.1:1 success.\n", "") {
		t.Error("success taken for failure")
	}
}

func TestCredentialsAddTo(t *testing.T) {
	p := Credentials{AccessKey: "RocketMQ", SecretKey: "12345678"}.AddTo(map[string]any{"op": "produce"})
	if p["accessKey"] != "RocketMQ" || p["secretKey"] != "12345678" || p["op"] != "produce" {
		t.Errorf("AddTo = %v", p)
	}
	if p := (Credentials{}).AddTo(map[string]any{"op": "pull"}); len(p) != 1 {
		t.Errorf("zero Credentials added keys: %v", p)
	}
}
