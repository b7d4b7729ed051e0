package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

type fakeCheckpoint struct {
	index   atomic.Int64
	flushes atomic.Int64
}

func (c *fakeCheckpoint) Index() int64      { return c.index.Load() }
func (c *fakeCheckpoint) SetIndex(ms int64) { c.index.Store(ms) }
func (c *fakeCheckpoint) Flush() error      { c.flushes.Add(1); return nil }

// clock is a fake wall clock that moves 1 s per file made.
type clock struct{ ms atomic.Int64 }

func (c *clock) now() int64 { return c.ms.Add(1000) }

func testConfig(t testing.TB, slots, entries int32) Config {
	c := &clock{}
	c.ms.Store(1700000000000)
	return Config{
		Dir: filepath.Join(t.TempDir(), "index"), HashSlots: slots, Entries: entries,
		Checkpoint: &fakeCheckpoint{}, Now: c.now, Location: time.UTC,
	}
}

func openService(t testing.TB, cfg Config, lastExitOK bool) *Service {
	t.Helper()
	s, err := Open(cfg, lastExitOK)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

type msg struct {
	topic, uniq, keys string
	phy, ts           int64
	sysFlag           int32
}

func buildAll(t testing.TB, s *Service, msgs []msg) {
	t.Helper()
	for _, m := range msgs {
		require.NoError(t, s.Build(m.topic, m.uniq, m.keys, m.phy, m.ts, m.sysFlag))
	}
}

const t0 = int64(1700000000000)

func all(s *Service, topic, key string) []int64 {
	offs, _, _ := s.Query(topic, key, math.MaxInt32, 0, math.MaxInt64)
	return offs
}

// Java 4.9.8 IndexService.buildIndex.
func TestServiceBuild(t *testing.T) {
	s := openService(t, testConfig(t, 8, 64), true)
	buildAll(t, s, []msg{
		{"T", "U1", "k1 k2", 0, t0, 0},
		{"T", "U2", "k1", 100, t0 + 1000, 0xC},       // rollback: skipped
		{"T", "U3", "k1", 200, t0 + 2000, 0x4},       // prepared: indexed
		{"T", "U4", "k1", 300, t0 + 3000, 0x8 | 0x1}, // commit (+compressed)
		{"T", "", " k3  k3 ", 400, t0 + 4000, 0},     // empty tokens skipped, duplicates kept
		{"T", "U5", "k1", 350, t0 + 5000, 0},         // below the end offset: skipped
		{"T", "U6", "k1", 400, t0 + 6000, 0},         // at the end offset: indexed again
		{"Other", "U7", "k1", 500, t0 + 7000, 0},
		{"T", "", "", 600, t0 + 8000, 0}, // nothing to index
	})
	tests := []struct {
		topic, key string
		want       []int64
	}{
		{"T", "U1", []int64{0}},
		{"T", "U2", nil},
		{"T", "U3", []int64{200}},
		{"T", "U4", []int64{300}},
		{"T", "U5", nil},
		{"T", "U6", []int64{400}},
		{"T", "k1", []int64{400, 300, 200, 0}},
		{"T", "k2", []int64{0}},
		{"T", "k3", []int64{400, 400}},
		{"T", "", nil},
		{"Other", "k1", []int64{500}},
		{"Other", "U1", nil},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, all(s, tc.topic, tc.key), "%s#%s", tc.topic, tc.key)
	}
	files := s.Files()
	require.Len(t, files, 1)
	h := files[0].Header()
	require.Equal(t, int32(1+3+2+2+2+2+2), h.IndexCount)
	require.Equal(t, int64(500), h.EndPhyOffset)
	require.Equal(t, t0+7000, h.EndTimestamp)
	_, ts, phy := s.Query("T", "k1", 1, 0, 1)
	require.Equal(t, [2]int64{t0 + 7000, 500}, [2]int64{ts, phy}, "lastUpdate values come from the newest file")
}

// rolloverMsgs fill files of 3 entries (Entries 4): one key per message,
// alternating "a" and "b", one message a second.
func rolloverMsgs(n int) []msg {
	var out []msg
	for i := range n {
		key := "a"
		if i%2 == 1 {
			key = "b"
		}
		out = append(out, msg{"T", "", key, int64(i) * 100, t0 + int64(i)*1000, 0})
	}
	return out
}

