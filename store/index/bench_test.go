package index

import (
	"math"
	"strconv"
	"testing"
)

// A file of 1M slots and 4M entries (about 84 MB): big enough that slots
// rarely collide, as in the default geometry.
const benchSlots, benchEntries = 1 << 20, 4 << 20

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "TopicTest#order-" + strconv.Itoa(i)
	}
	return keys
}

func BenchmarkPut(b *testing.B) {
	f := newFile(b, benchSlots, benchEntries, 0, 0)
	keys := benchKeys(1 << 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%(benchEntries-1) == 0 {
			b.StopTimer()
			f = newFile(b, benchSlots, benchEntries, 0, 0)
			b.StartTimer()
		}
		if _, err := f.Put(keys[i&(len(keys)-1)], int64(i)*200, t0+int64(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

func BenchmarkQuery(b *testing.B) {
	f := newFile(b, benchSlots, benchEntries, 0, 0)
	keys := benchKeys(1 << 16)
	// Eight entries per key.
	for i := range 8 << 16 {
		if _, err := f.Put(keys[i&(len(keys)-1)], int64(i)*200, t0+int64(i)); err != nil {
			b.Fatal(err)
		}
	}
	dst := make([]int64, 0, 32)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		dst = f.AppendQuery(dst[:0], keys[i&(len(keys)-1)], 32, 0, math.MaxInt64)
		if len(dst) != 8 {
			b.Fatalf("got %d offsets", len(dst))
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

func BenchmarkServiceBuild(b *testing.B) {
	cfg := testConfig(b, benchSlots, benchEntries)
	s := openService(b, cfg, true)
	keys := benchKeys(1 << 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := keys[i&(len(keys)-1)]
		if err := s.Build("TopicTest", k, "order-1 order-2", int64(i)*200, t0+int64(i), 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
