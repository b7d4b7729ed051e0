package store

import (
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Disk-usage thresholds Java reads from system properties
// rocketmq.broker.diskSpaceWarningLevelRatio and
// rocketmq.broker.diskSpaceCleanForciblyRatio.
const (
	diskWarningRatio       = 0.90
	diskCleanForciblyRatio = 0.85
	// deleteFilesBatchMax is MappedFileQueue.DELETE_FILES_BATCH_MAX.
	deleteFilesBatchMax = 10
	// manualDeleteTimes is CleanCommitLogService.MAX_MANUAL_DELETE_FILE_TIMES.
	manualDeleteTimes = 20
)

// cleaner holds the retention state (Java CleanCommitLogService).
type cleaner struct {
	manual         atomic.Int32 // manual deletions left
	cleanNow       atomic.Bool  // disk over the forcible-clean threshold
	diskFull       atomic.Bool  // disk over the warning threshold: puts refused
	lastDeleteTime time.Time
}

// DeleteFilesManually asks the next cleaning rounds to delete expired
// files whatever the hour (Java executeDeleteFilesManually, used by the
// admin DELETE_EXPIRED_COMMITLOG request).
func (s *Store) DeleteFilesManually() { s.clean.manual.Store(manualDeleteTimes) }

// cleanLoop runs retention every cleanResourceInterval (Java
// addScheduleTask: cleanFilesPeriodically).
func (s *Store) cleanLoop(stop <-chan struct{}) {
	tick := time.NewTicker(time.Duration(max(s.cfg.CleanResourceInterval, 1)) * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			s.cleanOnce(stop)
		}
	}
}

// cleanOnce is one round: expired commit-log files, then the consume-queue
// and index files below the log's new first offset.
func (s *Store) cleanOnce(stop <-chan struct{}) {
	if n := s.deleteExpiredCommitLog(stop); n > 0 {
		s.log.WithField("files", n).Info("deleted expired commit log files")
	}
	min := s.cl.MinOffset()
	if n, err := s.cqs.Clean(min); err != nil || n > 0 {
		s.log.WithError(err).WithField("files", n).Info("deleted consume queue files below the commit log")
	}
	if err := s.index.DeleteBefore(min); err != nil {
		s.log.WithError(err).Warn("delete index files")
	}
}

// deleteExpiredCommitLog is Java CleanCommitLogService.deleteExpiredFiles:
// at a deleteWhen hour, when the disk is fuller than diskMaxUsedSpaceRatio,
// or on manual request, delete files older than fileReservedTime hours —
// any file, expired or not, when the disk is past the forcible threshold
// and cleanFileForciblyEnable — oldest first, never the newest, at most 10
// per round, pausing deleteCommitLogFilesInterval between them.
func (s *Store) deleteExpiredCommitLog(stop <-chan struct{}) int {
	timeUp := s.isDeleteHour(time.UnixMilli(s.opt.Now()))
	spaceFull := s.isSpaceToDelete()
	manual := s.clean.manual.Load() > 0
	if !timeUp && !spaceFull && !manual {
		return 0
	}
	if manual {
		s.clean.manual.Add(-1)
	}
	atOnce := s.cfg.CleanFileForciblyEnable && s.clean.cleanNow.Load()
	reserved := time.Duration(s.cfg.FileReservedTime) * time.Hour
	deadline := time.UnixMilli(s.opt.Now()).Add(-reserved)
	interval := time.Duration(s.cfg.DeleteCommitLogFilesInterval) * time.Millisecond
	deleted := 0
	expired := func(seg *segment.Segment) bool {
		if deleted > 0 && interval > 0 {
			select {
			case <-stop:
				return false
			case <-time.After(interval):
			}
		}
		ok := atOnce || segment.ExpiredBefore(deadline)(seg)
		if ok {
			deleted++
		}
		return ok
	}
	n, err := s.cl.Queue().DeleteFirst(deleteFilesBatchMax, expired)
	if err != nil {
		s.log.WithError(err).Warn("delete expired commit log files")
	}
	return n
}

// isDeleteHour reports whether now's hour is one of deleteWhen's
// ';'-separated hours (Java UtilAll.isItTimeToDo).
func (s *Store) isDeleteHour(now time.Time) bool {
	for _, h := range strings.Split(s.cfg.DeleteWhen, ";") {
		if n, err := strconv.Atoi(h); err == nil && n == now.Hour() {
			return true
		}
	}
	return false
}

// isSpaceToDelete is Java isSpaceToDelete: it also flips the disk-full
// state that refuses puts (over 90 %) and the forcible-clean state (over
// 85 %), and clears them when space returns.
func (s *Store) isSpaceToDelete() bool {
	limit := float64(s.cfg.DiskMaxUsedRatio()) / 100.0
	physic := s.commitLogUsage()
	switch {
	case physic > diskWarningRatio:
		if !s.clean.diskFull.Swap(true) {
			s.log.WithField("ratio", physic).Error("commit log disk nearly full; refusing puts")
		}
		s.clean.cleanNow.Store(true)
	case physic > diskCleanForciblyRatio:
		s.clean.cleanNow.Store(true)
	default:
		if s.clean.diskFull.Swap(false) {
			s.log.WithField("ratio", physic).Info("commit log disk space OK again")
		}
		s.clean.cleanNow.Store(false)
	}
	if physic < 0 || physic > limit {
		return true
	}
	logics := s.diskUsage(consumeQueueDir(s.cfg.StorePathRootDir))
	if logics > diskWarningRatio || logics > diskCleanForciblyRatio {
		s.clean.cleanNow.Store(true)
	}
	return logics < 0 || logics > limit
}

// commitLogUsage is the used share of the emptiest partition holding a
// commit-log path, and records the paths over the forcible-clean
// threshold, which a multi-path commit log creates no segment in while
// it has others (Java isSpaceToDelete, calcStorePathPhysicRatio).
func (s *Store) commitLogUsage() float64 {
	least := 100.0
	var full []string
	for _, p := range s.clDirs.paths {
		ratio := s.diskUsage(p)
		least = min(least, ratio)
		if ratio > diskCleanForciblyRatio {
			full = append(full, p)
		}
	}
	s.clDirs.setFull(full)
	return least
}

func (s *Store) diskUsage(path string) float64 {
	if s.opt.DiskUsage != nil {
		return s.opt.DiskUsage(path)
	}
	return DiskUsage(path)
}

// DiskUsage is the used share of the partition holding path, -1 when it
// cannot be read (Java UtilAll.getDiskPartitionSpaceUsedPercent: total
// minus free blocks, reserved blocks counting as free).
func DiskUsage(path string) float64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil || st.Blocks == 0 {
		return -1
	}
	total := float64(st.Blocks) * float64(st.Bsize)
	free := float64(st.Bfree) * float64(st.Bsize)
	return (total - free) / total
}
