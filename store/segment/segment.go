// Package segment provides the fixed-size, memory-mapped files the commit
// log, the consume queues and the index are made of, and the ordered
// queue of them that one directory holds. It mirrors Java 4.9.8's
// MappedFile and MappedFileQueue.
//
// A segment is named by the 20-digit, zero-padded store offset of its
// first byte (UtilAll.offset2FileName) and is exactly the configured size
// on disk; a file of any other size refuses to load, as in Java.
//
// Writes copy into the shared mapping (like Java's mapped-buffer appends),
// or, for a segment written through a staging buffer (Java's
// transientStorePoolEnable), are reserved with Reserve and reach the file
// later with Commit; readers then see only what is committed. Flush makes
// them durable (msync of the written range for append-only
// segments, fsync for those updated in place). Unlike Java, which only sets the
// file length and leaves it sparse, a new segment reserves its disk blocks
// when it is created: a full disk then shows up as a clean error from
// Create instead of a SIGBUS in the middle of an append. A failed fsync is
// sticky: the segment refuses further appends (see Err).
//
// Readers take a reference (Acquire, or View from Queue.Read) and release
// it when done; Destroy unmaps and removes the file once the last reference
// is gone, so a pull response may point straight into the mapping.
package segment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// PageSize is Java's MappedFile.OS_PAGE_SIZE, the unit of the
// "flush at least N pages" settings.
const PageSize = 4096

// TempSuffix marks a segment being created; load removes leftovers.
const TempSuffix = ".tmp"

// NameDigits is the width of a segment file name (UtilAll.offset2FileName).
const NameDigits = 20

// Errors of this package.
var (
	// ErrSize: a file on disk is not the configured segment size.
	ErrSize = errors.New("segment: file size differs from the configured size")
	// ErrName: a file name is not a 20-digit offset.
	ErrName = errors.New("segment: file name is not a 20-digit offset")
	// ErrGap: consecutive files are not exactly one segment size apart.
	ErrGap = errors.New("segment: files are not contiguous")
	// ErrFull: an append does not fit in what is left of the segment.
	ErrFull = errors.New("segment: not enough room")
	// ErrClosed: the segment was destroyed or closed.
	ErrClosed = errors.New("segment: closed")
	// ErrRange: a read or write lies outside the written part.
	ErrRange = errors.New("segment: offset out of range")
)

// FileName is the name of the segment whose first byte is at offset.
func FileName(offset int64) string {
	return fmt.Sprintf("%020d", offset)
}

// ParseName returns the offset a segment file name stands for.
func ParseName(name string) (int64, error) {
	if len(name) != NameDigits {
		return 0, fmt.Errorf("%w: %q", ErrName, name)
	}
	v, err := strconv.ParseInt(name, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%w: %q", ErrName, name)
	}
	return v, nil
}

// Segment is one mapped file.
type Segment struct {
	path string
	base int64 // store offset of byte 0 (Java fileFromOffset)
	size int64
	f    File
	data []byte // the shared mapping, len == size

	wrote   atomic.Int64 // bytes written (Java wrotePosition)
	flushed atomic.Int64 // bytes known durable (Java flushedPosition)
	// staged is set by the first Reserve: the bytes past committed are
	// held in the caller's staging buffer, not yet in the file (Java
	// MappedFile with a writeBuffer, committedPosition).
	staged      atomic.Bool
	committed   atomic.Int64
	commitStamp atomic.Int64 // store time of the newest committed data
	// stamp is the store timestamp of the newest data appended (Java
	// MappedFile.storeTimestamp), for the checkpoint.
	stamp atomic.Int64

	flushMu sync.Mutex // one fsync at a time
	// inPlace is set by the first WriteAt: the segment then has bytes
	// changed outside [flushed, wrote), and Flush syncs the whole file.
	inPlace atomic.Bool
	errMu   sync.Mutex
	err     error // sticky write/fsync error

	// prefaulted is how far the background prefault has written zeros
	// and faulted pages in; prefaulting is set while it runs (see
	// Prefault). zeroMu orders its writes of zeros with an append that
	// reaches past prefaulted.
	prefaulted  atomic.Int64
	prefaulting atomic.Bool
	prefaultOn  atomic.Bool // Prefault was called: appends zero what it has not
	zeroMu      sync.Mutex

	refs      atomic.Int64 // 1 for the owner plus one per reader
	destroyed atomic.Bool
	cleanup   sync.Once
}

