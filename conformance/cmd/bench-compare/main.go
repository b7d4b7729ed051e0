// Command bench-compare benchmarks the Java 4.9.8 broker (BrokerStartup,
// 4.9.7 broker module on 4.9.8 libraries, -Xms1g -Xmx1g) and Sputnik's
// bin/mqbroker in one run, against one Java name server, with the same
// broker properties (ASYNC_FLUSH, mappedFileSizeCommitLog 1 GiB), and
// checks issue #6's targets:
//
//   - 1 KiB sync send TPS ≥ 1.5× Java (raw SEND_MESSAGE_V2 frames from
//     tools/brokerbench, closed loop; the Java client's sync send with
//     conformance/java BenchDriver is reported next to it);
//   - p99 and p99.9 send latency at 50% of Java's peak raw rate ≤ 0.5×
//     Java's (open loop, latency from the scheduled send time);
//   - consume TPS ≥ 1.3×: N pre-filled messages (-prefill, 1,000,000)
//     drained by a Java push consumer (BenchDriver) and a client-go
//     v2.1.2 push consumer;
//   - idle RSS ≤ 64 MiB, and peak RSS (sampled VmRSS) under load;
//   - start to registered ≤ 300 ms: process start to the name server's
//     cluster info listing the broker.
//
// Odd rounds run Java first (its raw peak sets the open-loop rate), then
// Sputnik; even rounds Sputnik first at the rate of the round before; each
// on a fresh broker. Markdown on stdout, progress on stderr,
// JSON with -json; -perf-dir records a perf profile of Sputnik's broker
// during the raw send.
//
// Exit status: 0 when both ran (targets may be missed), 1 when a run had
// errors, 2 on setup errors.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/sputnikmq/sputnik/tools/procfs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/brokerbench"
)

// defaultPrefill is how many messages the consumers drain. Both consumers
// run in a fresh process (a JVM for the Java one), and on two CPUs a
// 300,000-message drain lasted ~3 s, most of it while the JIT was still
// compiling the consumer: the consumer then spent 18-24 µs of CPU per
// message with either broker, so the rate measured mostly the client's
// warm-up and swung with how much CPU the broker left it (Java's broker:
// 58-100k msg/s over rounds). A million messages drains for ~6-10 s, closer
// to the steady rate benchmark.Consumer reports every second.
const defaultPrefill = 1_000_000

// compare is one run's configuration.
type compare struct {
	launcher    *cluster.Launcher
	settle      *settler // nil: start brokers without waiting for a quiet host
	namesrv     *cluster.Node
	send        brokerbench.SendOptions
	rateConns   int
	javaThreads int
	prefill     int64
	idle        time.Duration
	rounds      int
	brokerHeap  string
	brokerExtra map[string]string
	// sputnikExtra is added to Sputnik's broker properties only
	// (-sputnik-props, for diagnostics; the report says so).
	sputnikExtra map[string]string
	perfDir      string
	// clientGoBench is the client-go benchmark binary ("" skips it), run
	// for clientGoRun.
	clientGoBench string
	// brokerbenchBin, when set, runs the client-go drain in its own
	// process (tools/cmd/brokerbench); empty runs it in this one.
	brokerbenchBin string
	clientGoRun    time.Duration
	keepStore      bool
	// ha runs each broker as SYNC_MASTER with a slave of the same
	// implementation: every send waits for the slave.
	ha bool
}

func main() { os.Exit(run()) }

func run() int {
	c, jsonPath, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-compare:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer cluster.KillAll()
	brokerbench.QuietClientGo()
	rep := &report{Started: time.Now(), CPUs: runtime.NumCPU(), GoVersion: runtime.Version(),
		Heap: c.brokerHeap, CommitLogFile: c.brokerExtra["mappedFileSizeCommitLog"], Send: c.send,
		JavaThreads: c.javaThreads, Prefill: c.prefill, RateConns: c.rateConns, SputnikExtra: c.sputnikExtra, HA: c.ha}
	c.namesrv, err = c.launcher.StartNamesrv(ctx, cluster.Java, cluster.NamesrvOptions{Name: "namesrv"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-compare: name server:", err)
		return 2
	}
	var rate float64
	for round := 1; round <= c.rounds && ctx.Err() == nil; round++ {
		rd := c.runRound(ctx, round, rate)
		rate = rd.Rate
		rep.Rounds = append(rep.Rounds, rd)
	}
	rep.printMarkdown(os.Stdout)
	if jsonPath != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(jsonPath, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bench-compare: write JSON:", err)
			return 2
		}
	}
	fmt.Fprintf(os.Stderr, "logs: %s\n", c.launcher.RunDir)
	if ctx.Err() != nil {
		return 2
	}
	if !rep.complete() {
		return 1
	}
	return 0
}

