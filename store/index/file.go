package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/sputnikmq/sputnik/store/segment"
)

// File is one index file (Java IndexFile). Put and Query may be called
// from different goroutines; a lock keeps a query from seeing half an
// entry.
type File struct {
	seg     *segment.Segment
	fsys    segment.FS
	slots   int32 // hashSlotNum
	entries int32 // indexNum

	mu  sync.RWMutex
	hdr Header // the header as IndexHeader's atomics hold it
}

// CreateFile makes a new, empty index file at path. When endPhyOffset or
// endTimestamp is positive (the previous file's end), it becomes both the
// begin and the end value of the new header, as Java's IndexFile
// constructor does; indexCount stays 0 on disk until the first Put or
// Flush.
func CreateFile(fsys segment.FS, path string, slots, entries int32, endPhyOffset, endTimestamp int64) (*File, error) {
	if !validSize(slots, entries) {
		return nil, fmt.Errorf("%w: %d slots, %d entries", ErrConfig, slots, entries)
	}
	seg, err := segment.CreateNamed(fsys, path, FileSize(slots, entries))
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	f := &File{seg: seg, fsys: fsys, slots: slots, entries: entries}
	f.hdr.IndexCount = firstIndex
	data := seg.Mapped()
	if endPhyOffset > 0 {
		f.hdr.BeginPhyOffset, f.hdr.EndPhyOffset = endPhyOffset, endPhyOffset
		binary.BigEndian.PutUint64(data[hdrBeginPhyPos:], uint64(endPhyOffset))
		binary.BigEndian.PutUint64(data[hdrEndPhyPos:], uint64(endPhyOffset))
	}
	if endTimestamp > 0 {
		f.hdr.BeginTimestamp, f.hdr.EndTimestamp = endTimestamp, endTimestamp
		binary.BigEndian.PutUint64(data[hdrBeginTimestampPos:], uint64(endTimestamp))
		binary.BigEndian.PutUint64(data[hdrEndTimestampPos:], uint64(endTimestamp))
	}
	return f, nil
}

// OpenFile maps an existing index file, which must be exactly
// FileSize(slots, entries) bytes, and reads its header (IndexFile.load).
func OpenFile(fsys segment.FS, path string, slots, entries int32) (*File, error) {
	if !validSize(slots, entries) {
		return nil, fmt.Errorf("%w: %d slots, %d entries", ErrConfig, slots, entries)
	}
	seg, err := segment.OpenNamed(fsys, path, FileSize(slots, entries))
	if errors.Is(err, segment.ErrSize) {
		return nil, fmt.Errorf("index: %w: %w", ErrCorrupt, err)
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	f := &File{seg: seg, fsys: fsys, slots: slots, entries: entries}
	f.hdr = decodeHeader(seg.Mapped())
	return f, nil
}

// Path is the file's path.
func (f *File) Path() string { return f.seg.Path() }

// Name is the file's name, its creation time.
func (f *File) Name() string { return filepath.Base(f.seg.Path()) }

// Header returns the header as it stands.
func (f *File) Header() Header {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.hdr
}

// Full reports whether no entry is left (IndexFile.isWriteFull).
func (f *File) Full() bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.hdr.IndexCount >= f.entries
}

// TimeMatched reports whether the file may hold entries stored within
// [begin, end] (IndexFile.isTimeMatched): the range covers the file's,
// or one of its ends lies inside the file's.
func (f *File) TimeMatched(begin, end int64) bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return timeMatched(&f.hdr, begin, end)
}

func timeMatched(h *Header, begin, end int64) bool {
	return begin < h.BeginTimestamp && end > h.EndTimestamp ||
		begin >= h.BeginTimestamp && begin <= h.EndTimestamp ||
		end >= h.BeginTimestamp && end <= h.EndTimestamp
}

// Put adds key for the message at phyOffset stored at storeTimestamp (ms),
// as IndexFile.putKey does. It returns false without error when the file
// is full; an error means the file can no longer be written.
func (f *File) Put(key string, phyOffset, storeTimestamp int64) (bool, error) {
	return f.put(KeyHash(key), phyOffset, storeTimestamp)
}