// Create makes a new segment file of size bytes in dir for offset base,
// reserving its disk space.
func Create(fsys FS, dir string, base, size int64) (*Segment, error) {
	return create(fsys, filepath.Join(dir, FileName(base)), base, size)
}

// CreateNamed makes a new file at path of size bytes that is not named by
// an offset (an index file); its Base is 0.
func CreateNamed(fsys FS, path string, size int64) (*Segment, error) {
	return create(fsys, path, 0, size)
}

func create(fsys FS, path string, base, size int64) (*Segment, error) {
	dir := filepath.Dir(path)
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("segment: create %s: %w", path, err)
	}
	// The file is sized under a temporary name and renamed into place, so
	// a crash never leaves a short segment that would fail the next load
	// (Java can leave one and then refuses to start).
	tmp := path + TempSuffix
	_ = fsys.Remove(tmp)
	f, err := fsys.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("segment: create %s: %w", path, err)
	}
	if err := reserve(f, size); err != nil {
		_ = f.Close()
		_ = fsys.Remove(tmp)
		return nil, fmt.Errorf("segment: reserve %d bytes for %s: %w", size, path, err)
	}
	s, err := mapFile(f, path, base, size)
	if err != nil {
		_ = fsys.Remove(tmp)
		return nil, err
	}
	// Nothing is written yet: a page fault reading ahead would only zero
	// pages before their time (see adviseNoReadahead).
	adviseNoReadahead(s.data)
	if err := fsys.Rename(tmp, path); err != nil {
		s.Close()
		_ = fsys.Remove(tmp)
		return nil, fmt.Errorf("segment: create %s: %w", path, err)
	}
	if err := syncDir(fsys, dir); err != nil {
		s.Close()
		return nil, fmt.Errorf("segment: create %s: sync directory: %w", path, err)
	}
	return s, nil
}

// Open maps an existing segment file, which must be exactly size bytes.
// Its write and flush positions start at the end, as Java's load does;
// recovery moves them back with SetWrote.
func Open(fsys FS, path string, size int64) (*Segment, error) {
	base, err := ParseName(filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return open(fsys, path, base, size)
}

// OpenNamed maps an existing file of exactly size bytes whose name is not
// an offset (an index file); its Base is 0 and it starts full.
func OpenNamed(fsys FS, path string, size int64) (*Segment, error) {
	return open(fsys, path, 0, size)
}

func open(fsys FS, path string, base, size int64) (*Segment, error) {
	f, err := fsys.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("segment: open %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("segment: stat %s: %w", path, err)
	}
	if st.Size() != size {
		_ = f.Close()
		return nil, fmt.Errorf("%w: %s is %d bytes, want %d", ErrSize, path, st.Size(), size)
	}
	s, err := mapFile(f, path, base, size)
	if err != nil {
		return nil, err
	}
	s.wrote.Store(size)
	s.flushed.Store(size)
	return s, nil
}

func mapFile(f File, path string, base, size int64) (*Segment, error) {
	data, err := mmap(f, size)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("segment: map %s: %w", path, err)
	}
	s := &Segment{path: path, base: base, size: size, f: f, data: data}
	s.refs.Store(1)
	return s, nil
}

// Path is the segment's file path.
func (s *Segment) Path() string { return s.path }

// Base is the store offset of the segment's first byte.
func (s *Segment) Base() int64 { return s.base }

// Size is the segment's fixed size.
func (s *Segment) Size() int64 { return s.size }

// End is the store offset just past the segment.
func (s *Segment) End() int64 { return s.base + s.size }

// Wrote is the number of bytes written (or reserved, see Reserve).
func (s *Segment) Wrote() int64 { return s.wrote.Load() }

// Readable is how many bytes readers may see and Flush may sync: Wrote,
// or for a staged segment the committed part (Java getReadPosition).
func (s *Segment) Readable() int64 {
	if s.staged.Load() {
		return s.committed.Load()
	}
	return s.wrote.Load()
}

// Staged reports whether the segment is written with Reserve and Commit.
func (s *Segment) Staged() bool { return s.staged.Load() }

// Flushed is the number of bytes known to be durable.
func (s *Segment) Flushed() int64 { return s.flushed.Load() }

// Remaining is the room left for appends.
func (s *Segment) Remaining() int64 { return s.size - s.wrote.Load() }

// Full reports whether no room is left.
func (s *Segment) Full() bool { return s.wrote.Load() == s.size }

