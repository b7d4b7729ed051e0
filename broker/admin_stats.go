package broker

// Statistics for mqadmin topicStatus, consumerProgress, topicRoute's
// consumers and brokerStatus:
//
//	GET_TOPIC_STATS_INFO (202)        TopicStatsTable: min/max offset and the
//	                                  last store time of every write queue
//	GET_CONSUME_STATS (208)           ConsumeStats: broker and consumer offset
//	                                  and the last consumed store time per
//	                                  read queue, consumeTps
//	QUERY_TOPIC_CONSUME_BY_WHO (300)  GroupList: online groups subscribing
//	                                  the topic plus groups with its offsets
//	GET_BROKER_RUNTIME_INFO (28)      KVTable of Java's runtime keys (runtimeInfo)
//	GET_BROKER_CONSUME_STATS (317)    ConsumeStatsList: ConsumeStats of every group
//	                                  and topic with offsets (mqadmin brokerConsumeStats)
//
// Java 4.9.8 mirror: AdminBrokerProcessor.getTopicStatsInfo,
// getConsumeStats, queryTopicConsumeByWho, fetchAllConsumeStatsInBroker, getBrokerRuntimeInfo /
// prepareRuntimeInfo with DefaultMessageStore.getRuntimeInfo and
// StoreStatsService.getRuntimeInfo.
//
// consumeTps is the group's pull rate over the last minute
// (broker/stats, BrokerStatsManager.tpsGroupGetNums).
//
//	VIEW_BROKER_STATS_DATA (315)      BrokerStatsData of one stats item: minute,
//	                                  hour and day sum, TPS and average (statsAll)

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/broker/consumerfilter"
	"github.com/sputnikmq/sputnik/broker/offsets"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/config"
)

type statsAdmin struct {
	store     *store.Store
	topics    *topics.Manager
	offsets   *offsets.Manager
	consumers *clients.ConsumerManager
	filters   *consumerfilter.Manager
	// groups lists the subscription groups in the table's order.
	groups     func() []config.SubscriptionGroupConfig
	brokerName string
	brokerAddr func() string // brokerIP1:listenPort
	stats      *stats.Manager
	runtime    runtimeInfo
}

func (h *statsAdmin) register(t handlerTable) {
	t.Add(protocol.ReqGetTopicStatsInfo, h.topicStats)
	t.Add(protocol.ReqGetConsumeStats, h.consumeStats)
	t.Add(protocol.ReqQueryTopicConsumeByWho, h.consumeByWho)
	t.Add(protocol.ReqGetBrokerRuntimeInfo, h.runtimeInfo)
	t.Add(protocol.ReqGetBrokerConsumeStats, h.brokerConsumeStats)
	t.Add(protocol.ReqQueryConsumeQueue, h.queryConsumeQueue)
	t.Add(protocol.ReqQueryConsumeTimeSpan, h.consumeTimeSpan)
	t.Add(protocol.ReqViewBrokerStatsData, h.viewStatsData)
}

// queueStat is one queue's row of TopicStatsTable (TopicOffset) or
// ConsumeStats (OffsetWrapper): three longs written under their names in
// fastjson's alphabetical order.
type queueStat struct {
	mq     body.MessageQueue
	names  [3]string
	values [3]int64
}

var (
	topicOffsetNames   = [3]string{"lastUpdateTimestamp", "maxOffset", "minOffset"}
	offsetWrapperNames = [3]string{"brokerOffset", "consumerOffset", "lastTimestamp"}
)

// writeQueueStats writes a HashMap<MessageQueue, …> in Java's iteration
// order, the queue objects as keys.
func writeQueueStats(w *fastjson.Writer, rows []queueStat) {
	m := jhash.NewMap[body.MessageQueue, queueStat](body.MessageQueue.HashCode, -1)
	for _, r := range rows {
		m.Put(r.mq, r)
	}
	w.BeginObject()
	m.Range(func(mq body.MessageQueue, r queueStat) bool {
		w.KeyObject(func(w *fastjson.Writer) { writeMQ(w, mq) })
		w.BeginObject()
		for i, name := range r.names {
			w.Key(name)
			w.Int64(r.values[i])
		}
		w.EndObject()
		return true
	})
	w.EndObject()
}

