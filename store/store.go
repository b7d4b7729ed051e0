package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/store/commitlog"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/index"
	"github.com/sputnikmq/sputnik/store/segment"
)

// Errors of this package.
var (
	// ErrClosed: the store is shut down.
	ErrClosed = errors.New("store: shut down")
)

// Arrival tells a long-polling waiter that a message reached a queue
// (Java MessageArrivingListener.arriving).
type Arrival struct {
	Topic          string
	QueueID        int32
	NextOffset     int64 // the queue offset after the message
	TagsCode       int64
	StoreTimestamp int64
	Properties     []byte // raw properties string, aliasing the commit log: copy to keep
}

// Options are the store's collaborators.
type Options struct {
	Log *logrus.Entry
	FS  segment.FS // nil: the real file system
	// Now is the store's clock (ms); nil means wall time.
	Now func() int64
	// OnArrival, when set, is called on the dispatch goroutine for every
	// message that reaches a consume queue, when the broker is not a slave
	// (Java calls the listener only when long polling is enabled).
	OnArrival func(Arrival)
	// FilterBitMap, when set, gives the filter bit map stored with a
	// message's consume-queue extension unit (enableConsumeQueueExt), from
	// its topic and raw properties (Java's CommitLogDispatcherCalcBitMap,
	// which the broker adds with enableCalcFilterBitMap); nil stores none.
	// It is called on the dispatch goroutine and must not keep properties,
	// which alias the commit log.
	FilterBitMap func(topic string, properties []byte) []byte
	// OnScheduleDelivered, when set, is called (with
	// enableScheduleMessageStats) after a delayed message due at last was
	// put back to topic, wroteBytes long: Java's ScheduleMessageService
	// counts it in the broker's statistics there.
	OnScheduleDelivered func(topic string, wroteBytes int)
	// DiskUsage, when set, replaces the file system's used-space ratio of
	// a path (tests of the disk-full paths).
	DiskUsage func(path string) float64
	// Master says the broker is the master (brokerId 0): on a record it
	// cannot dispatch, dispatch then skips the rest of the segment rather
	// than stall (Java ReputMessageService).
	Master bool
	// HA serves replication on haListenPort from Start on (0: any free
	// port, see HAAddr) and, on a SLAVE, follows the master set by
	// SetHAMasterAddress. Off, the store neither listens nor replicates
	// (tools, tests).
	HA bool
}

// Store is the message store.
type Store struct {
	cfg    Config
	opt    Options
	log    *logrus.Entry
	delays DelayLevels
	sched  atomic.Pointer[scheduler] // set at Start on a master

	lock   *dirLock
	clDirs *commitLogDirs
	cl     *commitlog.CommitLog
	cqs    *consumequeue.Table
	index  *index.Service
	cp     *commitlog.Checkpoint

	reput    *reputService
	ha       replication
	services sync.WaitGroup
	stop     chan struct{}

	writable atomic.Bool // Java RunningFlags: no write error
	// dispatchFailed: a consume-queue or index write failed and dispatch
	// is retrying it; puts are refused until it succeeds.
	dispatchFailed atomic.Bool
	clean          cleaner
	started        atomic.Bool
	closed         atomic.Bool
	stats          storeStats
	closeMu        sync.Mutex
	lastExit       bool
}

// Open locks the store directory, loads every file and recovers, as
// Java's DefaultMessageStore constructor, load() and the lock taken in
// start() do. Taking the lock first means a running Java or Sputnik broker
// on the same directory is refused before anything is touched.
func Open(cfg Config, opt Options) (*Store, error) {
	s, err := newStore(cfg, opt)
	if err != nil {
		return nil, err
	}
	if err := s.load(); err != nil {
		s.closeFiles()
		return nil, err
	}
	return s, nil
}

func newStore(cfg Config, opt Options) (*Store, error) {
	if opt.FS == nil {
		opt.FS = segment.OS
	}
	if opt.Now == nil {
		opt.Now = func() int64 { return time.Now().UnixMilli() }
	}
	if opt.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		opt.Log = logrus.NewEntry(l)
	}
	delays, err := ParseDelayLevels(cfg.MessageDelayLevel)
	if err != nil {
		return nil, err
	}
	if len(cfg.CommitLogPaths()) == 0 {
		return nil, fmt.Errorf("store: storePathCommitLog %q names no directory", *cfg.StorePathCommitLog)
	}
	s := &Store{cfg: cfg, opt: opt, log: opt.Log, delays: delays, stop: make(chan struct{})}
	s.clDirs = newCommitLogDirs(&s.cfg)
	s.writable.Store(true)
	return s, nil
}

