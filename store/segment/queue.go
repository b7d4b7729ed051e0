package segment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Queue is the ordered run of segments one directory holds (Java
// MappedFileQueue): the commit log, or one consume queue. A multi-path
// commit log (Java MultiPathMappedFileQueue) spreads its segments over
// several directories; see OpenQueueDirs.
//
// The segment list is copy-on-write: readers take a snapshot without
// locking; appenders and cleaners replace it under mu.
type Queue struct {
	fsys  FS
	dir   string
	place Placer // nil: new segments go to dir
	size  int64

	mu   sync.Mutex // serialises changes of segs
	segs atomic.Pointer[[]*Segment]

	flushedWhere atomic.Int64 // store offset flushed so far (Java flushedWhere)
	stamp        atomic.Int64 // store time of the last full flush

	// ahead is set by CreateAhead. next is the segment being created
	// ahead of need; it is changed under mu and read without it by the
	// appender's fast path.
	ahead atomic.Bool
	next  atomic.Pointer[nextSegment]
}

// nextSegment is a segment created in the background; done is closed
// when seg or err is set.
type nextSegment struct {
	base int64
	done chan struct{}
	seg  *Segment
	err  error
}

// Placer returns the directory the new segment starting at base is
// created in.
type Placer func(base int64) (string, error)

// OpenQueue loads every segment file in dir (which may not exist yet).
// Like Java's MappedFileQueue.load it fails when a file is not exactly size
// bytes; it also refuses names that are not offsets and gaps between files.
// Every segment starts out full; recovery moves the last positions back.
func OpenQueue(fsys FS, dir string, size int64) (*Queue, error) {
	return OpenQueueDirs(fsys, []string{dir}, size, nil)
}

// OpenQueueDirs loads the segment files of every dir as one queue, in
// name order whichever directory holds them (Java
// MultiPathMappedFileQueue.load), with OpenQueue's checks. New segments go
// to the directory place picks, or to dirs[0] when place is nil.
func OpenQueueDirs(fsys FS, dirs []string, size int64, place Placer) (*Queue, error) {
	if len(dirs) == 0 {
		return nil, errors.New("segment: a queue needs a directory")
	}
	q := &Queue{fsys: fsys, dir: dirs[0], place: place, size: size}
	q.segs.Store(&[]*Segment{})
	var paths []string
	for _, dir := range dirs {
		entries, err := fsys.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("segment: list %s: %w", dir, err)
		}
		for _, name := range segmentNames(entries) {
			paths = append(paths, filepath.Join(dir, name))
		}
	}
	sort.SliceStable(paths, func(i, j int) bool { return filepath.Base(paths[i]) < filepath.Base(paths[j]) })
	paths, err := cleanLeftovers(fsys, paths, size)
	if err != nil {
		return nil, err
	}
	var segs []*Segment
	for _, path := range paths {
		s, err := Open(fsys, path, size)
		if err == nil && len(segs) > 0 && s.base != segs[len(segs)-1].End() {
			s.Close()
			err = fmt.Errorf("%w: %s follows %s", ErrGap, path, segs[len(segs)-1].path)
		}
		if err != nil {
			closeAll(segs)
			return nil, err
		}
		segs = append(segs, s)
	}
	q.segs.Store(&segs)
	return q, nil
}

