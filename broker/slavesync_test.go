package broker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
)

// Java 4.9.8: SlaveSynchronize.syncAll gives the slave the master's topic
// table and data version, puts the master's consumer offsets over its own,
// writes the master's delay offsets to delayOffset.json and takes the
// master's subscription groups; the topic table comes from the master's
// VIP port (BrokerOuterAPI.getAllTopicConfig).
func TestSlaveSyncCopiesMaster(t *testing.T) {
	masterRoot := filepath.Join(t.TempDir(), "store")
	delays := `{"offsetTable":{3:7,5:11}}` // loaded by the master's delay service
	require.NoError(t, config.Save(config.DelayOffsetPath(masterRoot), []byte(delays)))
	master, _ := startBroker(t, "storePathRootDir="+masterRoot)
	slave, _ := startBroker(t, "brokerRole=SLAVE", "brokerId=1")

	tc := config.NewTopicConfig("SYNCED")
	tc.ReadQueueNums, tc.WriteQueueNums = 3, 3
	require.NoError(t, master.topics.Update(tc))
	master.offsets.Commit("", "CG", "SYNCED", 1, 42)
	require.NoError(t, master.groups.Update(config.NewSubscriptionGroupConfig("CG")))
	slave.offsets.Commit("", "OWN", "SYNCED", 0, 5)

	slave.slaveSync.topicAddr = func(string) (string, error) { return master.vip.Addr().String(), nil }
	slave.slaveSync.setMaster(master.Addr())
	slave.slaveSync.syncAll(context.Background())

	got, ok := slave.topics.Select("SYNCED")
	require.True(t, ok)
	require.Equal(t, tc, got)
	require.Equal(t, master.topics.DataVersion(), slave.topics.DataVersion())
	require.Equal(t, int64(42), slave.offsets.Query("CG", "SYNCED", 1))
	require.Equal(t, int64(5), slave.offsets.Query("OWN", "SYNCED", 0), "the slave's own keys stay")
	_, ok = slave.groups.Get("CG")
	require.True(t, ok)
	require.Equal(t, master.groups.DataVersion(), slave.groups.DataVersion())
	want, err := master.store.DelayOffsets()
	require.NoError(t, err)
	require.Contains(t, string(want), "5:11")
	slaveDelays, err := slave.store.DelayOffsets()
	require.NoError(t, err)
	require.Equal(t, string(want), string(slaveDelays))

	root := slave.cfg.Store.StorePathRootDir
	onDisk, err := config.DecodeTopics(readFile(t, config.TopicsPath(root)))
	require.NoError(t, err)
	_, ok = onDisk.Get("SYNCED")
	require.True(t, ok, "topics.json written")
	offs, err := config.DecodeConsumerOffsets(readFile(t, config.ConsumerOffsetPath(root)))
	require.NoError(t, err)
	off, _ := offs.Query(config.OffsetKey("SYNCED", "CG"), 1)
	require.Equal(t, int64(42), off, "consumerOffset.json written")
	require.Equal(t, string(want), string(readFile(t, config.DelayOffsetPath(root))), "delayOffset.json is the master's answer")

	// Same data versions: the tables are not replaced, so not written.
	require.NoError(t, os.Remove(config.TopicsPath(root)))
	require.NoError(t, os.Remove(config.SubscriptionGroupPath(root)))
	slave.slaveSync.syncAll(context.Background())
	require.NoFileExists(t, config.TopicsPath(root))
	require.NoFileExists(t, config.SubscriptionGroupPath(root))
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// Java 4.9.8: BrokerController.doRegisterBrokerAll hands the name server's
// masterAddr to SlaveSynchronize.setMasterAddr; a master gets none.
func TestSlaveLearnsMasterFromNamesrv(t *testing.T) {
	ns := namesrvtest.StartTestNamesrv(t)
	master, _ := startBroker(t, "namesrvAddr="+ns.Addr().String())
	slave, _ := startBroker(t, "namesrvAddr="+ns.Addr().String(), "brokerRole=SLAVE", "brokerId=1")
	require.Equal(t, master.Addr(), slave.slaveSync.masterAddr())
	require.Empty(t, master.slaveSync.masterAddr())
}

// The slave follows the haServerAddr the name server gave it (Java
// updateHaMasterAddress) and replicates what producers send the master,
// including a SYNC_MASTER's wait for it.
func TestSlaveReplicatesThroughNamesrv(t *testing.T) {
	ns := namesrvtest.StartTestNamesrv(t)
	master, cl := startBroker(t, "namesrvAddr="+ns.Addr().String(), "brokerRole=SYNC_MASTER")
	slave, _ := startBroker(t, "namesrvAddr="+ns.Addr().String(), "brokerRole=SLAVE", "brokerId=1")
	require.Eventually(t, func() bool { return master.store.HAConnections() == 1 }, 10*time.Second, time.Millisecond)
	for i := range 10 {
		resp := invoke(t, cl, master.Addr(), sendV2("HATopic", 0, fmt.Sprintf("replicated %d", i), "T"))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	}
	dispatched(t, slave, "HATopic", 0, 10)
	require.Equal(t, master.store.CommitLog().MaxOffset(), slave.store.CommitLog().MaxOffset())
	require.Zero(t, master.store.SlaveFallBehind())

	resp := invoke(t, cl, slave.Addr(), sendV2("HATopic", 0, "to the slave", "T"))
	require.Equal(t, int32(protocol.RespServiceNotAvailable), resp.Code, "a slave refuses sends")

	// Without slaveReadEnable a slave still serves a pull (Java overwrites
	// its PULL_RETRY_IMMEDIATELY with the status's code) and suggests the
	// master: consumers read from it while the master is down.
	slave.slaveSync.syncAll(context.Background())
	resp = invoke(t, cl, slave.Addr(), pull("HATopic", 0, 0, 0, "*"))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	var rh protocol.PullMessageResponseHeader
	require.NoError(t, rh.DecodeFrom(resp))
	require.Zero(t, rh.SuggestWhichBrokerId)
	require.Equal(t, int64(10), rh.MaxOffset)
}

// fakeAnswer is what the fake master answers to one code.
type fakeAnswer struct {
	code protocol.ResponseCode
	body string
}

// startFakeMaster serves answers on a loopback port and counts requests.
func startFakeMaster(t *testing.T, answers map[protocol.RequestCode]fakeAnswer) (string, *atomic.Int32) {
	t.Helper()
	calls := new(atomic.Int32)
	table := handlerTable{}
	for code, a := range answers {
		table.Add(code, func(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
			calls.Add(1)
			resp := wire.NewResponse(req, int32(a.code), "")
			if a.body != "" {
				resp.Body = []byte(a.body)
			}
			return resp, nil
		})
	}
	l, _ := logtest.NewNullLogger()
	srv := remoting.NewServer(remoting.ServerConfig{ListenAddr: "127.0.0.1:0", Log: logrus.NewEntry(l)})
	srv.RegisterProcessor(table.Codes(), remoting.Processor{Handler: table.Handle, Workers: 1, QueueCapacity: 8})
	require.NoError(t, srv.Listen())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, srv.Shutdown(ctx))
	})
	return srv.Addr().String(), calls
}

