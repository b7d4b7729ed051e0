package broker

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/oracle"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

// adminEnv is a Broker-free harness: a real store with small files in a
// temporary directory and real managers around it.
type adminEnv struct {
	root      string
	store     *store.Store
	topics    *topics.Manager
	groups    *groups.Manager
	offsets   *offsets.Manager
	consumers *clients.ConsumerManager
	log       *logrus.Entry
}

var (
	envBorn      = message.Host{Addr: netip.MustParseAddr("10.0.0.7"), Port: 40001}
	envStoreHost = message.Host{Addr: netip.MustParseAddr("127.0.0.1"), Port: 10911}
)

const (
	envBroker     = "broker-a"
	envBrokerAddr = "127.0.0.1:10911"
)

func newAdminEnv(t *testing.T) *adminEnv {
	t.Helper()
	return newAdminEnvWith(t, nil)
}

// newAdminEnvWith is newAdminEnv with the store's options adjusted first.
func newAdminEnvWith(t *testing.T, adjust func(*store.Options)) *adminEnv {
	t.Helper()
	root := t.TempDir()
	l := logrus.New()
	l.SetLevel(logrus.PanicLevel)
	log := logrus.NewEntry(l)
	cfg := store.DefaultConfig(root)
	cfg.StorePathRootDir = root
	cfg.MappedFileSizeCommitLog = 64 * 1024
	cfg.MappedFileSizeConsumeQueue = 50 * 20
	cfg.MaxHashSlotNum = 64
	cfg.MaxIndexNum = 256
	cfg.FlushIntervalConsumeQueue = 50
	opts := store.Options{Master: true, Log: log}
	if adjust != nil {
		adjust(&opts)
	}
	s, err := store.Open(cfg, opts)
	require.NoError(t, err)
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Close() })
	e := &adminEnv{root: root, store: s, log: log,
		consumers: clients.NewConsumerManager(time.Now, log, nil)}
	e.topics, err = topics.New(topics.Options{StorePathRootDir: root, BrokerName: envBroker, ClusterName: "DefaultCluster",
		DefaultTopicQueueNums: 8, AutoCreateTopicEnable: true, ClusterTopicEnable: true, BrokerTopicEnable: true, Log: log})
	require.NoError(t, err)
	e.groups, err = groups.New(groups.Options{StorePathRootDir: root, AutoCreateSubscriptionGroup: true, Log: log})
	require.NoError(t, err)
	e.offsets, err = offsets.New(offsets.Options{StorePathRootDir: root, Log: log,
		MinOffset: func(topic string, q int32) int64 { return s.MinOffsetInQueue(topic, q) }})
	require.NoError(t, err)
	return e
}

// createTopic adds a topic with n read and write queues.
func (e *adminEnv) createTopic(t *testing.T, topic string, n int32) {
	t.Helper()
	tc := config.NewTopicConfig(topic)
	tc.ReadQueueNums, tc.WriteQueueNums = n, n
	require.NoError(t, e.topics.Update(tc))
}

// put stores one message and returns its result.
func (e *adminEnv) put(t *testing.T, topic string, q int32, keys, body string, extra ...string) store.PutResult {
	t.Helper()
	var p message.Properties
	p.Set(message.PropKeys, keys)
	p.Set(message.PropUniqKey, fmt.Sprintf("UNIQ%s%d", topic, len(body)))
	for i := 0; i+1 < len(extra); i += 2 {
		p.Set(extra[i], extra[i+1])
	}
	r := e.store.PutMessage(&store.Message{Topic: topic, QueueID: q, Body: []byte(body),
		Properties: message.AppendProperties(nil, p.HashMapOrder()), BornTimestamp: time.Now().UnixMilli(),
		BornHost: envBorn, StoreHost: envStoreHost})
	require.Equal(t, store.PutOK, r.Status, "%v", r.Err)
	return r
}

// waitDispatched waits until the store's reput has caught up.
func (e *adminEnv) waitDispatched(t *testing.T) {
	t.Helper()
	require.Eventually(t, func() bool { return e.store.DispatchBehind() == 0 }, 5*time.Second, 5*time.Millisecond)
}

