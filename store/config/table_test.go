package config

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// A default-capacity chm fed distinct keys iterates as jhash.CHMOrder says
// (an independent model of the same JDK code).
func TestCHMMatchesJhash(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 11, 12, 13, 100, 1000, 5000} {
		m := newCHM[string, int](stringHash, capDefaultCHM)
		var keys []string
		var hashes []int32
		for len(keys) < n {
			k := strconv.FormatInt(r.Int63n(1e9), 36)
			if _, dup := m.Get(k); dup {
				continue
			}
			m.Put(k, len(keys))
			keys, hashes = append(keys, k), append(hashes, jhash.String(k))
		}
		var want []string
		for _, i := range jhash.CHMOrder(hashes) {
			want = append(want, keys[i])
		}
		require.Equal(t, want, nonNil(m.Keys()), "n=%d", n)
	}
}

func nonNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestCHMInitialTable(t *testing.T) {
	for _, tt := range []struct{ capacity, table int }{
		{capTopics, 2048}, {capOffsets, 1024}, {capFilterTopics, 512}, {capDelay, 64}, {0, 1}, {1, 2}, {12, 32},
	} {
		require.Equal(t, tt.table, chmInitialTable(tt.capacity), "capacity %d", tt.capacity)
	}
}

func TestCHMPutRemove(t *testing.T) {
	m := newCHM[int32, int64](intHash, capDefaultCHM)
	for _, k := range []int32{16, 0, 32, 1} {
		m.Put(k, int64(k))
	}
	require.Equal(t, []int32{16, 0, 32, 1}, m.Keys()) // bin 0 in insertion order
	m.Remove(0)
	m.Put(0, 5)
	m.Put(16, 7) // an existing key keeps its place
	require.Equal(t, []int32{16, 32, 0, 1}, m.Keys())
	v, ok := m.Get(16)
	require.True(t, ok)
	require.EqualValues(t, 7, v)
	_, ok = m.Remove(99)
	require.False(t, ok)
}

// Clear keeps the grown table (ConcurrentHashMap.clear): keys put after
// it land in the bins of the grown table, not of a new one.
func TestCHMClearKeepsTable(t *testing.T) {
	m := newCHM[int32, int64](intHash, capDefaultCHM)
	for k := range int32(13) { // the 13th key doubles the 16 bins
		m.Put(k, 0)
	}
	require.Len(t, m.bins, 32)
	m.Clear()
	require.Zero(t, m.Len())
	require.Len(t, m.bins, 32)
	for _, k := range []int32{16, 1} {
		m.Put(k, 0)
	}
	require.Equal(t, []int32{1, 16}, m.Keys()) // 16 in bin 16 of 32, not bin 0 of 16
	_, ok := m.Get(3)
	require.False(t, ok)
}

func TestDataVersionNext(t *testing.T) {
	d := NewDataVersion(5)
	d.Next(9)
	d.Next(11)
	require.Equal(t, DataVersion{Timestamp: 11, Counter: 2}, d)
	d.Counter = 1<<63 - 1
	d.Next(12)
	require.EqualValues(t, -1<<63, d.Counter) // AtomicLong wraps
}

func TestOffsetKey(t *testing.T) {
	require.Equal(t, "T@G", OffsetKey("T", "G"))
	for _, tt := range []struct {
		key, topic, group string
		ok                bool
	}{
		{"T@G", "T", "G", true},
		{"%RETRY%G@G", "%RETRY%G", "G", true},
		{"T@G@", "T", "G", true}, // String.split drops trailing empty parts
		{"T@", "", "", false},
		{"@G", "", "G", true},
		{"a@b@c", "", "", false},
		{"T", "", "", false},
	} {
		topic, group, ok := SplitOffsetKey(tt.key)
		require.Equal(t, tt.ok, ok, tt.key)
		if ok {
			require.Equal(t, [2]string{tt.topic, tt.group}, [2]string{topic, group}, tt.key)
		}
	}
}

func TestConsumerOffsetsCommit(t *testing.T) {
	c := NewConsumerOffsets()
	_, existed := c.Commit("t@g", 1, 10)
	require.False(t, existed)
	prev, existed := c.Commit("t@g", 1, 12)
	require.True(t, existed)
	require.EqualValues(t, 10, prev)
	off, ok := c.Query("t@g", 1)
	require.True(t, ok)
	require.EqualValues(t, 12, off)
	_, ok = c.Query("t@g", 2)
	require.False(t, ok)
	require.True(t, c.Remove("t@g"))
	require.Equal(t, 0, c.Len())
}

// Java 4.9.8: ConsumerFilterManager.decode (bloom check, death time) and clean.
func TestConsumerFiltersRestoreAndClean(t *testing.T) {
	build := func(bloom *BloomFilterData, born, dead int64) *ConsumerFilters {
		c := NewConsumerFilters()
		c.Put(filterOf("T", "G", "a>1", "SQL92", born, dead, bloom, 1))
		return c
	}
	ok3 := &BloomFilterData{BitNum: 216, BitPos: []int32{1, 2, 3}}
	for _, tt := range []struct {
		name      string
		c         *ConsumerFilters
		ok        bool
		deadAfter int64
	}{
		{"alive long ago", build(ok3, 1000, 0), true, 100_000 - 30_000},
		{"alive just born", build(ok3, 90_000, 0), true, 90_000},
		{"dead kept", build(ok3, 1000, 5000), true, 5000},
		{"wrong bits", build(&BloomFilterData{BitNum: 64, BitPos: []int32{1, 2, 3}}, 1, 0), false, 0},
		{"wrong hashes", build(&BloomFilterData{BitNum: 216, BitPos: []int32{1}}, 1, 0), false, 0},
		{"no bloom", build(nil, 1, 0), false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.ok, tt.c.Restore(100_000, 216, 3))
			if !tt.ok {
				return
			}
			m, _ := tt.c.Topic("T")
			f, _ := m.Get("G")
			require.Equal(t, tt.deadAfter, f.DeadTime)
			tt.c.Clean(tt.deadAfter+FilterCleanSpan-1, FilterCleanSpan)
			require.Equal(t, 1, tt.c.Len())
			tt.c.Clean(tt.deadAfter+FilterCleanSpan, FilterCleanSpan)
			require.Equal(t, 0, tt.c.Len()) // the topic goes with its last filter
		})
	}
}
