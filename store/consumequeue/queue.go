package consumequeue

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Options tune a Queue or a Table.
type Options struct {
	// Log receives the warnings Java logs (repeated builds, recovery
	// progress). Nil discards them.
	Log *logrus.Entry
	// Ext, when set, gives every queue its extension files
	// (enableConsumeQueueExt).
	Ext *ExtOptions
	// CountPrefix, when set, makes a Table count its topics whose names
	// start with it (Table.Counted; Java's lmqConsumeQueueNum).
	CountPrefix string
}

// ExtOptions place and size the extension files.
type ExtOptions struct {
	// Root is the consumequeue_ext directory; a queue's ext files live in
	// Root/<topic>/<queueId>/.
	Root string
	// FileSize is mappedFileSizeConsumeQueueExt (default 48 MiB).
	FileSize int64
}

// Queue is one topic/queue's consume queue (Java ConsumeQueue).
type Queue struct {
	topic   string
	queueID int32
	size    int64 // file size, a multiple of UnitSize
	fsys    segment.FS
	files   *segment.Queue
	ext     *Ext
	log     *logrus.Entry

	// maxPhy is Java's maxPhysicOffset: the commit-log offset just past the
	// last unit put or recovered, -1 before any.
	maxPhy atomic.Int64
	// minLogic is Java's minLogicOffset, in bytes.
	minLogic atomic.Int64
	// firstSeg is the segment this process created in an empty queue (Java
	// MappedFile.isFirstCreateInQueue): the only one that is front-filled.
	firstSeg atomic.Pointer[segment.Segment]

	// putMu orders puts against Destroy: a topic deleted while the
	// dispatcher files a unit for it (DELETE_TOPIC_IN_BROKER,
	// CLEAN_UNUSED_TOPIC) must neither fail dispatch nor leave a new file
	// behind in the removed directory.
	putMu     sync.Mutex
	destroyed bool
}

// QueueDir is the directory of one queue under root (Java storePath +
// "/" + topic + "/" + queueId).
func QueueDir(root, topic string, queueID int32) string {
	return filepath.Join(root, topic, strconv.Itoa(int(queueID)))
}

// Open loads the queue's files (Java new ConsumeQueue + load). Like Java it
// fails when a file is not exactly fileSize bytes; it also refuses a file
// size that is not a positive multiple of UnitSize (Java rounds the
// configured size with FileSize first). Every file starts out full:
// Recover finds the real end.
func Open(fsys segment.FS, root, topic string, queueID int32, fileSize int64, opts Options) (*Queue, error) {
	if fileSize <= 0 || fileSize%UnitSize != 0 {
		return nil, fmt.Errorf("consumequeue: file size %d is not a positive multiple of %d", fileSize, UnitSize)
	}
	log := opts.Log
	if log == nil {
		log = discardLog()
	}
	log = log.WithFields(logrus.Fields{"topic": topic, "queueId": queueID})
	files, err := segment.OpenQueue(fsys, QueueDir(root, topic, queueID), fileSize)
	if err != nil {
		return nil, fmt.Errorf("consumequeue %s-%d: load: %w", topic, queueID, err)
	}
	q := &Queue{topic: topic, queueID: queueID, size: fileSize, fsys: fsys, files: files, log: log}
	q.maxPhy.Store(-1)
	if opts.Ext != nil {
		q.ext, err = OpenExt(fsys, opts.Ext.Root, topic, queueID, opts.Ext.FileSize, log)
		if err != nil {
			files.Close()
			return nil, err
		}
	}
	return q, nil
}

