// Package commitlog is the store's write-ahead log of every message
// (Java 4.9.8 CommitLog): records appended one after another into fixed-size
// segments, an end-of-file blank when a record does not fit, the
// per-queue offset counter, flushing (async or group commit), the
// checkpoint file and crash recovery. Records are encoded by
// store/message; this package places, stamps, reads and scans them.
package commitlog

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Errors of this package.
var (
	// ErrTooLarge: a record (or batch) can never fit in one segment or
	// exceeds the configured maximum (Java MESSAGE_SIZE_EXCEEDED).
	ErrTooLarge = errors.New("commitlog: message too large")
	// ErrCreateSegment: a new segment could not be created (Java
	// CREATE_MAPEDFILE_FAILED), e.g. the disk is full.
	ErrCreateSegment = errors.New("commitlog: cannot create segment")
	// ErrFlushTimeout: the data was not durable within the sync-flush
	// timeout (Java FLUSH_DISK_TIMEOUT).
	ErrFlushTimeout = errors.New("commitlog: flush timed out")
	// ErrClosed: the commit log is shut down.
	ErrClosed = errors.New("commitlog: closed")
	// ErrNotContiguous: replicated data does not continue the log.
	ErrNotContiguous = errors.New("commitlog: replicated data does not continue the log")
)

// Config is what the commit log needs of MessageStoreConfig.
type Config struct {
	Dir string // storePathCommitLog
	// ExtraDirs and Place make a multi-path commit log (Java
	// MultiPathMappedFileQueue): segments are loaded from Dir and
	// ExtraDirs, and new ones created where Place says (nil: in Dir).
	ExtraDirs      []string
	Place          segment.Placer
	SegmentSize    int64      // mappedFileSizeCommitLog
	FS             segment.FS // nil: the real file system
	SyncFlush      bool       // flushDiskType == SYNC_FLUSH
	MaxMessageSize int        // maxMessageSize (body); records: message.MaxRecordSize

	FlushInterval         time.Duration // flushIntervalCommitLog
	FlushLeastPages       int           // flushCommitLogLeastPages
	FlushThoroughInterval time.Duration // flushCommitLogThoroughInterval
	FlushTimed            bool          // flushCommitLogTimed
	SyncFlushTimeout      time.Duration // syncFlushTimeout

	// Staged is isTransientStorePoolEnable (async flush, master): appends
	// go through a staging buffer and are committed by a background
	// service (see stage.go).
	Staged                 bool
	CommitInterval         time.Duration // commitIntervalCommitLog
	CommitLeastPages       int           // commitCommitLogLeastPages
	CommitThoroughInterval time.Duration // commitCommitLogThoroughInterval
	ringSize               int64         // tests: the staging ring's size (0: ringSizeFor)
	// Committed, when set, is called on the commit service's goroutine
	// each time it makes more of a staged log readable (dispatch and
	// replication wait for that).
	Committed func()

	// Now is the clock records are stamped with (ms); nil means wall time.
	Now func() int64
	Log *logrus.Entry
}

func (c *Config) withDefaults() Config {
	d := *c
	if d.FS == nil {
		d.FS = segment.OS
	}
	if d.SegmentSize <= 0 {
		d.SegmentSize = 1 << 30
	}
	if d.MaxMessageSize <= 0 {
		d.MaxMessageSize = 4 << 20
	}
	if d.FlushInterval <= 0 {
		d.FlushInterval = 500 * time.Millisecond
	}
	if d.FlushThoroughInterval <= 0 {
		d.FlushThoroughInterval = 10 * time.Second
	}
	if d.CommitInterval <= 0 {
		d.CommitInterval = 200 * time.Millisecond
	}
	if d.CommitThoroughInterval <= 0 {
		d.CommitThoroughInterval = 200 * time.Millisecond
	}
	if d.SyncFlushTimeout <= 0 {
		d.SyncFlushTimeout = 5 * time.Second
	}
	if d.Now == nil {
		d.Now = func() int64 { return time.Now().UnixMilli() }
	}
	if d.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		d.Log = logrus.NewEntry(l)
	}
	return d
}

