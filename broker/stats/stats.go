// Package stats keeps the broker's traffic statistics as Java 4.9.8's
// BrokerStatsManager does: per stats name (TOPIC_PUT_NUMS, GROUP_GET_NUMS,
// …) and key (a topic, "topic@group", the cluster name), a running value
// and count, sampled every 10 seconds, 10 minutes and hour into the windows
// the minute, hour and day figures are computed from (StatsItem,
// StatsItemSet, StatsSnapshot). mqadmin statsAll and brokerStatus, the
// consume TPS of consumerProgress and monitoring tools read them.
package stats

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/store/message"
)

// The stats names of BrokerStatsManager (4.9.8).
const (
	TopicPutNums  = "TOPIC_PUT_NUMS"
	TopicPutSize  = "TOPIC_PUT_SIZE"
	GroupGetNums  = "GROUP_GET_NUMS"
	GroupGetSize  = "GROUP_GET_SIZE"
	SndbckPutNums = "SNDBCK_PUT_NUMS"
	BrokerPutNums = "BROKER_PUT_NUMS"
	BrokerGetNums = "BROKER_GET_NUMS"
)

// names are the sets the manager keeps (Java creates a few more, for
// commercial and disk-read accounting, that no tool of 4.9.8 reads).
var names = []string{TopicPutNums, TopicPutSize, GroupGetNums, GroupGetSize, SndbckPutNums, BrokerPutNums, BrokerGetNums}

// Window lengths and how many samples each keeps (StatsItem's
// samplingInSeconds/Minutes/Hour: 7, 7 and 25 samples).
const (
	minuteStep, minuteKeep = 10 * time.Second, 7
	hourStep, hourKeep     = 10 * time.Minute, 7
	dayStep, dayKeep       = time.Hour, 25
)

// Snapshot is StatsSnapshot: over a window, the value added, its rate per
// second, the average value per call, and the calls.
type Snapshot struct {
	Sum   int64
	TPS   float64
	AvgPT float64
	Times int64
}

// sample is CallSnapshot.
type sample struct {
	at           int64 // ms
	times, value int64
}

// Item is StatsItem: one key's running totals and sample windows.
type Item struct {
	value, times atomic.Int64

	mu                sync.Mutex
	minute, hour, day []sample
}

// Add is addValue: value grows by inc over calls calls.
func (it *Item) Add(inc, calls int64) {
	it.value.Add(inc)
	it.times.Add(calls)
}

// Value is the running total.
func (it *Item) Value() int64 { return it.value.Load() }

// sampleInto appends a sample to w, first with a zero sample one step
// back when w is empty (Java does so that a new item has a rate at its
// first sample), and keeps the last keep samples.
func (it *Item) sampleInto(w *[]sample, now int64, step time.Duration, keep int) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if len(*w) == 0 {
		*w = append(*w, sample{at: now - step.Milliseconds()})
	}
	*w = append(*w, sample{at: now, times: it.times.Load(), value: it.value.Load()})
	if len(*w) > keep {
		*w = append((*w)[:0], (*w)[len(*w)-keep:]...)
	}
}

// compute is computeStatsData: first against last sample of a window.
// The window is read under the lock its sampling holds.
func (it *Item) compute(window *[]sample) Snapshot {
	it.mu.Lock()
	defer it.mu.Unlock()
	w := *window
	if len(w) == 0 {
		return Snapshot{}
	}
	first, last := w[0], w[len(w)-1]
	s := Snapshot{Sum: last.value - first.value, Times: last.times - first.times}
	s.TPS = float64(s.Sum) * 1000.0 / float64(last.at-first.at)
	if s.Times > 0 {
		s.AvgPT = float64(s.Sum) / float64(s.Times)
	}
	return s
}

// Minute, Hour and Day are getStatsDataInMinute/InHour/InDay.
func (it *Item) Minute() Snapshot { return it.compute(&it.minute) }
func (it *Item) Hour() Snapshot   { return it.compute(&it.hour) }
func (it *Item) Day() Snapshot    { return it.compute(&it.day) }

// set is StatsItemSet: the items of one stats name.
type set struct {
	mu    sync.RWMutex
	items map[string]*Item
}

