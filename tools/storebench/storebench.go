// Package storebench measures Sputnik's message store against the page
// cache and against Java 4.9.8's DefaultMessageStore, in one run (issue
// #5):
//
//   - append: Threads producers put messages of each Size (TAGS, KEYS and
//     UNIQ_KEY properties, one topic of Queues queues) into a fresh store
//     with Java's defaults (ASYNC_FLUSH, index and consume-queue dispatch
//     on); the rate is taken when the last put returns ("append") and when
//     dispatch has caught up ("+dispatch"); every put is timed.
//   - page cache: write(2) of 64 KiB and 1 MiB and memcpy into a mapping
//     of a pre-allocated file on the same file system, same total bytes,
//     no fsync, measured before and after the appends.
//   - recovery: a Sputnik child fills a commit log to RecoveryBytes and is
//     killed with SIGKILL while writing; then Open+Start is timed for the
//     abnormal recovery, again after a clean shutdown, and Java's
//     load()+start() on the same crash state (the non-commit-log files are
//     snapshotted and restored) and after a clean shutdown; optionally the
//     same with a Java-written log.
//
// Every store run is its own process (a Sputnik child re-executes this
// binary, see ChildMain; Java runs compat/java's StoreBench with
// JavaFlags), so memory numbers belong to one run: the child reports its
// own /proc status and heap at the end, the parent samples its RSS every
// 50 ms for the peak.
package storebench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/sputnikmq/sputnik/tools/procfs"
)

// The implementations.
const (
	Sputnik = "sputnik"
	Java    = "java"
)

// Options describe a benchmark run.
type Options struct {
	// Dir holds every store and baseline file; runs delete their data.
	Dir string
	// Sizes are the message body sizes, Threads the producer counts.
	Sizes   []int
	Threads []int
	// Bytes is the body bytes of one append run, capped at MaxMessages.
	Bytes       int64
	MaxMessages int64
	// SegmentSize is mappedFileSizeCommitLog for both implementations.
	SegmentSize int32
	Queues      int
	// StoreSettings are MessageStoreConfig key=value pairs applied to both
	// stores (Java through MixAll.properties2Object, Sputnik through the
	// same binding its broker.conf takes), e.g. transientStorePoolEnable=true.
	StoreSettings []string
	// Append, Recovery and Java select the parts; JavaFill adds the
	// recovery of a Java-written log.
	Append, Recovery, Java, JavaFill bool
	// Rounds repeats the whole append matrix (ratios use each
	// implementation's best round); BaselineRepeats repeats each page-cache
	// measurement before and after the appends.
	Rounds, BaselineRepeats int
	// Settle writes and deletes a file of Bytes through the page cache
	// before every append run, so each starts with the same memory just
	// freed (see settle).
	Settle bool
	// RecoveryBytes is the commit log written before the kill; RecoverySize
	// and RecoveryThreads are the fill's message size and producers.
	RecoveryBytes   int64
	RecoverySize    int
	RecoveryThreads int
	// ProfileDir, when set, gets a CPU profile of every Sputnik append
	// run (append-SIZE-THREADS.pprof).
	ProfileDir string
	// Progress gets one line per step; nil discards.
	Progress io.Writer
}

// Defaults is a run of about ten minutes on two cores with Java.
func Defaults() Options {
	return Options{
		Dir: filepath.Join(os.TempDir(), "storebench"), Sizes: []int{128, 1024, 64 << 10}, Threads: []int{4, 16},
		Bytes: 2 << 30, MaxMessages: 2_000_000, SegmentSize: 1 << 30, Queues: 8,
		Append: true, Java: true, Rounds: 1, BaselineRepeats: 3, Settle: true,
		RecoveryBytes: 10 << 30, RecoverySize: 1024, RecoveryThreads: 4,
	}
}

// AppendResult is one append run (JSON names as StoreBench.java prints).
type AppendResult struct {
	Impl     string `json:"impl"`
	Size     int    `json:"size"`
	Threads  int    `json:"threads"`
	Messages int64  `json:"messages"`
	Failed   int64  `json:"failed"`
	// FailedStatus is the status of the last failed put: Java answers
	// OS_PAGECACHE_BUSY when its put lock is held over
	// osPageCacheBusyTimeOutMills (1 s), which an overloaded box reaches.
	FailedStatus    string  `json:"failedStatus,omitempty"`
	BodyBytes       int64   `json:"bodyBytes"`
	LogBytes        int64   `json:"logBytes"`
	AppendNanos     int64   `json:"appendNanos"`
	DispatchedNanos int64   `json:"dispatchedNanos"`
	Latency         Latency `json:"latency"`
	Memory          Memory  `json:"memory"`
	Peak            Peak    `json:"peak"`
	Load            string  `json:"load"`
	Round           int     `json:"round"`
	// Steal is the share of the machine's CPU the host stole during the
	// run; PageCache is the settle write just before it (nil without
	// Options.Settle).
	Steal     float64   `json:"steal"`
	PageCache *Baseline `json:"pageCacheBefore,omitempty"`
}

// MsgsPerSec is the rate of successful puts until the last put returned.
func (r *AppendResult) MsgsPerSec() float64 { return perSec(r.Messages-r.Failed, r.AppendNanos) }

// MsgsPerSecDispatched is the rate up to the moment dispatch caught up.
func (r *AppendResult) MsgsPerSecDispatched() float64 {
	return perSec(r.Messages-r.Failed, r.DispatchedNanos)
}

// LogBytesPerSec is the commit-log bytes written per second of appending.
func (r *AppendResult) LogBytesPerSec() float64 { return perSec(r.LogBytes, r.AppendNanos) }