// call sends req through a real frame to h and returns the decoded
// response frame.
func call(t *testing.T, h remoting.Handler, req *wire.Command) *wire.Command {
	t.Helper()
	req = frameRoundTrip(t, req)
	resp, err := h(context.Background(), nil, req)
	require.NoError(t, err)
	require.NotNil(t, resp)
	return frameRoundTrip(t, resp)
}

// callErr is call for a handler expected to fail with an error.
func callErr(t *testing.T, h remoting.Handler, req *wire.Command) error {
	t.Helper()
	_, err := h(context.Background(), nil, frameRoundTrip(t, req))
	require.Error(t, err)
	return err
}

func frameRoundTrip(t *testing.T, c *wire.Command) *wire.Command {
	t.Helper()
	frame, err := wire.AppendFrame(nil, c)
	require.NoError(t, err)
	if c.Payload != nil {
		c.Payload.Release()
	}
	out, err := wire.Decode(frame[4:])
	require.NoError(t, err)
	return out
}

func request(code protocol.RequestCode, hdr interface{ EncodeTo(*wire.Command) }) *wire.Command {
	req := wire.NewRequest(int32(code))
	if hdr != nil {
		hdr.EncodeTo(req)
	}
	return req
}

func (e *adminEnv) stats() *statsAdmin {
	boot := time.Now().UnixMilli()
	bc := brokerconfig.DefaultBrokerConfig(brokerconfig.Machine{UserHome: e.root, HostName: "host", Env: map[string]string{}})
	return &statsAdmin{store: e.store, topics: e.topics, offsets: e.offsets, consumers: e.consumers, brokerName: envBroker,
		groups: e.groups.Groups, brokerAddr: func() string { return envBrokerAddr },
		runtime: runtimeInfo{BootTime: boot, Broker: &bc, Now: func() time.Time { return time.UnixMilli(boot + 90*60*1000 + 999) }}}
}

func handlers(register func(handlerTable)) handlerTable {
	t := handlerTable{}
	register(t)
	return t
}

// javaAdminBodies runs the AdminBodies oracle over the given commands.
func javaAdminBodies(t *testing.T, lines []string) []string {
	t.Helper()
	out := oracle.Run(t, strings.Join(lines, "\n")+"\n", nil, "AdminBodies")
	got := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.Len(t, got, len(lines), "oracle output:\n%s", out)
	return got
}

// TestStatsBodies pins the topic-stats, consume-stats, consume-by-who and
// runtime bodies to what the Java classes write for the same data (Java
// 4.9.8: AdminBrokerProcessor.getTopicStatsInfo, getConsumeStats,
// queryTopicConsumeByWho, getBrokerRuntimeInfo).
func TestStatsBodies(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicS", 4)
	e.createTopic(t, "TopicT", 2)
	for i := range 11 {
		e.put(t, "TopicS", int32(i%3), "k", fmt.Sprintf("body-%d", i))
	}
	e.put(t, "TopicT", 1, "k", "t")
	e.waitDispatched(t)
	e.offsets.Commit("c", "G1", "TopicS", 0, 2)
	e.offsets.Commit("c", "G1", "TopicS", 1, 4)
	e.offsets.Commit("c", "G1", "TopicT", 1, 1)
	e.offsets.Commit("c", "G2", "TopicS", 0, 1)
	ht := handlers(e.stats().register)

	var goBodies, javaLines []string
	resp := call(t, ht[protocol.ReqGetTopicStatsInfo], request(protocol.ReqGetTopicStatsInfo, &protocol.GetTopicStatsInfoRequestHeader{Topic: "TopicS"}))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	goBodies = append(goBodies, string(resp.Body))
	javaLines = append(javaLines, "topicstats\t"+envBroker+"\t"+strings.Join(e.topicStatRows("TopicS", 4), "\t"))

	resp = call(t, ht[protocol.ReqGetConsumeStats], request(protocol.ReqGetConsumeStats, &protocol.GetConsumeStatsRequestHeader{ConsumerGroup: "G1"}))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	goBodies = append(goBodies, string(resp.Body))
	var rows []string
	for _, topic := range e.offsets.TopicsOf("G1") { // whichTopicByConsumer's HashSet order, as Java iterates
		tc, _ := e.topics.Select(topic)
		rows = append(rows, e.consumeRows("G1", topic, tc.ReadQueueNums)...)
	}
	javaLines = append(javaLines, "consumestats\t0\t"+envBroker+"\t"+strings.Join(rows, "\t"))

	resp = call(t, ht[protocol.ReqQueryTopicConsumeByWho], request(protocol.ReqQueryTopicConsumeByWho, &protocol.QueryTopicConsumeByWhoRequestHeader{Topic: "TopicS"}))
	goBodies = append(goBodies, string(resp.Body))
	javaLines = append(javaLines, "grouplist\tG1\tG2")

	resp = call(t, ht[protocol.ReqGetBrokerRuntimeInfo], request(protocol.ReqGetBrokerRuntimeInfo, nil))
	goBodies = append(goBodies, string(resp.Body))
	javaLines = append(javaLines, "kv\t"+strings.Join(runtimeKV(t, resp.Body), "\t"))

	for i, want := range javaAdminBodies(t, javaLines) {
		require.Equal(t, want, goBodies[i], "body %d (%s)", i, strings.Fields(javaLines[i])[0])
	}
}

