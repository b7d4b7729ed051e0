package index

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// tinyImage is the tiny golden file's bytes: a seed for the fuzzers.
func tinyImage(t testing.TB) []byte {
	f := newFile(t, tinySlots, tinyEntries, 0, 0)
	putAll(t, f, tinyPuts)
	return fileBytes(t, f.Path())
}

// openImage writes body, cut or zero-padded to a tiny file's size, and
// opens it.
func openImage(t *testing.T, body []byte) *File {
	img := make([]byte, FileSize(tinySlots, tinyEntries))
	copy(img, body)
	path := filepath.Join(t.TempDir(), "1")
	require.NoError(t, os.WriteFile(path, img, 0o644))
	f, err := OpenFile(segment.OS, path, tinySlots, tinyEntries)
	require.NoError(t, err)
	t.Cleanup(f.Close)
	return f
}

// checkQuery runs a query and checks what any file must give: at most
// maxNum offsets, each from an entry of the key's hash, in at most
// indexCount steps (the length bounds that too).
func checkQuery(t *testing.T, f *File, key string, maxNum int, begin, end int64) {
	got := f.Query(key, maxNum, begin, end)
	require.LessOrEqual(t, len(got), max(maxNum, 0))
	require.LessOrEqual(t, len(got), int(f.Header().IndexCount))
	hash := KeyHash(key)
	data := f.seg.Mapped()
	for _, off := range got {
		found := false
		for n := int32(1); n < tinyEntries && !found; n++ {
			e := decodeEntry(data[entryPos(tinySlots, n):])
			found = e.KeyHash == hash && e.PhyOffset == off
		}
		require.True(t, found, "offset %d is not an entry of %q", off, key)
	}
}

func FuzzOpen(f *testing.F) {
	f.Add(tinyImage(f))
	f.Add([]byte{})
	f.Add(make([]byte, HeaderSize))
	cyc := tinyImage(f)
	putInt32(cyc, int(entryPos(tinySlots, 3))+entPrevPos, 4)
	f.Add(cyc)
	f.Fuzz(func(t *testing.T, body []byte) {
		file := openImage(t, body)
		require.NoError(t, Annotate(io.Discard, file.seg.Mapped(), tinySlots, tinyEntries))
		for _, k := range []string{"T#a", "T#b", "T#i", "T#c", "", "polygenelubricants"} {
			checkQuery(t, file, k, 1000, 0, math.MaxInt64)
			checkQuery(t, file, k, 3, math.MinInt64, math.MaxInt64)
		}
		h := file.Header()
		ok, err := file.Put("T#a", 1, 1700000000000)
		require.NoError(t, err)
		require.Equal(t, h.IndexCount < tinyEntries, ok)
		checkQuery(t, file, "T#a", 1000, 0, math.MaxInt64)
	})
}

func FuzzQuery(f *testing.F) {
	img := tinyImage(f)
	f.Add(img, "T#a", 10, int64(0), int64(math.MaxInt64))
	f.Add(img, "T#i", 1, int64(1700000001000), int64(1700000001000))
	f.Add(img, "T#zz", -1, int64(math.MinInt64), int64(-1))
	f.Add([]byte{0, 0, 0, 0}, "", 0, int64(0), int64(0))
	f.Fuzz(func(t *testing.T, body []byte, key string, maxNum int, begin, end int64) {
		file := openImage(t, body)
		checkQuery(t, file, key, maxNum, begin, end)
		_ = file.TimeMatched(begin, end)
	})
}