// newTestSlaveSync is a slave sync over fresh managers that asks the
// master's own address for the topic table.
func newTestSlaveSync(t *testing.T) (*slaveSync, *logtest.Hook) {
	t.Helper()
	root := t.TempDir()
	tm, err := topics.New(topics.Options{StorePathRootDir: root, BrokerName: "b", ClusterName: "c"})
	require.NoError(t, err)
	gm, err := groups.New(groups.Options{StorePathRootDir: root})
	require.NoError(t, err)
	om, err := offsets.New(offsets.Options{StorePathRootDir: root})
	require.NoError(t, err)
	cl := remoting.NewClient(remoting.ClientConfig{})
	t.Cleanup(func() { _ = cl.Close() })
	l, hook := logtest.NewNullLogger()
	return &slaveSync{client: cl, topics: tm, groups: gm, offsets: om, delayOffsetPath: config.DelayOffsetPath(root),
		self: func() string { return "127.0.0.1:1" }, topicAddr: func(m string) (string, error) { return m, nil },
		log: logrus.NewEntry(l)}, hook
}

func wrapperBody(dv config.DataVersion, table, entries string) string {
	return fmt.Sprintf(`{"dataVersion":{"counter":%d,"timestamp":%d},"%s":{%s}}`, dv.Counter, dv.Timestamp, table, entries)
}

func logged(hook *logtest.Hook, msg string) []*logrus.Entry {
	var out []*logrus.Entry
	for _, e := range hook.AllEntries() {
		if strings.HasPrefix(e.Message, msg) {
			out = append(out, e)
		}
	}
	return out
}

// Java 4.9.8: syncTopicConfig and syncSubscriptionGroupConfig replace
// nothing when the master's data version equals the slave's.
func TestSlaveSyncSameDataVersionKeepsTables(t *testing.T) {
	s, hook := newTestSlaveSync(t)
	require.NoError(t, s.topics.Update(config.NewTopicConfig("OWN")))
	require.NoError(t, s.groups.Update(config.NewSubscriptionGroupConfig("OWNG")))
	addr, _ := startFakeMaster(t, map[protocol.RequestCode]fakeAnswer{
		protocol.ReqGetAllTopicConfig: {body: wrapperBody(s.topics.DataVersion(), "topicConfigTable", `"X":{"topicName":"X"}`)},
		protocol.ReqGetAllSubscriptiongroupConfig: {body: wrapperBody(s.groups.DataVersion(), "subscriptionGroupTable",
			`"XG":{"groupName":"XG"}`)},
		protocol.ReqGetAllConsumerOffset: {body: `{"offsetTable":{}}`},
		protocol.ReqGetAllDelayOffset:    {body: `{"offsetTable":{}}`},
	})
	s.setMaster(addr)
	s.syncAll(context.Background())
	_, ok := s.topics.Select("X")
	require.False(t, ok)
	_, ok = s.topics.Select("OWN")
	require.True(t, ok)
	_, ok = s.groups.Get("XG")
	require.False(t, ok)
	require.Empty(t, logged(hook, "Update slave topic config"))
	require.Empty(t, logged(hook, "Update slave Subscription Group"))
	require.Len(t, logged(hook, "Update slave consumer offset from master, "+addr), 1)
	require.Len(t, logged(hook, "Update slave delay offset from master, "+addr), 1)
}

