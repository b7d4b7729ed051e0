package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// rollingFile is logback's RollingFileAppender with a
// SizeBasedTriggeringPolicy and a FixedWindowRollingPolicy as
// logback_namesrv.xml configures them: once namesrv.log passes maxSize it
// is gzipped to otherdays/namesrv.1.log.gz, older archives shift up one
// index, and the one beyond maxIndex is dropped.
type rollingFile struct {
	path     string // .../namesrv.log
	archive  string // .../otherdays/namesrv.%d.log.gz
	maxSize  int64
	maxIndex int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// Java's values: 100MB, indexes 1..5.
const (
	logMaxSize  = 100 << 20
	logMaxIndex = 5
)

func openRolling(dir string) (*rollingFile, error) {
	r := &rollingFile{
		path:     filepath.Join(dir, "namesrv.log"),
		archive:  filepath.Join(dir, "otherdays", "namesrv.%d.log.gz"),
		maxSize:  logMaxSize,
		maxIndex: logMaxIndex,
	}
	return r, r.open()
}

func (r *rollingFile) open() error {
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return err
	}
	r.f, r.size = f, st.Size()
	return nil
}

// Write appends p, rolling first when the file is already past maxSize.
func (r *rollingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	if r.size >= r.maxSize {
		if err := r.roll(); err != nil {
			fmt.Fprintf(os.Stderr, "mqnamesrv: rolling %s: %v\n", r.path, err)
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// roll archives the current file and starts an empty one.
func (r *rollingFile) roll() error {
	if err := os.MkdirAll(filepath.Dir(r.archive), 0o755); err != nil {
		return err
	}
	_ = os.Remove(fmt.Sprintf(r.archive, r.maxIndex))
	for i := r.maxIndex - 1; i >= 1; i-- {
		_ = os.Rename(fmt.Sprintf(r.archive, i), fmt.Sprintf(r.archive, i+1))
	}
	_ = r.f.Close()
	r.f = nil
	if err := gzipFile(r.path, fmt.Sprintf(r.archive, 1)); err != nil {
		return err
	}
	if err := os.Truncate(r.path, 0); err != nil {
		return err
	}
	return r.open()
}

func gzipFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	if _, err := io.Copy(zw, in); err != nil {
		_ = out.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// Close closes the file.
func (r *rollingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