// Now is the store's clock (ms).
func (s *Store) Now() int64 { return s.opt.Now() }

// Config is the configuration the store runs with.
func (s *Store) Config() *Config { return &s.cfg }

// DelayLevels is the parsed messageDelayLevel.
func (s *Store) DelayLevels() DelayLevels { return s.delays }

// LastExitOK reports whether the previous run shut down cleanly.
func (s *Store) LastExitOK() bool { return s.lastExit }

// CommitLog exposes the log (replication, admin).
func (s *Store) CommitLog() *commitlog.CommitLog { return s.cl }

// Checkpoint exposes the checkpoint.
func (s *Store) Checkpoint() *commitlog.Checkpoint { return s.cp }

// ConsumeQueues exposes the consume-queue table.
func (s *Store) ConsumeQueues() *consumequeue.Table { return s.cqs }

func (s *Store) load() error {
	root := s.cfg.StorePathRootDir
	var err error
	if s.lock, err = lockStore(root); err != nil {
		return err
	}
	if s.lastExit, err = lastExitOK(root); err != nil {
		return err
	}
	s.log.WithField("normally", s.lastExit).Info("last shutdown")
	if err := s.openFiles(); err != nil {
		return err
	}
	return s.recover()
}

func (s *Store) openFiles() error {
	root := s.cfg.StorePathRootDir
	var err error
	s.cl, err = commitlog.Open(s.commitLogConfig())
	if err != nil {
		return err
	}
	s.cqs = consumequeue.NewTable(s.opt.FS, consumeQueueDir(root), s.cfg.ConsumeQueueFileSize(), s.cqOptions())
	if err := s.cqs.Load(); err != nil {
		return fmt.Errorf("store: load consume queues: %w", err)
	}
	if s.cp, err = commitlog.OpenCheckpoint(s.opt.FS, checkpointPath(root)); err != nil {
		return err
	}
	s.cl.AttachCheckpoint(s.cp)
	s.index, err = index.Open(s.indexConfig(), s.lastExit)
	if err != nil {
		return fmt.Errorf("store: load index: %w", err)
	}
	return nil
}

func (s *Store) commitLogConfig() commitlog.Config {
	all := s.clDirs.all()
	ms := func(v int32) time.Duration { return time.Duration(v) * time.Millisecond }
	return commitlog.Config{
		Dir:                    all[0],
		ExtraDirs:              all[1:],
		Place:                  s.clDirs.place,
		SegmentSize:            int64(s.cfg.MappedFileSizeCommitLog),
		FS:                     s.opt.FS,
		SyncFlush:              s.cfg.FlushDiskType == SyncFlush,
		MaxMessageSize:         int(s.cfg.MaxMessageSize),
		FlushInterval:          ms(s.cfg.FlushIntervalCommitLog),
		FlushLeastPages:        int(s.cfg.FlushCommitLogLeastPages),
		FlushThoroughInterval:  ms(s.cfg.FlushCommitLogThoroughInterval),
		FlushTimed:             s.cfg.FlushCommitLogTimed,
		SyncFlushTimeout:       ms(s.cfg.SyncFlushTimeout),
		Staged:                 s.cfg.TransientPoolEnabled(),
		CommitInterval:         ms(s.cfg.CommitIntervalCommitLog),
		CommitLeastPages:       int(s.cfg.CommitCommitLogLeastPages),
		CommitThoroughInterval: ms(s.cfg.CommitCommitLogThoroughInterval),
		Committed:              s.committed,
		Now:                    s.opt.Now,
		Log:                    s.log.WithField("component", "commitlog"),
	}
}

func (s *Store) cqOptions() consumequeue.Options {
	o := consumequeue.Options{Log: s.log.WithField("component", "consumequeue"), CountPrefix: LmqPrefix}
	if s.cfg.EnableConsumeQueueExt {
		o.Ext = &consumequeue.ExtOptions{
			Root:     consumeQueueExtDir(s.cfg.StorePathRootDir),
			FileSize: int64(s.cfg.MappedFileSizeConsumeQueueExt),
		}
	}
	return o
}