// CommitLog is the log. Appends are serialised by one lock (Java
// putMessageLock); reads take no lock.
type CommitLog struct {
	cfg   Config
	q     *segment.Queue
	flush *flusher
	// stage and commit are set for staged appends (Config.Staged).
	stage  *stage
	commit *committer

	mu sync.Mutex // the append lock; guards queueOffsets
	// lockedSince is when the append holding mu took it (ms), 0 when no
	// append holds it (Java beginTimeInLock).
	lockedSince atomic.Int64
	// queueOffsets is the next consume-queue offset per "topic-queueId"
	// (Java topicQueueTable).
	queueOffsets map[string]*int64
	// wbuf is where a put written with pwrite(2) is encoded (see
	// writeMin); guarded by mu.
	wbuf   []byte
	closed bool
}

// Open loads the segments under cfg.Dir. The caller recovers (Recover*)
// before appending, then calls Start.
func Open(cfg Config) (*CommitLog, error) {
	cfg = cfg.withDefaults()
	q, err := segment.OpenQueueDirs(cfg.FS, append([]string{cfg.Dir}, cfg.ExtraDirs...), cfg.SegmentSize, cfg.Place)
	if err != nil {
		return nil, fmt.Errorf("commitlog: load %s: %w", cfg.Dir, err)
	}
	q.CreateAhead()
	c := &CommitLog{cfg: cfg, q: q, queueOffsets: make(map[string]*int64)}
	c.flush = newFlusher(c)
	if cfg.Staged && !cfg.SyncFlush {
		size := cfg.ringSize
		if size == 0 {
			size = ringSizeFor(cfg.MaxMessageSize)
		}
		st, err := newStage(q, size)
		if err != nil {
			// Not fatal: appends go through the mapping as without the option.
			cfg.Log.WithError(err).Warn("transientStorePoolEnable: staging unavailable, writing through the mapping")
		} else {
			c.stage, c.commit = st, newCommitter(c, st)
		}
	}
	return c, nil
}

// Staged reports whether appends go through the staging buffer.
func (c *CommitLog) Staged() bool { return c.stage != nil }

// Start runs the flush service, and the commit service when staged.
func (c *CommitLog) Start() {
	if c.commit != nil {
		c.commit.start()
	}
	c.flush.start()
}

// Close commits and flushes everything, stops the services and unmaps
// the segments.
func (c *CommitLog) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	var errs []error
	if c.commit != nil {
		errs = append(errs, c.commit.stop())
	}
	errs = append(errs, c.flush.stop())
	c.q.Close()
	if c.stage != nil {
		errs = append(errs, c.stage.r.close())
	}
	return errors.Join(errs...)
}

// Queue exposes the segments (for replication and retention).
func (c *CommitLog) Queue() *segment.Queue { return c.q }

// SegmentSize is the configured segment size.
func (c *CommitLog) SegmentSize() int64 { return c.cfg.SegmentSize }

// MinOffset is the first offset still held (Java getMinOffset), -1 when
// empty.
func (c *CommitLog) MinOffset() int64 { return c.q.MinOffset() }

// MaxOffset is the offset just past the last record.
func (c *CommitLog) MaxOffset() int64 { return c.q.MaxOffset() }

// FlushedOffset is the offset up to which the log is durable.
func (c *CommitLog) FlushedOffset() int64 { return c.q.FlushedWhere() }

// RollNextFile is the first offset of the segment after the one holding
// off (Java rollNextFile).
func (c *CommitLog) RollNextFile(off int64) int64 {
	return off + c.cfg.SegmentSize - off%c.cfg.SegmentSize
}

// Read returns size bytes at off as a held view (Java getMessage).
func (c *CommitLog) Read(off int64, size int) (segment.View, error) {
	return c.q.Read(off, size)
}

// ReadFrom returns everything written from off to the end of its segment
// (Java getData), for dispatch and replication.
func (c *CommitLog) ReadFrom(off int64) (segment.View, error) {
	return c.q.ReadFrom(off)
}

// QueueOffset is the next consume-queue offset of "topic-queueId".
func (c *CommitLog) QueueOffset(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.queueOffsets[key]; n != nil {
		return *n
	}
	return 0
}

// SetQueueOffsets replaces the per-queue counters (after recovery, from
// the consume queues: Java recoverTopicQueueTable).
func (c *CommitLog) SetQueueOffsets(m map[string]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queueOffsets = make(map[string]*int64, len(m))
	for k, v := range m {
		c.queueOffsets[k] = &v
	}
}

// RemoveQueue forgets a queue's counter (Java removeQueueFromTopicQueueTable).
func (c *CommitLog) RemoveQueue(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.queueOffsets, key)
}