// StoreTimestamp is the store time of the newest data appended; of a
// staged segment, of the newest data committed (what a flush covers).
func (s *Segment) StoreTimestamp() int64 {
	if s.staged.Load() {
		return s.commitStamp.Load()
	}
	return s.stamp.Load()
}

// SetStoreTimestamp records the store time of data just appended.
func (s *Segment) SetStoreTimestamp(ms int64) { s.stamp.Store(ms) }

// SetWrote moves the write and flush positions to n, for recovery and
// truncation (Java truncateDirtyFiles sets all three positions).
func (s *Segment) SetWrote(n int64) {
	n = min(max(n, 0), s.size)
	s.wrote.Store(n)
	s.committed.Store(n)
	s.flushed.Store(n)
}

// ClearFrom zeroes the segment from n to its end and makes that durable,
// unless the rest of n's page is zero already. Recovery calls it where
// it cut the data off: a torn or stale record or unit left there (one a
// crash kept although what it depends on was lost) would come back in a
// later recovery once new writes reach up to it. Java leaves them. A
// segment that ends cleanly at n, the usual case, costs one look at a
// page the recovery scan has just read. Stale bytes past a whole page of
// zeros are left, as Java leaves them.
func (s *Segment) ClearFrom(n int64) error {
	n = min(max(n, 0), s.size)
	if !s.dirtyFrom(n) {
		return nil
	}
	err := zeroRange(s.f, n, s.size-n)
	if errors.Is(err, errors.ErrUnsupported) {
		clear(s.data[n:])
		err = nil
	}
	if err == nil {
		err = s.f.Sync()
	}
	if err != nil {
		return fmt.Errorf("segment: clear %s from %d: %w", s.path, n, err)
	}
	return nil
}

// dirtyFrom reports whether the rest of n's page (the whole page when n
// starts one) holds a non-zero byte.
func (s *Segment) dirtyFrom(n int64) bool {
	page := min(n&^(PageSize-1)+PageSize, s.size)
	for _, c := range s.data[n:page] {
		if c != 0 {
			return true
		}
	}
	return false
}

// Err is the sticky error that stopped the segment taking writes, if any.
func (s *Segment) Err() error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

func (s *Segment) setErr(err error) error {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	if s.err == nil {
		s.err = err
	}
	return s.err
}

// room returns the write position when n more bytes fit and the segment
// takes writes.
func (s *Segment) room(n int) (int64, error) {
	if err := s.Err(); err != nil {
		return 0, err
	}
	if s.destroyed.Load() {
		return 0, ErrClosed
	}
	pos := s.wrote.Load()
	if int64(n) > s.size-pos {
		return 0, fmt.Errorf("%w: %d bytes at %d of %s", ErrFull, n, pos, s.path)
	}
	return pos, nil
}

// pastPrefault reports whether an append ending at end reaches past what
// the prefault has done, where it may be writing zeros now: the append
// then holds zeroMu, which each prefault step holds too.
func (s *Segment) pastPrefault(end int64) bool {
	return s.prefaultOn.Load() && end > s.prefaulted.Load()
}

// Append reserves n bytes at the write position, lets fill write them in
// place, and returns their position in the segment. Only one goroutine may
// append to a segment at a time.
func (s *Segment) Append(n int, fill func(b []byte)) (int64, error) {
	pos, err := s.room(n)
	if err != nil {
		return 0, err
	}
	if !s.Acquire() { // a concurrent Destroy must not unmap under the copy
		return 0, ErrClosed
	}
	defer s.Release()
	end := pos + int64(n)
	if s.pastPrefault(end) {
		// A large record the prefault fell behind brings its pages in
		// itself, the same way.
		s.zeroMu.Lock()
		defer s.zeroMu.Unlock()
		if n >= inlineZeroMin {
			if from, to := s.zeroUpTo(pos, end); from < to {
				populate(s.data[from:to])
			}
		}
	}
	fill(s.data[pos:end:end])
	s.wrote.Store(end)
	return pos, nil
}

