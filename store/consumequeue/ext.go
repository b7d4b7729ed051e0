package consumequeue

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Ext is one queue's extension files (Java ConsumeQueueExt): filter bit
// maps and store times, addressed from the queue's tagsCode. Like Java it
// is "weakly reliable": a failed Put only means the queue keeps the plain
// tag hash.
type Ext struct {
	fsys  segment.FS
	files *segment.Queue
	size  int64
	log   *logrus.Entry
	name  string // topic-queueId, for errors
}

// OpenExt loads the ext files of a queue from root/<topic>/<queueId>/.
func OpenExt(fsys segment.FS, root, topic string, queueID int32, fileSize int64, log *logrus.Entry) (*Ext, error) {
	if fileSize <= ExtUnitMinSize+extEndBlank {
		return nil, fmt.Errorf("consumequeue ext: file size %d too small", fileSize)
	}
	if log == nil {
		log = discardLog()
	}
	dir := QueueDir(root, topic, queueID)
	files, err := segment.OpenQueue(fsys, dir, fileSize)
	if err != nil {
		return nil, fmt.Errorf("consumequeue ext %s-%d: load: %w", topic, queueID, err)
	}
	name := fmt.Sprintf("%s-%d", topic, queueID)
	return &Ext{fsys: fsys, files: files, size: fileSize, log: log, name: name}, nil
}

// Files is the underlying run of segments.
func (e *Ext) Files() *segment.Queue { return e.files }

// Put appends u and returns its address (Java put). A unit over
// ExtUnitMaxSize, or one that could never fit in a file, is
// ErrExtUnitTooLarge (Java returns 1; for a unit larger than a file it
// first creates and end-marks up to three files); ErrExtFull when the
// address space is used up.
func (e *Ext) Put(u ExtUnit) (int64, error) {
	n := u.EncodedSize()
	if n > ExtUnitMaxSize || int64(n) > e.size-extEndBlank {
		return 0, fmt.Errorf("%w: %d bytes, ext file size %d", ErrExtUnitTooLarge, n, e.size)
	}
	if e.files.MaxOffset()+int64(n) > maxExtRealOffset {
		return 0, fmt.Errorf("%w: %s at %d", ErrExtFull, e.name, e.files.MaxOffset())
	}
	for range 2 { // at most one end-marked file, then a fresh one
		s, err := e.files.LastForAppend(0)
		if err != nil {
			return 0, fmt.Errorf("consumequeue ext %s: new file: %w", e.name, err)
		}
		if int64(n) > s.Remaining()-extEndBlank {
			if err := e.markEnd(s); err != nil {
				return 0, err
			}
			continue
		}
		pos, err := s.Append(n, func(b []byte) { u.Append(b[:0]) })
		if err != nil {
			return 0, fmt.Errorf("consumequeue ext %s: put: %w", e.name, err)
		}
		return decorateExt(s.Base() + pos), nil
	}
	return 0, fmt.Errorf("%w: %s: no room after a new file", ErrExtUnitTooLarge, e.name)
}

// markEnd writes the end mark at the write position and marks the file
// full without touching the bytes after the mark (Java fullFillToEnd).
func (e *Ext) markEnd(s *segment.Segment) error {
	_, err := s.Append(int(s.Remaining()), func(b []byte) {
		binary.BigEndian.PutUint16(b, extEndMarkBits)
	})
	if err != nil {
		return fmt.Errorf("consumequeue ext %s: end mark: %w", e.name, err)
	}
	e.log.Infof("no enough space of ext file %s, so fill to end", segment.FileName(s.Base()))
	return nil
}

// Get reads the unit at an address (Java get). An address that is not an
// ext address, or points at no written unit, is ErrNotHeld.
func (e *Ext) Get(addr int64) (ExtUnit, error) {
	if !IsExtAddr(addr) {
		return ExtUnit{}, fmt.Errorf("%w: %d is not an ext address", ErrNotHeld, addr)
	}
	real := undecorateExt(addr)
	s := e.files.Find(real)
	if s == nil && real == 0 {
		s = e.files.First() // Java findMappedFileByOffset(0, true)
	}
	if s == nil || !s.Acquire() {
		return ExtUnit{}, fmt.Errorf("%w: ext %s offset %d", ErrNotHeld, e.name, real)
	}
	defer s.Release()
	pos := real % e.size
	b, err := s.Bytes(pos, s.Wrote()-pos)
	if err != nil || len(b) == 0 {
		return ExtUnit{}, fmt.Errorf("%w: ext %s offset %d past the written end", ErrNotHeld, e.name, real)
	}
	u, found, err := DecodeExtUnit(b)
	if err != nil {
		return ExtUnit{}, fmt.Errorf("ext %s offset %d: %w", e.name, real, err)
	}
	if !found {
		return ExtUnit{}, fmt.Errorf("%w: ext %s offset %d holds no unit", ErrNotHeld, e.name, real)
	}
	return u, nil
}

