package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// Settling before a broker starts. On the benchmark VM, for a few seconds
// after gigabytes have been written, synced and deleted (what the broker
// before has just done), the host stalls this machine's vCPUs for tens to
// hundreds of milliseconds at a time without it showing as steal: fork and
// exec of true(1), normally 2-3 ms, took 38, 78, 241 and 56 ms in the
// second after a 4 GiB fsync'd write was deleted, and never more than 12
// ms five seconds later. So before every broker start, of either
// implementation, the harness syncs the run's file system and waits until
// the probe has stayed fast for a while, and reports what it saw. (This
// did not explain the slow Sputnik starts by itself: see warmExec.)
const (
	settleProbeEvery = 50 * time.Millisecond
	settleQuietFor   = 3 * time.Second  // this long of fast probes
	settleMax        = 30 * time.Second // give up waiting (and say so)
	settleFastMin    = 10 * time.Millisecond
)

// settler holds the probe's quiet-host time, measured once at the start.
type settler struct {
	dir      string
	fast     time.Duration // a probe slower than this is a stall
	quietFor time.Duration
	maxWait  time.Duration
}

// newSettler times the probe a few times on the machine as found and
// takes four times the median (at least settleFastMin) as the bound.
func newSettler(dir string) *settler {
	var ds []time.Duration
	for range 9 {
		if d, err := probe(); err == nil {
			ds = append(ds, d)
		}
		time.Sleep(settleProbeEvery)
	}
	s := &settler{dir: dir, fast: settleFastMin, quietFor: settleQuietFor, maxWait: settleMax}
	if len(ds) > 0 {
		slices.Sort(ds)
		s.fast = max(4*ds[len(ds)/2], settleFastMin)
	}
	return s
}

// settled is what one wait found: how long it took, how many probes were
// slower than the bound, and the slowest.
type settled struct {
	Waited   time.Duration `json:"waitedNanos"`
	Stalls   int           `json:"stalls"`
	Slowest  time.Duration `json:"slowestProbeNanos"`
	TimedOut bool          `json:"timedOut,omitempty"`
}

func (s settled) String() string {
	out := fmt.Sprintf("settled in %.1f s (%d stalls, slowest probe %.1f ms)", s.Waited.Seconds(), s.Stalls, ms(s.Slowest))
	if s.TimedOut {
		out += ", gave up waiting"
	}
	return out
}

// wait syncs dir's file system, then probes until quietFor has passed
// without a stall, or maxWait.
func (s *settler) wait(ctx context.Context) settled {
	t0 := time.Now()
	var r settled
	if err := syncFS(s.dir); err != nil {
		progress("settle: %v", err)
	}
	quietSince := time.Now()
	for ctx.Err() == nil && time.Since(quietSince) < s.quietFor {
		if time.Since(t0) > s.maxWait {
			r.TimedOut = true
			break
		}
		d, err := probe()
		if err != nil {
			progress("settle: probe: %v", err)
			break
		}
		r.Slowest = max(r.Slowest, d)
		if d > s.fast {
			r.Stalls++
			quietSince = time.Now()
		}
		sleepCtx(ctx, settleProbeEvery)
	}
	r.Waited = time.Since(t0)
	return r
}

// probe is one fork and exec of true(1), timed.
func probe() (time.Duration, error) {
	t := time.Now()
	err := exec.Command("true").Run()
	return time.Since(t), err
}

// syncFS writes back the file system holding dir (syncfs(2)).
func syncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("syncfs %s: %w", dir, err)
	}
	return nil
}

// warmExec runs bin once with -h before the rounds. Five of the six slow
// Sputnik starts seen (AL1, AO1, AQ1, AR1 and AS1 of runs AL-AS, 86-657
// ms against 10-17 ms otherwise) were the first exec of the mqbroker the
// harness had just built, each right after Java's round; in AS1 the time
// went inside execve (exec returned 275 ms after the fork, and the
// broker's own start took 5 ms), after a settle that saw no stall. The
// first exec of a freshly written file also updates its atime, a journal
// write. The Java broker's binaries (java, the jars) have been run by the
// Java name server by then.
func warmExec(bin string) {
	cmd := exec.Command(bin, "-h")
	if err := cmd.Run(); err != nil {
		progress("warm exec %s: %v", bin, err)
	}
}
