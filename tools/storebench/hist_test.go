package storebench

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHistBuckets(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		index int
		mid   int64
	}{
		{0, 0, 0}, {1, 1, 1}, {31, 31, 31},
		{32, 32, 32}, {63, 63, 63}, // width 1 up to 64
		{64, 64, 65}, {65, 64, 65}, {66, 65, 67}, // width 2 from 64
		{1000, 32 + 4*32 + (1000 >> 4) - 32, 1000&^15 + 8},
		{-5, 0, 0},
	} {
		require.Equal(t, tc.index, histIndex(tc.v), "index of %d", tc.v)
		require.Equal(t, tc.mid, histMid(tc.index), "mid of bucket %d", tc.index)
	}
	// Every bucket's midpoint lies in that bucket and within 1/64 of any
	// value of the bucket; indexes grow with the value.
	prev := 0
	for _, v := range []int64{33, 100, 4095, 4096, 1 << 20, 123456789, 1 << 40, math.MaxInt64} {
		i := histIndex(v)
		require.GreaterOrEqual(t, i, prev)
		require.Less(t, i, histBuckets)
		require.Equal(t, i, histIndex(histMid(i)), "mid of bucket %d", i)
		require.InDelta(t, float64(v), float64(histMid(i)), float64(v)/64+1, "value %d", v)
		prev = i
	}
}

func TestHistSummary(t *testing.T) {
	var h Hist
	for v := int64(1); v <= 100_000; v++ {
		h.Add(v * 1000) // 1 µs … 100 ms, uniform
	}
	s := h.Summary()
	require.Equal(t, int64(100_000), s.Count)
	for _, c := range []struct {
		name      string
		got, want int64
	}{{"p50", s.P50, 50_000_000}, {"p99", s.P99, 99_000_000}, {"p99.9", s.P999, 99_900_000}, {"max", s.Max, 100_000_000}} {
		require.InDelta(t, float64(c.want), float64(c.got), float64(c.want)/64, c.name)
	}
	var other Hist
	other.Add(1 << 40)
	h.Merge(&other)
	require.Equal(t, int64(100_001), h.Summary().Count)
	require.Equal(t, histMid(histIndex(1<<40)), h.Summary().Max)
	require.Equal(t, Latency{}, new(Hist).Summary())
}

func FuzzHist(f *testing.F) {
	for _, v := range []int64{0, 1, 31, 32, 64, 1000, 1 << 40, math.MaxInt64, -1} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v int64) {
		i := histIndex(v)
		if i < 0 || i >= histBuckets {
			t.Fatalf("index %d of %d out of range", i, v)
		}
		if v >= 0 && histIndex(histMid(i)) != i {
			t.Fatalf("mid %d of bucket %d (value %d) is in bucket %d", histMid(i), i, v, histIndex(histMid(i)))
		}
	})
}

func TestUniqKey(t *testing.T) {
	require.Equal(t, "7F000001000000000000000000000000", uniqKey(0))
	require.Equal(t, "7F0000010000000000000000000ABCDE", uniqKey(0xABCDE))
	require.Len(t, uniqKey(math.MaxInt64), 32)
}
