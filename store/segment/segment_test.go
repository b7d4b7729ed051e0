package segment

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const testSize = 3 * PageSize

func appendN(t *testing.T, q *Queue, n int, fill byte) int64 {
	t.Helper()
	s, err := q.LastForAppend(0)
	require.NoError(t, err)
	pos, err := s.Append(n, func(b []byte) {
		for i := range b {
			b[i] = fill
		}
	})
	require.NoError(t, err)
	return s.Base() + pos
}

// waitFor polls cond until it holds, failing the test after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 10*time.Second, time.Millisecond, what)
}

// prefaultDone is a waitFor condition: no background prefault runs.
func prefaultDone(s *Segment) func() bool { return func() bool { return !s.prefaulting.Load() } }

func TestFileNames(t *testing.T) {
	require.Equal(t, "00000000001073741824", FileName(1<<30))
	for _, bad := range []string{"", "123", "0000000000000000000x", "-0000000000000000001", "000000000000000000000"} {
		_, err := ParseName(bad)
		require.ErrorIs(t, err, ErrName, bad)
	}
	v, err := ParseName("00000000000006000000")
	require.NoError(t, err)
	require.EqualValues(t, 6000000, v)
}

func TestQueueAppendRollAndReload(t *testing.T) {
	dir := t.TempDir()
	q, err := OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	require.EqualValues(t, -1, q.MinOffset())
	require.EqualValues(t, 0, q.MaxOffset())

	require.EqualValues(t, 0, appendN(t, q, testSize-100, 'a'))
	_, err = q.Last().AppendBytes(make([]byte, 101))
	require.ErrorIs(t, err, ErrFull)
	require.EqualValues(t, testSize-100, appendN(t, q, 100, 'b'))
	require.EqualValues(t, testSize, appendN(t, q, 10, 'c'), "a full segment rolls to the next")
	require.EqualValues(t, testSize+10, q.MaxOffset())
	require.NoError(t, q.FlushAll())
	require.EqualValues(t, testSize+10, q.FlushedWhere())

	v, err := q.Read(testSize-1, 1)
	require.NoError(t, err)
	require.Equal(t, []byte("b"), v.B)
	v.Release()
	_, err = q.Read(testSize+5, 6)
	require.ErrorIs(t, err, ErrRange, "reading past the written part")
	q.Close()

	names, _ := os.ReadDir(dir)
	require.Len(t, names, 2)
	require.Equal(t, FileName(testSize), names[1].Name())

	q, err = OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	defer q.Close()
	require.Len(t, q.Segments(), 2)
	require.EqualValues(t, 2*testSize, q.MaxOffset(), "loaded segments start full, as in Java")
	require.NoError(t, q.TruncateDirty(testSize+10))
	require.EqualValues(t, testSize+10, q.MaxOffset())
	require.NoError(t, q.TruncateDirty(testSize-100))
	require.Len(t, q.Segments(), 1)
	require.EqualValues(t, testSize-100, q.MaxOffset())
	_, err = os.Stat(filepath.Join(dir, FileName(testSize)))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestOpenRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(0)), make([]byte, testSize-1), 0o644))
	_, err := OpenQueue(OS, dir, testSize)
	require.ErrorIs(t, err, ErrSize)

	dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(0)), make([]byte, testSize), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(2*testSize)), make([]byte, testSize), 0o644))
	_, err = OpenQueue(OS, dir, testSize)
	require.ErrorIs(t, err, ErrGap)
}

func TestStartOffsetAlignsFirstSegment(t *testing.T) {
	q, err := OpenQueue(OS, t.TempDir(), testSize)
	require.NoError(t, err)
	defer q.Close()
	s, err := q.LastForAppend(2*testSize + 77)
	require.NoError(t, err)
	require.EqualValues(t, 2*testSize, s.Base())
	require.Same(t, s, q.Find(2*testSize+testSize-1))
	require.Nil(t, q.Find(testSize))
	require.Nil(t, q.Find(3*testSize))
}

