package store

import (
	"errors"
	"slices"
	"sync/atomic"
)

// ErrNoWritablePath: every path of a multi-path commit log is read-only.
// Java divides by zero choosing one and the put fails with the exception;
// here it fails as CREATE_MAPEDFILE_FAILED.
var ErrNoWritablePath = errors.New("store: no writable commit-log path")

// commitLogDirs is where a commit log's segments live: one directory, or
// several for a storePathCommitLog holding several paths (Java
// MultiPathMappedFileQueue), new segments spread over them round-robin by
// segment number. With one path place always picks it.
type commitLogDirs struct {
	segmentSize int64
	paths       []string // storePathCommitLog's paths
	readOnly    []string // readOnlyCommitLogStorePaths (multi-path only)
	// full are the paths whose partition is over diskSpaceCleanForciblyRatio,
	// as the retention service last measured (Java CommitLog.fullStorePaths).
	full atomic.Pointer[[]string]
}

func newCommitLogDirs(cfg *Config) *commitLogDirs {
	d := &commitLogDirs{segmentSize: int64(cfg.MappedFileSizeCommitLog), paths: cfg.CommitLogPaths()}
	if cfg.MultiPathCommitLog() {
		d.readOnly = cfg.ReadOnlyCommitLogPaths()
	}
	return d
}

// all is every directory segments are loaded from: the paths, then the
// read-only ones.
func (d *commitLogDirs) all() []string {
	out := slices.Clone(d.paths)
	for _, p := range d.readOnly {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// setFull records the paths that are nearly full.
func (d *commitLogDirs) setFull(paths []string) { d.full.Store(&paths) }

// place is MultiPathMappedFileQueue.tryCreateMappedFile's choice: of the
// paths neither read-only nor full (or, when that leaves none, of those
// not read-only), sorted, the one at the segment's number modulo their
// count.
func (d *commitLogDirs) place(base int64) (string, error) {
	var full []string
	if f := d.full.Load(); f != nil {
		full = *f
	}
	writable := slices.DeleteFunc(slices.Clone(d.paths), func(p string) bool { return slices.Contains(d.readOnly, p) })
	avail := slices.DeleteFunc(slices.Clone(writable), func(p string) bool { return slices.Contains(full, p) })
	if len(avail) == 0 {
		avail = writable
	}
	if len(avail) == 0 {
		return "", ErrNoWritablePath
	}
	slices.Sort(avail)
	return avail[(base/d.segmentSize)%int64(len(avail))], nil
}
