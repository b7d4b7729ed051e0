package scenario

import (
	"slices"
	"strings"
	"testing"
)

func TestCheckKeyOrder(t *testing.T) {
	msg := func(body string, q int) recvMsg { return recvMsg{Body: body, BrokerName: "broker-a", QueueID: q} }
	tests := []struct {
		name    string
		got     []recvMsg
		wantErr string
		want    string
	}{
		{"in order with a redelivery", []recvMsg{msg("p-key0-0", 1), msg("p-key1-0", 2), msg("p-key0-1", 1), msg("p-key0-0", 1), msg("p-key1-1", 2)}, "",
			"key0 -> broker-a:1\nkey1 -> broker-a:2"},
		{"out of order", []recvMsg{msg("p-key0-1", 1), msg("p-key0-0", 1), msg("p-key1-0", 2), msg("p-key1-1", 2)}, "order broken", ""},
		{"two queues", []recvMsg{msg("p-key0-0", 1), msg("p-key0-1", 3), msg("p-key1-0", 2), msg("p-key1-1", 2)}, "from queues", ""},
		{"missing", []recvMsg{msg("p-key0-0", 1), msg("p-key0-1", 1), msg("p-key1-0", 2)}, "1 of 2", ""},
		{"bad body", []recvMsg{msg("p-key0", 1)}, "unexpected body", ""},
		{"other prefixes ignored", []recvMsg{msg("q-key0-5", 1), msg("p-key0-0", 1), msg("p-key0-1", 1)}, "", "key0 -> broker-a:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := checkKeyOrder("p", tt.got, 2)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCheckDelivered(t *testing.T) {
	ss := specs("x", "T", 2)
	ok := func(i int) recvMsg {
		return recvMsg{Body: ss[i].Body, Tags: ss[i].Tags, Keys: ss[i].Keys, Props: ss[i].Props}
	}
	wrongProps := ok(1)
	wrongProps.Props = map[string]string{"idx": "1"}
	wrongTags := ok(1)
	wrongTags.Tags = "U"
	tests := []struct {
		name    string
		got     []recvMsg
		dupOK   bool
		wantErr string
	}{
		{"exact", []recvMsg{ok(1), ok(0)}, false, ""},
		{"duplicate refused", []recvMsg{ok(0), ok(1), ok(0)}, false, "twice"},
		{"duplicate allowed", []recvMsg{ok(0), ok(1), ok(0)}, true, ""},
		{"missing", []recvMsg{ok(0)}, false, "missing x-1"},
		{"unexpected", []recvMsg{ok(0), ok(1), {Body: "y-0"}}, false, "unexpected"},
		{"properties", []recvMsg{ok(0), wrongProps}, false, "user properties"},
		{"tags", []recvMsg{ok(0), wrongTags}, false, "tags"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkDelivered(ss, tt.got, tt.dupOK)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestCheckBatchOffsets(t *testing.T) {
	good := []sentMsg{{Body: "a", BrokerName: "b", QueueID: 1, QueueOffset: 5}, {Body: "b", BrokerName: "b", QueueID: 1, QueueOffset: 6}}
	if err := checkBatchOffsets(good); err != nil {
		t.Fatal(err)
	}
	gap := slices.Clone(good)
	gap[1].QueueOffset = 7
	if err := checkBatchOffsets(gap); err == nil {
		t.Fatal("offset gap accepted")
	}
	moved := slices.Clone(good)
	moved[1].QueueID = 2
	if err := checkBatchOffsets(moved); err == nil {
		t.Fatal("second queue accepted")
	}
}

func TestEvenSplit(t *testing.T) {
	for _, tt := range []struct {
		q, c int
		want []int
	}{{8, 1, []int{8}}, {8, 2, []int{4, 4}}, {8, 3, []int{2, 3, 3}}, {2, 3, []int{0, 1, 1}}} {
		if got := evenSplit(tt.q, tt.c); !slices.Equal(got, tt.want) {
			t.Errorf("evenSplit(%d, %d) = %v, want %v", tt.q, tt.c, got, tt.want)
		}
	}
}

func TestMaskAdmin(t *testing.T) {
	env := &Env{Namesrv: "127.0.0.1:9876", Brokers: []Broker{{Name: "broker-a", Addr: "127.0.0.1:10911"}}}
	in := "#ClientId   #ClientAddr    #Language\n" +
		"192.0.2.2@conf-broker-consumer0-2106-2 127.0.0.1:60030   JAVA\n" +
		"broker-a   0   2   2026-11-30 23:04:59,292\n" +
		"addr 127.0.0.1:10911\n\n" +
		"Consume TPS: 12.50\n"
	want := "#ClientId #ClientAddr #Language\n<clientId> <addr> JAVA\nbroker-a 0 2 <time>\naddr <broker-a>\nConsume TPS: <tps>"
	if got := maskAdmin(env, in); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBrokerStatusKeys(t *testing.T) {
	in := "brokerVersionDesc: V4_9_8\nputTps: 1.0 2.0\ncommitLogDiskRatio_/tmp/x/store/commitlog: 0.5\nbrokerVersion: 409\nno colon\n" +
		"putLatency99: 0.99\nputLatency999: 1\nputMessageDistributeTime: null\n" +
		"getMessageEntireTimeMax: 3\nputMessageEntireTimeMax: -1\n" +
		"scheduleMessageOffset_3: 4,5\nscheduleMessageOffset_2: x\n" +
		"putMessageDistributeTime: [<=0ms]:1 [0~10ms]:0 [10~50ms]:0 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0 "
	want := "brokerVersion: 409\nbrokerVersionDesc: V4_9_8\ncommitLogDiskRatio_<path>\ngetMessageEntireTimeMax: <shape>\n" +
		"putLatency999: 1\nputLatency99: <shape>\nputMessageDistributeTime: <shape>\nputMessageDistributeTime: <shape>\n" +
		"putMessageEntireTimeMax: -1\nputTps\nscheduleMessageOffset_2: x"
	if got := brokerStatusKeys(in); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDropRetryRows(t *testing.T) {
	in := "#Topic x\n%RETRY%G broker-a 0 0 0 0 N/A\nT broker-a 0 2 2 0 <time>"
	if got, want := dropRetryRows(in), "#Topic x\nT broker-a 0 2 2 0 <time>"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestBrokerScenariosTagged(t *testing.T) {
	n := 0
	for _, s := range All() {
		if !strings.HasPrefix(s.Name, "broker/") {
			continue
		}
		n++
		if !s.HasTag("broker") {
			t.Errorf("%s lacks the broker tag", s.Name)
		}
		if !s.HasTag("javaclient") && !s.HasTag("goclient") && !s.HasTag("mqadmin") {
			t.Errorf("%s names no client tag", s.Name)
		}
	}
	if n < 20 {
		t.Errorf("%d broker scenarios registered, want at least 20", n)
	}
}

func TestToolsCause(t *testing.T) {
	tests := []struct{ name, out, want string }{
		{"success", "create topic to 127.0.0.1:10911 success.\n", ""},
		{"deepest cause", "org.apache.rocketmq.tools.command.SubCommandException: TopicStatusSubCommand command failed\n" +
			"\tat org.apache.rocketmq.tools.command.MQAdminStartup.main0(MQAdminStartup.java:165)\n" +
			"Caused by: org.apache.rocketmq.client.exception.MQBrokerException: CODE: 3  DESC:  request type 351 not supported\n" +
			"\tat org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicConfig(MQClientAPIImpl.java:3078)\n",
			"org.apache.rocketmq.client.exception.MQBrokerException: CODE: 3  DESC:  request type 351 not supported"},
		{"no cause", "java.lang.IllegalStateException: boom\n\tat x.y(Z.java:1)\n", "java.lang.IllegalStateException: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toolsCause(tt.out); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestToolsMasks(t *testing.T) {
	ids := "C000020224384E0E2F2A1523E6C70000 FD00000000000000000000000000000224DF4E0E2F2A1523F8000000\nCommitLog Offset: 579"
	if got, want := maskMsgIDs(ids), "<msgId> <msgId>\nCommitLog Offset: <offset>"; got != want {
		t.Fatalf("maskMsgIDs: got %q, want %q", got, want)
	}
	cl := "#Cluster Name #Broker Name #BID #Addr #Version #InTPS(LOAD) #Hour #ACTIVATED\n" +
		"C1 broker-a 0 <broker-a> V4_9_8 12.50(0,3ms) 0.04 -1.0000 false"
	want := "#Cluster Name #Broker Name #BID #Addr #Version #InTPS(LOAD) #Hour #ACTIVATED\n" +
		"C1 broker-a 0 <broker-a> V4_9_8 N(N,Nms) N N false"
	if got := maskClusterRates(cl); got != want {
		t.Fatalf("maskClusterRates: got %q, want %q", got, want)
	}
}

func TestToolsRecordNamesRepeats(t *testing.T) {
	r := &toolsRun{}
	for _, n := range []string{"4.3.2 sendMessage", "4.3.2 sendMessage", "4.3.2 consumerProgress", "4.3.2 sendMessage"} {
		r.record(n, "x")
	}
	var names []string
	for _, o := range r.obs {
		names = append(names, o.Name)
	}
	want := []string{"4.3.2 sendMessage", "4.3.2 sendMessage #2", "4.3.2 consumerProgress", "4.3.2 sendMessage #3"}
	if !slices.Equal(names, want) {
		t.Fatalf("got %q, want %q", names, want)
	}
}