func (s *set) item(key string, create bool) *Item {
	s.mu.RLock()
	it := s.items[key]
	s.mu.RUnlock()
	if it != nil || !create {
		return it
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if it = s.items[key]; it == nil {
		it = &Item{}
		s.items[key] = it
	}
	return it
}

func (s *set) each(f func(*Item)) {
	s.mu.RLock()
	items := make([]*Item, 0, len(s.items))
	for _, it := range s.items {
		items = append(items, it)
	}
	s.mu.RUnlock()
	for _, it := range items {
		f(it)
	}
}

// Manager is BrokerStatsManager. A nil *Manager counts nothing and has no
// items (handlers built without statistics, in tests).
type Manager struct {
	cluster string
	sets    map[string]*set
	now     func() time.Time
	lmq     bool // FoldLmq

	// pairs caches the GROUP_GET items of a (topic, group) so that a pull
	// does not build the "topic@group" key each time.
	pairsMu sync.RWMutex
	pairs   map[pairKey]groupItems

	falls fallSizes // GROUP_GET_FALL_SIZE
}

type pairKey struct{ topic, group string }

type groupItems struct{ nums, size *Item }

// New returns a manager; cluster is the BROKER_PUT/GET_NUMS key (Java keys
// them by brokerClusterName). now nil is wall time.
func New(cluster string, now func() time.Time) *Manager {
	if now == nil {
		now = time.Now
	}
	m := &Manager{cluster: cluster, sets: map[string]*set{}, now: now, pairs: map[pairKey]groupItems{}}
	for _, n := range names {
		m.sets[n] = &set{items: map[string]*Item{}}
	}
	return m
}

// FoldLmq makes the group statistics count every light message queue and
// LMQ group as one, named %LMQ% (LmqBrokerStatsManager, enableLmq), so
// that thousands of LMQs do not make thousands of items. Call it before
// counting.
func (m *Manager) FoldLmq() { m.lmq = true }

// fold is the name a topic or group is counted under.
func (m *Manager) fold(name string) string {
	if m.lmq && strings.HasPrefix(name, message.LmqPrefix) {
		return message.LmqPrefix
	}
	return name
}

func (m *Manager) add(name, key string, inc, calls int64) {
	m.sets[name].item(key, true).Add(inc, calls)
}

// GroupKey is buildStatsKey(topic, group): "topic@group".
func GroupKey(topic, group string) string { return topic + "@" + group }

// TopicPut counts a stored send: msgs messages of size bytes in one call
// (incTopicPutNums, incTopicPutSize, incBrokerPutNums).
func (m *Manager) TopicPut(topic string, msgs int32, size int64) {
	if m == nil {
		return
	}
	m.add(TopicPutNums, topic, int64(msgs), 1)
	m.add(TopicPutSize, topic, size, 1)
	m.add(BrokerPutNums, m.cluster, int64(msgs), 1)
}

// GroupGet counts a pull that found msgs messages of size bytes
// (incGroupGetNums, incGroupGetSize, incBrokerGetNums).
func (m *Manager) GroupGet(group, topic string, msgs int, size int) {
	if m == nil {
		return
	}
	m.groupGet(group, topic, msgs, size)
	m.add(BrokerGetNums, m.cluster, int64(msgs), 1)
}

// ScheduleDelivered counts a delayed message that was due, put back to
// topic with size bytes: ScheduleMessageService's statistics (with
// enableScheduleMessageStats), a get of SCHEDULE_CONSUMER from
// SCHEDULE_TOPIC_XXXX and a put to topic. Java 4.9.8 calls
// incGroupGetNums twice there, counting each delivery twice in
// GROUP_GET_NUMS; it is counted once here.
func (m *Manager) ScheduleDelivered(scheduleTopic, scheduleGroup, topic string, size int) {
	if m == nil {
		return
	}
	m.groupGet(scheduleGroup, scheduleTopic, 1, size)
	m.TopicPut(topic, 1, int64(size))
}

// groupGet is incGroupGetNums and incGroupGetSize.
func (m *Manager) groupGet(group, topic string, msgs int, size int) {
	group, topic = m.fold(group), m.fold(topic)
	k := pairKey{topic, group}
	m.pairsMu.RLock()
	g, ok := m.pairs[k]
	m.pairsMu.RUnlock()
	if !ok {
		key := GroupKey(topic, group)
		g = groupItems{nums: m.sets[GroupGetNums].item(key, true), size: m.sets[GroupGetSize].item(key, true)}
		m.pairsMu.Lock()
		m.pairs[k] = g
		m.pairsMu.Unlock()
	}
	g.nums.Add(int64(msgs), 1)
	g.size.Add(int64(size), 1)
}

// SendBack counts a consumer's send-back (incSendBackNums).
func (m *Manager) SendBack(group, topic string) {
	if m == nil {
		return
	}
	m.add(SndbckPutNums, GroupKey(m.fold(topic), m.fold(group)), 1, 1)
}

// Item is getStatsItem: nil for a key nothing was counted under; ok is
// false for an unknown stats name.
func (m *Manager) Item(name, key string) (it *Item, ok bool) {
	if m == nil {
		return nil, slices.Contains(names, name)
	}
	s, ok := m.sets[name]
	if !ok {
		return nil, false
	}
	return s.item(key, false), true
}

// GroupGetTPS is tpsGroupGetNums: the group's pulled messages per second
// over the last minute.
func (m *Manager) GroupGetTPS(group, topic string) float64 {
	if m == nil {
		return 0
	}
	if it := m.sets[GroupGetNums].item(GroupKey(m.fold(topic), m.fold(group)), false); it != nil {
		return it.Minute().TPS
	}
	return 0
}

// Sample takes one sample of every item into the chosen windows (Java's
// samplingInSeconds, samplingInMinutes, samplingInHour); Run calls it on
// its schedule, tests with a clock of their own.
func (m *Manager) Sample(minute, hour, day bool) {
	now := m.now().UnixMilli()
	for _, s := range m.sets {
		s.each(func(it *Item) {
			if minute {
				it.sampleInto(&it.minute, now, minuteStep, minuteKeep)
			}
			if hour {
				it.sampleInto(&it.hour, now, hourStep, hourKeep)
			}
			if day {
				it.sampleInto(&it.day, now, dayStep, dayKeep)
			}
		})
	}
}

// Run samples every window at once and then each at its period (Java's
// fixed-rate schedules with no initial delay) until stop closes.
func (m *Manager) Run(stop <-chan struct{}) {
	m.Sample(true, true, true)
	minute := time.NewTicker(minuteStep)
	hour := time.NewTicker(hourStep)
	day := time.NewTicker(dayStep)
	defer minute.Stop()
	defer hour.Stop()
	defer day.Stop()
	for {
		select {
		case <-stop:
			return
		case <-minute.C:
			m.Sample(true, false, false)
		case <-hour.C:
			m.Sample(false, true, false)
		case <-day.C:
			m.Sample(false, false, true)
		}
	}
}