func TestDestroyWaitsForReaders(t *testing.T) {
	q, err := OpenQueue(OS, t.TempDir(), testSize)
	require.NoError(t, err)
	appendN(t, q, 10, 'x')
	appendN(t, q, testSize-10, 'y')
	appendN(t, q, 5, 'z')
	v, err := q.Read(0, 10)
	require.NoError(t, err)
	n, err := q.DeleteFirst(0, func(*Segment) bool { return true })
	require.NoError(t, err)
	require.Equal(t, 1, n, "the newest segment is never deleted")
	require.Equal(t, "xxxxxxxxxx", string(v.B), "a held view stays readable after the file is removed")
	v.Release()
	_, err = q.Read(0, 1)
	require.ErrorIs(t, err, ErrRange)
	require.EqualValues(t, testSize, q.MinOffset())
	q.Close()
}

// An append holds its own reference: a topic deleted while the dispatcher
// writes its consume queue must not unmap the bytes under the copy (this
// faulted with SIGSEGV when Append wrote through an unreferenced mapping).
func TestDestroyDuringAppend(t *testing.T) {
	s, err := Create(OS, t.TempDir(), 0, testSize)
	require.NoError(t, err)
	_, err = s.Append(4, func(b []byte) {
		require.NoError(t, s.Destroy(OS))
		copy(b, "late")
	})
	require.NoError(t, err)
	_, err = s.Append(4, func([]byte) { t.Fatal("appended to a destroyed segment") })
	require.ErrorIs(t, err, ErrClosed)
	require.ErrorIs(t, s.WriteAt([]byte("x"), 0), ErrClosed)
}

func TestExpiredBefore(t *testing.T) {
	q, err := OpenQueue(OS, t.TempDir(), testSize)
	require.NoError(t, err)
	defer q.Close()
	appendN(t, q, testSize, 'a')
	appendN(t, q, 1, 'b')
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(q.First().Path(), old, old))
	n, err := q.DeleteFirst(0, ExpiredBefore(time.Now().Add(-time.Minute)))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = q.DeleteFirst(0, ExpiredBefore(time.Now().Add(time.Minute)))
	require.NoError(t, err)
	require.Equal(t, 0, n)
}

func TestFlushLeastPages(t *testing.T) {
	q, err := OpenQueue(OS, t.TempDir(), testSize)
	require.NoError(t, err)
	defer q.Close()
	appendN(t, q, PageSize+1, 'a')
	s := q.Last()
	require.False(t, s.IsFlushable(2), "one page written, two asked")
	require.True(t, s.IsFlushable(1))
	require.True(t, s.IsFlushable(0))
	_, err = q.Flush(2)
	require.NoError(t, err)
	require.EqualValues(t, 0, q.FlushedWhere())
	_, err = q.Flush(1)
	require.NoError(t, err)
	require.EqualValues(t, PageSize+1, q.FlushedWhere())
}

func TestInjectedFaults(t *testing.T) {
	ffs := &FaultFS{FS: OS}
	q, err := OpenQueue(ffs, t.TempDir(), testSize)
	require.NoError(t, err)
	defer q.Close()
	appendN(t, q, 10, 'a')
	ffs.FailSync.Store(true)
	err = q.FlushAll()
	require.ErrorIs(t, err, ErrInjectedSync)
	ffs.FailSync.Store(false)
	_, err = q.Last().AppendBytes([]byte("more"))
	require.ErrorIs(t, err, ErrInjectedSync, "a failed fsync is sticky")

	ffs.FailAllocate.Store(true)
	_, err = Create(ffs, t.TempDir(), 0, testSize)
	require.True(t, errors.Is(err, syscall.ENOSPC), "%v", err)
}