// Write appends p at the write position with pwrite(2) rather than a copy
// through the mapping, and returns its position in the segment. The page
// cache is one: readers of the mapping see the bytes once Wrote covers
// them, and Flush syncs them like mapped writes. Only one goroutine may
// append to a segment at a time.
//
// The write goes on with zeros to the next writeAlign boundary (the file
// holds zeros past the write position anyway, and the next append
// overwrites them). Linux sizes a new page-cache folio by the alignment of
// the page it starts at, so records written back to back at unaligned
// offsets got pages of 4-16 KiB and ran at half of write(2)'s speed
// (64 KiB + 213 B records: 3.2-3.9 GB/s; padded 4.9-6.4; aligned 64 KiB
// writes 6.6-7.2, same runs): with the padding every new folio starts on
// a boundary and is a whole 64 KiB.
//
// The bytes are the concatenation of parts (a record's head, body and
// tail, gathered by the kernel without another copy of the body).
func (s *Segment) Write(parts ...[]byte) (int64, error) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	pos, err := s.room(n)
	if err != nil {
		return 0, err
	}
	end := pos + int64(n)
	if s.pastPrefault(end) { // ours go first, its next step after them
		s.zeroMu.Lock()
		defer s.zeroMu.Unlock()
	}
	if !s.Acquire() {
		return 0, ErrClosed
	}
	defer s.Release()
	pad := min((end+writeAlign-1)&^(writeAlign-1), s.size) - end
	if err := writePadded(s.f, parts, int(pad), pos); err != nil {
		return 0, s.setErr(fmt.Errorf("segment: write %d bytes at %d of %s: %w", n, pos, s.path, err))
	}
	s.wrote.Store(end)
	return pos, nil
}

// writeAlign is the boundary Write pads its writes to.
const writeAlign = 64 << 10

// writeEach writes parts back to back at off, one pwrite(2) each.
func writeEach(f File, parts [][]byte, off int64) error {
	for _, p := range parts {
		if _, err := f.WriteAt(p, off); err != nil {
			return err
		}
		off += int64(len(p))
	}
	return nil
}

// Reserve takes n bytes at the write position for data the caller stages
// elsewhere and later hands to Commit, and returns their position. From
// the first Reserve on, readers and Flush see only committed bytes. Only
// one goroutine may append to a segment at a time, and a segment is
// written either with Append or with Reserve, never both.
func (s *Segment) Reserve(n int) (int64, error) {
	pos, err := s.room(n)
	if err != nil {
		return 0, err
	}
	if !s.staged.Load() {
		s.committed.Store(pos)
		s.staged.Store(true)
	}
	s.wrote.Store(pos + int64(n))
	return pos, nil
}

// Commit writes p, staged bytes reserved earlier, to the file at the
// committed position with pwrite(2) (Java MappedFile.commit0 writes its
// buffer to the file channel) and makes them readable. Only one goroutine
// may commit at a time. A failed write is sticky, like a failed fsync.
// stamp is the store time of the newest record in p or before it.
func (s *Segment) Commit(p []byte, stamp int64) error {
	if err := s.Err(); err != nil {
		return err
	}
	pos := s.committed.Load()
	if !s.staged.Load() || pos+int64(len(p)) > s.wrote.Load() {
		return fmt.Errorf("%w: commit %d bytes at %d of %s (reserved %d)", ErrRange, len(p), pos, s.path, s.wrote.Load())
	}
	if !s.Acquire() {
		return ErrClosed
	}
	defer s.Release()
	if _, err := s.f.WriteAt(p, pos); err != nil {
		return s.setErr(fmt.Errorf("segment: commit %d bytes at %d of %s: %w", len(p), pos, s.path, err))
	}
	s.committed.Store(pos + int64(len(p)))
	s.commitStamp.Store(stamp) // after: whoever sees the stamp sees the bytes
	return nil
}

// AppendBytes appends p (see Append).
func (s *Segment) AppendBytes(p []byte) (int64, error) {
	return s.Append(len(p), func(b []byte) { copy(b, p) })
}

// WriteAt copies p to position off without moving the write position: for
// formats that update in place (the index header and hash slots).
func (s *Segment) WriteAt(p []byte, off int64) error {
	if err := s.Err(); err != nil {
		return err
	}
	if off < 0 || off+int64(len(p)) > s.size {
		return fmt.Errorf("%w: write %d bytes at %d of %s", ErrRange, len(p), off, s.path)
	}
	if !s.Acquire() {
		return ErrClosed
	}
	defer s.Release()
	s.inPlace.Store(true)
	copy(s.data[off:], p)
	return nil
}

// Mapped returns the whole mapping. Bytes past Wrote are whatever the file
// holds there. The caller must hold a reference.
func (s *Segment) Mapped() []byte { return s.data }