func TestServiceRollover(t *testing.T) {
	cfg := testConfig(t, 4, 4)
	cfg.MaxMsgsNumBatch = 3
	s := openService(t, cfg, true)
	buildAll(t, s, rolloverMsgs(8))
	files := s.Files()
	require.Len(t, files, 3)
	want := []Header{
		{BeginTimestamp: t0, EndTimestamp: t0 + 2000, BeginPhyOffset: 0, EndPhyOffset: 200, HashSlotCount: 2, IndexCount: 4},
		{BeginTimestamp: t0 + 3000, EndTimestamp: t0 + 5000, BeginPhyOffset: 300, EndPhyOffset: 500, HashSlotCount: 2, IndexCount: 4},
		{BeginTimestamp: t0 + 6000, EndTimestamp: t0 + 7000, BeginPhyOffset: 600, EndPhyOffset: 700, HashSlotCount: 2, IndexCount: 3},
	}
	for i, f := range files {
		require.Equal(t, want[i], f.Header(), "file %d", i)
		require.Equal(t, FileName(t0+int64(i+1)*1000, time.UTC), f.Name())
	}

	tests := []struct {
		name       string
		key        string
		maxNum     int
		begin, end int64
		want       []int64
	}{
		{"capped at maxMsgsNumBatch", "a", 10, 0, math.MaxInt64, []int64{600, 400, 200}},
		{"maxNum", "b", 2, 0, math.MaxInt64, []int64{700, 500}},
		{"across files", "b", 3, 0, math.MaxInt64, []int64{700, 500, 300}},
		// The newest file's first entry (600, stored at t0+6000) got its
		// timeDiff (1 s) from the previous file's end (t0+5000) before the
		// header's begin became t0+6000: it reads as t0+7000 and matches.
		// The newest file begins before begin, so the search ends there.
		{"first entry of a following file", "a", 3, t0 + 6500, math.MaxInt64, []int64{600}},
		{"stops at a file beginning before begin", "b", 3, t0 + 6500, math.MaxInt64, []int64{700}},
		{"middle file only", "a", 3, t0 + 3000, t0 + 5000, []int64{400}},
		{"first file only", "a", 3, t0, t0 + 2000, []int64{200, 0}},
		{"no match in time", "a", 3, t0 + 9000, math.MaxInt64, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			offs, ts, phy := s.Query("T", tc.key, tc.maxNum, tc.begin, tc.end)
			require.Equal(t, tc.want, offs)
			require.Equal(t, t0+7000, ts)
			require.Equal(t, int64(700), phy)
		})
	}
	require.NoError(t, s.Close())
	cp := cfg.Checkpoint.(*fakeCheckpoint)
	require.Equal(t, t0+5000, cp.Index(), "the checkpoint holds the end of the newest full file")
	require.Equal(t, int64(2), cp.flushes.Load())
}

// A message whose keys do not fit in the file goes on in the next one.
func TestServiceMessageSpansFiles(t *testing.T) {
	s := openService(t, testConfig(t, 4, 4), true)
	buildAll(t, s, []msg{
		{"T", "U1", "k1", 0, t0, 0},
		{"T", "U2", "k2 k3", 100, t0 + 1000, 0},
	})
	files := s.Files()
	require.Len(t, files, 2)
	h := files[1].Header()
	require.Equal(t, t0+1000, h.BeginTimestamp)
	require.Equal(t, int64(100), h.BeginPhyOffset)
	require.Equal(t, int32(3), h.IndexCount, "k2 and k3")
	require.Equal(t, int32(4), files[0].Header().IndexCount, "U1, k1, U2")
	require.Equal(t, []int64{100}, all(s, "T", "k3"))
	require.Equal(t, []int64{100}, all(s, "T", "k2"))
}

func TestServiceReopen(t *testing.T) {
	cfg := testConfig(t, 4, 4)
	s, err := Open(cfg, true)
	require.NoError(t, err)
	buildAll(t, s, rolloverMsgs(8))
	require.NoError(t, s.Close())
	cp := cfg.Checkpoint.(*fakeCheckpoint)
	names := func() []string {
		ents, err := os.ReadDir(cfg.Dir)
		require.NoError(t, err)
		var out []string
		for _, e := range ents {
			out = append(out, e.Name())
		}
		return out
	}
	before := names()
	require.Len(t, before, 3)

	// Clean exit: everything loads; the checkpoint does not matter.
	cp.SetIndex(0)
	s = openService(t, cfg, true)
	require.Len(t, s.Files(), 3)
	require.Equal(t, []int64{700, 500, 300, 100}, all(s, "T", "b"))
	require.NoError(t, s.Close())

	// Java 4.9.8 IndexService.load(false): files ending after the
	// checkpoint's index time are destroyed.
	cp.SetIndex(t0 + 2000)
	s = openService(t, cfg, false)
	require.Len(t, s.Files(), 1)
	require.Equal(t, before[:1], names())
	require.Equal(t, []int64{100}, all(s, "T", "b"))
	// Indexing goes on in a new file that starts at the old end.
	buildAll(t, s, []msg{{"T", "", "b", 300, t0 + 3000, 0}})
	require.Len(t, s.Files(), 2)
	require.Equal(t, []int64{300, 100}, all(s, "T", "b"))
	require.NoError(t, s.Close())

	cp.SetIndex(0)
	s = openService(t, cfg, false)
	require.Empty(t, s.Files())
	require.Empty(t, names())
}

