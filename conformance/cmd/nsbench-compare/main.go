// Command nsbench-compare benchmarks the Java name server (4.9.7 namesrv
// on 4.9.8 libraries, see conformance/README.md) and Sputnik's in one run,
// with the same load generator (tools/nsbench), and checks Sputnik's
// targets:
//
//   - route lookups, 10 brokers × 100 topics × 8 queues, 16 connections
//     (raw frames, one request in flight each, and -depths pipelined),
//     5 s warmup, 15 s measured:
//     QPS ≥ 3.5× Java's, p99 ≤ 0.5× Java's;
//   - peak RSS ≤ 25 MiB during that run (VmHWM, and VmRSS sampled every
//     100 ms);
//   - start to listening ≤ 50 ms (process start to the port accepting);
//   - 100,000 topics × 8 queues registered by one broker, as plain JSON
//     and compressed: registration and lookups keep working.
//
// Each case gets a fresh name server started by the conformance launcher
// (Java with -Xms/-Xmx 256m; Sputnik from -bin, default bin/ — run `make
// build` first). A third big case registers plain JSON with long topic
// names, past the 16 MiB frame, to show what each server does with it.
// Output: Markdown tables on stdout, progress on stderr, everything as
// JSON with -json.
//
//	go run ./conformance/cmd/nsbench-compare -json /tmp/nsbench.json
//	go run ./conformance/cmd/nsbench-compare -rounds 3 -big-topics 0   # lookups only, 3 alternating rounds
//
// The generator runs in this process with -gen-procs Ps (default 1: its
// cost is mostly system calls, and one P keeps it from spinning on the
// CPUs the server needs); GOMAXPROCS is removed from the servers'
// environment so that Sputnik runs with its own default (or
// -sputnik-gomaxprocs). With -pin the generator and the server get
// disjoint CPUs during the lookups. The machine is shared with whatever
// else runs: the tables give the CPU other processes used during each
// measured window (the load average also counts the benchmark's own
// threads), and -rounds alternates the implementations several times.
//
// Exit status: 0 when both implementations ran (targets may be missed; -strict
// makes a MISS fail), 1 otherwise, 2 on setup errors.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/sputnikmq/sputnik/tools/procfs"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/benchcli"
	"github.com/sputnikmq/sputnik/tools/nsbench"
)

// compare is one run's configuration.
type compare struct {
	launcher  *cluster.Launcher
	impls     []cluster.Impl
	bench     nsbench.Options
	rssEvery  time.Duration
	bigTopics int
	bigQueues int
	bigChecks int
	longName  int
	rounds    int
	depths    []int // requests in flight per connection, a lookup benchmark each
	// sputnikProcs, when positive, is GOMAXPROCS of Sputnik's server.
	sputnikProcs int
	starts       int // servers started, for unique directory names
	// pinGen and pinServer, when set (-pin), are the CPUs of the
	// generator and of the server during the lookup benchmark.
	pinGen, pinServer []int
	pinned            string
}

func main() {
	os.Exit(run())
}

func run() int {
	c, jsonPath, strict, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "nsbench-compare:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer cluster.KillAll() // no server outlives the run
	defer func() {
		if p := recover(); p != nil {
			cluster.KillAll()
			panic(p)
		}
	}()

	rep := c.runAll(ctx)
	rep.evaluate()
	rep.printMarkdown(os.Stdout)
	if jsonPath != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err == nil {
			err = os.WriteFile(jsonPath, b, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "nsbench-compare: write JSON:", err)
			return 2
		}
	}
	fmt.Fprintf(os.Stderr, "logs: %s\n", c.launcher.RunDir)
	switch {
	case ctx.Err() != nil:
		return 2
	case !rep.complete():
		return 1
	case strict && rep.missed() > 0:
		return 1
	}
	return 0
}