// Bytes returns n written bytes at position off, aliasing the mapping. The
// caller must hold a reference for as long as it uses them.
func (s *Segment) Bytes(off, n int64) ([]byte, error) {
	if r := s.Readable(); off < 0 || n < 0 || off+n > r {
		return nil, fmt.Errorf("%w: read %d bytes at %d of %s (readable %d)", ErrRange, n, off, s.path, r)
	}
	return s.data[off : off+n : off+n], nil
}

// prefaultStep is how much one background prefault step covers. Steps
// keep each call short (a first-touched page can cost ~10 µs on a VM, so
// 8 MiB at once held a CPU for ~20 ms).
const prefaultStep = 256 << 10

// inlineZeroMin is the smallest append that zeros pages the prefault has
// not reached itself (see Prefault).
const inlineZeroMin = 32 << 10

// zeroStep is the source of the zeros a prefault step writes.
var zeroStep [prefaultStep]byte

// Prefault keeps the window bytes after the write position in the page
// cache and mapped, topping the window up in the background a step at a
// time whenever the writer has used a step of it. Appends then copy into
// resident pages instead of taking first-touch page faults while the
// appender holds its lock (what Java's warmMapedFileEnable does for a
// whole file, up front).
//
// A step writes zeros over its range with pwrite(2) and then maps the
// pages writable (MADV_POPULATE_WRITE). Faulting the unwritten pages in
// through the mapping alone makes the kernel read (zero) them in 2 MiB
// folios (see adviseNoReadahead), and those large allocations were the
// ones a VM had handed back to its host: 64 KiB appends ran at 0.4–0.6
// GB/s after another program had run, against 0.6–1.4 GB/s with the
// zeros written (6 of 6 interleaved pairs; the write allocates the page
// cache as write(2) does). The bytes past the write position are zeros
// either way: the file is preallocated, and a reopened segment's bytes
// past its recovered end are overwritten by the next appends anyway.
//
// An append of inlineZeroMin bytes or more that reaches past the prefault
// zeros its own pages the same way first, instead of faulting them in
// through the mapping (64 KiB appends: 11 of 14 interleaved pairs faster,
// the slow runs 1.1-1.2 GB/s before and 1.4-1.8 after); smaller ones fault
// them in, which measured no different.
func (s *Segment) Prefault(window int64) {
	w := s.wrote.Load()
	done := s.prefaulted.Load()
	s.prefaultOn.Store(true)
	if done >= s.size || done-w > window-prefaultStep || !s.prefaulting.CompareAndSwap(false, true) {
		return
	}
	if !s.Acquire() {
		s.prefaulting.Store(false)
		return
	}
	if done == 0 {
		// The first prefault of this mapping (a segment opened at start is
		// appended to): no readahead for the part not written yet either.
		adviseNoReadahead(s.data[min((w+PageSize-1)&^(PageSize-1), s.size):])
	}
	go func() {
		defer s.Release()
		defer s.prefaulting.Store(false)
		for {
			from, to, ok := s.zeroAhead(window)
			if !ok {
				return
			}
			populate(s.data[from:to])
			if to == s.size {
				adviseNormal(s.data) // all faulted in: readers of old data read ahead again
			}
		}
	}()
}

// zeroAhead writes zeros over the next step of the window past the write
// position and returns it, or reports that the window is full. It starts
// on the page after the write position (madvise wants a page-aligned
// start; the mapping itself starts on a page) and never below what it
// zeroed before, and it holds zeroMu, which an append past prefaulted
// takes too. A failed write is left to the populate that follows (the
// pages are then read in as before): the prefault is only ahead-of-time
// work.
func (s *Segment) zeroAhead(window int64) (from, to int64, ok bool) {
	s.zeroMu.Lock()
	defer s.zeroMu.Unlock()
	w := s.wrote.Load()
	next := s.zeroStart(w)
	if next >= min(w+window, s.size) {
		return 0, 0, false
	}
	from, to = s.zeroUpTo(w, next+1)
	return from, to, true
}

// zeroStart is where zeros written for an append at pos begin: the page
// after pos, or prefaulted if further. zeroMu should be held.
func (s *Segment) zeroStart(pos int64) int64 {
	return max(s.prefaulted.Load(), (pos+PageSize-1)&^(PageSize-1))
}

// zeroUpTo writes zeros in whole steps from zeroStart(pos) until past
// end, and returns the range written (empty when end was already
// covered). The caller holds zeroMu, and pos is the write position or
// past it.
func (s *Segment) zeroUpTo(pos, end int64) (from, to int64) {
	from = s.zeroStart(pos)
	for to = from; to < min(end, s.size); {
		next := min(to+prefaultStep, s.size)
		_, _ = s.f.WriteAt(zeroStep[:next-to], to)
		to = next
	}
	if to > from {
		s.prefaulted.Store(to)
	}
	return from, to
}

