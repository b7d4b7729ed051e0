package commitlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// staged configures a staged log whose committer never commits on its own
// (tests call commit), with a ring of ringPages pages.
func staged(ringPages int) func(*Config) {
	return func(c *Config) {
		c.Staged = true
		c.CommitInterval = time.Hour
		c.CommitThoroughInterval = time.Hour
		c.CommitLeastPages = 1 << 20
		c.ringSize = int64(ringPages) * segment.PageSize
	}
}

func skipWithoutRing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the staging ring is Linux-only; elsewhere the option writes through the mapping")
	}
}

func TestStagedDataIsReadableOnlyOnceCommitted(t *testing.T) {
	skipWithoutRing(t)
	cl := openLog(t, t.TempDir(), staged(4))
	defer cl.Close()
	require.True(t, cl.Staged())
	res := put(t, cl, "T", 0, "staged")
	require.EqualValues(t, 0, cl.MaxOffset(), "nothing committed yet (Java getReadPosition)")
	_, err := cl.Read(res.WroteOffset, res.WroteBytes)
	require.ErrorIs(t, err, segment.ErrRange)
	require.NoError(t, cl.Flush())
	require.EqualValues(t, 0, cl.FlushedOffset(), "flush covers committed data only")

	require.NoError(t, cl.stage.commit(0))
	require.Equal(t, res.End(), cl.MaxOffset())
	r := readRecord(t, cl, res.WroteOffset, res.WroteBytes)
	require.Equal(t, "staged", string(r.Body))
	require.Equal(t, res.StoreTimestamp, cl.Queue().Last().StoreTimestamp())
	require.NoError(t, cl.Flush())
	require.Equal(t, res.End(), cl.FlushedOffset())
}

func TestStagedCommitHonoursLeastPages(t *testing.T) {
	skipWithoutRing(t)
	cl := openLog(t, t.TempDir(), staged(8), func(c *Config) { c.SegmentSize = 1 << 20 })
	defer cl.Close()
	res := put(t, cl, "T", 0, "small")
	require.NoError(t, cl.stage.commit(2))
	require.EqualValues(t, 0, cl.MaxOffset(), "under two pages pending")
	for cl.stage.pending() < 2*segment.PageSize {
		res = put(t, cl, "T", 0, string(make([]byte, 1000)))
	}
	require.NoError(t, cl.stage.commit(2))
	require.Equal(t, res.End(), cl.MaxOffset())
}

// The same puts produce byte-identical segment files staged (through a
// ring smaller than a segment, wrapping many times) and through the
// mapping, blanks included.
func TestStagedFilesMatchMappedFiles(t *testing.T) {
	skipWithoutRing(t)
	mapped, stagedDir := t.TempDir(), t.TempDir()
	a := openLog(t, mapped)
	b := openLog(t, stagedDir, staged(2))
	for i := range 300 {
		body := fmt.Sprintf("message %d %s", i, bytes.Repeat([]byte{byte(i)}, i*7%900))
		ra, rb := put(t, a, "T", int32(i%3), body), put(t, b, "T", int32(i%3), body)
		require.Equal(t, ra, rb)
	}
	require.Greater(t, len(b.Queue().Segments()), 20)
	require.NoError(t, a.Close())
	require.NoError(t, b.Close(), "close commits what is staged")
	requireSameFiles(t, mapped, stagedDir)
}

func requireSameFiles(t *testing.T, dirA, dirB string) {
	t.Helper()
	names, err := os.ReadDir(dirA)
	require.NoError(t, err)
	namesB, err := os.ReadDir(dirB)
	require.NoError(t, err)
	require.Equal(t, len(names), len(namesB))
	for _, n := range names {
		x, err := os.ReadFile(filepath.Join(dirA, n.Name()))
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(dirB, n.Name()))
		require.NoError(t, err)
		require.True(t, bytes.Equal(x, y), "segment %s differs", n.Name())
	}
}

// A ring without room makes the appender commit first.
func TestStagedFullRingCommitsBeforeAppending(t *testing.T) {
	skipWithoutRing(t)
	cl := openLog(t, t.TempDir(), staged(1), func(c *Config) { c.SegmentSize = 1 << 20 })
	defer cl.Close()
	var last Result
	for i := range 40 {
		last = put(t, cl, "T", 0, fmt.Sprintf("%d %s", i, make([]byte, 500)))
		require.LessOrEqual(t, cl.stage.pending(), int64(segment.PageSize))
	}
	require.Greater(t, cl.MaxOffset(), int64(0))
	require.NoError(t, cl.stage.commit(0))
	require.Equal(t, last.End(), cl.MaxOffset())
}