// A crash while creating a segment leaves at most a .tmp file (Sputnik) or
// an empty newest file (Java); neither holds data and loading drops both.
func TestLoadDropsCreationLeftovers(t *testing.T) {
	dir := t.TempDir()
	q, err := OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	appendN(t, q, 10, 'a')
	q.Close()
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(testSize)+TempSuffix), make([]byte, 7), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(testSize)), nil, 0o644))
	q, err = OpenQueue(OS, dir, testSize)
	require.NoError(t, err)
	defer q.Close()
	require.Len(t, q.Segments(), 1)
	names, _ := os.ReadDir(dir)
	require.Len(t, names, 1)

	// An empty file that is not the newest is a real inconsistency.
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(testSize)), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName(2*testSize)), make([]byte, testSize), 0o644))
	_, err = OpenQueue(OS, dir, testSize)
	require.ErrorIs(t, err, ErrSize)
}

// A segment whose size is not a whole number of pages (Java allows any
// mappedFileSizeCommitLog) prefaults from a write position in its last,
// partial page without running past the mapping.
func TestPrefaultInPartialLastPage(t *testing.T) {
	s, err := Create(OS, t.TempDir(), 0, testSize+100)
	require.NoError(t, err)
	defer s.Close()
	s.SetWrote(testSize + 50)
	require.NotPanics(t, func() { s.Prefault(1 << 20) })
}

// Appends racing the background prefault, which writes zeros ahead of the
// write position, keep every byte they wrote: records of every size from a
// few bytes to more than a prefault step, a small window so that appends
// keep overtaking it, and the file read back through read(2) at the end.
// With writes, records of inlineZeroMin bytes or more go through Write
// (pwrite and its zeros to the next writeAlign boundary) and the smaller
// ones through the mapping, as the commit log does: neither the prefault's
// zeros nor Write's own overwrite a byte, and the mapping shows each
// write as soon as Wrote covers it.
func TestPrefaultZerosNeverOverwriteAppends(t *testing.T) {
	for _, writes := range []bool{false, true} {
		t.Run(fmt.Sprintf("writes=%v", writes), func(t *testing.T) { prefaultRace(t, writes) })
	}
}

func prefaultRace(t *testing.T, writes bool) {
	const size, window = 16 << 20, 3 * prefaultStep
	s, err := Create(OS, t.TempDir(), 0, size)
	require.NoError(t, err)
	defer s.Close()
	want := make([]byte, 0, size)
	for i := 0; ; i++ {
		n := 1 + (i*7919)%(prefaultStep+PageSize)
		if int64(len(want)+n) > size {
			break
		}
		rec := bytes.Repeat([]byte{byte(i%251 + 1)}, n)
		if writes && n >= inlineZeroMin {
			pos, err := s.Write(rec[:7], rec[7:n-5], rec[n-5:]) // head, body, tail
			require.NoError(t, err)
			require.Equal(t, rec, s.Mapped()[pos:s.Wrote()], "a write seen through the mapping")
		} else {
			_, err := s.AppendBytes(rec)
			require.NoError(t, err)
			s.Prefault(window)
		}
		want = append(want, rec...)
	}
	waitFor(t, "prefault finished", prefaultDone(s))
	got := make([]byte, size)
	_, err = s.f.ReadAt(got, 0)
	require.NoError(t, err)
	require.Equal(t, want, got[:len(want)], "appended bytes")
	require.Equal(t, make([]byte, size-len(want)), got[len(want):], "bytes past the write position")
}

// Write pads to the next writeAlign boundary but never past the segment's
// end, and a write that does not fit fails like an append.
func TestWriteAtTheEnd(t *testing.T) {
	const size = writeAlign + 3*PageSize
	s, err := Create(OS, t.TempDir(), 0, size)
	require.NoError(t, err)
	defer s.Close()
	a := bytes.Repeat([]byte{'a'}, writeAlign+100)
	_, err = s.Write(a)
	require.NoError(t, err)
	b := bytes.Repeat([]byte{'b'}, size-len(a))
	pos, err := s.Write(b)
	require.NoError(t, err)
	require.EqualValues(t, len(a), pos)
	require.True(t, s.Full())
	_, err = s.Write([]byte{'c'})
	require.ErrorIs(t, err, ErrFull)
	got := make([]byte, size+1)
	n, _ := s.f.ReadAt(got, 0)
	require.Equal(t, size, n, "the file keeps its size")
	require.Equal(t, append(a, b...), got[:n])
}

