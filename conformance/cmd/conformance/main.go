// Command conformance runs conformance scenarios against the reference
// Apache RocketMQ servers ("java") and Sputnik ("sputnik") and prints them
// side by side:
//
//	go run ./conformance/cmd/conformance -impl java,sputnik -tags quick
//
// For each implementation it starts one cluster per shape the selected
// scenarios need (reused across scenarios; anything a scenario stopped is
// started again before the next), runs the scenarios one at a time, then
// prints the matrix, a closing "N passed, M failed" line counting the
// Sputnik column, and writes a JSON report. See conformance/README.md.
//
// Exit status: 0 when no scenario is broken (fails against Java) and no
// Sputnik scenario fails unexpectedly (fails where Java passes, and is not
// listed in -known-failures); 1 otherwise; 2 on a usage or setup error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/conformance/report"
	"github.com/sputnikmq/sputnik/conformance/scenario"
)

type options struct {
	impls        []cluster.Impl
	brokerImpl   string
	tags         []string
	run          *regexp.Regexp
	jsonPath     string
	runDir       string
	bin          string
	classpathSh  string
	brokerHeap   string
	brokerConf   map[string]string
	namesrvHeap  string
	knownFailure string
	list         bool
	timeout      time.Duration
}

func main() {
	os.Exit(run())
}

func run() int {
	opts, err := parseFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	selected := scenario.Select(opts.tags, opts.run)
	if opts.list {
		for _, s := range selected {
			fmt.Printf("%-45s %-40s %s\n", s.Name, strings.Join(s.Tags, ","), s.Doc)
		}
		return 0
	}
	if len(selected) == 0 {
		fmt.Fprintln(os.Stderr, "conformance: no scenario selected")
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Whatever happens, no server outlives the runner.
	defer cluster.KillAll()
	defer func() {
		if p := recover(); p != nil {
			cluster.KillAll()
			panic(p)
		}
	}()

	r, err := newRunner(ctx, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	defer r.close()
	rep := r.runAll(ctx, selected)

	var known *report.KnownFailures
	if opts.knownFailure != "" {
		if known, err = report.LoadKnownFailures(opts.knownFailure); err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 2
		}
	}
	rep.Finish(known)
	rep.PrintMatrix(os.Stdout)
	jsonPath := opts.jsonPath
	if jsonPath == "" {
		jsonPath = filepath.Join(opts.runDir, "report.json")
	}
	if err := rep.WriteJSON(jsonPath); err != nil {
		fmt.Fprintln(os.Stderr, "conformance: write report:", err)
		return 2
	}
	fmt.Fprintf(os.Stderr, "report: %s; logs: %s\n", jsonPath, opts.runDir)
	if ctx.Err() != nil {
		return 2
	}
	return rep.ExitCode()
}

func parseFlags() (*options, error) {
	var (
		impls = flag.String("impl", "java,sputnik", "implementations under test, in order (java first, so Sputnik's outputs can be compared)")
		bimpl = flag.String("broker-impl", "java", `brokers: "java", "sputnik", or "same" (the implementation under test)`)
		tags  = flag.String("tags", "", "run scenarios carrying any of these comma-separated tags (default all)")
		runRe = flag.String("run", "", "run only scenarios whose name matches this regexp")
		bconf = flag.String("broker-conf", "", "key=value settings added to every broker's config file, comma-separated (e.g. transientStorePoolEnable=true)")
		o     options
	)
	flag.StringVar(&o.jsonPath, "json", "", "JSON report path (default <rundir>/report.json)")
	flag.StringVar(&o.runDir, "rundir", "", "directory for node dirs and logs (default a new temp dir)")
	flag.StringVar(&o.bin, "bin", "", "directory with Sputnik's mqnamesrv and mqbroker (default <repo>/bin)")
	flag.StringVar(&o.classpathSh, "java-classpath", "", "conformance/java/classpath.sh to run, or a file holding a classpath (default <repo>/conformance/java/classpath.sh)")
	flag.StringVar(&o.brokerHeap, "broker-heap", "1g", "Java broker -Xms/-Xmx")
	flag.StringVar(&o.namesrvHeap, "namesrv-heap", "256m", "Java name server -Xms/-Xmx")
	flag.StringVar(&o.knownFailure, "known-failures", "", "file of Sputnik failures that do not fail the run (see README)")
	flag.BoolVar(&o.list, "list", false, "list the selected scenarios and exit")
	flag.DurationVar(&o.timeout, "timeout", 0, "per-scenario timeout (default: the scenario's own, 90s)")
	flag.Parse()
	if flag.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %v", flag.Args())
	}
	for _, s := range strings.Split(*impls, ",") {
		impl, err := cluster.ParseImpl(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		o.impls = append(o.impls, impl)
	}
	switch *bimpl {
	case "java", "sputnik", "same":
		o.brokerImpl = *bimpl
	default:
		return nil, fmt.Errorf("-broker-impl %q: want java, sputnik or same", *bimpl)
	}
	if *tags != "" {
		o.tags = strings.Split(*tags, ",")
	}
	if *runRe != "" {
		re, err := regexp.Compile(*runRe)
		if err != nil {
			return nil, fmt.Errorf("-run: %w", err)
		}
		o.run = re
	}
	if *bconf != "" {
		o.brokerConf = map[string]string{}
		for _, kv := range strings.Split(*bconf, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("-broker-conf: %q is not key=value", kv)
			}
			o.brokerConf[k] = v
		}
	}
	return &o, nil
}

// clientGoVersion is the client-go module version built into this binary.
func clientGoVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/apache/rocketmq-client-go/v2" {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return "unknown"
}
