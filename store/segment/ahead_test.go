package segment

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// exists reports whether dir holds the segment file starting at base.
func exists(dir string, base int64) bool {
	_, err := os.Stat(filepath.Join(dir, FileName(base)))
	return err == nil
}

// mark writes a 'z' over the last byte of the file at path.
func mark(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{'z'}, testSize-1)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// With CreateAhead the segment after the one being written is made in the
// background, and the roll takes that very file (same inode) instead of
// creating it; Close removes the one made ahead of the last roll.
func TestCreateAheadRollTakesTheSegmentMadeAhead(t *testing.T) {
	dir := t.TempDir()
	q, err := OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	q.CreateAhead()
	appendN(t, q, testSize, 'a') // fills segment 0
	waitFor(t, "segment 1 made ahead", func() bool { return exists(dir, testSize) })
	mark(t, filepath.Join(dir, FileName(testSize)))

	require.Equal(t, int64(testSize), appendN(t, q, 10, 'b'), "the roll appends at the start of segment 1")
	require.Equal(t, byte('z'), q.Last().Mapped()[testSize-1], "the roll created segment 1 anew")
	require.Len(t, q.Segments(), 2, "a segment made ahead is not part of the queue")
	waitFor(t, "segment 2 made ahead", func() bool { return exists(dir, 2*testSize) })

	q.Close()
	require.False(t, exists(dir, 2*testSize), "Close leaves the segment made ahead behind")
	q, err = OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	defer q.Close()
	require.Len(t, q.Segments(), 2)
}

// A reopened queue whose last segment has room starts making the next one
// on the first append; truncating the queue drops it.
func TestCreateAheadAfterReopenAndTruncate(t *testing.T) {
	dir := t.TempDir()
	q, err := OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	appendN(t, q, 10, 'a')
	q.Close()
	require.False(t, exists(dir, testSize), "without CreateAhead nothing is made ahead")

	q, err = OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	defer q.Close()
	q.CreateAhead()
	q.Last().SetWrote(10) // what recovery does
	appendN(t, q, 10, 'b')
	waitFor(t, "segment 1 made ahead", func() bool { return exists(dir, testSize) })
	require.NoError(t, q.TruncateDirty(5))
	require.False(t, exists(dir, testSize), "TruncateDirty leaves the segment made ahead behind")
	appendN(t, q, 10, 'c')
	waitFor(t, "segment 1 made ahead again", func() bool { return exists(dir, testSize) })
}

// A segment made ahead that failed (a full disk) is tried again at the
// roll: the roll works when there is space again by then, and reports the
// error of its own attempt when there is not.
func TestCreateAheadFailureIsRetriedAtTheRoll(t *testing.T) {
	dir := t.TempDir()
	ffs := &FaultFS{FS: OS}
	q, err := OpenQueue(ffs, dir, testSize)
	require.NoError(t, err)
	defer q.Close()
	q.CreateAhead()
	failNextAhead := func(seg int64) {
		appendN(t, q, 1, 'a')
		ffs.FailAllocate.Store(true)
		require.NoError(t, q.TruncateDirty(seg*testSize+1)) // drops the one made with space
		appendN(t, q, testSize-1, 'b')                      // starts making the next ahead, which fails
		waitFor(t, "the failed attempt is done", func() bool {
			n := q.next.Load()
			if n == nil {
				return false
			}
			select {
			case <-n.done:
				return n.err != nil
			default:
				return false
			}
		})
		require.False(t, exists(dir, (seg+1)*testSize))
	}

	failNextAhead(0)
	ffs.FailAllocate.Store(false)
	s, err := q.LastForAppend(0)
	require.NoError(t, err, "the roll tries again")
	require.Equal(t, int64(testSize), s.Base())

	failNextAhead(1)
	_, err = q.LastForAppend(0)
	require.ErrorIs(t, err, syscall.ENOSPC)
}