// topicStatRows computes the expected TopicOffset rows from the store
// directly: TOPIC:Q:MIN:MAX:TS.
func (e *adminEnv) topicStatRows(topic string, n int32) []string {
	var out []string
	for q := range n {
		maxOff := e.store.MaxOffsetInQueue(topic, q)
		var ts int64
		if maxOff > 0 {
			ts = e.store.MessageStoreTime(topic, q, maxOff-1)
		}
		out = append(out, fmt.Sprintf("%s:%d:%d:%d:%d", topic, q, max(e.store.MinOffsetInQueue(topic, q), 0), maxOff, ts))
	}
	return out
}

// consumeRows computes the expected OffsetWrapper rows: TOPIC:Q:BO:CO:LT.
func (e *adminEnv) consumeRows(group, topic string, n int32) []string {
	var out []string
	for q := range n {
		co := max(e.offsets.Query(group, topic, q), 0)
		var lt int64
		if co > 0 {
			lt = e.store.MessageStoreTime(topic, q, co-1)
		}
		out = append(out, fmt.Sprintf("%s:%d:%d:%d:%d", topic, q, e.store.MaxOffsetInQueue(topic, q), co, lt))
	}
	return out
}

// runtimeKV lists the KVTable's entries as k=v in key order (the oracle
// puts them into its own HashMap, so the order given does not matter).
func runtimeKV(t *testing.T, b []byte) []string {
	t.Helper()
	v, err := fastjson.Parse(b)
	require.NoError(t, err)
	var out []string
	for k, val := range v.Get("table").Members() {
		out = append(out, k.Text()+"="+val.Text())
	}
	return out
}

func TestTopicStatsValues(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicV", 2)
	before := time.Now().UnixMilli()
	for range 3 {
		e.put(t, "TopicV", 1, "k", "v")
	}
	e.waitDispatched(t)
	ht := handlers(e.stats().register)
	resp := call(t, ht[protocol.ReqGetTopicStatsInfo], request(protocol.ReqGetTopicStatsInfo, &protocol.GetTopicStatsInfoRequestHeader{Topic: "TopicV"}))
	v, err := fastjson.Parse(resp.Body)
	require.NoError(t, err)
	table := v.Get("offsetTable")
	require.Equal(t, 2, table.Len())
	for k, row := range table.Members() {
		q := k.Get("queueId").Text()
		require.Equal(t, envBroker, k.Get("brokerName").Text())
		switch q {
		case "0":
			require.Equal(t, "0", row.Get("maxOffset").Text())
			require.Equal(t, "0", row.Get("lastUpdateTimestamp").Text())
		case "1":
			require.Equal(t, "3", row.Get("maxOffset").Text())
			ts, err := row.Get("lastUpdateTimestamp").AsInt64()
			require.NoError(t, err)
			require.GreaterOrEqual(t, ts, before)
		}
	}

	resp = call(t, ht[protocol.ReqGetTopicStatsInfo], request(protocol.ReqGetTopicStatsInfo, &protocol.GetTopicStatsInfoRequestHeader{Topic: "Nope"}))
	require.Equal(t, int32(protocol.RespTopicNotExist), resp.Code)
	require.Equal(t, "topic[Nope] not exist", resp.Remark)
}