// viewStatsData is ViewBrokerStatsData: the minute, hour and day figures
// of one stats item, SYSTEM_ERROR when nothing was counted under the key.
func (h *statsAdmin) viewStatsData(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.ViewBrokerStatsDataRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	// An unknown name answers as an unknown key: Java's getStatsItem
	// swallows the NullPointerException of statsTable.get(name).
	it, _ := h.stats.Item(hdr.StatsName, hdr.StatsKey)
	if it == nil {
		return wire.NewResponse(req, int32(protocol.RespSystemError),
			fmt.Sprintf("The stats <%s> <%s> not exist", hdr.StatsName, hdr.StatsKey)), nil
	}
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	for _, p := range []struct {
		name string
		s    stats.Snapshot
	}{{"statsDay", it.Day()}, {"statsHour", it.Hour()}, {"statsMinute", it.Minute()}} {
		w.Key(p.name)
		w.BeginObject()
		w.Key("avgpt")
		w.Float64(p.s.AvgPT)
		w.Key("sum")
		w.Int64(p.s.Sum)
		w.Key("tps")
		w.Float64(p.s.TPS)
		w.EndObject()
	}
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

// writeConsumeStats writes a ConsumeStats: consumeTps and the offset table.
func writeConsumeStats(w *fastjson.Writer, tps float64, rows []queueStat) {
	w.BeginObject()
	w.Key("consumeTps")
	w.Float64(tps)
	w.Key("offsetTable")
	writeQueueStats(w, rows)
	w.EndObject()
}

func writeMQ(w *fastjson.Writer, mq body.MessageQueue) {
	w.BeginObject()
	w.Key("brokerName")
	w.String(mq.BrokerName)
	w.Key("queueId")
	w.Int(int(mq.QueueID))
	w.Key("topic")
	w.String(mq.Topic)
	w.EndObject()
}

func (h *statsAdmin) topicStats(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetTopicStatsInfoRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	tc, ok := h.topics.Select(hdr.Topic)
	if !ok {
		return wire.NewResponse(req, int32(protocol.RespTopicNotExist), "topic["+hdr.Topic+"] not exist"), nil
	}
	rows := make([]queueStat, 0, max(tc.WriteQueueNums, 0))
	for q := range max(tc.WriteQueueNums, 0) {
		minOff := max(h.store.MinOffsetInQueue(hdr.Topic, q), 0)
		maxOff := max(h.store.MaxOffsetInQueue(hdr.Topic, q), 0)
		var ts int64
		if maxOff > 0 {
			ts = h.store.MessageStoreTime(hdr.Topic, q, maxOff-1)
		}
		rows = append(rows, queueStat{mq: h.mq(hdr.Topic, q), names: topicOffsetNames, values: [3]int64{ts, maxOff, minOff}})
	}
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("offsetTable")
	writeQueueStats(w, rows)
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

func (h *statsAdmin) mq(topic string, q int32) body.MessageQueue {
	return body.MessageQueue{Topic: topic, BrokerName: h.brokerName, QueueID: q}
}

func (h *statsAdmin) consumeStats(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetConsumeStatsRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	topicList := []string{hdr.Topic}
	if isBlank(hdr.Topic) {
		topicList = h.offsets.TopicsOf(hdr.ConsumerGroup)
	}
	var rows []queueStat
	tps := 0.0
	for _, topic := range topicList {
		if tc, ok := h.consumedTopic(hdr.ConsumerGroup, topic); ok {
			rows = append(rows, h.consumeRows(hdr.ConsumerGroup, topic, tc.ReadQueueNums)...)
			tps += h.stats.GroupGetTPS(hdr.ConsumerGroup, topic)
		}
	}
	w := fastjson.NewWriter(fastjson.Compact)
	writeConsumeStats(w, tps, rows)
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

// consumedTopic is the config of a topic whose consume stats group gets:
// none when the topic is unknown or the group is online without
// subscribing it.
func (h *statsAdmin) consumedTopic(group, topic string) (config.TopicConfig, bool) {
	tc, ok := h.topics.Select(topic)
	if !ok {
		return tc, false
	}
	if _, found := h.consumers.FindSubscription(group, topic); !found && h.consumers.SubscriptionCount(group) > 0 {
		return tc, false
	}
	return tc, true
}

// consumeRows are the OffsetWrapper rows of the first n queues of topic
// (GET_CONSUME_STATS counts read queues, GET_BROKER_CONSUME_STATS write
// queues).
func (h *statsAdmin) consumeRows(group, topic string, n int32) []queueStat {
	rows := make([]queueStat, 0, max(n, 0))
	for q := range max(n, 0) {
		brokerOff := max(h.store.MaxOffsetInQueue(topic, q), 0)
		consumerOff := max(h.offsets.Query(group, topic, q), 0)
		var last int64
		if consumerOff-1 >= 0 {
			if ts := h.store.MessageStoreTime(topic, q, consumerOff-1); ts > 0 {
				last = ts
			}
		}
		rows = append(rows, queueStat{mq: h.mq(topic, q), names: offsetWrapperNames, values: [3]int64{brokerOff, consumerOff, last}})
	}
	return rows
}

// brokerConsumeStats is fetchAllConsumeStatsInBroker: for every
// subscription group, in the group table's order, the consume stats of
// each topic it has offsets of (only order topics when asked), and the
// total of broker minus consumer offsets.
func (h *statsAdmin) brokerConsumeStats(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.GetConsumeStatsInBrokerHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	var total int64
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("brokerAddr")
	w.String(h.brokerAddr())
	w.Key("consumeStatsList")
	w.BeginArray()
	for _, g := range h.groups() {
		w.BeginObject()
		w.Key(g.GroupName)
		w.BeginArray()
		for _, topic := range h.offsets.TopicsOf(g.GroupName) {
			tc, ok := h.consumedTopic(g.GroupName, topic)
			if !ok || (hdr.IsOrder && !tc.Order) {
				continue
			}
			rows := h.consumeRows(g.GroupName, topic, tc.WriteQueueNums)
			for _, r := range rows {
				total += r.values[0] - r.values[1]
			}
			writeConsumeStats(w, h.stats.GroupGetTPS(g.GroupName, topic), rows)
		}
		w.EndArray()
		w.EndObject()
	}
	w.EndArray()
	w.Key("totalDiff")
	w.Int64(total)
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

func (h *statsAdmin) consumeByWho(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	var hdr protocol.QueryTopicConsumeByWhoRequestHeader
	if err := hdr.DecodeFrom(req); err != nil {
		return nil, err
	}
	set := jhash.NewStringSet()
	for _, g := range h.consumers.GroupsConsuming(hdr.Topic) {
		set.Add(g)
	}
	for _, g := range h.offsets.GroupsOf(hdr.Topic) {
		set.Add(g)
	}
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("groupList")
	w.BeginArray()
	for _, g := range set.Keys() {
		w.String(g)
	}
	w.EndArray()
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

func (h *statsAdmin) runtimeInfo(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
	w := fastjson.NewWriter(fastjson.Compact)
	w.BeginObject()
	w.Key("table")
	w.BeginObject()
	h.runtime.table(h.store).Range(func(k, v string) bool {
		w.Key(k)
		w.String(v)
		return true
	})
	w.EndObject()
	w.EndObject()
	resp := success(req)
	resp.Body = w.Bytes()
	return resp, w.Err()
}

// runtimeInfo is what GET_BROKER_RUNTIME_INFO reports besides the store.
type runtimeInfo struct {
	// BootTime is when the store started (ms).
	BootTime int64
	// Broker supplies the queue capacities and startAcceptSendRequestTimeStamp.
	Broker *brokerconfig.BrokerConfig
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Daily holds the totals recorded at midnight (nil: all 0).
	Daily *dailyRecorder
	// QueueLen is how many requests of a code wait for a worker, on both
	// ports (nil: all 0).
	QueueLen func(protocol.RequestCode) int
	// QueueHeadWait is how long the longest-waiting of them has waited
	// (nil: 0).
	QueueHeadWait func(protocol.RequestCode) time.Duration
}

// headWait is Java's headSlowTimeMills for the codes sharing an executor:
// the longest wait (ms).
func (r runtimeInfo) headWait(codes ...protocol.RequestCode) string {
	var d time.Duration
	if r.QueueHeadWait != nil {
		for _, c := range codes {
			d = max(d, r.QueueHeadWait(c))
		}
	}
	return strconv.FormatInt(d.Milliseconds(), 10)
}

// queueSize is Java's executor queue size for the codes sharing it.
func (r runtimeInfo) queueSize(codes ...protocol.RequestCode) string {
	n := 0
	if r.QueueLen != nil {
		for _, c := range codes {
			n += r.QueueLen(c)
		}
	}
	return strconv.Itoa(n)
}

// dailyTotals is BrokerStats' morning figures.
type dailyTotals struct{ putYesterday, putToday, getYesterday, getToday int64 }

// dailyRecorder is BrokerStats: at every local midnight the store's put
// and get totals become today's morning figures, the previous ones
// yesterday's.
type dailyRecorder struct {
	mu sync.Mutex
	t  dailyTotals
}

func (d *dailyRecorder) get() dailyTotals {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.t
}

// record is BrokerStats.record.
func (d *dailyRecorder) record(rs store.RuntimeStats) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.t = dailyTotals{putYesterday: d.t.putToday, getYesterday: d.t.getToday,
		putToday: rs.PutMessageTimesTotal, getToday: rs.Transferred}
}

// run records at each local midnight until stop closes (Java schedules
// record at the next morning, then daily).
func (d *dailyRecorder) run(stop <-chan struct{}, s *store.Store) {
	for {
		now := time.Now()
		y, m, day := now.Date()
		t := time.NewTimer(time.Date(y, m, day+1, 0, 0, 0, 0, now.Location()).Sub(now))
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C:
			d.record(s.RuntimeStats())
		}
	}
}

// table is prepareRuntimeInfo: a HashMap(64) filled in Java's order.
func (r runtimeInfo) table(s *store.Store) *jhash.Map[string, string] {
	m := jhash.NewMap[string, string](jhash.String, 64)
	put := func(k, v string) { m.Put(k, v) }
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	rs := s.RuntimeStats()
	r.storeStats(rs, put)
	cfg := s.Config()
	minRatio := math.MaxFloat64
	for _, p := range cfg.CommitLogPaths() {
		ratio := store.DiskUsage(p)
		put("commitLogDiskRatio_"+p, javalang.FormatDouble(ratio))
		minRatio = min(minRatio, ratio)
	}
	put("commitLogDiskRatio", javalang.FormatDouble(minRatio))
	put("consumeQueueDiskRatio", javalang.FormatDouble(store.DiskUsage(cfg.StorePathRootDir+"/consumequeue")))
	if stats, err := s.ScheduleStats(); err == nil { // an unreadable delayOffset.json leaves them out
		for _, st := range stats {
			put(fmt.Sprintf("scheduleMessageOffset_%d", st.Level), fmt.Sprintf("%d,%d", st.Offset, st.MaxOff))
		}
	}
	put("commitLogMinOffset", i64(s.MinPhyOffset()))
	put("commitLogMaxOffset", i64(s.MaxPhyOffset()))
	r.brokerStats(rs, put)
	put("dispatchBehindBytes", i64(s.DispatchBehind()))
	put("pageCacheLockTimeMills", i64(s.LockTimeMills()))
	put("sendThreadPoolQueueHeadWaitTimeMills", r.headWait(protocol.ReqSendMessageV2, protocol.ReqConsumerSendMsgBack))
	put("pullThreadPoolQueueHeadWaitTimeMills", r.headWait(protocol.ReqPullMessage))
	put("queryThreadPoolQueueHeadWaitTimeMills", r.headWait(protocol.ReqQueryMessage))
	put("earliestMessageTimeStamp", i64(s.EarliestTime()))
	put("startAcceptSendRequestTimeStamp", i64(r.Broker.StartAcceptSendRequestTimeStamp))
	put("remainTransientStoreBufferNumbs", strconv.Itoa(remainTransientBuffers(s.CommitLog().Staged(), cfg.TransientStorePoolSize)))
	put("remainHowManyDataToFlush", humanReadableByteCount(s.MaxPhyOffset()-s.CommitLog().FlushedOffset()))
	if total, free, ok := diskSpace(cfg.StorePathRootDir); ok {
		put("commitLogDirCapacity", "Total : "+humanReadableByteCount(total)+", Free : "+humanReadableByteCount(free)+".")
	}
	return m
}

// storeStats puts StoreStatsService.getRuntimeInfo's keys: the store's
// counts, rates and put/get durations. dispatchMaxBuffer is 0 as in 4.9.8,
// where nothing sets it.
func (r runtimeInfo) storeStats(rs store.RuntimeStats, put func(k, v string)) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	put("bootTimestamp", strconv.FormatInt(r.BootTime, 10))
	put("runtime", formatRuntime(now().UnixMilli()-r.BootTime))
	total := max(rs.PutMessageTimesTotal, 1) // Java reports 1 when nothing was counted
	put("putMessageEntireTimeMax", strconv.FormatInt(rs.PutMessageEntireTimeMax, 10))
	put("putMessageTimesTotal", strconv.FormatInt(total, 10))
	put("putMessageFailedTimes", strconv.FormatInt(rs.PutMessageFailed, 10))
	put("putMessageSizeTotal", strconv.FormatInt(rs.PutMessageSizeTotal, 10))
	put("putMessageDistributeTime", rs.PutMessageDistributeTime)
	put("putMessageAverageSize", javalang.FormatDouble(float64(rs.PutMessageSizeTotal)/float64(total)))
	put("dispatchMaxBuffer", "0")
	put("getMessageEntireTimeMax", strconv.FormatInt(rs.GetMessageEntireTimeMax, 10))
	put("putTps", rs.PutTps)
	put("getFoundTps", rs.GetFoundTps)
	put("getMissTps", rs.GetMissTps)
	put("getTotalTps", rs.GetTotalTps)
	put("getTransferedTps", rs.GetTransferedTps)
	put("putLatency99", javalang.FormatFixed(rs.PutLatency99, 2))
	put("putLatency999", javalang.FormatFixed(rs.PutLatency999, 2))
}

// brokerStats puts prepareRuntimeInfo's BrokerStats and thread-pool keys.
func (r runtimeInfo) brokerStats(rs store.RuntimeStats, put func(k, v string)) {
	bc := r.Broker
	i32 := func(v int32) string { return strconv.Itoa(int(v)) }
	put("brokerVersionDesc", wire.CurrentVersionDesc)
	put("brokerVersion", strconv.Itoa(int(wire.CurrentVersion)))
	var d dailyTotals
	if r.Daily != nil {
		d = r.Daily.get()
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	put("msgPutTotalYesterdayMorning", i64(d.putYesterday))
	put("msgPutTotalTodayMorning", i64(d.putToday))
	put("msgPutTotalTodayNow", i64(rs.PutMessageTimesTotal))
	put("msgGetTotalYesterdayMorning", i64(d.getYesterday))
	put("msgGetTotalTodayMorning", i64(d.getToday))
	put("msgGetTotalTodayNow", i64(rs.Transferred))
	// Java's send executor serves the sends and CONSUMER_SEND_MSG_BACK,
	// two processors (two pools) here.
	put("sendThreadPoolQueueSize", r.queueSize(protocol.ReqSendMessageV2, protocol.ReqConsumerSendMsgBack))
	put("sendThreadPoolQueueCapacity", i32(bc.SendThreadPoolQueueCapacity))
	put("pullThreadPoolQueueSize", r.queueSize(protocol.ReqPullMessage))
	put("pullThreadPoolQueueCapacity", i32(bc.PullThreadPoolQueueCapacity))
	put("queryThreadPoolQueueSize", r.queueSize(protocol.ReqQueryMessage))
	put("queryThreadPoolQueueCapacity", i32(bc.QueryThreadPoolQueueCapacity))
	put("EndTransactionQueueSize", r.queueSize(protocol.ReqEndTransaction))
	put("EndTransactionThreadPoolQueueCapacity", i32(bc.EndTransactionPoolQueueCapacity))
}

// formatRuntime is StoreStatsService.getFormatRuntime: MessageFormat
// "[ {0} days, {1} hours, {2} minutes, {3} seconds ]" over longs, which
// groups thousands with commas.
func formatRuntime(ms int64) string {
	const second, minute, hour, day = 1000, 60 * 1000, 3600 * 1000, 24 * 3600 * 1000
	return "[ " + groupThousands(ms/day) + " days, " + groupThousands(ms%day/hour) + " hours, " +
		groupThousands(ms%hour/minute) + " minutes, " + groupThousands(ms%minute/second) + " seconds ]"
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// humanReadableByteCount is MixAll.humanReadableByteCount(bytes, false):
// binary units, "%.1f %siB" (Java's HALF_UP on the exact double value).
func humanReadableByteCount(bytes int64) string {
	const unit = 1024
	if bytes < unit {
		return strconv.FormatInt(bytes, 10) + " B"
	}
	exp := int(math.Log(float64(bytes)) / math.Log(unit))
	v := float64(bytes) / math.Pow(unit, float64(exp))
	return formatHalfUp1(v) + " " + string("KMGTPE"[exp-1]) + "iB"
}

// formatHalfUp1 is String.format("%.1f", v) for a non-negative finite v:
// the exact binary value rounded half up to one decimal.
func formatHalfUp1(v float64) string {
	r, _ := new(big.Float).SetPrec(0).SetFloat64(v).Rat(nil)
	r.Mul(r, big.NewRat(10, 1))
	r.Add(r, big.NewRat(1, 2))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	s := q.String()
	if len(s) < 2 {
		s = "0" + s
	}
	return s[:len(s)-1] + "." + s[len(s)-1:]
}

// diskSpace is File.getTotalSpace and getUsableSpace of path; ok is false
// when it does not exist.
func diskSpace(path string) (total, usable int64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, 0, false
	}
	return int64(st.Blocks) * st.Bsize, int64(st.Bavail) * st.Bsize, true
}

// remainTransientBuffers is TransientStorePool.availableBufferNums: the
// pool's size when appends are staged (Sputnik's staging ring never runs
// out, an append that finds it full commits first, so every buffer counts
// as available and the store is never "transient store pool deficient"),
// Integer.MAX_VALUE without a pool.
func remainTransientBuffers(staged bool, poolSize int32) int {
	if staged {
		return int(poolSize)
	}
	return math.MaxInt32
}