// Java 4.9.8: each step of syncAll catches its own exception, so a
// refused or empty answer stops only that step.
func TestSlaveSyncStepFailureGoesOn(t *testing.T) {
	s, hook := newTestSlaveSync(t)
	before := s.topics.Len()
	addr, _ := startFakeMaster(t, map[protocol.RequestCode]fakeAnswer{
		protocol.ReqGetAllTopicConfig:    {body: "null"},
		protocol.ReqGetAllConsumerOffset: {code: protocol.RespSystemError},
		protocol.ReqGetAllDelayOffset:    {body: `{"offsetTable":{"1":9}}`},
		protocol.ReqGetAllSubscriptiongroupConfig: {body: wrapperBody(config.DataVersion{Timestamp: 1, Counter: 2},
			"subscriptionGroupTable", `"XG":{"groupName":"XG"}`)},
	})
	s.setMaster(addr)
	s.syncAll(context.Background())

	require.Equal(t, before, s.topics.Len(), "a null wrapper leaves the table alone")
	topicErr := logged(hook, "SyncTopicConfig failed")
	require.Len(t, topicErr, 1)
	require.ErrorIs(t, topicErr[0].Data[logrus.ErrorKey].(error), errNoWrapper)
	offsetErr := logged(hook, "SyncConsumerOffset failed")
	require.Len(t, offsetErr, 1)
	pe, ok := protocol.AsError(offsetErr[0].Data[logrus.ErrorKey].(error))
	require.True(t, ok)
	require.Equal(t, protocol.RespSystemError, pe.Code)
	require.Equal(t, `{"offsetTable":{"1":9}}`, string(readFile(t, s.delayOffsetPath)))
	_, ok = s.groups.Get("XG")
	require.True(t, ok)
	require.Equal(t, config.DataVersion{Timestamp: 1, Counter: 2}, s.groups.DataVersion())
}

// Java 4.9.8: every step needs a master address other than the broker's
// own.
func TestSlaveSyncNeedsAnotherMaster(t *testing.T) {
	s, _ := newTestSlaveSync(t)
	addr, calls := startFakeMaster(t, map[protocol.RequestCode]fakeAnswer{
		protocol.ReqGetAllConsumerOffset: {body: `{"offsetTable":{}}`},
	})
	s.syncAll(context.Background())
	s.setMaster("")
	s.syncAll(context.Background())
	s.self = func() string { return addr }
	s.setMaster(addr)
	s.syncAll(context.Background())
	require.Zero(t, calls.Load())
}

// Java 4.9.8: BrokerController.initialize follows haMasterAddress only on
// a SLAVE and only when it has at least 6 characters (String.length).
func TestConfiguredHAMaster(t *testing.T) {
	addr := func(s string) *string { return &s }
	cases := []struct {
		role store.BrokerRole
		addr *string
		ok   bool
	}{
		{store.Slave, nil, false},
		{store.Slave, addr("1:234"), false},
		{store.Slave, addr("a:1234"), true},
		{store.Slave, addr("ééé:1"), false}, // 5 characters, 8 bytes
		{store.AsyncMaster, addr("10.0.0.1:10912"), false},
	}
	for _, c := range cases {
		got, ok := configuredHAMaster(&store.Config{BrokerRole: c.role, HaMasterAddress: c.addr})
		require.Equal(t, c.ok, ok, "%s %v", c.role, c.addr)
		if ok {
			require.Equal(t, *c.addr, got)
		}
	}
}

// Java 4.9.8: MixAll.brokerVIPChannel(true, addr).
func TestBrokerVIPChannel(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:10911": "127.0.0.1:10909",
		"[::1]:10911":     "[::1]:10909",
		"h:1":             "h:-1",
	} {
		got, err := brokerVIPChannel(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got)
	}
	for _, bad := range []string{"host", "h:x", "h:"} {
		_, err := brokerVIPChannel(bad)
		require.Error(t, err, bad)
	}
}

func TestRunEvery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		runEvery(ctx, time.Millisecond, time.Millisecond, func() { n.Add(1) })
	}()
	require.Eventually(t, func() bool { return n.Load() >= 3 }, 5*time.Second, time.Millisecond)
	cancel()
	<-done

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	runEvery(ctx, time.Hour, time.Hour, func() { t.Error("ran after cancel") }) // returns at once
}