func (s *Store) indexConfig() index.Config {
	return index.Config{
		Dir:             indexDir(s.cfg.StorePathRootDir),
		FS:              s.opt.FS,
		HashSlots:       s.cfg.MaxHashSlotNum,
		Entries:         s.cfg.MaxIndexNum,
		MaxMsgsNumBatch: int(s.cfg.MaxMsgsNumBatch),
		Checkpoint:      s.cp,
		Now:             s.opt.Now,
		Log:             s.log.WithField("component", "index"),
	}
}

// recover is Java DefaultMessageStore.recover: consume queues first, then
// the commit log (normally or from the checkpoint), cutting consume-queue
// units past the log's end, then the per-queue offset counters.
func (s *Store) recover() error {
	maxPhy, err := s.cqs.Recover()
	if err != nil {
		return fmt.Errorf("store: recover consume queues: %w", err)
	}
	var scan commitlog.Scan
	if s.lastExit {
		scan, err = s.cl.RecoverNormally(s.cfg.CheckCRCOnRecover)
	} else {
		scan, err = s.cl.RecoverAbnormally(s.cfg.CheckCRCOnRecover, s.recoverySafePoint(), s.dispatchRecord)
	}
	if err != nil {
		return fmt.Errorf("store: recover commit log: %w", err)
	}
	s.log.WithFields(logrus.Fields{"end": scan.End, "records": scan.Records, "from": scan.FromFile, "stopped": scan.Stopped}).Info("commit log recovered")
	if len(s.cl.Queue().Segments()) == 0 {
		// Java: the commit log files are gone, so are the consume queues.
		for _, topic := range s.cqs.Topics() {
			if _, err := s.cqs.DeleteTopic(topic); err != nil {
				return fmt.Errorf("store: destroy consume queues: %w", err)
			}
		}
	} else if maxPhy >= scan.End {
		if err := s.cqs.TruncateAfter(scan.End); err != nil {
			return fmt.Errorf("store: truncate consume queues at %d: %w", scan.End, err)
		}
	}
	return s.recoverQueueOffsets()
}

// recoverySafePoint is where an abnormal recovery may start (Java
// isMappedFileMatchedRecover's bound).
func (s *Store) recoverySafePoint() int64 {
	if s.cfg.MessageIndexEnable && s.cfg.MessageIndexSafe {
		return s.cp.MinTimestampIndex()
	}
	return s.cp.MinTimestamp()
}

// recoverQueueOffsets is Java recoverTopicQueueTable: every queue's
// counter from its consume queue, and min offsets corrected to the log.
func (s *Store) recoverQueueOffsets() error {
	table, err := s.cqs.NextOffsets(s.cl.MinOffset())
	s.cl.SetQueueOffsets(table)
	return err
}

// Start dispatches whatever the consume queues lack, marks the store
// running (abort file) and starts the background services (Java start()).
func (s *Store) Start() error {
	if !s.started.CompareAndSwap(false, true) {
		return nil
	}
	s.reput = newReputService(s, s.cqs.ReputFrom(s.cl.MinOffset()))
	if err := s.reput.catchUp(); err != nil {
		return err
	}
	if err := s.recoverQueueOffsets(); err != nil {
		return err
	}
	s.cl.Start()
	if err := createAbort(s.cfg.StorePathRootDir); err != nil {
		return err
	}
	if err := s.startHA(); err != nil {
		return err
	}
	s.runService(func(<-chan struct{}) {
		if err := syncAbort(s.cfg.StorePathRootDir); err != nil {
			s.log.WithError(err).Warn("abort file may not survive a power loss")
		}
	})
	s.runService(s.reput.run)
	s.runService(s.flushLogicsLoop)
	s.runService(s.cleanLoop)
	s.runService(s.statsLoop)
	if s.cfg.BrokerRole != Slave {
		sc, err := newScheduler(s)
		if err != nil {
			return fmt.Errorf("store: load delay offsets: %w", err)
		}
		sc.correct()
		s.sched.Store(sc)
		s.runService(sc.run)
	}
	return nil
}