// RecoverResult is one timed open of an existing store.
type RecoverResult struct {
	Impl string `json:"impl"`
	// Case says what was recovered (who wrote it, crash or clean).
	Case       string `json:"case"`
	LastExitOK bool   `json:"lastExitOK"`
	// LoadNanos is Open (Java: constructor + load()), OpenNanos adds
	// Start (Java start(), which waits for dispatch to catch up).
	LoadNanos  int64  `json:"loadNanos"`
	OpenNanos  int64  `json:"openNanos"`
	CloseNanos int64  `json:"closeNanos"`
	LogBytes   int64  `json:"logBytes"`
	Memory     Memory `json:"memory"`
	Peak       Peak   `json:"peak"`
	Load       string `json:"load"`
}

// FillResult is the writing of a recovery log, up to the kill.
type FillResult struct {
	Impl     string `json:"impl"`
	LogBytes int64  `json:"logBytes"`
	Nanos    int64  `json:"nanos"`
	Peak     Peak   `json:"peak"`
}

// Report is everything a run measured.
type Report struct {
	Started    time.Time       `json:"started"`
	NumCPU     int             `json:"numCPU"`
	GoVersion  string          `json:"goVersion"`
	Options    Options         `json:"options"`
	Baselines  []Baseline      `json:"baselines"`
	Appends    []AppendResult  `json:"appends"`
	Fills      []FillResult    `json:"fills"`
	Recoveries []RecoverResult `json:"recoveries"`
}

// Run runs the selected parts and returns what was measured so far, with
// the first error.
func Run(ctx context.Context, o Options) (*Report, error) {
	r := &Report{Started: time.Now(), NumCPU: runtime.NumCPU(), GoVersion: runtime.Version(), Options: o}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return r, fmt.Errorf("storebench: data dir: %w", err)
	}
	if o.Append {
		if err := runAppends(ctx, &o, r); err != nil {
			return r, err
		}
	}
	if o.Recovery {
		if err := runRecovery(ctx, &o, r); err != nil {
			return r, err
		}
	}
	return r, nil
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "%s [load %s] %s\n", time.Now().Format("15:04:05"), procfs.LoadAvg(), fmt.Sprintf(format, args...))
	}
}

func runAppends(ctx context.Context, o *Options, r *Report) error {
	o.progress("page cache baselines, %d bytes each", o.Bytes)
	b, err := RunBaselines(o.Dir, o.Bytes, o.BaselineRepeats)
	r.Baselines = append(r.Baselines, b...)
	if err != nil {
		return err
	}
	for round := range max(o.Rounds, 1) {
		for _, size := range o.Sizes {
			for _, threads := range o.Threads {
				for _, impl := range o.impls(round) {
					if err := ctx.Err(); err != nil {
						return err
					}
					res, err := runAppend(ctx, o, impl, size, threads)
					if err != nil {
						return err
					}
					res.Round = round
					r.Appends = append(r.Appends, *res)
				}
			}
		}
	}
	o.progress("page cache baselines again")
	b, err = RunBaselines(o.Dir, o.Bytes, o.BaselineRepeats)
	r.Baselines = append(r.Baselines, b...)
	return err
}

// impls is the order of a round's runs: Sputnik first in even rounds,
// Java first in odd ones. What ran just before moves a run (on a VM the
// memory a run frees is cheap to reuse at once and dear a while later),
// so alternating keeps that from favouring one store.
func (o *Options) impls(round int) []string {
	switch {
	case !o.Java:
		return []string{Sputnik}
	case round%2 == 1:
		return []string{Java, Sputnik}
	default:
		return []string{Sputnik, Java}
	}
}

// runAppend runs one append job in a child on a fresh directory.
func runAppend(ctx context.Context, o *Options, impl string, size, threads int) (*AppendResult, error) {
	j := &Job{
		Kind: JobAppend, Dir: filepath.Join(o.Dir, "append-"+impl), Size: size, Threads: threads,
		Queues: o.Queues, Messages: min(max(o.Bytes/int64(size), 1), o.MaxMessages), SegmentSize: o.SegmentSize,
		Settings: o.StoreSettings,
	}
	if o.ProfileDir != "" && impl == Sputnik {
		j.CPUProfile = filepath.Join(o.ProfileDir, "append-"+strconv.Itoa(size)+"-"+strconv.Itoa(threads)+".pprof")
	}
	if err := os.RemoveAll(j.Dir); err != nil {
		return nil, err
	}
	defer os.RemoveAll(j.Dir)
	var before *Baseline
	if o.Settle {
		b, err := settle(filepath.Join(o.Dir, "settle"), o.Bytes)
		if err != nil {
			return nil, err
		}
		before = &b
	}
	o.progress("append %s size=%d threads=%d messages=%d", impl, size, threads, j.Messages)
	load, steal := procfs.LoadAvg(), procfs.StartSteal()
	cmd, err := command(ctx, impl, j)
	if err != nil {
		return nil, err
	}
	line, p, err := runProcess(cmd, nil)
	if err != nil {
		return nil, err
	}
	res := &AppendResult{}
	if err := decodeResult(line, res); err != nil {
		return nil, err
	}
	res.Impl, res.Size, res.Threads, res.Peak, res.Load = impl, size, threads, p.peak, load
	res.Steal, res.PageCache = steal(), before
	if res.Failed > 0 {
		o.progress("%s: %d of %d puts failed (%s)", impl, res.Failed, res.Messages, res.FailedStatus)
	}
	return res, nil
}
