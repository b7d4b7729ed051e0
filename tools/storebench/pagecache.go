package storebench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/tools/procfs"
)

// Baseline is one page-cache bandwidth measurement: Bytes written to a
// pre-allocated file on the data directory's file system, no fsync (but
// for BaselineWriteFlush).
type Baseline struct {
	// Method is BaselineWrite (write(2) calls), BaselineMmap (copies
	// into a shared mapping of the file, the way both stores write) or
	// BaselineWriteFlush (write(2) with a flushing thread).
	Method string `json:"method"`
	Chunk  int    `json:"chunk"`
	Bytes  int64  `json:"bytes"`
	Nanos  int64  `json:"nanos"`
	Load   string `json:"load"`
	// Steal is the share of the machine's CPU time the host stole while
	// the bytes were written (see procfs.MachineTimes).
	Steal float64 `json:"steal"`
}

// The baseline methods. BaselineWriteFlush is write(2) with what both
// stores do alongside under ASYNC_FLUSH with Java's defaults
// (flushCommitLogTimed=false): each write wakes another thread that makes
// the written bytes durable, so under load one fdatasync follows another.
// It is not the page cache's bandwidth the append target is set against,
// but it shows how much of the gap to plain write(2) the flushing alone
// takes on this machine.
const (
	BaselineWrite      = "write(2)"
	BaselineMmap       = "mmap+memcpy"
	BaselineWriteFlush = "write(2) + fdatasync when woken"
)

// BytesPerSec is the measured bandwidth.
func (b Baseline) BytesPerSec() float64 { return perSec(b.Bytes, b.Nanos) }

// RunBaselines measures write(2) of 64 KiB and 1 MiB, memcpy of 64 KiB into
// a mapping, and write(2) of 64 KiB with a flushing thread, total bytes
// each, in dir, repeats times each (on a VM
// the same run varies several-fold, see Markdown). The file is created and its
// blocks allocated (fallocate, as store/segment does) before the clock
// starts; it is removed afterwards.
func RunBaselines(dir string, total int64, repeats int) ([]Baseline, error) {
	runs := []struct {
		method string
		chunk  int
	}{{BaselineWrite, 64 << 10}, {BaselineWrite, 1 << 20}, {BaselineMmap, 64 << 10}, {BaselineWriteFlush, 64 << 10}}
	var out []Baseline
	for range max(repeats, 1) {
		for _, r := range runs {
			b, err := runBaseline(filepath.Join(dir, "pagecache.bench"), r.method, r.chunk, total)
			if err != nil {
				return out, err
			}
			out = append(out, b)
		}
	}
	return out, nil
}

func runBaseline(path, method string, chunk int, total int64) (Baseline, error) {
	b := Baseline{Method: method, Chunk: chunk, Bytes: total, Load: procfs.LoadAvg()}
	f, err := preallocate(path, total)
	if err != nil {
		return b, err
	}
	defer os.Remove(path)
	buf := make([]byte, chunk)
	for i := range buf {
		buf[i] = byte('a' + i%26)
	}
	var d time.Duration
	steal := procfs.StartSteal()
	switch method {
	case BaselineMmap:
		d, err = copyMapped(f, buf, total)
	case BaselineWriteFlush:
		d, err = writeFlushing(f, buf, total)
	default:
		d, err = writeSequential(f, buf, total, nil)
	}
	b.Nanos, b.Steal = int64(d), steal()
	return b, errors.Join(err, f.Close())
}

func preallocate(path string, size int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("storebench: baseline file: %w", err)
	}
	if err := syscall.Fallocate(int(f.Fd()), 0, 0, size); err != nil && !errors.Is(err, syscall.EOPNOTSUPP) {
		_ = f.Close()
		return nil, fmt.Errorf("storebench: fallocate %s: %w", path, err)
	}
	return f, f.Truncate(size)
}

// writeSequential writes total bytes of buf's contents to f, calling
// afterEach (when set) after every write, and returns the time taken.
func writeSequential(f *os.File, buf []byte, total int64, afterEach func()) (time.Duration, error) {
	t0 := time.Now()
	for off := int64(0); off < total; {
		n, err := f.Write(buf[:min(int64(len(buf)), total-off)])
		if err != nil {
			return 0, fmt.Errorf("storebench: write at %d: %w", off, err)
		}
		off += int64(n)
		if afterEach != nil {
			afterEach()
		}
	}
	return time.Since(t0), nil
}

// writeFlushing is writeSequential with a flushing goroutine that each
// write wakes (a wake-up while it flushes is kept for after) and that
// then calls fdatasync. As with a store's append run, the time ends when
// the last write returns; the flush running then is waited for untimed.
func writeFlushing(f *os.File, buf []byte, total int64) (time.Duration, error) {
	wake := make(chan struct{}, 1)
	stop := make(chan struct{})
	flushed := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				flushed <- nil
				return
			case <-wake:
				if err := syscall.Fdatasync(int(f.Fd())); err != nil {
					<-stop
					flushed <- fmt.Errorf("storebench: fdatasync: %w", err)
					return
				}
			}
		}
	}()
	d, err := writeSequential(f, buf, total, func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	close(stop)
	return d, errors.Join(err, <-flushed)
}

func copyMapped(f *os.File, buf []byte, total int64) (time.Duration, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, int(total), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return 0, fmt.Errorf("storebench: mmap: %w", err)
	}
	t0 := time.Now()
	for off := int64(0); off < total; off += int64(len(buf)) {
		copy(data[off:], buf)
	}
	d := time.Since(t0)
	return d, syscall.Munmap(data)
}

func perSec(n, nanos int64) float64 {
	if nanos <= 0 {
		return 0
	}
	return float64(n) / (float64(nanos) / 1e9)
}

// settle writes size bytes to a file at path through the page cache with
// write(2) of 64 KiB, deletes it, and returns the bandwidth as a Baseline:
// the page cache as the append run that follows finds it. On a VM a page
// of guest memory not touched for a while costs ~10 µs to fill (the host
// backs it anew), memory freed moments ago almost nothing, so a run's
// speed depended on how much page cache the run before it had just freed
// (1 KiB x 4 producers: 381k msg/s after a 128 B run, 620k after a 1 KiB
// one, same binary). Settling before every run gives each store the same
// start, and timing it gives each run a page-cache baseline taken under
// the same host conditions.
func settle(path string, size int64) (Baseline, error) {
	return runBaseline(path, BaselineWrite, 64<<10, size)
}