func (f *File) put(hash int32, phyOffset, storeTimestamp int64) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hdr.IndexCount >= f.entries {
		return false, nil
	}
	if err := f.seg.Err(); err != nil {
		return false, fmt.Errorf("index: put into %s: %w", f.Path(), err)
	}
	if !f.seg.Acquire() {
		return false, fmt.Errorf("index: put into %s: %w", f.Path(), ErrClosed)
	}
	defer f.seg.Release()
	data := f.seg.Mapped()
	sp := slotPos(hash % f.slots)
	n := f.hdr.IndexCount
	prev := getInt32(data, int(sp))
	if prev <= invalidIndex || prev > n {
		prev = invalidIndex
	}
	e := Entry{KeyHash: hash, PhyOffset: phyOffset, TimeDiff: timeDiff(storeTimestamp, f.hdr.BeginTimestamp), PrevIndex: prev}
	e.encode(data[entryPos(f.slots, n):])
	binary.BigEndian.PutUint32(data[sp:], uint32(n))
	// Java computes timeDiff before it sets the begin values, so the first
	// entry of a file that follows another is relative to that file's end.
	if n <= firstIndex {
		f.hdr.BeginPhyOffset, f.hdr.BeginTimestamp = phyOffset, storeTimestamp
	}
	if prev == invalidIndex {
		f.hdr.HashSlotCount++
	}
	f.hdr.IndexCount++
	f.hdr.EndPhyOffset, f.hdr.EndTimestamp = phyOffset, storeTimestamp
	f.hdr.encode(data)
	return true, nil
}

// Query returns the offsets of up to maxNum messages whose key is key and
// whose store time lies in [begin, end] (ms), newest first.
func (f *File) Query(key string, maxNum int, begin, end int64) []int64 {
	return f.AppendQuery(nil, key, maxNum, begin, end)
}

// AppendQuery appends to dst what Query finds, stopping once dst holds
// maxNum offsets, as IndexFile.selectPhyOffset fills a list shared by
// several files.
func (f *File) AppendQuery(dst []int64, key string, maxNum int, begin, end int64) []int64 {
	if !f.seg.Acquire() {
		return dst
	}
	defer f.seg.Release()
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.walk(dst, KeyHash(key), maxNum, begin, end)
}

// walk follows the chain of key's slot, newest entry first. It stops at
// the end of the chain, at an entry older than begin, at a link that does
// not point to an earlier written entry (Java's checks), and — beyond
// Java — after indexCount steps or at an entry outside the file.
func (f *File) walk(dst []int64, hash int32, maxNum int, begin, end int64) []int64 {
	data := f.seg.Mapped()
	count := f.hdr.IndexCount
	next := getInt32(data, int(slotPos(hash%f.slots)))
	if next <= invalidIndex || next > count || count <= firstIndex {
		return dst
	}
	for steps := int32(0); steps < count && next < f.entries; steps++ {
		if len(dst) >= maxNum {
			break
		}
		e := decodeEntry(data[entryPos(f.slots, next):])
		if e.TimeDiff < 0 {
			break
		}
		at := f.hdr.BeginTimestamp + int64(e.TimeDiff)*1000
		if e.KeyHash == hash && at >= begin && at <= end {
			dst = append(dst, e.PhyOffset)
		}
		if e.PrevIndex <= invalidIndex || e.PrevIndex > count || e.PrevIndex == next || at < begin {
			break
		}
		next = e.PrevIndex
	}
	return dst
}

// Flush writes the header and makes the whole file durable
// (IndexFile.flush).
func (f *File) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.seg.Acquire() {
		return fmt.Errorf("index: flush %s: %w", f.Path(), ErrClosed)
	}
	defer f.seg.Release()
	f.hdr.encode(f.seg.Mapped())
	return f.sync()
}

// sync fsyncs the whole mapping. A segment fsyncs only what lies between
// its flushed and written positions, which an index file (written in
// place) does not move, so the whole file is first marked written.
func (f *File) sync() error {
	f.seg.SetWrote(0)
	size := int(f.seg.Size())
	if _, err := f.seg.Append(size, func([]byte) {}); err != nil {
		return fmt.Errorf("index: flush %s: %w", f.Path(), err)
	}
	if _, err := f.seg.Flush(0); err != nil {
		return fmt.Errorf("index: flush %s: %w", f.Path(), err)
	}
	return nil
}

// Close unmaps the file (once no query holds it) and keeps it on disk.
func (f *File) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seg.Close()
}

// Destroy closes the file and removes it from disk.
func (f *File) Destroy() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.seg.Destroy(f.fsys); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
