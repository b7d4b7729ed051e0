package index

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// tinyPuts fill part of a tiny file; "T#a" and "T#i" share slot 2 and
// "T#b", "T#j" slot 3 (checked in the test), so two chains run through
// entries of different keys.
var tinyPuts = []put{
	{"T#a", 0, 1700000000000},
	{"T#b", 150, 1700000000400},
	{"T#i", 300, 1700000001999},
	{"T#a", 450, 1700000002000},
	{"T#j", 600, 1700000003500},
	{"T#c", 750, 1700000010000},
}

func TestGoldenTinyFile(t *testing.T) {
	slotOf := func(k string) int32 { return KeyHash(k) % tinySlots }
	require.Equal(t, slotOf("T#a"), slotOf("T#i"), "the golden needs a collision")
	require.Equal(t, slotOf("T#b"), slotOf("T#j"), "the golden needs a collision")
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts)
	var dump bytes.Buffer
	require.NoError(t, Annotate(&dump, fileBytes(t, f.Path()), tinySlots, tinyEntries))
	goldenCompare(t, "tiny.dump", dump.Bytes())

	// Java 4.9.8 IndexFile.putKey: begin values from the first entry,
	// hashSlotCount counts slots first taken, indexCount the next entry.
	require.Equal(t, Header{
		BeginTimestamp: 1700000000000, EndTimestamp: 1700000010000,
		BeginPhyOffset: 0, EndPhyOffset: 750, HashSlotCount: 3, IndexCount: 7,
	}, f.Header())
}

func TestFileQuery(t *testing.T) {
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts)
	const t0 = 1700000000000
	tests := []struct {
		name       string
		key        string
		maxNum     int
		begin, end int64
		want       []int64
	}{
		{"all, newest first", "T#a", 10, 0, math.MaxInt64, []int64{450, 0}},
		{"collision partner skipped", "T#i", 10, 0, math.MaxInt64, []int64{300}},
		{"maxNum", "T#a", 1, 0, math.MaxInt64, []int64{450}},
		{"maxNum zero", "T#a", 0, 0, math.MaxInt64, nil},
		{"range end inclusive", "T#a", 10, t0, t0, []int64{0}},
		// T#i at +1999 ms is stored as timeDiff 1 s: it reads as t0+1000.
		{"seconds truncated", "T#i", 10, t0 + 1000, t0 + 1000, []int64{300}},
		{"seconds truncated, miss", "T#i", 10, t0 + 1001, t0 + 5000, nil},
		// The walk stops at the first entry older than begin (T#i at
		// t0+1000), so nothing below it is seen.
		{"stops below begin", "T#a", 10, t0 + 1500, math.MaxInt64, []int64{450}},
		{"empty slot", "T#nothing", 10, 0, math.MaxInt64, nil},
		{"other slot", "T#c", 10, 0, math.MaxInt64, []int64{750}},
		{"chain b/j", "T#b", 10, 0, math.MaxInt64, []int64{150}},
		{"after end", "T#c", 10, t0 + 10001, math.MaxInt64, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, f.Query(tc.key, tc.maxNum, tc.begin, tc.end))
		})
	}
}

// A file that follows another starts with the previous end values; its
// first entry's timeDiff is taken from them before putKey replaces the
// begin values with its own (Java 4.9.8 IndexFile.putKey order).
func TestFileFollowingAnother(t *testing.T) {
	const prevEnd = 1700000000000
	f := newFile(t, tinySlots, tinyEntries, 5000, prevEnd)
	require.Equal(t, Header{BeginTimestamp: prevEnd, EndTimestamp: prevEnd, BeginPhyOffset: 5000, EndPhyOffset: 5000, IndexCount: 1}, f.Header())
	raw := fileBytes(t, f.Path())
	require.Zero(t, getInt32(raw, hdrIndexCountPos), "indexCount is not written by the constructor")

	putAll(t, f, []put{{"T#a", 5000, prevEnd + 7000}, {"T#a", 5100, prevEnd + 9000}})
	h := f.Header()
	require.Equal(t, int64(prevEnd+7000), h.BeginTimestamp)
	data := fileBytes(t, f.Path())
	e1 := decodeEntry(data[entryPos(tinySlots, 1):])
	e2 := decodeEntry(data[entryPos(tinySlots, 2):])
	require.Equal(t, int32(7), e1.TimeDiff, "relative to the previous file's end")
	require.Equal(t, int32(2), e2.TimeDiff, "relative to the new begin")
	// Entry 1 now reads as begin+7 s: a query for its true time misses.
	require.Empty(t, f.Query("T#a", 10, prevEnd+7000, prevEnd+7000))
	require.Equal(t, []int64{5100, 5000}, f.Query("T#a", 10, 0, math.MaxInt64))
}

