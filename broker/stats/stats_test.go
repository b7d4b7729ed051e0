package stats

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// TestMinuteWindow follows StatsItem: a new item's first sample comes
// with a zero sample one step back; the window keeps 7 samples, so after
// a minute the oldest counts drop out.
func TestMinuteWindow(t *testing.T) {
	c := &clock{t: time.UnixMilli(1_700_000_000_000)}
	m := New("DefaultCluster", c.now)
	m.TopicPut("T", 5, 500)
	it, ok := m.Item(TopicPutNums, "T")
	require.True(t, ok)
	require.Equal(t, Snapshot{}, it.Minute(), "nothing sampled yet")

	c.t = c.t.Add(10 * time.Second)
	m.Sample(true, false, false)
	require.Equal(t, Snapshot{Sum: 5, TPS: 0.5, AvgPT: 5, Times: 1}, it.Minute())

	m.TopicPut("T", 10, 1000)
	m.TopicPut("T", 0, 0)
	c.t = c.t.Add(10 * time.Second)
	m.Sample(true, false, false)
	require.Equal(t, Snapshot{Sum: 15, TPS: 0.75, AvgPT: 5, Times: 3}, it.Minute())

	for range 6 { // a minute without traffic: the window slides past the puts
		c.t = c.t.Add(10 * time.Second)
		m.Sample(true, false, false)
	}
	require.Equal(t, Snapshot{Sum: 0, TPS: 0, AvgPT: 0, Times: 0}, it.Minute())
	require.Equal(t, int64(15), it.Value())

	size, _ := m.Item(TopicPutSize, "T")
	require.Equal(t, int64(1500), size.Value())
	broker, _ := m.Item(BrokerPutNums, "DefaultCluster")
	require.Equal(t, int64(15), broker.Value())
	require.Equal(t, Snapshot{}, size.Hour(), "the hour window was never sampled")
}

func TestGroupGetAndLookups(t *testing.T) {
	c := &clock{t: time.UnixMilli(1_700_000_000_000)}
	m := New("C", c.now)
	m.GroupGet("G", "T", 32, 4096)
	m.SendBack("G", "T")
	c.t = c.t.Add(10 * time.Second)
	m.Sample(true, true, true)
	require.Equal(t, 3.2, m.GroupGetTPS("G", "T"))
	require.Equal(t, 0.0, m.GroupGetTPS("G", "Other"))
	it, ok := m.Item(GroupGetSize, GroupKey("T", "G"))
	require.True(t, ok)
	require.Equal(t, Snapshot{Sum: 4096, TPS: 4096.0 / 600, AvgPT: 4096, Times: 1}, it.Hour())
	require.Equal(t, Snapshot{Sum: 4096, TPS: 4096.0 / 3600, AvgPT: 4096, Times: 1}, it.Day())
	back, _ := m.Item(SndbckPutNums, "T@G")
	require.Equal(t, int64(1), back.Value())
	missing, ok := m.Item(TopicPutNums, "nothing")
	require.True(t, ok)
	require.Nil(t, missing)
	_, ok = m.Item("NO_SUCH_STATS", "T")
	require.False(t, ok)
}

// TestReadWhileSampling: readers and the sampler share the windows (run
// with -race).
func TestReadWhileSampling(t *testing.T) {
	m := New("C", nil)
	m.TopicPut("T", 1, 1)
	it, _ := m.Item(TopicPutNums, "T")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			m.Sample(true, true, true)
		}
	}()
	for range 200 {
		_ = it.Minute()
		_ = it.Hour()
		_ = it.Day()
	}
	<-done
}

// A nil manager counts nothing and has no items, but knows the names.
func TestNilManager(t *testing.T) {
	var m *Manager
	m.TopicPut("T", 1, 10)
	m.GroupGet("G", "T", 1, 10)
	m.SendBack("G", "T")
	require.Zero(t, m.GroupGetTPS("G", "T"))
	it, ok := m.Item(TopicPutNums, "T")
	require.Nil(t, it)
	require.True(t, ok)
	_, ok = m.Item("NO_SUCH_STATS", "T")
	require.False(t, ok)
}

// onTopicDeleted and onGroupDeleted (autoDeleteUnusedStats) drop the
// items keyed by the topic ("topic", "topic@…") or the group ("…@group"),
// and their fall-behind values; others stay. Delivered delayed messages
// count as a SCHEDULE_CONSUMER get and a put to their topic.
func TestDeletedAndScheduleStats(t *testing.T) {
	m := New("C", nil)
	m.TopicPut("T", 2, 20)
	m.TopicPut("T2", 1, 10)
	m.GroupGet("G", "T", 1, 10)
	m.GroupGet("G", "T2", 1, 10)
	m.GroupGet("H", "T", 1, 10)
	m.SendBack("G", "T")
	m.RecordFallBehind("G", "T", 0, 100)
	m.RecordFallBehind("G", "T", 0, 50) // a moment value: the last one counts
	m.RecordFallBehind("H", "T2", 3, 7)
	falls := func() map[FallKey]int64 {
		out := map[FallKey]int64{}
		m.FallBehind(func(k FallKey, v int64) { out[k] = v })
		return out
	}
	require.Equal(t, map[FallKey]int64{{0, "T", "G"}: 50, {3, "T2", "H"}: 7}, falls())
	has := func(name, key string) bool { it, _ := m.Item(name, key); return it != nil }

	m.OnTopicDeleted("T")
	require.False(t, has(TopicPutNums, "T"))
	require.False(t, has(TopicPutSize, "T"))
	require.True(t, has(TopicPutNums, "T2"))
	require.False(t, has(GroupGetNums, "T@G"))
	require.False(t, has(GroupGetNums, "T@H"))
	require.False(t, has(SndbckPutNums, "T@G"))
	require.True(t, has(GroupGetNums, "T2@G"))
	require.True(t, has(BrokerPutNums, "C"))
	require.Equal(t, map[FallKey]int64{{3, "T2", "H"}: 7}, falls())
	m.GroupGet("G", "T", 1, 10) // counted again after the deletion
	require.True(t, has(GroupGetNums, "T@G"))

	m.OnGroupDeleted("G")
	require.False(t, has(GroupGetNums, "T2@G"))
	require.False(t, has(GroupGetSize, "T@G"))
	m.OnGroupDeleted("H")
	require.Empty(t, falls())

	m.ScheduleDelivered("SCHEDULE_TOPIC_XXXX", "SCHEDULE_CONSUMER", "T", 99)
	get, _ := m.Item(GroupGetNums, "SCHEDULE_TOPIC_XXXX@SCHEDULE_CONSUMER")
	require.EqualValues(t, 1, get.Value())
	put, _ := m.Item(TopicPutSize, "T")
	require.EqualValues(t, 99, put.Value())
	brokerGets, _ := m.Item(BrokerGetNums, "C")
	require.EqualValues(t, 4, brokerGets.Value(), "the four pulls, not the delivery")
}