func setup() (*compare, string, bool, error) {
	d := nsbench.Defaults()
	c := &compare{bench: d}
	var (
		impls, bin, classpath, heap, runDir, jsonPath string
		genProcs                                      int
		strict, pinCPUs                               bool
		depths                                        string
	)
	flag.StringVar(&impls, "impl", "java,sputnik", "implementations, in order")
	flag.StringVar(&bin, "bin", "", "directory with Sputnik's mqnamesrv (default <repo>/bin)")
	flag.StringVar(&classpath, "java-classpath", "", "conformance/java/classpath.sh to run, or a file holding a classpath (default <repo>/conformance/java/classpath.sh)")
	flag.StringVar(&heap, "namesrv-heap", "256m", "Java name server -Xms/-Xmx")
	flag.StringVar(&runDir, "rundir", "", "directory for node dirs and logs (default a new temp dir)")
	flag.StringVar(&jsonPath, "json", "", "write the full report as JSON to this file")
	flag.IntVar(&c.bench.Brokers, "brokers", d.Brokers, "brokers registered for the lookup benchmark")
	flag.IntVar(&c.bench.Topics, "topics", d.Topics, "topics per broker for the lookup benchmark")
	flag.IntVar(&c.bench.Queues, "queues", d.Queues, "queues per topic")
	flag.IntVar(&c.bench.Conns, "conns", d.Conns, "lookup connections")
	flag.StringVar(&depths, "depths", "1", "comma-separated requests in flight per lookup connection, one lookup benchmark each (above 1 the generator pipelines, as a Java client sharing its one channel among threads does)")
	flag.DurationVar(&c.bench.Warmup, "warmup", d.Warmup, "unmeasured lookup time")
	flag.DurationVar(&c.bench.Duration, "duration", d.Duration, "measured lookup time")
	flag.IntVar(&c.rounds, "rounds", 1, "lookup rounds, alternating implementations (the median-QPS round is reported)")
	flag.IntVar(&c.sputnikProcs, "sputnik-gomaxprocs", 0, "GOMAXPROCS of Sputnik's name server (0: its own default)")
	flag.IntVar(&genProcs, "gen-procs", 1, "GOMAXPROCS of the generator (this process); 0 keeps the runtime's default")
	flag.DurationVar(&c.rssEvery, "rss-every", 100*time.Millisecond, "server procfs.Memory sampling interval")
	flag.IntVar(&c.bigTopics, "big-topics", 100000, "topics of the big registration (0 skips it)")
	flag.IntVar(&c.bigQueues, "big-queues", 8, "queues per topic of the big registration")
	flag.IntVar(&c.bigChecks, "big-lookups", 300, "random topics looked up after the big registration")
	flag.IntVar(&c.longName, "big-long-names", 32, "also register plain JSON with topic names padded to this length, past the 16 MiB frame (0 skips)")
	flag.BoolVar(&pinCPUs, "pin", false, "during the lookups, pin the generator to CPU 0 and the server to the other CPUs (sched_setaffinity), so that neither takes the other's CPU")
	flag.BoolVar(&strict, "strict", false, "exit 1 when a target is missed")
	flag.Parse()
	if flag.NArg() > 0 {
		return nil, "", false, fmt.Errorf("unexpected arguments %v", flag.Args())
	}
	for _, s := range strings.Split(impls, ",") {
		impl, err := cluster.ParseImpl(strings.TrimSpace(s))
		if err != nil {
			return nil, "", false, err
		}
		c.impls = append(c.impls, impl)
	}
	ds, err := benchcli.PositiveInts(depths)
	if err != nil {
		return nil, "", false, fmt.Errorf("-depths: %w", err)
	}
	c.depths = ds
	if err := c.cpus(genProcs, pinCPUs); err != nil {
		return nil, "", false, err
	}
	// The servers inherit our environment: let each pick its own default.
	os.Unsetenv("GOMAXPROCS")
	l, err := newLauncher(bin, classpath, heap, runDir, c.impls)
	if err != nil {
		return nil, "", false, err
	}
	c.launcher = l
	return c, jsonPath, strict, nil
}

// cpus applies -pin and -gen-procs.
func (c *compare) cpus(genProcs int, pinCPUs bool) error {
	if pinCPUs {
		gen, srv, err := pinPlan()
		if err != nil {
			return err
		}
		c.pinGen, c.pinServer = gen, srv
		c.pinned = fmt.Sprintf("lookups with the generator on CPU %v and the server on CPU %v", gen, srv)
	}
	if genProcs > 0 {
		runtime.GOMAXPROCS(genProcs)
	}
	return nil
}

func newLauncher(bin, classpath, heap, runDir string, impls []cluster.Impl) (*cluster.Launcher, error) {
	l, err := cluster.NewLocalLauncher(context.Background(), cluster.LocalOptions{Bin: bin, Classpath: classpath,
		NeedJava: slices.Contains(impls, cluster.Java), RunDir: runDir, TempPrefix: "sputnik-nsbench-"})
	if err != nil {
		return nil, err
	}
	l.Java.NamesrvHeap = heap
	return l, nil
}

// runAll runs the lookup benchmark, then the big registrations, for every
// implementation in order.
func (c *compare) runAll(ctx context.Context) *report {
	rep := newReport(c)
	defer func() { rep.LoadEnd = procfs.LoadAvg() }()
	for _, depth := range c.depths {
		for round := 1; round <= max(c.rounds, 1); round++ {
			for _, impl := range c.impls {
				if ctx.Err() != nil {
					return rep
				}
				progress("%s: lookups round %d (%d brokers x %d topics, %d conns x %d in flight, warmup %v, %v)", impl, round,
					c.bench.Brokers, c.bench.Topics, c.bench.Conns, depth, c.bench.Warmup, c.bench.Duration)
				r := c.runLookups(ctx, impl, round, depth)
				if r.Error != "" {
					progress("%s: %s", impl, r.Error)
				} else {
					progress("%s: %.0f lookups/s, p99 %v", impl, r.Bench.Lookups.QPS, r.Bench.Lookups.Latency.P99)
				}
				rep.Lookups = append(rep.Lookups, r)
			}
		}
	}
	if c.bigTopics <= 0 {
		return rep
	}
	for _, bc := range bigCases(c.longName) {
		for _, impl := range c.impls {
			if ctx.Err() != nil {
				return rep
			}
			progress("%s: %d topics x %d queues, %s body", impl, c.bigTopics, c.bigQueues, bc.Name)
			r := c.runBig(ctx, impl, bc)
			progress("%s: registered %d/%d (%d bytes), routes %d/%d %s", impl, r.Register.OK, r.Register.Brokers,
				r.Register.BodyBytes, r.Check.OK, r.Check.Asked, r.Error)
			rep.Big = append(rep.Big, r)
		}
	}
	return rep
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