func TestServiceLoadDirectory(t *testing.T) {
	cfg := testConfig(t, 4, 4)
	s := openService(t, cfg, true)
	buildAll(t, s, rolloverMsgs(2))
	require.NoError(t, s.Close())
	// Names Java's Long.parseLong rejects are skipped.
	require.NoError(t, os.WriteFile(filepath.Join(cfg.Dir, "notes.txt"), []byte("x"), 0o644))
	s = openService(t, cfg, true)
	require.Len(t, s.Files(), 1)
	require.NoError(t, s.Close())

	require.NoError(t, os.WriteFile(filepath.Join(cfg.Dir, "+1"), []byte("short"), 0o644))
	_, err := Open(cfg, true)
	require.ErrorIs(t, err, ErrCorrupt)
	require.NoError(t, os.Remove(filepath.Join(cfg.Dir, "+1")))

	require.NoError(t, os.Mkdir(filepath.Join(cfg.Dir, "123"), 0o755))
	_, err = Open(cfg, true)
	require.ErrorIs(t, err, ErrCorrupt)

	cfg.Dir = filepath.Join(t.TempDir(), "missing")
	s = openService(t, cfg, true)
	require.Empty(t, s.Files())

	cfg.Entries = 1
	_, err = Open(cfg, true)
	require.ErrorIs(t, err, ErrConfig)
}

func TestFileName(t *testing.T) {
	require.Equal(t, "19700101000000000", FileName(0, time.UTC))
	require.Equal(t, "20231114221320123", FileName(1700000000123, time.UTC))
	require.Equal(t, "20231115071320123", FileName(1700000000123, time.FixedZone("JST", 9*3600)))
}

// Two files within a millisecond get distinct names.
func TestServiceSameMillisecond(t *testing.T) {
	cfg := testConfig(t, 4, 4)
	cfg.Now = func() int64 { return t0 }
	s := openService(t, cfg, true)
	buildAll(t, s, rolloverMsgs(9))
	var names []string
	for _, f := range s.Files() {
		names = append(names, f.Name())
	}
	require.Equal(t, []string{FileName(t0, time.UTC), FileName(t0+1, time.UTC), FileName(t0+2, time.UTC)}, names)
}

// Java 4.9.8 IndexService.deleteExpiredFile.
func TestServiceDeleteBefore(t *testing.T) {
	tests := []struct {
		offset int64
		left   int
	}{
		{0, 4},
		{200, 4}, // first file ends at 200: not below
		{201, 3}, // first file goes
		{501, 2}, // first two
		{900, 1}, // never the newest
		{100000, 1},
	}
	for _, tc := range tests {
		s := openService(t, testConfig(t, 4, 4), true)
		buildAll(t, s, rolloverMsgs(10))
		require.Len(t, s.Files(), 4)
		require.NoError(t, s.DeleteBefore(tc.offset))
		require.Len(t, s.Files(), tc.left, "offset %d", tc.offset)
		ents, err := os.ReadDir(s.cfg.Dir)
		require.NoError(t, err)
		require.Len(t, ents, tc.left)
	}
}

// Java 4.9.8 DefaultMessageStore.queryMessage.
func TestServiceQueryMessages(t *testing.T) {
	cfg := testConfig(t, 4, 64)
	cfg.MaxMsgsNumBatch = 2
	s := openService(t, cfg, true)
	buildAll(t, s, []msg{
		{"T", "", "k", 0, t0, 0},
		{"T", "", "k", 100, t0 + 1000, 0},
		{"T", "", "k", 200, t0 + 2000, 0},
		{"T", "", "k", 300, t0 + 3000, 0},
	})
	stamps := map[int64]int64{0: t0, 100: t0 + 1000, 200: t0 + 2000, 300: t0 + 3000}
	readAll := func(off int64) (int64, bool) { ts, ok := stamps[off]; return ts, ok }
	found, ts, phy := s.QueryMessages("T", "k", 10, 0, math.MaxInt64, readAll)
	require.Equal(t, []int64{200, 300}, found, "sorted ascending, capped")
	require.Equal(t, [2]int64{t0 + 3000, 300}, [2]int64{ts, phy})

	// Only the lowest offset readable: it is the answer.
	found, _, _ = s.QueryMessages("T", "k", 10, 0, math.MaxInt64, func(off int64) (int64, bool) {
		return stamps[off], off == 200
	})
	require.Equal(t, []int64{200}, found)

	// Nothing readable: the store time of the lowest offset stays
	// unknown, so all three rounds ask the same.
	var asked []int64
	found, _, _ = s.QueryMessages("T", "k", 10, 0, math.MaxInt64, func(off int64) (int64, bool) {
		asked = append(asked, off)
		return 0, false
	})
	require.Empty(t, found)
	require.Equal(t, []int64{200, 300, 200, 300, 200, 300}, asked)

	found, ts, phy = s.QueryMessages("T", "none", 10, 0, math.MaxInt64, readAll)
	require.Empty(t, found)
	require.Zero(t, ts)
	require.Zero(t, phy)
}

