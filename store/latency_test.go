package store

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// TestPutLatencyMatchesJava replays put durations into a minute and reads
// the figures 4.9.8's StoreStatsService gave for the same durations (its
// setPutMessageEntireTimeMax, then the private bucket resets by reflection,
// then findPutMessageEntireTimePX formatted "%.2f" and
// putMessageDistributeTimeToString; run with rocketmq-store 4.9.8 on
// OpenJDK 17). For the p99.9 of the wide case, interpolated inside the
// bucket that ends at Long.MAX_VALUE, OpenJDK 17 prints a 17th digit
// ("83093441773466624.00", JDK-4511638); FormatFixed prints the shortest
// digits, as FormatDouble does.
func TestPutLatencyMatchesJava(t *testing.T) {
	wide := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 30, 45,
		60, 99, 100, 101, 150, 199, 200, 201, 300, 499, 500, 501, 999, 1000, 1001, 1999, 2000, 5000, 9999, 10000,
		10001, 20000, 1 << 40}
	for _, c := range []struct {
		puts           []int64
		reps           int
		p99, p999, p50 string
		max            int64
		dist           string
	}{
		{nil, 1, "0.00", "0.00", "0.0", 0, "[<=0ms]:0 [0~10ms]:0 [10~50ms]:0 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0 "},
		{[]int64{0}, 1, "0.00", "0.00", "0.0", 0, "[<=0ms]:1 [0~10ms]:0 [10~50ms]:0 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0 "},
		{make([]int64, 10), 100, "0.99", "1.00", "0.5", 0, "[<=0ms]:1000 [0~10ms]:0 [10~50ms]:0 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0 "},
		{wide, 37, "1710.88", "83093441773466620.00", "26.0", 1 << 40, "[<=0ms]:0 [0~10ms]:333 [10~50ms]:666 [50~100ms]:74 [100~200ms]:148 [200~500ms]:148 [500ms~1s]:111 [1~2s]:111 [2~3s]:37 [3~4s]:0 [4~5s]:0 [5~10s]:74 [10s~]:148 "},
		{[]int64{30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 0}, 99, "29.98", "30.00", "28.8989898989899", 30, "[<=0ms]:99 [0~10ms]:0 [10~50ms]:990 [50~100ms]:0 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0 "},
		{[]int64{-5, 0, 0, 7, 7, 7, 7, 55, 55, 1200}, 250, "1900.00", "1988.00", "6.5", 1200, "[<=0ms]:750 [0~10ms]:1000 [10~50ms]:0 [50~100ms]:500 [100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:250 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:0 "},
	} {
		var l latencyStats
		for range c.reps {
			for _, ms := range c.puts {
				l.put(ms)
			}
		}
		require.Nil(t, l.last.Load())
		assert.Equal(t, "null", l.last.Load().distribution(), "before the first minute ends")
		assert.Zero(t, l.last.Load().percentile(0.99))
		ended := l.rotate()
		last := l.last.Load()
		require.Same(t, ended, last)
		assert.Equal(t, c.p99, javalang.FormatFixed(last.percentile(0.99), 2), "p99 of %v", c.puts)
		assert.Equal(t, c.p999, javalang.FormatFixed(last.percentile(0.999), 2), "p99.9 of %v", c.puts)
		assert.Equal(t, c.p50, javalang.FormatDouble(last.percentile(0.5)), "p50 of %v", c.puts)
		assert.Equal(t, c.max, l.putMax.Load())
		assert.Equal(t, c.dist, last.distribution())
		assert.Zero(t, l.counting().total(), "a new minute starts empty")
	}
}

func TestPutLatencyBuckets(t *testing.T) {
	for i, want := range map[int]int64{0: 1, 19: 20, 20: 22, 34: 50, 35: 55, 44: 100, 45: 110, 54: 200,
		55: 250, 60: 500, 61: 600, 65: 1000, 66: 2000, 74: 10000, 75: 1<<63 - 1} {
		assert.Equal(t, want, pxBounds[i], "bucket %d", i)
	}
	for ms, want := range map[int64]int{-1: 0, 0: 0, 1: 1, 9: 1, 10: 2, 49: 2, 50: 3, 99: 3, 100: 4, 199: 4,
		200: 5, 499: 5, 500: 6, 999: 6, 1000: 7, 1999: 7, 2000: 8, 4999: 10, 5000: 11, 9999: 11, 10000: 12, 1 << 50: 12} {
		assert.Equal(t, want, distributeRange(ms), "%d ms", ms)
	}
}

// TestGetLatencyMax keeps the longest get.
func TestGetLatencyMax(t *testing.T) {
	var l latencyStats
	for _, ms := range []int64{3, 0, 9, 4} {
		l.get(ms)
	}
	assert.Equal(t, int64(9), l.getMax.Load())
}

// TestStoreTimesPutsAndGets: puts, batches and sync-flushed puts (timed up
// to the flush) raise putMessageEntireTimeMax and count in the minute;
// reads raise getMessageEntireTimeMax. The clock moves 5 ms a reading.
func TestStoreTimesPutsAndGets(t *testing.T) {
	var clock atomic.Int64
	clock.Store(1_700_000_000_000)
	cfg := testConfig(t.TempDir())
	cfg.FlushDiskType = SyncFlush
	s, err := Open(cfg, Options{Master: true, Now: func() int64 { return clock.Add(5) }})
	require.NoError(t, err)
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Close() })

	rs := s.RuntimeStats()
	require.Zero(t, rs.PutMessageEntireTimeMax)
	require.Equal(t, "null", rs.PutMessageDistributeTime)

	putN(t, s, 3) // WaitStoreMsgOK false: answered at once
	m := &Message{Topic: "T", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore, WaitStoreMsgOK: true}
	require.Equal(t, PutOK, s.PutMessage(m).Status)
	r, deferred := s.PutMessageDeferring(m)
	require.True(t, deferred)
	done := make(chan PutResult, 1)
	s.AwaitFlushed(r, func(r PutResult) { done <- r })
	require.Equal(t, PutOK, (<-done).Status)
	require.Positive(t, s.RuntimeStats().PutMessageEntireTimeMax)
	require.EqualValues(t, 5, s.stats.latency.counting().total())

	res, err := s.GetMessage("G", "T", 0, 0, 32, nil)
	require.NoError(t, err)
	res.Release()
	require.Positive(t, s.RuntimeStats().GetMessageEntireTimeMax)

	require.EqualValues(t, 5, s.stats.latency.rotate().total())
	rs = s.RuntimeStats()
	require.Regexp(t, `^\[<=0ms\]:0 \[0~10ms\]:\d+ \[10~50ms\]:\d+ \[50~100ms\]:0 `, rs.PutMessageDistributeTime)
	require.Positive(t, rs.PutLatency99)
}