// IsFlushable reports whether Flush(leastPages) would write anything, as
// Java's MappedFile.isAbleToFlush decides: a full segment always, else at
// least leastPages new pages (any new byte when leastPages is 0).
func (s *Segment) IsFlushable(leastPages int) bool {
	w, f := s.Readable(), s.flushed.Load()
	if w == f {
		return false
	}
	if s.Full() {
		return true
	}
	if leastPages > 0 {
		return w/PageSize-f/PageSize >= int64(leastPages)
	}
	return w > f
}

// Flush makes everything written so far durable when IsFlushable allows,
// and returns the flushed position. A failed fsync is sticky.
func (s *Segment) Flush(leastPages int) (int64, error) {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	if !s.IsFlushable(leastPages) {
		return s.flushed.Load(), s.Err()
	}
	if !s.Acquire() {
		// Destroyed (retention got here first) or closed after the final
		// flush: nothing is left to make durable. Java's flush marks it
		// flushed too.
		w := s.Readable()
		s.flushed.Store(w)
		return w, nil
	}
	defer s.Release()
	w := s.Readable()
	if err := s.sync(s.flushed.Load(), w); err != nil {
		return s.flushed.Load(), s.setErr(fmt.Errorf("segment: fsync %s: %w", s.path, err))
	}
	s.flushed.Store(w)
	return w, nil
}

// sync makes bytes [from, to) durable. An append-only segment syncs just
// that range of the mapping (msync MS_SYNC, the data and the metadata
// needed to read it back, as fdatasync): a whole-file fsync would also
// write back the zero pages prefaulted past the write position, cleaning
// them so that the appender faults on each again, now behind the journal.
// A segment changed in place (WriteAt) syncs the whole file.
//
// Before the msync, the whole pages of the range leave this process's
// page tables (one madvise): the writer is done with them, and writing
// back a page still mapped writable makes the kernel write-protect it
// and flush every CPU's TLB, one inter-processor interrupt per page. On
// a VM that cost more than the appends themselves: 64 KiB appends spent
// 34% of the CPU in those interrupts and ran 2.0-2.9x faster without them
// (interleaved pairs). Readers fault the pages back in from the page
// cache, 16 at a time. A staged segment is written with pwrite(2) and
// mapped read-only by readers, which writeback leaves alone.
func (s *Segment) sync(from, to int64) error {
	if c, ok := s.f.(syncChecker); ok {
		if err := c.checkSync(); err != nil {
			return err
		}
	}
	if s.inPlace.Load() {
		return s.f.Sync()
	}
	lo := from &^ (PageSize - 1)
	if !s.staged.Load() {
		dropMapping(s.data[lo : to&^(PageSize-1)])
	}
	if err := syncRange(s.f, s.data[lo:to]); err != nil {
		return err
	}
	if r, ok := s.f.(syncRecorder); ok {
		return r.synced(lo, to)
	}
	return nil
}

// ModTime is the file's last modification time (Java uses it to expire
// segments).
func (s *Segment) ModTime() (time.Time, error) {
	st, err := s.f.Stat()
	if err != nil {
		return time.Time{}, fmt.Errorf("segment: stat %s: %w", s.path, err)
	}
	return st.ModTime(), nil
}

// Acquire takes a reference; it fails once the segment is destroyed.
func (s *Segment) Acquire() bool {
	for {
		n := s.refs.Load()
		if n <= 0 || s.destroyed.Load() {
			return false
		}
		if s.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// Release drops a reference; the last one unmaps and closes the file.
func (s *Segment) Release() {
	if s.refs.Add(-1) == 0 {
		s.cleanup.Do(func() {
			_ = munmap(s.data)
			_ = s.f.Close()
		})
	}
}

// Close drops the owner's reference without removing the file; the
// mapping goes away when the last reader releases.
func (s *Segment) Close() {
	if s.destroyed.CompareAndSwap(false, true) {
		s.Release()
	}
}

// Destroy closes the segment and removes its file. Readers holding a
// reference keep a valid mapping until they release it (the file's data
// stays reachable through the mapping after the unlink).
func (s *Segment) Destroy(fsys FS) error {
	s.Close()
	if err := fsys.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("segment: remove %s: %w", s.path, err)
	}
	return nil
}