func discardLog() *logrus.Entry {
	l := logrus.New()
	l.SetOutput(discard{})
	l.SetLevel(logrus.PanicLevel)
	return logrus.NewEntry(l)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Topic is the queue's topic.
func (q *Queue) Topic() string { return q.topic }

// QueueID is the queue's id.
func (q *Queue) QueueID() int32 { return q.queueID }

// Key is the queue's key in the topic-queue offset table: "topic-queueId".
func (q *Queue) Key() string { return QueueKey(q.topic, q.queueID) }

// QueueKey is the "topic-queueId" key of the commit log's per-queue offset
// table (Java CommitLog.topicQueueTable, recoverTopicQueueTable).
func QueueKey(topic string, queueID int32) string { return topic + "-" + strconv.Itoa(int(queueID)) }

// FileSize is the size of each file.
func (q *Queue) FileSize() int64 { return q.size }

// Files is the underlying run of segments.
func (q *Queue) Files() *segment.Queue { return q.files }

// Ext is the queue's extension store, or nil.
func (q *Queue) Ext() *Ext { return q.ext }

// MinOffset is the first logical offset readers may ask for (Java
// getMinOffsetInQueue).
func (q *Queue) MinOffset() int64 { return q.minLogic.Load() / UnitSize }

// SetMinOffset sets the minimum logical offset (Java setMinLogicOffset,
// in units here).
func (q *Queue) SetMinOffset(offset int64) { q.minLogic.Store(offset * UnitSize) }

// MaxOffset is the logical offset the next unit takes (Java
// getMaxOffsetInQueue).
func (q *Queue) MaxOffset() int64 { return q.files.MaxOffset() / UnitSize }

// MessageCount is MaxOffset − MinOffset (Java getMessageTotalInQueue).
func (q *Queue) MessageCount() int64 { return q.MaxOffset() - q.MinOffset() }

// MaxPhysicalOffset is the commit-log offset just past the last unit put
// or recovered, or -1 (Java getMaxPhysicOffset).
func (q *Queue) MaxPhysicalOffset() int64 { return q.maxPhy.Load() }

// SetMaxPhysicalOffset sets it (Java setMaxPhysicOffset).
func (q *Queue) SetMaxPhysicalOffset(off int64) { q.maxPhy.Store(off) }

// RollNextFile is the first logical offset of the file after the one
// holding offset (Java rollNextFile).
func (q *Queue) RollNextFile(offset int64) int64 {
	perFile := q.size / UnitSize
	return offset + perFile - offset%perFile
}

// Put files u under logical offset queueOffset (Java
// putMessagePositionInfo). As in Java, a unit whose record ends at or
// before MaxPhysicalOffset, or whose offset is already written (or is
// negative), is a repeated build and is ignored (nil). The first unit of a
// queue that starts past offset 0 front-fills its first file with Blank
// units and sets the minimum offset there.
//
// A queueOffset past the end (records the dispatch never saw: a deleted
// topic's older records dispatched again after a crash, a record whose
// header was damaged) never stops dispatch, as it never does in Java,
// which logs "[BUG]logic queue order maybe wrong" and appends the unit at
// the end, under the wrong offset. Sputnik does better when the offset
// lies in the file being written: Blank units fill the gap and the unit
// goes to its own offset, so it and every later unit are read where their
// records say (reads skip Blank units). A farther offset is appended at
// the end as Java does, so a wild offset can never create files.
//
// Unlike Java, MaxPhysicalOffset only moves once the unit is written, so a
// retried Put after a failed write is not mistaken for a repeat. A Put to
// a destroyed queue is dropped (nil): its topic is gone.
func (q *Queue) Put(u Unit, queueOffset int64) error {
	q.putMu.Lock()
	defer q.putMu.Unlock()
	if q.destroyed {
		return nil
	}
	return q.put(u, queueOffset)
}

func (q *Queue) put(u Unit, queueOffset int64) error {
	if u.End() <= q.maxPhy.Load() {
		q.log.Warnf("maybe try to build consume queue repeatedly maxPhysicOffset=%d phyOffset=%d", q.maxPhy.Load(), u.Phy)
		return nil
	}
	if queueOffset < 0 || queueOffset > (1<<63-1)/UnitSize {
		q.log.Warnf("build consume queue repeatedly, queue offset %d out of range", queueOffset)
		return nil
	}
	expect := queueOffset * UnitSize
	seg, err := q.segmentFor(expect)
	if err != nil {
		return err
	}
	if seg == q.firstSeg.Load() && queueOffset != 0 && seg.Wrote() == 0 {
		if err := q.fillPreBlank(seg, expect); err != nil {
			return err
		}
	}
	cur := seg.Base() + seg.Wrote()
	switch {
	case expect < cur:
		q.log.Warnf("build consume queue repeatedly, expectLogicOffset: %d currentLogicOffset: %d", expect, cur)
		return nil
	case expect > cur:
		q.log.Warnf("[BUG]logic queue order maybe wrong, expectLogicOffset: %d currentLogicOffset: %d", expect, cur)
		if expect < seg.End() {
			return q.putAfterGap(seg, u, int(expect-cur))
		}
	}
	if _, err := seg.Append(UnitSize, u.Put); err != nil {
		return fmt.Errorf("consumequeue %s-%d: put offset %d: %w", q.topic, q.queueID, queueOffset, err)
	}
	q.maxPhy.Store(u.End())
	return nil
}

// putAfterGap writes gap bytes of Blank units and then u, in one append
// so that no Blank unit is ever a file's last.
func (q *Queue) putAfterGap(seg *segment.Segment, u Unit, gap int) error {
	_, err := seg.Append(gap+UnitSize, func(b []byte) {
		fillBlank(b[:gap])
		u.Put(b[gap:])
	})
	if err != nil {
		return fmt.Errorf("consumequeue %s-%d: put after %d blank units: %w", q.topic, q.queueID, gap/UnitSize, err)
	}
	q.maxPhy.Store(u.End())
	return nil
}

func fillBlank(b []byte) {
	for i := 0; i < len(b); i += UnitSize {
		Blank.Put(b[i:])
	}
}

// segmentFor is Java getLastMappedFile(expect): the last file if it has
// room, else a new one after it, or in an empty queue the file holding
// expect.
func (q *Queue) segmentFor(expect int64) (*segment.Segment, error) {
	empty := q.files.Last() == nil
	seg, err := q.files.LastForAppend(expect)
	if err != nil {
		return nil, fmt.Errorf("consumequeue %s-%d: new file: %w", q.topic, q.queueID, err)
	}
	if empty {
		q.firstSeg.Store(seg)
	}
	return seg, nil
}

// fillPreBlank writes Blank units from the start of seg up to expect and
// makes expect the minimum offset (Java fillPreBlank and the lines before
// it).
func (q *Queue) fillPreBlank(seg *segment.Segment, expect int64) error {
	q.minLogic.Store(expect)
	q.files.SetFlushedWhere(expect)
	until := int(expect % q.size)
	if until == 0 {
		return nil
	}
	_, err := seg.Append(until, fillBlank)
	if err != nil {
		return fmt.Errorf("consumequeue %s-%d: fill blank units: %w", q.topic, q.queueID, err)
	}
	q.log.Infof("fill pre blank space %s %d %d", segment.FileName(seg.Base()), expect, seg.Wrote())
	return nil
}

// Units is a reference-counted view of consecutive units, all in one
// file (Java getIndexBuffer's SelectMappedBufferResult). It aliases the
// mapping: call Release when done and do not keep the units' bytes.
type Units struct {
	view  segment.View
	first int64
}

// Len is the number of units in the view.
func (u *Units) Len() int { return len(u.view.B) / UnitSize }

// At decodes the i-th unit (0 ≤ i < Len).
func (u *Units) At(i int) Unit { return unitAt(u.view.B, i*UnitSize) }

// Offset is the logical offset of the i-th unit.
func (u *Units) Offset(i int) int64 { return u.first + int64(i) }

// Bytes is the raw view.
func (u *Units) Bytes() []byte { return u.view.B }

// Release gives the view's reference back.
func (u *Units) Release() { u.view.Release() }

// Read returns the units from logical offset to the end of the file that
// holds it (Java getIndexBuffer). An offset below MinOffset or not yet
// written is ErrNotHeld.
func (q *Queue) Read(offset int64) (Units, error) {
	if offset < 0 || offset > (1<<63-1)/UnitSize || offset*UnitSize < q.minLogic.Load() {
		return Units{}, fmt.Errorf("%w: %s-%d offset %d below min %d", ErrNotHeld, q.topic, q.queueID, offset, q.MinOffset())
	}
	pos := offset * UnitSize
	s := q.files.Find(pos)
	if s == nil || pos-s.Base() >= s.Wrote() {
		return Units{}, fmt.Errorf("%w: %s-%d offset %d (max %d)", ErrNotHeld, q.topic, q.queueID, offset, q.MaxOffset())
	}
	v, err := q.files.ReadFrom(pos)
	if err != nil {
		if errors.Is(err, segment.ErrRange) {
			return Units{}, fmt.Errorf("%w: %s-%d offset %d: %w", ErrNotHeld, q.topic, q.queueID, offset, err)
		}
		return Units{}, err
	}
	return Units{view: v, first: offset}, nil
}

// Get returns the unit at a logical offset.
func (q *Queue) Get(offset int64) (Unit, error) {
	us, err := q.Read(offset)
	if err != nil {
		return Unit{}, err
	}
	defer us.Release()
	if us.Len() == 0 {
		return Unit{}, fmt.Errorf("%w: %s-%d offset %d: partial unit", ErrNotHeld, q.topic, q.queueID, offset)
	}
	return us.At(0), nil
}

// LastPhysicalOffset is Java getLastOffset: the end in the commit log of
// the last valid unit at or after the last written one, scanning on past
// the write position while units stay valid; -1 if none.
func (q *Queue) LastPhysicalOffset() int64 {
	s := q.files.Last()
	if s == nil || !s.Acquire() {
		return -1
	}
	defer s.Release()
	b := s.Mapped()
	last := int64(-1)
	for pos := max(s.Wrote()-UnitSize, 0); pos+UnitSize <= int64(len(b)); pos += UnitSize {
		u := unitAt(b, int(pos))
		if !u.Valid() {
			break
		}
		last = u.End()
	}
	return last
}

// Flush makes written units durable: one file per call, like Java's
// MappedFileQueue.flush, with leastPages as in flushConsumeQueueLeastPages
// (0 = everything). It reports whether the flushed position moved; ext
// files are flushed alongside.
func (q *Queue) Flush(leastPages int) (progressed bool, err error) {
	progressed, err = q.files.Flush(leastPages)
	if err != nil {
		return progressed, fmt.Errorf("consumequeue %s-%d: flush: %w", q.topic, q.queueID, err)
	}
	if q.ext != nil {
		p, err := q.ext.Flush(leastPages)
		return progressed || p, err
	}
	return progressed, nil
}

// FlushAll flushes until everything written is durable.
func (q *Queue) FlushAll() error {
	for {
		p, err := q.Flush(0)
		if err != nil || !p {
			return err
		}
	}
}

// Close unmaps the files (after their readers release) and keeps them.
func (q *Queue) Close() {
	q.files.Close()
	if q.ext != nil {
		q.ext.Close()
	}
}

// Destroy removes the queue's files and its directory (Java destroy) and
// resets the offsets.
func (q *Queue) Destroy() error {
	q.putMu.Lock()
	defer q.putMu.Unlock()
	q.destroyed = true
	q.maxPhy.Store(-1)
	q.minLogic.Store(0)
	q.firstSeg.Store(nil)
	err := q.files.Destroy()
	if rerr := q.fsys.Remove(q.files.Dir()); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = errors.Join(err, fmt.Errorf("consumequeue %s-%d: remove dir: %w", q.topic, q.queueID, rerr))
	}
	if q.ext != nil {
		err = errors.Join(err, q.ext.Destroy())
	}
	return err
}