// A large record appended after small ones have run past a prefault that
// stopped is zeroed by the append itself, from the page after the write
// position: the small records before it survive.
func TestLargeAppendPastStoppedPrefault(t *testing.T) {
	s, err := Create(OS, t.TempDir(), 0, 4<<20)
	require.NoError(t, err)
	defer s.Close()
	var want []byte
	put := func(n int, b byte) {
		_, err := s.Append(n, func(p []byte) {
			for i := range p {
				p[i] = b
			}
		})
		require.NoError(t, err)
		want = append(want, bytes.Repeat([]byte{b}, n)...)
	}
	put(100, 1)
	s.Prefault(prefaultStep)
	waitFor(t, "prefault finished", prefaultDone(s))
	for i := 0; s.Wrote() < s.prefaulted.Load()+3*PageSize+123; i++ {
		put(1000, byte(2+i%200))
	}
	put(inlineZeroMin+5000, 255)
	require.GreaterOrEqual(t, s.prefaulted.Load(), s.Wrote(), "the large append zeroed its pages")
	got := make([]byte, len(want)+PageSize)
	_, err = s.f.ReadAt(got, 0)
	require.NoError(t, err)
	require.Equal(t, want, got[:len(want)])
	require.Equal(t, make([]byte, PageSize), got[len(want):])
}

// Retention can delete a file the flusher has not reached (a lagging
// async flush, a forcible clean of a nearly full disk). The flusher must
// then go on from the first file left, and a file destroyed under it is
// done, not an error (Java's flush marks it flushed); before, the flushed
// offset stayed in the deleted file and nothing was ever flushed again.
func TestFlushAfterUnflushedFileDeleted(t *testing.T) {
	q, err := OpenQueue(OS, t.TempDir(), testSize)
	require.NoError(t, err)
	defer q.Close()
	appendN(t, q, testSize, 'a')
	appendN(t, q, testSize, 'b')
	appendN(t, q, 10, 'c')
	first := q.First()
	n, err := q.DeleteFirst(1, func(*Segment) bool { return true })
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.EqualValues(t, 0, q.FlushedWhere())

	_, err = first.Flush(0)
	require.NoError(t, err, "a destroyed file has nothing left to flush")
	require.NoError(t, q.FlushAll())
	require.EqualValues(t, 2*testSize+10, q.FlushedWhere())
}

// ClearFrom zeroes what lies past a cut and syncs it, and leaves a segment
// that ends cleanly at the cut alone (no sync: a start with many queues
// pays nothing).
func TestClearFrom(t *testing.T) {
	ffs := &FaultFS{FS: OS}
	s, err := Create(ffs, t.TempDir(), 0, testSize)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.AppendBytes(bytes.Repeat([]byte{'a'}, 100))
	require.NoError(t, err)
	require.NoError(t, s.WriteAt([]byte("stale"), 2*PageSize+7)) // a later page

	ffs.FailSync.Store(true)
	require.ErrorIs(t, s.ClearFrom(50), ErrInjectedSync, "dirty past 50: cleared and synced")
	ffs.FailSync.Store(false)
	require.NoError(t, s.ClearFrom(50))
	b := s.Mapped()
	require.Equal(t, bytes.Repeat([]byte{'a'}, 50), b[:50])
	require.Equal(t, make([]byte, testSize-50), b[50:])

	ffs.FailSync.Store(true)
	require.NoError(t, s.ClearFrom(50), "already clear: no sync")
	require.NoError(t, s.ClearFrom(testSize))

	// A cut at a page boundary looks at the page it starts.
	ffs.FailSync.Store(false)
	require.NoError(t, s.WriteAt([]byte("stale"), PageSize+3))
	ffs.FailSync.Store(true)
	require.ErrorIs(t, s.ClearFrom(PageSize), ErrInjectedSync)
}