// runRound runs both brokers, each fresh, at one open-loop rate: half the
// Java broker's raw peak. Odd rounds run Java first and take the rate from
// it; even rounds run Sputnik first at the rate of the round before, so
// that neither broker always runs on the machine the other has just
// left (the bench-store rounds alternate the same way).
func (c *compare) runRound(ctx context.Context, n int, prev float64) round {
	rd := round{Round: n}
	if n%2 == 1 || prev <= 0 {
		progress("round %d: java broker first (load %s)", n, procfs.LoadAvg())
		rd.Java = c.runImpl(ctx, cluster.Java, n, 0)
		if rd.Java.Rate != nil {
			rd.Rate = rd.Java.Rate.Rate
		}
		progress("round %d: sputnik broker (load %s)", n, procfs.LoadAvg())
		rd.Sputnik = c.runImpl(ctx, cluster.Sputnik, n, rd.Rate)
		return rd
	}
	rd.Rate, rd.SputnikFirst = prev, true
	progress("round %d: sputnik broker first (load %s)", n, procfs.LoadAvg())
	rd.Sputnik = c.runImpl(ctx, cluster.Sputnik, n, rd.Rate)
	progress("round %d: java broker (load %s)", n, procfs.LoadAvg())
	rd.Java = c.runImpl(ctx, cluster.Java, n, rd.Rate)
	return rd
}

func setup() (*compare, string, error) {
	c := &compare{send: brokerbench.Defaults()}
	var bin, classpath, runDir, jsonPath, commitLog string
	flag.StringVar(&bin, "bin", "", "directory with Sputnik's mqbroker (default <repo>/bin)")
	flag.StringVar(&classpath, "java-classpath", "", "conformance/java/classpath.sh or a file holding a classpath")
	flag.StringVar(&runDir, "rundir", "", "directory for node dirs and logs (default a new temp dir)")
	flag.StringVar(&jsonPath, "json", "", "write the full report as JSON to this file")
	flag.StringVar(&c.brokerHeap, "broker-heap", "1g", "Java broker -Xms/-Xmx")
	flag.StringVar(&commitLog, "commitlog-file-size", "1073741824", "mappedFileSizeCommitLog of both brokers")
	flag.IntVar(&c.rounds, "rounds", 1, "rounds (Java first in odd rounds, Sputnik first in even ones)")
	flag.IntVar(&c.send.Conns, "conns", c.send.Conns, "closed-loop connections")
	flag.IntVar(&c.rateConns, "rate-conns", 8, "open-loop connections")
	flag.IntVar(&c.send.BodySize, "size", c.send.BodySize, "message body bytes")
	flag.DurationVar(&c.send.Warmup, "warmup", c.send.Warmup, "unmeasured send time")
	flag.DurationVar(&c.send.Duration, "duration", c.send.Duration, "measured send time")
	flag.IntVar(&c.javaThreads, "java-threads", 32, "Java client send threads (0 skips the Java client send)")
	flag.StringVar(&c.brokerbenchBin, "brokerbench", "", "tools/cmd/brokerbench binary: the client-go drain runs in its own process (empty: in this one)")
	flag.Int64Var(&c.prefill, "prefill", defaultPrefill, "messages pre-filled for the consume test (0 skips it)")
	flag.DurationVar(&c.idle, "idle", 5*time.Second, "idle time after registration before reading idle RSS")
	flag.StringVar(&c.perfDir, "perf-dir", "", "record `perf record -g` of Sputnik's broker during the raw send into this directory")
	flag.StringVar(&c.clientGoBench, "clientgo-bench", "", "client-go v2.1.2 benchmark binary (go build github.com/apache/rocketmq-client-go/v2/benchmark); empty skips it")
	flag.DurationVar(&c.clientGoRun, "clientgo-run", 16*time.Second, "how long the client-go benchmark producer runs (its rate covers the last 10 s)")
	flag.BoolVar(&c.ha, "ha", false, "run each broker as SYNC_MASTER with a slave of the same implementation (sends wait for the slave)")
	flag.BoolVar(&c.keepStore, "keep-store", false, "keep each broker's store directory (removed after the broker stops otherwise)")
	flag.Func("sputnik-props", "k=v[,k=v] added to Sputnik's broker properties only (diagnostics: the comparison is no longer like for like)", func(v string) error {
		c.sputnikExtra = map[string]string{}
		for _, kv := range strings.Split(v, ",") {
			k, val, ok := strings.Cut(kv, "=")
			if !ok {
				return fmt.Errorf("want k=v, got %q", kv)
			}
			c.sputnikExtra[strings.TrimSpace(k)] = strings.TrimSpace(val)
		}
		return nil
	})
	settle := flag.Bool("settle", true, "before every broker start, sync the file system and wait until fork+exec of true(1) has stayed fast for 3 s; exec mqbroker -h once before the rounds (see settle.go)")
	flag.Parse()
	c.brokerExtra = map[string]string{"mappedFileSizeCommitLog": commitLog, "flushDiskType": "ASYNC_FLUSH"}
	os.Unsetenv("GOMAXPROCS")
	l, err := newLauncher(bin, classpath, runDir)
	c.launcher = l
	if err == nil && *settle {
		c.settle = newSettler(l.RunDir)
		warmExec(filepath.Join(l.SputnikBin, "mqbroker"))
	}
	return c, jsonPath, err
}

func newLauncher(bin, classpath, runDir string) (*cluster.Launcher, error) {
	l, err := cluster.NewLocalLauncher(context.Background(), cluster.LocalOptions{Bin: bin, Classpath: classpath,
		NeedJava: true, RunDir: runDir, TempPrefix: "sputnik-bench-"})
	if err != nil {
		return nil, err
	}
	l.Java.NamesrvHeap = "256m"
	return l, nil
}