// Request is what dispatch hands a queue for one message: the parts of
// Java's DispatchRequest a consume queue uses.
type Request struct {
	Phy            int64 // commit-log offset
	Size           int32 // record size
	TagsCode       int64
	QueueOffset    int64
	StoreTimestamp int64
	BitMap         []byte // filter bit map, for the ext unit
}

// PutRequest is Java putMessagePositionInfoWrapper without its retry loop:
// with ext files, the tags code, store time and bit map go into an ext
// unit first and the unit's tagsCode becomes its address (a failed ext put
// is logged and the plain tags code kept, as in Java); then Put. Java
// retries a failed put 30 times a second apart and then marks the logic
// queues unwritable; that, and updating the checkpoint's logics time with
// StoreTimestamp on success, is the caller's.
func (q *Queue) PutRequest(r *Request) error {
	q.putMu.Lock()
	defer q.putMu.Unlock()
	if q.destroyed {
		return nil
	}
	tags := r.TagsCode
	if q.ext != nil {
		addr, err := q.ext.Put(ExtUnit{TagsCode: r.TagsCode, MsgStoreTime: r.StoreTimestamp, BitMap: r.BitMap})
		if err == nil {
			tags = addr
		} else {
			q.log.Warnf("save consume queue extend fail, so just save tagsCode: offset %d: %v", r.Phy, err)
		}
	}
	return q.put(Unit{Phy: r.Phy, Size: r.Size, TagsCode: tags}, r.QueueOffset)
}

// ExtUnit reads the ext unit a tagsCode addresses (Java getExt);
// ErrNoExt without ext files.
func (q *Queue) ExtUnit(addr int64) (ExtUnit, error) {
	if q.ext == nil {
		return ExtUnit{}, ErrNoExt
	}
	return q.ext.Get(addr)
}