// committed wakes dispatch and the slaves' writers once staged appends
// are readable.
func (s *Store) committed() {
	if r := s.reput; r != nil {
		r.wake()
	}
	s.replicated()
}

func (s *Store) runService(fn func(stop <-chan struct{})) {
	s.services.Add(1)
	go func() {
		defer s.services.Done()
		fn(s.stop)
	}()
}

// ScheduleStat is one delay level's progress: its offset in its
// SCHEDULE_TOPIC_XXXX queue and that queue's max offset.
type ScheduleStat struct {
	Level          int32
	Offset, MaxOff int64
}

// ScheduleStats is ScheduleMessageService.buildRunningStats: every delay
// level of the offset table, in the table's order.
func (s *Store) ScheduleStats() ([]ScheduleStat, error) {
	var out []ScheduleStat
	err := s.withDelayOffsets(func(t *config.DelayOffsets) {
		t.Range(func(level int32, off int64) bool {
			out = append(out, ScheduleStat{Level: level, Offset: off})
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].MaxOff = s.MaxOffsetInQueue(ScheduleTopic, out[i].Level-1)
	}
	return out, nil
}

// DelayOffsets is ScheduleMessageService.encode(), the GET_ALL_DELAY_OFFSET
// answer: how far each delay level's queue has been delivered.
func (s *Store) DelayOffsets() ([]byte, error) {
	var data []byte
	err := s.withDelayOffsets(func(t *config.DelayOffsets) { data = t.EncodeCompact() })
	return data, err
}

// withDelayOffsets calls f with the delay offset table: the running one
// (under its lock) on a master; on a slave, which delivers nothing, its
// delayOffset.json (which Java's slave loads at start and then copies from
// the master), an empty table when there is none.
func (s *Store) withDelayOffsets(f func(*config.DelayOffsets)) error {
	if sc := s.sched.Load(); sc != nil {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		f(sc.offsets)
		return nil
	}
	offsets, found, err := config.Load(config.DelayOffsetPath(s.cfg.StorePathRootDir), config.DecodeDelayOffsets)
	if err != nil {
		return fmt.Errorf("store: load delay offsets: %w", err)
	}
	if !found {
		offsets = config.NewDelayOffsets()
	}
	f(offsets)
	return nil
}

// Close shuts the store down (Java shutdown): services stop, everything is
// flushed, and the abort file is removed only if all was dispatched and no
// write failed — otherwise the next start recovers abnormally.
func (s *Store) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	haErr := s.closeHA()
	close(s.stop)
	s.services.Wait()
	errs := []error{haErr}
	clean := s.started.Load() && s.writable.Load() && s.DispatchBehind() == 0
	errs = append(errs, s.flushLogics(0))
	errs = append(errs, s.cl.Close())
	errs = append(errs, s.index.Close())
	errs = append(errs, s.cp.Close())
	s.cqs.Close()
	if err := errors.Join(errs...); err != nil {
		clean = false
		s.log.WithError(err).Warn("store shut down with errors; keeping the abort file")
	}
	if clean {
		errs = append(errs, removeAbort(s.cfg.StorePathRootDir))
	}
	errs = append(errs, s.lock.release())
	return errors.Join(errs...)
}

// closeFiles releases what a failed Open had opened.
func (s *Store) closeFiles() {
	if s.cl != nil {
		_ = s.cl.Close()
	}
	if s.cqs != nil {
		s.cqs.Close()
	}
	if s.index != nil {
		_ = s.index.Close()
	}
	if s.cp != nil {
		_ = s.cp.Close()
	}
	_ = s.lock.release()
}

// DispatchBehind is how many commit-log bytes are not dispatched yet.
func (s *Store) DispatchBehind() int64 {
	if s.reput == nil {
		return s.cl.MaxOffset()
	}
	return s.reput.behind()
}

// MinPhyOffset is the commit log's first offset.
func (s *Store) MinPhyOffset() int64 { return s.cl.MinOffset() }

// MaxPhyOffset is the offset just past the commit log's last record.
func (s *Store) MaxPhyOffset() int64 { return s.cl.MaxOffset() }

// Writable reports whether puts are accepted: no write error, the disk
// not nearly full, dispatch not held by a failed write.
func (s *Store) Writable() bool { return s.writeRefusal() == nil }