// TestConsumeStatsSkipsUnsubscribed pins getConsumeStats's rule: an online
// group that does not subscribe a topic gets no rows for it.
func TestConsumeStatsSkipsUnsubscribed(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicA", 1)
	e.createTopic(t, "TopicB", 1)
	e.offsets.Commit("c", "G", "TopicA", 0, 0)
	e.offsets.Commit("c", "G", "TopicB", 0, 0)
	sd := body.NewSubscriptionData(1)
	sd.Topic, sd.SubString = body.Str("TopicA"), body.Str("*")
	e.consumers.Register("G", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.1:1"), ClientID: "c1"},
		clients.Registration{Subscriptions: []body.SubscriptionData{sd}})
	ht := handlers(e.stats().register)
	resp := call(t, ht[protocol.ReqGetConsumeStats], request(protocol.ReqGetConsumeStats, &protocol.GetConsumeStatsRequestHeader{ConsumerGroup: "G"}))
	require.Contains(t, string(resp.Body), `"topic":"TopicA"`)
	require.NotContains(t, string(resp.Body), `"topic":"TopicB"`)

	resp = call(t, ht[protocol.ReqQueryTopicConsumeByWho], request(protocol.ReqQueryTopicConsumeByWho, &protocol.QueryTopicConsumeByWhoRequestHeader{Topic: "TopicA"}))
	require.Equal(t, `{"groupList":["G"]}`, string(resp.Body))
}

type fakeChan string

func (c fakeChan) RemoteAddr() string { return string(c) }
func (c fakeChan) Close() error       { return nil }
func (c fakeChan) Closed() bool       { return false }

func TestRuntimeInfoValues(t *testing.T) {
	e := newAdminEnv(t)
	r := e.put(t, "TopicR", 0, "k", "v")
	e.waitDispatched(t)
	ht := handlers(e.stats().register)
	resp := call(t, ht[protocol.ReqGetBrokerRuntimeInfo], request(protocol.ReqGetBrokerRuntimeInfo, nil))
	got := map[string]string{}
	for _, kv := range runtimeKV(t, resp.Body) {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	want := map[string]string{
		"brokerVersionDesc": "V4_9_8", "brokerVersion": "409",
		"commitLogMinOffset": "0", "commitLogMaxOffset": fmt.Sprint(r.WroteOffset + int64(r.WroteBytes)),
		"runtime": "[ 0 days, 1 hours, 30 minutes, 0 seconds ]", "sendThreadPoolQueueCapacity": "10000",
		"pullThreadPoolQueueCapacity": "100000", "queryThreadPoolQueueCapacity": "20000",
		"EndTransactionThreadPoolQueueCapacity": "100000", "remainTransientStoreBufferNumbs": "2147483647",
		"dispatchBehindBytes": "0",
		// put durations: the first minute has not ended
		"putMessageDistributeTime": "null", "putLatency99": "0.00", "putLatency999": "0.00", "dispatchMaxBuffer": "0",
		// the store's counters: one put, no read, not yet sampled
		"putMessageTimesTotal": "1", "msgPutTotalTodayNow": "1", "msgGetTotalTodayNow": "0",
		"putMessageSizeTotal": fmt.Sprint(r.WroteBytes), "putMessageAverageSize": fmt.Sprintf("%d.0", r.WroteBytes),
		"putTps": "  ", "getTotalTps": "0.0 0.0 0.0", "msgPutTotalTodayMorning": "0",
	}
	for k, v := range want {
		require.Equal(t, v, got[k], k)
	}
	for _, k := range []string{"commitLogDiskRatio", "commitLogDiskRatio_" + e.root + "/commitlog", "consumeQueueDiskRatio",
		"commitLogDirCapacity", "remainHowManyDataToFlush", "earliestMessageTimeStamp", "bootTimestamp"} {
		require.Contains(t, got, k)
	}
	require.Len(t, got, 48) // 17 store stats + 5 store + 26 broker keys
}

func TestRuntimeFormats(t *testing.T) {
	for _, tc := range []struct {
		bytes int64
		want  string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1280, "1.3 KiB"}, // 1.25: Java rounds HALF_UP
		{1536, "1.5 KiB"}, {1 << 20, "1.0 MiB"}, {3<<30 + 1<<29, "3.5 GiB"}, {1<<40 - 1, "1024.0 GiB"},
	} {
		require.Equal(t, tc.want, humanReadableByteCount(tc.bytes), "%d", tc.bytes)
	}
	for _, tc := range []struct {
		ms   int64
		want string
	}{
		{0, "[ 0 days, 0 hours, 0 minutes, 0 seconds ]"},
		{((1234*24+5)*60+6)*60*1000 + 7999, "[ 1,234 days, 5 hours, 6 minutes, 7 seconds ]"},
	} {
		require.Equal(t, tc.want, formatRuntime(tc.ms))
	}
}

