package storebench

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMarkdownRatios checks the ratio table uses each implementation's
// best round and the best page-cache run, and pairs each Sputnik run with
// the write(2) measured just before it.
func TestMarkdownRatios(t *testing.T) {
	sec := int64(time.Second)
	r := &Report{
		Options: Options{Sizes: []int{64 << 10}, Threads: []int{4}, SegmentSize: 1 << 30, Queues: 8},
		Baselines: []Baseline{
			{Method: BaselineMmap, Chunk: 64 << 10, Bytes: 1000e6, Nanos: sec},                   // 1000 MB/s
			{Method: BaselineMmap, Chunk: 64 << 10, Bytes: 1000e6, Nanos: sec / 2, Steal: 0.031}, // 2000 MB/s: the best
			{Method: BaselineWrite, Chunk: 64 << 10, Bytes: 1000e6, Nanos: sec / 4},
			{Method: BaselineWriteFlush, Chunk: 64 << 10, Bytes: 1000e6, Nanos: sec},
		},
		Appends: []AppendResult{
			{Impl: Sputnik, Size: 64 << 10, Threads: 4, Messages: 1000, LogBytes: 1600e6, AppendNanos: sec, DispatchedNanos: sec,
				PageCache: &Baseline{Bytes: 2000e6, Nanos: sec}}, // 80% of 2000 MB/s
			{Impl: Sputnik, Size: 64 << 10, Threads: 4, Messages: 1000, LogBytes: 1600e6, AppendNanos: 2 * sec, DispatchedNanos: 2 * sec, Round: 1,
				PageCache: &Baseline{Bytes: 4000e6, Nanos: sec}, Steal: 0.125}, // 20% of 4000 MB/s
			{Impl: Java, Size: 64 << 10, Threads: 4, Messages: 1000, LogBytes: 1600e6, AppendNanos: 4 * sec, DispatchedNanos: 5 * sec},
		},
	}
	md := Markdown(r)
	row := ""
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| 64 KiB | 4 | 4.00×") {
			row = l
		}
	}
	require.NotEmpty(t, row, md)
	require.Equal(t, "| 64 KiB | 4 | 4.00× | 5.00× | 80% | 40% | 20% | 80%, 20% | 160% |", row)
	require.Contains(t, md, "| mmap+memcpy | 64 KiB | 954 MiB | 2 | 2000 | 2000 | 1000 | 3.1% |")
	require.Contains(t, md, "| 12.5% | 4000 |", "the second Sputnik run's steal and page cache before it")
	require.Contains(t, md, "| 0.0% | – |", "Java's run had no settle")
}

func TestMib(t *testing.T) {
	for n, want := range map[int64]string{128: "128 B", 1024: "1 KiB", 64 << 10: "64 KiB", 3 << 20: "3 MiB", 1 << 30: "1 GiB", 10 << 30: "10 GiB"} {
		require.Equal(t, want, mib(n))
	}
}

// Every baseline method writes the bytes it reports, into a file it
// removes afterwards.
func TestRunBaselines(t *testing.T) {
	dir := t.TempDir()
	bs, err := RunBaselines(dir, 4<<20, 1)
	require.NoError(t, err)
	require.Len(t, bs, 4)
	for _, b := range bs {
		require.Equal(t, int64(4<<20), b.Bytes, b.Method)
		require.Positive(t, b.Nanos, b.Method)
	}
	require.Equal(t, BaselineWriteFlush, bs[3].Method)
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, left)
}