// A random multi-file story against a model of IndexService.queryOffset.
func TestServiceModel(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const slots, entries, batch = 8, 20, 16
	cfg := testConfig(t, slots, entries)
	cfg.MaxMsgsNumBatch = batch
	s := openService(t, cfg, true)
	type fileModel struct {
		m          *model
		n          int
		begin, end int64
	}
	var files []*fileModel
	for _, p := range randomPuts(r, 200, 12, t0) {
		if len(files) == 0 || files[len(files)-1].n == entries-1 {
			fm := &fileModel{m: newModel(slots)}
			if len(files) > 0 {
				fm.m.begin = files[len(files)-1].end
			}
			files = append(files, fm)
		}
		fm := files[len(files)-1]
		if fm.n == 0 {
			fm.begin = p.ts
		}
		fm.m.put("T#"+p.key, p.phy, p.ts)
		fm.n++
		fm.end = p.ts
		require.NoError(t, s.Build("T", "", p.key, p.phy, p.ts, 0))
	}
	require.Len(t, s.Files(), len(files))
	query := func(key string, maxNum int, begin, end int64) []int64 {
		maxNum = min(maxNum, batch)
		var out []int64
		for i := len(files) - 1; i >= 0; i-- {
			h := Header{BeginTimestamp: files[i].begin, EndTimestamp: files[i].end}
			if timeMatched(&h, begin, end) {
				out = append(out, files[i].m.query("T#"+key, maxNum-len(out), begin, end)...)
			}
			if h.BeginTimestamp < begin || len(out) >= maxNum {
				break
			}
		}
		return out
	}
	last := files[len(files)-1].end
	for k := range 13 {
		key := keyName(k)
		for range 30 {
			begin := t0 + r.Int64N(last-t0+4000) - 2000
			end := begin + r.Int64N(60000)
			maxNum := 1 + r.IntN(20)
			got, _, _ := s.Query("T", key, maxNum, begin, end)
			require.Equal(t, query(key, maxNum, begin, end), got, "%s %d [%d,%d]", key, maxNum, begin, end)
		}
	}
}

func TestServiceClosed(t *testing.T) {
	s := openService(t, testConfig(t, 4, 4), true)
	buildAll(t, s, rolloverMsgs(4))
	require.NoError(t, s.Flush())
	require.NoError(t, s.Destroy())
	require.ErrorIs(t, s.Build("T", "", "a", 1000, t0+10000, 0), ErrClosed)
	offs, _, _ := s.Query("T", "a", 10, 0, math.MaxInt64)
	require.Empty(t, offs)
	ents, err := os.ReadDir(s.cfg.Dir)
	require.NoError(t, err)
	require.Empty(t, ents)
}

func TestServiceCreateFails(t *testing.T) {
	fsys := &segment.FaultFS{FS: segment.OS}
	cfg := testConfig(t, 4, 4)
	cfg.FS = fsys
	s := openService(t, cfg, true)
	fsys.FailAllocate.Store(true)
	require.Error(t, s.Build("T", "", "a", 0, t0, 0))
	fsys.FailAllocate.Store(false)
	require.NoError(t, s.Build("T", "", "a", 0, t0, 0))
	require.Equal(t, []int64{0}, all(s, "T", "a"))
}

// Queries, flushes and deletions run while one goroutine builds across
// many files.
func TestServiceConcurrent(t *testing.T) {
	cfg := testConfig(t, 4, 8)
	s := openService(t, cfg, true)
	done := make(chan struct{})
	errs := make(chan error, 3)
	go func() {
		defer close(done)
		for i := range 300 {
			if err := s.Build("T", "", "a b", int64(i)*10, t0+int64(i)*100, 0); err != nil {
				errs <- err
				return
			}
		}
	}()
	for w := range 3 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				offs, _, _ := s.Query("T", "a", 64, 0, math.MaxInt64)
				for i := 1; i < len(offs); i++ {
					if offs[i] >= offs[i-1] {
						errs <- fmt.Errorf("offsets not newest first: %v", offs)
						return
					}
				}
				if w == 0 {
					_ = s.DeleteBefore(int64(len(offs)))
				}
				if w == 1 {
					_ = s.Flush()
				}
			}
		}()
	}
	for range 3 {
		require.NoError(t, <-errs)
	}
	<-done
	offs, _, _ := s.Query("T", "b", 1, 0, math.MaxInt64)
	require.Equal(t, []int64{2990}, offs)
}
