package routeinfo

import (
	"strings"
	"testing"
	"time"
)

// Behaviours of RouteInfoManager (Java 4.9.8) pinned on the table alone;
// the wire-level versions live in namesrv's tests and golden scenario.

type fakeConn struct{ closed int }

func (c *fakeConn) Close() error { c.closed++; return nil }

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newTable(t *testing.T) (*Table, *clock) {
	t.Helper()
	c := &clock{now: time.UnixMilli(1_700_000_000_000)}
	return New(Options{Now: c.Now}), c
}

func topics(v int64, tcs ...TopicConfig) TopicConfigWrapper {
	return TopicConfigWrapper{DataVersion: DataVersion{Timestamp: 1000, Counter: v}, Topics: tcs}
}

func topic(name string, queues, perm int32) TopicConfig {
	return TopicConfig{TopicName: name, ReadQueueNums: queues, WriteQueueNums: queues, Perm: perm, TopicFilterType: "SINGLE_TAG"}
}

func reg(cluster, name string, id int64, addr string, w TopicConfigWrapper, conn Conn) *Registration {
	return &Registration{ClusterName: cluster, BrokerName: name, BrokerID: id, BrokerAddr: addr,
		HAServerAddr: addr + "-ha", Topics: w, Conn: conn}
}

func routeJSON(t *testing.T, tb *Table, topic string) string {
	t.Helper()
	rd, ok := tb.PickupTopicRouteData(topic)
	if !ok {
		return "<none>"
	}
	return string(rd.AppendJSON(nil, false))
}

func TestRegisterTwoBrokersOneCluster(t *testing.T) {
	tb, _ := newTable(t)
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), nil))
	tb.RegisterBroker(reg("c", "b", 0, "h:2", topics(1, topic("T", 2, 6), topic("U", 1, 6)), nil))
	want := `{"brokerDatas":[{"brokerAddrs":{0:"h:1"},"brokerName":"a","cluster":"c"},{"brokerAddrs":{0:"h:2"},"brokerName":"b","cluster":"c"}],"filterServerTable":{},` +
		`"queueDatas":[{"brokerName":"a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4},{"brokerName":"b","perm":6,"readQueueNums":2,"topicSysFlag":0,"writeQueueNums":2}]}`
	if got := routeJSON(t, tb, "T"); got != want {
		t.Errorf("route T\n got %s\nwant %s", got, want)
	}
	ci := string(tb.ClusterInfo().AppendJSON(nil))
	if !strings.Contains(ci, `"clusterAddrTable":{"c":["a","b"]}`) {
		t.Errorf("cluster info %s", ci)
	}
	if got := tb.TopicsByCluster("c").Topics; len(got) != 2 {
		t.Errorf("topics by cluster %v", got)
	}
}

func TestSlaveLearnsMasterAndQueueDataComesFromMasterOnly(t *testing.T) {
	tb, _ := newTable(t)
	// A slave registering first gets no master and adds no queue data.
	res := tb.RegisterBroker(reg("c", "a", 1, "h:2", topics(1, topic("T", 4, 6)), nil))
	if res != (RegisterResult{}) {
		t.Errorf("slave without master got %+v", res)
	}
	if got := routeJSON(t, tb, "T"); got != "<none>" {
		t.Errorf("slave created a route: %s", got)
	}
	if res := tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), nil)); res != (RegisterResult{}) {
		t.Errorf("master got %+v", res)
	}
	res = tb.RegisterBroker(reg("c", "a", 1, "h:2", topics(9, topic("T", 8, 6)), nil))
	if res != (RegisterResult{HAServerAddr: "h:1-ha", MasterAddr: "h:1"}) {
		t.Errorf("slave got %+v", res)
	}
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `"readQueueNums":4`) || !strings.Contains(got, `{0:"h:1",1:"h:2"}`) {
		t.Errorf("route %s", got)
	}
}

func TestQueueDataRebuiltOnlyWhenVersionChanges(t *testing.T) {
	tb, _ := newTable(t)
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), nil))
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 1, 2), topic("New", 1, 6)), nil))
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `"perm":6,"readQueueNums":4`) {
		t.Errorf("same version changed the route: %s", got)
	}
	if got := routeJSON(t, tb, "New"); got != "<none>" {
		t.Errorf("same version added a topic: %s", got)
	}
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(2, topic("New", 1, 6)), nil))
	if got := routeJSON(t, tb, "New"); got == "<none>" {
		t.Error("new version did not add the topic")
	}
	// Topics the broker no longer lists stay (Java only adds and updates).
	if got := routeJSON(t, tb, "T"); got == "<none>" {
		t.Error("topic dropped by a new version")
	}
}

func TestSameAddrNewIDReplacesOldEntry(t *testing.T) {
	tb, _ := newTable(t)
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), nil))
	tb.RegisterBroker(reg("c", "a", 1, "h:2", topics(1), nil))
	tb.RegisterBroker(reg("c", "a", 3, "h:2", topics(1), nil)) // h:2 now has id 3
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `{0:"h:1",3:"h:2"}`) {
		t.Errorf("route %s", got)
	}
}

func TestUnregisterRemovesGroupClusterAndTopics(t *testing.T) {
	tb, _ := newTable(t)
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), nil))
	tb.RegisterBroker(reg("c", "a", 1, "h:2", topics(1), nil))
	tb.UnregisterBroker("c", "h:1", "a", 0)
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `{1:"h:2"}`) {
		t.Errorf("after master left: %s", got)
	}
	tb.UnregisterBroker("c", "h:2", "a", 1)
	if got := routeJSON(t, tb, "T"); got != "<none>" {
		t.Errorf("after group left: %s", got)
	}
	if got := string(tb.ClusterInfo().AppendJSON(nil)); got != `{"brokerAddrTable":{},"clusterAddrTable":{}}` {
		t.Errorf("cluster info %s", got)
	}
	if got := tb.AllTopics().Topics; len(got) != 0 {
		t.Errorf("topics %v", got)
	}
}