// remainTransientStoreBufferNumbs: Integer.MAX_VALUE without a pool (as
// Java), the pool's size when appends are staged (Sputnik's ring never runs
// out, so no buffer is ever missing).
func TestRemainTransientBuffers(t *testing.T) {
	require.Equal(t, math.MaxInt32, remainTransientBuffers(false, 5))
	require.Equal(t, 5, remainTransientBuffers(true, 5))
	require.Equal(t, 2, remainTransientBuffers(true, 2))
}

// TestBrokerConsumeStatsBody pins GET_BROKER_CONSUME_STATS to Java's
// ConsumeStatsList for the same tables: every group in the table's order
// (system groups without offsets as empty lists), each topic it has
// offsets of over the write queues, order topics only when asked, and the
// total diff.
func TestBrokerConsumeStatsBody(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicS", 3)
	tc := config.NewTopicConfig("TopicO")
	tc.ReadQueueNums, tc.WriteQueueNums, tc.Order = 2, 2, true
	require.NoError(t, e.topics.Update(tc))
	for i := range 7 {
		e.put(t, "TopicS", int32(i%3), "k", fmt.Sprintf("s-%d", i))
	}
	e.put(t, "TopicO", 1, "k", "o")
	e.waitDispatched(t)
	_, _, err := e.groups.Find("G1") // auto-created, like a consumer's first heartbeat
	require.NoError(t, err)
	_, _, err = e.groups.Find("G2")
	require.NoError(t, err)
	e.offsets.Commit("c", "G1", "TopicS", 0, 2)
	e.offsets.Commit("c", "G1", "TopicS", 2, 1)
	e.offsets.Commit("c", "G1", "TopicO", 1, 1)
	e.offsets.Commit("c", "G2", "TopicS", 1, 0)
	h := handlers(e.stats().register)[protocol.ReqGetBrokerConsumeStats]

	for _, order := range []bool{false, true} {
		resp := call(t, h, request(protocol.ReqGetBrokerConsumeStats, &protocol.GetConsumeStatsInBrokerHeader{IsOrder: order}))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
		var total int64
		line := []string{}
		for _, g := range e.groups.Groups() {
			line = append(line, "G="+g.GroupName)
			for _, topic := range e.offsets.TopicsOf(g.GroupName) {
				tc, _ := e.topics.Select(topic)
				if order && !tc.Order {
					continue
				}
				rows := e.consumeRows(g.GroupName, topic, tc.WriteQueueNums)
				for q := range tc.WriteQueueNums {
					total += max(e.store.MaxOffsetInQueue(topic, q), 0) - max(e.offsets.Query(g.GroupName, topic, q), 0)
				}
				line = append(line, "cs="+strings.Join(rows, ","))
			}
		}
		want := javaAdminBodies(t, []string{fmt.Sprintf("statslist\t%s\t%d\t%s\t%s", envBrokerAddr, total, envBroker, strings.Join(line, "\t"))})
		require.Equal(t, want[0], string(resp.Body), "order %v", order)
		require.Contains(t, string(resp.Body), `"G1":[{`)
	}
}

