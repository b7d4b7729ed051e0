package index

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// put is one Put call.
type put struct {
	key string
	phy int64
	ts  int64
}

// tiny is the geometry of the golden and fuzz files: 392 bytes.
const (
	tinySlots   = 8
	tinyEntries = 16
)

func newFile(t testing.TB, slots, entries int32, endPhy, endTs int64) *File {
	t.Helper()
	f, err := CreateFile(segment.OS, filepath.Join(t.TempDir(), "20240101000000000"), slots, entries, endPhy, endTs)
	require.NoError(t, err)
	t.Cleanup(f.Close)
	return f
}

func putAll(t testing.TB, f *File, puts []put) {
	t.Helper()
	for _, p := range puts {
		ok, err := f.Put(p.key, p.phy, p.ts)
		require.NoError(t, err)
		require.True(t, ok, "put %v", p)
	}
}

func fileBytes(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// goldenCompare compares got with testdata/name, rewriting it under -update.
func goldenCompare(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create %s", path)
	require.Equal(t, string(want), string(got))
}

// model is an independent statement of what a file query answers: the
// entries of the key's slot newest first, Java's walk over them.
type model struct {
	slots   int32
	begin   int64 // header beginTimestamp
	entries [][]modelEntry
}

type modelEntry struct {
	hash int32
	phy  int64
	ts   int64 // the time Java reconstructs: begin + timeDiff*1000
}

func newModel(slots int32) *model { return &model{slots: slots, entries: make([][]modelEntry, slots)} }

func (m *model) put(key string, phy, ts int64) {
	h := KeyHash(key)
	var diff int64
	if m.begin > 0 {
		diff = min(max((ts-m.begin)/1000, 0), 1<<31-1)
	}
	first := true
	for _, s := range m.entries {
		first = first && len(s) == 0
	}
	at := m.begin + diff*1000
	if first {
		m.begin = ts
		at = ts + diff*1000
	}
	m.entries[h%m.slots] = append(m.entries[h%m.slots], modelEntry{h, phy, at})
}

func (m *model) query(key string, maxNum int, begin, end int64) []int64 {
	h := KeyHash(key)
	var out []int64
	chain := m.entries[h%m.slots]
	for i := len(chain) - 1; i >= 0; i-- {
		if len(out) >= maxNum {
			break
		}
		e := chain[i]
		if e.hash == h && e.ts >= begin && e.ts <= end {
			out = append(out, e.phy)
		}
		if e.ts < begin {
			break
		}
	}
	return out
}

// randomPuts makes n puts over nkeys keys with rising offsets and times
// (steps of up to 1.5 s, so whole-second rounding matters).
func randomPuts(r *rand.Rand, n, nkeys int, startTs int64) []put {
	var out []put
	phy, ts := int64(0), startTs
	for range n {
		out = append(out, put{key: keyName(r.IntN(nkeys)), phy: phy, ts: ts})
		phy += int64(100 + r.IntN(400))
		ts += int64(r.IntN(1500))
	}
	return out
}

func keyName(i int) string { return "T#k" + string(rune('a'+i%26)) + string(rune('0'+i/26)) }