// segmentNames lists the regular files of a directory in name order, as
// Java sorts them; directories and dot files are skipped.
func segmentNames(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		if e.IsDir() || len(e.Name()) == 0 || e.Name()[0] == '.' {
			continue
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// cleanLeftovers removes what a crash while creating a segment can leave:
// files with TempSuffix (Sputnik), and a newest file that is still empty
// (Java, killed between creating and sizing it). Such files hold no data.
// paths are in segment order.
func cleanLeftovers(fsys FS, paths []string, size int64) ([]string, error) {
	kept := paths[:0]
	for _, path := range paths {
		if strings.HasSuffix(path, TempSuffix) {
			if err := fsys.Remove(path); err != nil {
				return nil, fmt.Errorf("segment: remove leftover %s: %w", path, err)
			}
			continue
		}
		kept = append(kept, path)
	}
	if n := len(kept); n > 0 && size > 0 {
		last := kept[n-1]
		if f, err := fsys.OpenFile(last, os.O_RDONLY, 0); err == nil {
			st, err := f.Stat()
			_ = f.Close()
			if err == nil && st.Size() == 0 {
				if err := fsys.Remove(last); err != nil {
					return nil, fmt.Errorf("segment: remove empty %s: %w", last, err)
				}
				kept = kept[:n-1]
			}
		}
	}
	return kept, nil
}

func closeAll(segs []*Segment) {
	for _, s := range segs {
		s.Close()
	}
}

// Dir is the queue's directory (the first, when it has several).
func (q *Queue) Dir() string { return q.dir }

// SegmentSize is the fixed size of every segment.
func (q *Queue) SegmentSize() int64 { return q.size }

// Segments is a snapshot of the segments in offset order.
func (q *Queue) Segments() []*Segment { return *q.segs.Load() }

// First is the oldest segment, or nil.
func (q *Queue) First() *Segment {
	segs := q.Segments()
	if len(segs) == 0 {
		return nil
	}
	return segs[0]
}

// Last is the newest segment, or nil.
func (q *Queue) Last() *Segment {
	segs := q.Segments()
	if len(segs) == 0 {
		return nil
	}
	return segs[len(segs)-1]
}

// MinOffset is the first store offset still held (Java getMinOffset), or
// -1 when the queue is empty.
func (q *Queue) MinOffset() int64 {
	if s := q.First(); s != nil {
		return s.base
	}
	return -1
}

// MaxOffset is the store offset just past the readable data (Java
// getMaxOffset), 0 when empty.
func (q *Queue) MaxOffset() int64 {
	if s := q.Last(); s != nil {
		return s.base + s.Readable()
	}
	return 0
}

// Find returns the segment holding store offset off, or nil.
func (q *Queue) Find(off int64) *Segment {
	segs := q.Segments()
	if len(segs) == 0 || off < segs[0].base {
		return nil
	}
	i := int((off - segs[0].base) / q.size)
	if i < len(segs) && segs[i].base <= off && off < segs[i].End() {
		return segs[i]
	}
	// Not contiguous (should not happen once loaded): search.
	i = sort.Search(len(segs), func(i int) bool { return segs[i].End() > off })
	if i < len(segs) && segs[i].base <= off {
		return segs[i]
	}
	return nil
}

// LastForAppend returns the newest segment if it has room, or creates the
// next one: right after the last, or, in an empty queue, the one holding
// startOffset (Java getLastMappedFile(startOffset, true)).
func (q *Queue) LastForAppend(startOffset int64) (*Segment, error) {
	if s := q.Last(); s != nil && !s.Full() {
		if n := q.next.Load(); q.ahead.Load() && (n == nil || n.base != s.End()) {
			q.mu.Lock()
			q.createNext(s.End())
			q.mu.Unlock()
		}
		return s, nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	segs := q.Segments()
	base := startOffset - startOffset%q.size
	if n := len(segs); n > 0 {
		if !segs[n-1].Full() {
			return segs[n-1], nil
		}
		base = segs[n-1].End()
	}
	s, err := q.takeNext(base)
	if err != nil {
		return nil, err
	}
	next := append(slices.Clip(segs), s)
	q.segs.Store(&next)
	q.createNext(s.End())
	return s, nil
}

// CreateAhead makes the queue create each next segment in the background
// while the one before it is written, as Java's AllocateMappedFileService
// does for the commit log. Otherwise the appender that fills a segment
// creates the next one itself: reserving its blocks, mapping it and
// syncing the directory. That is usually quick, but on a disk busy with
// writeback the block allocator waits for bitmap reads queued behind it,
// and a 1 GiB commit-log segment held the appender (and every producer)
// for up to 0.27 s here.
//
// The segment made ahead is a file of the configured size, full of zeros,
// under its own name, as Java's is: a load after a crash finds it and
// recovery removes it as a segment past the end of the log (Java's
// truncateDirtyFiles, and Sputnik's TruncateDirty, do so). Close removes it.
func (q *Queue) CreateAhead() { q.ahead.Store(true) }

// create makes the segment starting at base in the directory the placer
// picks.
func (q *Queue) create(base int64) (*Segment, error) {
	dir := q.dir
	if q.place != nil {
		var err error
		if dir, err = q.place(base); err != nil {
			return nil, err
		}
	}
	return Create(q.fsys, dir, base, q.size)
}

// createNext starts creating the segment at base in the background unless
// that is under way or done, dropping one made ahead for another base. mu
// is held.
func (q *Queue) createNext(base int64) {
	if n := q.next.Load(); !q.ahead.Load() || (n != nil && n.base == base) {
		return
	}
	_ = q.dropNext()
	n := &nextSegment{base: base, done: make(chan struct{})}
	q.next.Store(n)
	go func() {
		defer close(n.done)
		n.seg, n.err = q.create(base)
	}()
}

// takeNext returns the segment at base: the one made ahead when it is
// that one and was made, or a new one. mu is held.
func (q *Queue) takeNext(base int64) (*Segment, error) {
	if n := q.next.Load(); n != nil && n.base == base {
		q.next.Store(nil)
		<-n.done
		if n.err == nil {
			return n.seg, nil
		}
		// Made ahead and failed (a full disk, say): try again now and
		// report what this attempt gets.
	}
	_ = q.dropNext()
	return q.create(base)
}

// dropNext waits for the segment being made ahead and removes it. mu is
// held.
func (q *Queue) dropNext() error {
	n := q.next.Swap(nil)
	if n == nil {
		return nil
	}
	<-n.done
	if n.seg == nil {
		return nil
	}
	return n.seg.Destroy(q.fsys)
}

// View is a reference-counted window of written bytes in one segment.
type View struct {
	B   []byte
	seg *Segment
}

// Release gives the view's reference back; B must not be used afterwards.
func (v *View) Release() {
	if v.seg != nil {
		v.seg.Release()
		v.seg = nil
		v.B = nil
	}
}

// Read returns n written bytes at store offset off, which must lie inside
// one segment, holding a reference until the view is released.
func (q *Queue) Read(off int64, n int) (View, error) {
	s := q.Find(off)
	if s == nil || !s.Acquire() {
		return View{}, fmt.Errorf("%w: offset %d not held in %s", ErrRange, off, q.dir)
	}
	b, err := s.Bytes(off-s.base, int64(n))
	if err != nil {
		s.Release()
		return View{}, err
	}
	return View{B: b, seg: s}, nil
}

// ReadFrom returns everything written from store offset off to the end of
// its segment (Java selectMappedBuffer(pos)), holding a reference.
func (q *Queue) ReadFrom(off int64) (View, error) {
	s := q.Find(off)
	if s == nil {
		return View{}, fmt.Errorf("%w: offset %d not held in %s", ErrRange, off, q.dir)
	}
	return q.Read(off, int(s.Readable()-(off-s.base)))
}

// FlushedWhere is the store offset flushed so far.
func (q *Queue) FlushedWhere() int64 { return q.flushedWhere.Load() }

// SetFlushedWhere sets the flushed offset after recovery.
func (q *Queue) SetFlushedWhere(off int64) { q.flushedWhere.Store(off) }

// FlushTimestamp is the store time of the data covered by the last flush
// that was asked to flush everything (leastPages 0), as Java keeps it for
// the checkpoint.
func (q *Queue) FlushTimestamp() int64 { return q.stamp.Load() }

// Flush flushes the segment at the flushed offset (Java flush): one
// segment per call, so a caller loops while it reports progress. When
// retention has deleted the file holding the flushed offset, it goes on
// from the first file left (Java finds no file there and never flushes
// again).
func (q *Queue) Flush(leastPages int) (progressed bool, err error) {
	where := q.flushedWhere.Load()
	s := q.Find(where)
	if first := q.First(); s == nil && first != nil && where < first.base {
		s = first
	}
	if s == nil {
		return false, nil
	}
	stamp := s.StoreTimestamp()
	pos, err := s.Flush(leastPages)
	next := s.base + pos
	q.flushedWhere.Store(next)
	if leastPages == 0 && err == nil {
		q.stamp.Store(stamp)
	}
	return next != where, err
}

// FlushAll flushes until everything written is durable.
func (q *Queue) FlushAll() error {
	for {
		progressed, err := q.Flush(0)
		if err != nil || !progressed {
			return err
		}
	}
}

// TruncateDirty cuts the queue back to store offset off (Java
// truncateDirtyFiles): the segment holding off keeps its head, later
// segments are removed.
func (q *Queue) TruncateDirty(off int64) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	var keep []*Segment
	errs := []error{q.dropNext()}
	for _, s := range q.Segments() {
		switch {
		case s.End() <= off:
			keep = append(keep, s)
		case s.base <= off:
			s.SetWrote(off - s.base)
			keep = append(keep, s)
		default:
			errs = append(errs, s.Destroy(q.fsys))
		}
	}
	q.segs.Store(&keep)
	if q.flushedWhere.Load() > off {
		q.flushedWhere.Store(off)
	}
	return errors.Join(errs...)
}

// TruncateAndClear is recovery's cut: TruncateDirty(off), then the
// segment holding off is zeroed from there to its end (Segment.ClearFrom),
// so that what was cut off cannot come back in a later recovery. (Not
// TruncateDirty itself: a consume queue dropping its last file cuts one
// byte before it, inside the previous file's last unit.)
func (q *Queue) TruncateAndClear(off int64) error {
	if err := q.TruncateDirty(off); err != nil {
		return err
	}
	s := q.Find(off)
	if s == nil {
		return nil
	}
	return s.ClearFrom(off - s.base)
}

// DeleteFirst removes the oldest segments for which expired returns true,
// stopping at the first that is not and never touching the newest one
// (Java deleteExpiredFileByTime/ByOffset keep the last file). At most max
// segments go (0 = no limit). It returns how many were removed.
func (q *Queue) DeleteFirst(max int, expired func(*Segment) bool) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	segs := q.Segments()
	n := 0
	for n < len(segs)-1 && (max == 0 || n < max) && expired(segs[n]) {
		n++
	}
	if n == 0 {
		return 0, nil
	}
	var errs []error
	for _, s := range segs[:n] {
		errs = append(errs, s.Destroy(q.fsys))
	}
	rest := slices.Clone(segs[n:])
	q.segs.Store(&rest)
	return n, errors.Join(errs...)
}

// ExpiredBefore is a DeleteFirst predicate: the segment was last modified
// before t.
func ExpiredBefore(t time.Time) func(*Segment) bool {
	return func(s *Segment) bool {
		mt, err := s.ModTime()
		return err == nil && mt.Before(t)
	}
}

// Destroy removes every segment and the queue's files.
func (q *Queue) Destroy() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	errs := []error{q.dropNext()}
	for _, s := range q.Segments() {
		errs = append(errs, s.Destroy(q.fsys))
	}
	q.segs.Store(&[]*Segment{})
	q.flushedWhere.Store(0)
	return errors.Join(errs...)
}

// Close unmaps every segment (after its readers release) and keeps the
// files, except a segment made ahead (CreateAhead), which holds no data.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	_ = q.dropNext()
	closeAll(q.Segments())
	q.segs.Store(&[]*Segment{})
}
