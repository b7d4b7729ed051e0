package segment

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A power cut keeps what a sync made durable and nothing written after it,
// unless the cut is told that the kernel wrote some pages back on its own.
func TestPowerCutKeepsSyncedBytes(t *testing.T) {
	ffs := &FaultFS{FS: OS}
	ffs.TrackDurability()
	root := t.TempDir()
	dir := filepath.Join(root, "q")
	q, err := OpenQueue(ffs, dir, testSize)
	require.NoError(t, err)
	defer q.Close()
	appendN(t, q, PageSize+10, 'a')
	require.NoError(t, q.FlushAll())
	appendN(t, q, PageSize, 'b') // past the sync: up to 2 pages + 10
	require.NoError(t, os.WriteFile(filepath.Join(root, "untracked"), []byte("as is"), 0o644))

	read := func(rng *rand.Rand) []byte {
		dst := t.TempDir()
		require.NoError(t, ffs.PowerCut(root, dst, rng))
		got, err := os.ReadFile(filepath.Join(dst, "untracked"))
		require.NoError(t, err)
		require.Equal(t, "as is", string(got))
		b, err := os.ReadFile(filepath.Join(dst, "q", FileName(0)))
		require.NoError(t, err)
		require.Len(t, b, testSize, "the file keeps its size")
		return b
	}
	want := append(bytes.Repeat([]byte{'a'}, PageSize+10), make([]byte, testSize-PageSize-10)...)
	require.Equal(t, want, read(nil))

	// Written back on their own: each unsynced page is either all zeros or
	// as written, never anything else, and some cut has each kind.
	written := append(append(bytes.Repeat([]byte{'a'}, PageSize+10), bytes.Repeat([]byte{'b'}, PageSize)...), make([]byte, PageSize-10)...)
	kinds := map[bool]int{}
	for seed := range uint64(16) {
		b := read(rand.New(rand.NewPCG(seed, 0)))
		require.Equal(t, want[:PageSize], b[:PageSize], "synced page")
		for lo := PageSize; lo < testSize; lo += PageSize {
			page := b[lo : lo+PageSize]
			wrote := bytes.Equal(page, written[lo:lo+PageSize])
			require.True(t, wrote || bytes.Equal(page, want[lo:lo+PageSize]), "page at %d", lo)
			kinds[wrote]++
		}
	}
	require.Len(t, kinds, 2)

	// A later sync makes the rest durable.
	require.NoError(t, q.FlushAll())
	require.Equal(t, written, read(nil))
}

// A shadow follows its file through the rename a new segment is created
// with, and starts from what was on disk when a file is first opened.
func TestPowerCutFollowsRenamesAndOldFiles(t *testing.T) {
	root := t.TempDir()
	old := filepath.Join(root, FileName(0))
	require.NoError(t, os.WriteFile(old, bytes.Repeat([]byte{'o'}, testSize), 0o644))
	ffs := &FaultFS{FS: OS}
	ffs.TrackDurability()
	q, err := OpenQueue(ffs, root, testSize)
	require.NoError(t, err)
	defer q.Close()
	s, err := q.LastForAppend(0)
	require.NoError(t, err)
	require.NoError(t, s.WriteAt([]byte("changed"), 0)) // not synced
	s2, err := Create(ffs, root, testSize, testSize)
	require.NoError(t, err)
	defer s2.Close()
	_, err = s2.AppendBytes([]byte("new"))
	require.NoError(t, err)
	_, err = s2.Flush(0)
	require.NoError(t, err)

	dst := t.TempDir()
	require.NoError(t, ffs.PowerCut(root, dst, nil))
	b, err := os.ReadFile(filepath.Join(dst, FileName(0)))
	require.NoError(t, err)
	require.Equal(t, bytes.Repeat([]byte{'o'}, testSize), b)
	b, err = os.ReadFile(filepath.Join(dst, FileName(testSize)))
	require.NoError(t, err)
	require.Equal(t, "new", string(b[:3]))
}

func TestPowerCutNeedsTracking(t *testing.T) {
	require.Error(t, (&FaultFS{FS: OS}).PowerCut(t.TempDir(), t.TempDir(), nil))
}