// The running committer commits on its own and wakes the flusher.
func TestStagedCommitterCommitsAndFlushes(t *testing.T) {
	skipWithoutRing(t)
	cl := openLog(t, t.TempDir(), func(c *Config) {
		c.Staged = true
		c.SegmentSize = 1 << 20
		c.CommitInterval = 10 * time.Millisecond
		c.FlushInterval = 10 * time.Millisecond
	})
	cl.Start()
	defer cl.Close()
	res := fill(t, cl, 50)
	end := res[len(res)-1].End()
	require.Eventually(t, func() bool { return cl.MaxOffset() == end }, 5*time.Second, time.Millisecond)
	require.Eventually(t, func() bool { return cl.FlushedOffset() == end }, 5*time.Second, time.Millisecond)
}

// A segment written through the mapping before a restart is finished that
// way; the next one is staged. Recovery reads both.
func TestStagedAfterRestartContinuesMappedSegment(t *testing.T) {
	skipWithoutRing(t)
	dir := t.TempDir()
	cl := openLog(t, dir)
	first := put(t, cl, "T", 0, "mapped")
	require.NoError(t, cl.Close())

	cl = openLog(t, dir, staged(2))
	_, err := cl.RecoverNormally(true)
	require.NoError(t, err)
	cl.SetQueueOffsets(map[string]int64{"T-0": 1})
	var res []Result
	for i := range 30 {
		res = append(res, put(t, cl, "T", 0, fmt.Sprintf("after %d %s", i, make([]byte, 300))))
	}
	segs := cl.Queue().Segments()
	require.False(t, segs[0].Staged())
	require.True(t, segs[len(segs)-1].Staged())
	require.NoError(t, cl.Close())

	cl = openLog(t, dir)
	defer cl.Close()
	scan, err := cl.RecoverNormally(true)
	require.NoError(t, err)
	require.Equal(t, res[len(res)-1].End(), scan.End)
	require.Equal(t, "mapped", string(readRecord(t, cl, first.WroteOffset, first.WroteBytes).Body))
	for i, r := range res {
		rec := readRecord(t, cl, r.WroteOffset, r.WroteBytes)
		require.Equal(t, r.QueueOffset, rec.QueueOffset)
		require.Contains(t, string(rec.Body), fmt.Sprintf("after %d ", i))
	}
}

// SYNC_FLUSH ignores the option, as Java's isTransientStorePoolEnable does.
func TestStagedNeedsAsyncFlush(t *testing.T) {
	cl := openLog(t, t.TempDir(), staged(2), func(c *Config) { c.SyncFlush = true })
	defer cl.Close()
	require.False(t, cl.Staged())
}

// Readers never see a committed end inside a record: every MaxOffset a
// reader observes while a running committer works is a record's end or a
// segment's start.
func TestStagedCommitsEndOnRecordBoundaries(t *testing.T) {
	skipWithoutRing(t)
	const seg = 8 << 20
	cl := openLog(t, t.TempDir(), func(c *Config) {
		c.Staged = true
		c.SegmentSize = seg
		c.CommitInterval = time.Millisecond
		c.CommitThoroughInterval = time.Hour
		c.CommitLeastPages = 1000 // commits of 4 MiB and more
	})
	cl.Start()
	defer cl.Close()
	var ends sync.Map
	ends.Store(int64(0), true)
	stop := make(chan struct{})
	bad := make(chan int64, 1)
	go func() {
		for {
			select {
			case <-stop:
				close(bad)
				return
			default:
			}
			if m := cl.MaxOffset(); m%seg != 0 {
				if _, ok := ends.Load(m); !ok {
					time.Sleep(10 * time.Millisecond) // the appender may not have recorded it yet
					if _, ok := ends.Load(m); !ok {
						bad <- m
						close(bad)
						return
					}
				}
			}
		}
	}()
	body := string(make([]byte, 60<<10))
	var last Result
	for i := range 600 {
		last = put(t, cl, "T", int32(i%4), body)
		ends.Store(last.End(), true)
	}
	require.NoError(t, cl.stage.commit(0))
	require.Equal(t, last.End(), cl.MaxOffset())
	close(stop)
	for m := range bad {
		t.Fatalf("committed end %d is inside a record", m)
	}
}