func TestFileTimeDiffClamp(t *testing.T) {
	tests := []struct {
		ts, begin int64
		want      int32
	}{
		{1999, 1000, 0},
		{2000, 1000, 1},
		{500, 1000, 0},
		{5000, 0, 0},
		{5000, -1, 0},
		{math.MaxInt64, 1, math.MaxInt32},
		{-1001, 1, 0},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, timeDiff(tc.ts, tc.begin), "%+v", tc)
	}
}

func TestKeyHash(t *testing.T) {
	// Values from jshell: abs("...".hashCode()), MIN_VALUE -> 0.
	tests := []struct {
		key  string
		want int32
	}{
		{"", 0},
		{"a", 97},
		{"polygenelubricants", 0}, // String.hashCode is Integer.MIN_VALUE
		{"T#k", 81916},
		{"TopicTest#key-1", 204089217},
		{"\U0001F600", 1772899},      // one supplementary char: two UTF-16 units
		{"zzzzzzzzzzzzz", 337951494}, // hashCode -337951494
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, KeyHash(tc.key), tc.key)
	}
}

func TestFileModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const slots, entries = 16, 300
	f := newFile(t, slots, entries, 0, 0)
	m := newModel(slots)
	puts := randomPuts(r, entries-1, 40, 1700000000000)
	for _, p := range puts {
		ok, err := f.Put(p.key, p.phy, p.ts)
		require.NoError(t, err)
		require.True(t, ok)
		m.put(p.key, p.phy, p.ts)
	}
	ok, err := f.Put("T#full", 1, 1)
	require.NoError(t, err)
	require.False(t, ok, "full after entries-1 puts")
	require.True(t, f.Full())

	last := puts[len(puts)-1].ts
	for k := range 41 {
		key := keyName(k)
		for range 20 {
			begin := 1700000000000 + r.Int64N(last-1700000000000+2000) - 1000
			end := begin + r.Int64N(200000)
			maxNum := r.IntN(12)
			require.Equal(t, m.query(key, maxNum, begin, end), f.Query(key, maxNum, begin, end), "%s %d [%d,%d]", key, maxNum, begin, end)
		}
		require.Equal(t, m.query(key, 1000, 0, math.MaxInt64), f.Query(key, 1000, 0, math.MaxInt64))
	}
}

func TestFileReopen(t *testing.T) {
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts)
	require.NoError(t, f.Flush())
	want := f.Header()
	path := f.Path()
	f.Close()

	g, err := OpenFile(segment.OS, path, tinySlots, tinyEntries)
	require.NoError(t, err)
	defer g.Close()
	require.Equal(t, want, g.Header())
	require.Equal(t, []int64{450, 0}, g.Query("T#a", 10, 0, math.MaxInt64))
	ok, err := g.Put("T#a", 900, 1700000011000)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []int64{900, 450, 0}, g.Query("T#a", 10, 0, math.MaxInt64))

	_, err = OpenFile(segment.OS, path, tinySlots, tinyEntries+1)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = OpenFile(segment.OS, filepath.Join(t.TempDir(), "1"), tinySlots, tinyEntries)
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestFileConfig(t *testing.T) {
	for _, c := range [][2]int32{{0, 16}, {-1, 16}, {8, 1}, {8, 0}, {1, math.MaxInt32 / 10}} {
		_, err := CreateFile(segment.OS, filepath.Join(t.TempDir(), "1"), c[0], c[1], 0, 0)
		require.ErrorIs(t, err, ErrConfig, "%v", c)
	}
	require.Equal(t, int64(420000040), FileSize(DefaultHashSlots, DefaultEntries))
}