func TestExpiryAndConnClose(t *testing.T) {
	tb, clk := newTable(t)
	ca, cb := &fakeConn{}, &fakeConn{}
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), ca))
	tb.RegisterBroker(reg("c", "b", 0, "h:2", topics(1, topic("T", 4, 6)), cb))

	clk.now = clk.now.Add(BrokerExpiry) // not yet: Java wants last + 120 s < now
	if n := tb.ScanNotActiveBrokers(); n != 0 {
		t.Fatalf("expired %d at exactly 120 s", n)
	}
	// A QUERY_DATA_VERSION with an unchanged version counts as a sign of life.
	if changed, _, _ := tb.QueryDataVersion("h:2", DataVersion{Timestamp: 1000, Counter: 1}); changed {
		t.Fatal("version reported changed")
	}
	clk.now = clk.now.Add(time.Millisecond)
	if n := tb.ScanNotActiveBrokers(); n != 1 || ca.closed != 1 || cb.closed != 0 {
		t.Fatalf("expired %d, closes a=%d b=%d", n, ca.closed, cb.closed)
	}
	if got := routeJSON(t, tb, "T"); strings.Contains(got, `"a"`) {
		t.Errorf("expired broker still routed: %s", got)
	}
	tb.OnConnClosed("10.0.0.9:55555", cb)
	if got := routeJSON(t, tb, "T"); got != "<none>" {
		t.Errorf("closed broker still routed: %s", got)
	}
}

func TestConnCloseFallsBackToRemoteAddr(t *testing.T) {
	tb, _ := newTable(t)
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), &fakeConn{}))
	tb.OnConnClosed("h:9", &fakeConn{}) // unknown conn, unknown addr: nothing
	tb.OnConnClosed("h:1", nil)         // no conn: the remote address is the broker's
	if got := routeJSON(t, tb, "T"); got != "<none>" {
		t.Errorf("route %s", got)
	}
}

func TestWriteAndDeleteTopicOperations(t *testing.T) {
	tb, _ := newTable(t)
	tb.RegisterBroker(reg("c1", "a", 0, "h:1", topics(1, topic("T", 4, 7), topic("U", 1, 6)), nil))
	tb.RegisterBroker(reg("c2", "b", 0, "h:2", topics(1, topic("T", 4, 6)), nil))
	if n := tb.WipeWritePerm("a"); n != 2 {
		t.Errorf("wiped %d", n)
	}
	if got := routeJSON(t, tb, "U"); !strings.Contains(got, `"perm":4`) {
		t.Errorf("after wipe %s", got)
	}
	if n := tb.AddWritePerm("a"); n != 2 {
		t.Errorf("added %d", n)
	}
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `"brokerName":"a","perm":6`) {
		t.Errorf("after add %s", got) // perm 7 became RW (6), as Java sets it
	}
	tb.DeleteTopicInCluster("T", "c1")
	if got := routeJSON(t, tb, "T"); strings.Contains(got, `"a"`) || got == "<none>" {
		t.Errorf("after cluster delete %s", got)
	}
	tb.DeleteTopicInCluster("T", "nope")
	tb.DeleteTopic("T")
	if got := routeJSON(t, tb, "T"); got != "<none>" {
		t.Errorf("after delete %s", got)
	}
}

func TestFilterServersAndSystemTopics(t *testing.T) {
	tb, _ := newTable(t)
	r := reg("c", "a", 0, "h:1", topics(1, topic("T", 4, 6)), nil)
	r.FilterServers = []string{"f:1"}
	tb.RegisterBroker(r)
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `"filterServerTable":{"h:1":["f:1"]}`) {
		t.Errorf("route %s", got)
	}
	r.FilterServers = nil // legacy body: untouched
	tb.RegisterBroker(r)
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `"h:1":["f:1"]`) {
		t.Errorf("legacy registration cleared filter servers: %s", got)
	}
	r.FilterServers = []string{}
	tb.RegisterBroker(r)
	if got := routeJSON(t, tb, "T"); !strings.Contains(got, `"filterServerTable":{}`) {
		t.Errorf("empty list kept filter servers: %s", got)
	}
	sys := tb.SystemTopics()
	if sys.BrokerAddr != "h:1" || strings.Join(sys.Topics, ",") != "a,c" && strings.Join(sys.Topics, ",") != "c,a" {
		t.Errorf("system topics %+v", sys)
	}
}

func TestUnitTopicLists(t *testing.T) {
	tb, _ := newTable(t)
	unit, sub, both := topic("Unit", 1, 6), topic("Sub", 1, 6), topic("Both", 1, 6)
	unit.TopicSysFlag, sub.TopicSysFlag, both.TopicSysFlag = FlagUnit, FlagUnitSub, FlagUnit|FlagUnitSub
	tb.RegisterBroker(reg("c", "a", 0, "h:1", topics(1, unit, sub, both, topic("Plain", 1, 6)), nil))
	check := func(name string, got TopicList, want ...string) {
		t.Helper()
		if strings.Join(got.Topics, ",") != strings.Join(want, ",") {
			t.Errorf("%s: %v, want %v", name, got.Topics, want)
		}
	}
	check("unit", tb.UnitTopics(), "Unit", "Both")
	check("unit sub", tb.HasUnitSubTopics(), "Sub", "Both")
	check("unit sub ununit", tb.HasUnitSubUnUnitTopics(), "Sub")
}
