package namesrv_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// The Java side of the conversation: 4.9.8's own NettyRemotingClient
// (compat/java NamesrvReplay) replays the golden scenario against Sputnik's
// name server and must print exactly what it printed against Java's, so the
// Java client decodes every response (both serializations) the same way.
func TestJavaClientReplayMatchesGolden(t *testing.T) {
	s, dir := startGoldenNamesrv(t)
	scenario, err := filepath.Abs("testdata/scenario.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := oracle.Run(t, "", nil, "NamesrvReplay", s.Addr().String(), scenario)
	got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(out, dir, "$DIR"), "\n"), "\n")
	want := readLines(t, "testdata/java_replay.golden")
	for i := range max(len(got), len(want)) {
		if g, w := lineAt(got, i), lineAt(want, i); g != w {
			t.Errorf("step %d differs:\n got %s\nwant %s", i, g, w)
		}
	}
	compareFile(t, filepath.Join(dir, "kv", "kvConfig.json"), "testdata/java_kvConfig.golden.json", dir)
	if _, err := os.Stat(filepath.Join(dir, "namesrv.conf.bak")); err != nil {
		t.Errorf("no namesrv.conf.bak after UPDATE_NAMESRV_CONFIG: %v", err)
	}
}

// The 4.9.8 producer turns our route into message queues, over JSON and
// ROCKETMQ headers.
func TestJavaProducerReadsRoute(t *testing.T) {
	s := StartTestNamesrv(t)
	c := namesrvtest.Dial(t, s.Addr().String())
	mustCode(t, c.Call(registerReq("DefaultCluster", "broker-a", 0, "127.0.0.1:1", 1, "JavaTopic:2")), protocol.RespSuccess)
	mustCode(t, c.Call(registerReq("DefaultCluster", "broker-b", 0, "127.0.0.1:2", 1, "JavaTopic:3")), protocol.RespSuccess)
	want := "mq broker-a 0\nmq broker-a 1\nmq broker-b 0\nmq broker-b 1\nmq broker-b 2\n"
	for _, props := range [][]string{nil, {"-Drocketmq.serialize.type=ROCKETMQ"}} {
		if got := oracle.Run(t, "", props, "ClientRoute", s.Addr().String(), "JavaTopic"); got != want {
			t.Errorf("%v: got\n%swant\n%s", props, got, want)
		}
	}
}