// A loaded header with a non-positive indexCount counts from 1 (Java
// IndexHeader.load), and a slot pointing past indexCount is an empty slot.
func TestFileCorruptHeaderAndSlots(t *testing.T) {
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts)
	path := f.Path()
	f.Close()
	data := fileBytes(t, path)
	putInt32(data, hdrIndexCountPos, -5)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	g, err := OpenFile(segment.OS, path, tinySlots, tinyEntries)
	require.NoError(t, err)
	defer g.Close()
	require.Equal(t, int32(1), g.Header().IndexCount)
	require.Empty(t, g.Query("T#a", 10, 0, math.MaxInt64), "indexCount 1: nothing is searched")
	ok, err := g.Put("T#a", 999, 1700000020000)
	require.NoError(t, err)
	require.True(t, ok)
	// The slot held 4 (> indexCount 1): the new entry starts a new chain.
	require.Equal(t, []int64{999}, g.Query("T#a", 10, 0, math.MaxInt64))
}

// Chains that cycle or point outside the file end after at most
// indexCount steps (Java would loop for ever on a cycle with no match).
func TestFileCorruptChains(t *testing.T) {
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts)
	path := f.Path()
	f.Close()
	slot := KeyHash("T#a") % tinySlots
	tests := []struct {
		name  string
		patch func(d []byte)
		want  []int64
	}{
		{"self link", func(d []byte) { putInt32(d, int(entryPos(tinySlots, 4))+entPrevPos, 4) }, []int64{450}},
		// 4,3,4,3,4,3,4: seven steps (indexCount), four matches; Java
		// would add 450 until maxNum.
		{"cycle 4->3->4", func(d []byte) { putInt32(d, int(entryPos(tinySlots, 3))+entPrevPos, 4) }, []int64{450, 450, 450, 450}},
		{"link past count", func(d []byte) { putInt32(d, int(entryPos(tinySlots, 4))+entPrevPos, 99) }, []int64{450}},
		{"negative timeDiff", func(d []byte) { putInt32(d, int(entryPos(tinySlots, 4))+entTimeDiffPos, -1) }, nil},
		{"slot past count", func(d []byte) { putInt32(d, int(slotPos(slot)), 7) }, nil},
		{"count past entries", func(d []byte) {
			putInt32(d, hdrIndexCountPos, math.MaxInt32)
			putInt32(d, int(slotPos(slot)), 1000)
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := fileBytes(t, path)
			tc.patch(data)
			p := filepath.Join(t.TempDir(), "x")
			require.NoError(t, os.WriteFile(p, data, 0o644))
			g, err := OpenFile(segment.OS, p, tinySlots, tinyEntries)
			require.NoError(t, err)
			defer g.Close()
			require.Equal(t, tc.want, g.Query("T#a", 100, 0, math.MaxInt64))
		})
	}
}

func TestFileClosed(t *testing.T) {
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts[:1])
	require.NoError(t, f.Destroy())
	_, err := os.Stat(f.Path())
	require.ErrorIs(t, err, os.ErrNotExist)
	_, err = f.Put("T#a", 1, 1)
	require.ErrorIs(t, err, ErrClosed)
	require.Empty(t, f.Query("T#a", 10, 0, math.MaxInt64))
	require.ErrorIs(t, f.Flush(), ErrClosed)
}

func TestFileFailedSync(t *testing.T) {
	fsys := &segment.FaultFS{FS: segment.OS}
	f, err := CreateFile(fsys, filepath.Join(t.TempDir(), "1"), tinySlots, tinyEntries, 0, 0)
	require.NoError(t, err)
	defer f.Close()
	putAll(t, f, tinyPuts[:2])
	require.NoError(t, f.Flush())
	fsys.FailSync.Store(true)
	require.ErrorIs(t, f.Flush(), segment.ErrInjectedSync)
	_, err = f.Put("T#a", 1, 1)
	require.ErrorIs(t, err, segment.ErrInjectedSync, "a failed fsync is sticky")
}

func putInt32(b []byte, pos int, v int32) {
	b[pos], b[pos+1], b[pos+2], b[pos+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}
