package routeinfo

import (
	"runtime"
	"strconv"
	"testing"
)

// TestTableMemory100kTopics bounds the live heap of one broker serving
// 100,000 topics (Java keeps roughly 20-25 MB for the same table).
func TestTableMemory100kTopics(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tcs := make([]TopicConfig, 100_000)
	for i := range tcs {
		tcs[i] = topic("BenchTopic"+strconv.Itoa(i), 8, 6)
	}
	tb := New(Options{})
	tb.RegisterBroker(reg("c", "b", 0, "h:1", topics(1, tcs...), nil))
	tcs = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("live heap for 100k topics: %d MB", live>>20)
	if live > 64<<20 {
		t.Errorf("live heap %d MB for 100k topics", live>>20)
	}
	runtime.KeepAlive(tb)
}