// Recover finds the end of the ext files (Java ConsumeQueueExt.recover):
// it follows unit sizes from the first file, moving to the next file at
// every size ≤ 0, and cuts after the last unit of the last file. A size
// that runs past the end of a file is ErrCorrupt (Java throws and the
// store fails to load).
func (e *Ext) Recover() error {
	segs := e.files.Segments()
	if len(segs) == 0 {
		return nil
	}
	var end int64
	for i, s := range segs {
		pos, err := extChainEnd(s.Mapped())
		if err != nil {
			return fmt.Errorf("consumequeue ext %s file %s: %w", e.name, segment.FileName(s.Base()), err)
		}
		if i == len(segs)-1 {
			end = s.Base() + pos
		}
	}
	e.files.SetFlushedWhere(end)
	if err := e.files.TruncateDirty(end); err != nil {
		return fmt.Errorf("consumequeue ext %s: recover: %w", e.name, err)
	}
	return nil
}

// extChainEnd follows the size chain from the start of b to the first
// size ≤ 0.
func extChainEnd(b []byte) (int64, error) {
	pos := 0
	for {
		if pos+2 > len(b) {
			return 0, fmt.Errorf("%w: ext unit sizes run to byte %d of %d", ErrCorrupt, pos, len(b))
		}
		n := int(int16(binary.BigEndian.Uint16(b[pos:])))
		if n <= 0 {
			return int64(pos), nil
		}
		pos += n
	}
}

// TruncateByMaxAddress cuts the ext files after the unit at maxAddr (Java
// truncateByMaxAddress). Not an ext address: nothing to do; no unit there:
// logged and left alone, as in Java.
func (e *Ext) TruncateByMaxAddress(maxAddr int64) error {
	if !IsExtAddr(maxAddr) {
		return nil
	}
	u, err := e.Get(maxAddr)
	if err != nil {
		if errors.Is(err, ErrNotHeld) || errors.Is(err, ErrCorrupt) {
			e.log.Errorf("[BUG] address %d of consume queue extend not found: %v", maxAddr, err)
			return nil
		}
		return err
	}
	if err := e.files.TruncateDirty(undecorateExt(maxAddr) + int64(u.Size)); err != nil {
		return fmt.Errorf("consumequeue ext %s: truncate: %w", e.name, err)
	}
	return nil
}

// TruncateByMinAddress removes the files that end before minAddr (Java
// truncateByMinAddress), except the newest, which segment.Queue always
// keeps (Java could remove it too, when minAddr is past every file).
func (e *Ext) TruncateByMinAddress(minAddr int64) error {
	if !IsExtAddr(minAddr) {
		return nil
	}
	real := undecorateExt(minAddr)
	_, err := e.files.DeleteFirst(0, func(s *segment.Segment) bool { return s.End() < real })
	if err != nil {
		return fmt.Errorf("consumequeue ext %s: truncate by min: %w", e.name, err)
	}
	return nil
}

// MaxAddress is the address the next unit would get in the last file
// (Java getMaxAddress).
func (e *Ext) MaxAddress() int64 {
	return decorateExt(e.files.MaxOffset())
}

// MinAddress is the address of the first file's start (Java
// getMinAddress).
func (e *Ext) MinAddress() int64 {
	if s := e.files.First(); s != nil {
		return decorateExt(s.Base())
	}
	return decorateExt(0)
}

// Flush flushes one step (see Queue.Flush).
func (e *Ext) Flush(leastPages int) (bool, error) {
	p, err := e.files.Flush(leastPages)
	if err != nil {
		return p, fmt.Errorf("consumequeue ext %s: flush: %w", e.name, err)
	}
	return p, nil
}

// Close unmaps the files.
func (e *Ext) Close() { e.files.Close() }

// Destroy removes the files and the directory.
func (e *Ext) Destroy() error {
	err := e.files.Destroy()
	if rerr := e.fsys.Remove(e.files.Dir()); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = errors.Join(err, fmt.Errorf("consumequeue ext %s: remove dir: %w", e.name, rerr))
	}
	return err
}