// TestViewBrokerStatsData pins VIEW_BROKER_STATS_DATA to Java's
// BrokerStatsData for the same figures, and the remark for a key nothing
// was counted under.
func TestViewBrokerStatsData(t *testing.T) {
	e := newAdminEnv(t)
	clock := time.UnixMilli(1_700_000_000_000)
	st := stats.New("DefaultCluster", func() time.Time { return clock })
	h := e.stats()
	h.stats = st
	view := handlers(h.register)[protocol.ReqViewBrokerStatsData]
	req := func(name, key string) *wire.Command {
		return request(protocol.ReqViewBrokerStatsData, &protocol.ViewBrokerStatsDataRequestHeader{StatsName: name, StatsKey: key})
	}
	resp := call(t, view, req(stats.TopicPutNums, "TopicS"))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "The stats <TOPIC_PUT_NUMS> <TopicS> not exist", resp.Remark)

	st.TopicPut("TopicS", 3, 300)
	st.GroupGet("G", "TopicS", 2, 200)
	clock = clock.Add(10 * time.Second)
	st.Sample(true, true, true)
	st.TopicPut("TopicS", 4, 400)
	clock = clock.Add(10 * time.Second)
	st.Sample(true, false, false)
	resp = call(t, view, req(stats.TopicPutNums, "TopicS"))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	it, _ := st.Item(stats.TopicPutNums, "TopicS")
	triple := func(s stats.Snapshot) string {
		return fmt.Sprintf("%d:%s:%s", s.Sum, strconv.FormatFloat(s.TPS, 'g', -1, 64), strconv.FormatFloat(s.AvgPT, 'g', -1, 64))
	}
	java := javaAdminBodies(t, []string{"statsdata\t" + triple(it.Minute()) + "\t" + triple(it.Hour()) + "\t" + triple(it.Day())})
	require.Equal(t, java[0], string(resp.Body))
	require.Contains(t, string(resp.Body), `"statsMinute":{"avgpt":3.5,"sum":7,"tps":0.35}`)

	// consumerProgress's Consume TPS is the group's pull rate.
	e.createTopic(t, "TopicS", 1)
	e.offsets.Commit("c", "G", "TopicS", 0, 0)
	resp = call(t, handlers(h.register)[protocol.ReqGetConsumeStats], request(protocol.ReqGetConsumeStats, &protocol.GetConsumeStatsRequestHeader{ConsumerGroup: "G"}))
	require.Contains(t, string(resp.Body), `"consumeTps":0.1,`) // 2 pulled over the 20 s window
}

// The queue sizes add the pools that Java's one executor stands for.
func TestRuntimeQueueSizes(t *testing.T) {
	waiting := map[protocol.RequestCode]int{protocol.ReqSendMessageV2: 3, protocol.ReqConsumerSendMsgBack: 2, protocol.ReqPullMessage: 7}
	r := runtimeInfo{QueueLen: func(c protocol.RequestCode) int { return waiting[c] }}
	require.Equal(t, "5", r.queueSize(protocol.ReqSendMessageV2, protocol.ReqConsumerSendMsgBack))
	require.Equal(t, "7", r.queueSize(protocol.ReqPullMessage))
	require.Equal(t, "0", r.queueSize(protocol.ReqEndTransaction))
	require.Equal(t, "0", runtimeInfo{}.queueSize(protocol.ReqPullMessage))
}

// The head wait is the longest of the pools Java's one executor stands
// for, in ms.
func TestRuntimeHeadWait(t *testing.T) {
	wait := map[protocol.RequestCode]time.Duration{protocol.ReqSendMessageV2: 250 * time.Millisecond,
		protocol.ReqConsumerSendMsgBack: 1200 * time.Millisecond}
	r := runtimeInfo{QueueHeadWait: func(c protocol.RequestCode) time.Duration { return wait[c] }}
	require.Equal(t, "1200", r.headWait(protocol.ReqSendMessageV2, protocol.ReqConsumerSendMsgBack))
	require.Equal(t, "0", r.headWait(protocol.ReqPullMessage))
	require.Equal(t, "0", runtimeInfo{}.headWait(protocol.ReqPullMessage))
}
