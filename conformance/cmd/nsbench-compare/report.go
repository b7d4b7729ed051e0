package main

import (
	"cmp"
	"fmt"
	"github.com/sputnikmq/sputnik/tools/procfs"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/nsbench"
)

// The targets for Sputnik.
const (
	targetQPSRatio = 3.5
	targetP99Ratio = 0.5
	targetRSS      = 25 << 20
	targetStart    = 50 * time.Millisecond
	frameLimit     = 16 << 20 // both servers' default frame limit
)

// report is everything one run measured.
type report struct {
	Started   time.Time   `json:"started"`
	Host      host        `json:"host"`
	Config    config      `json:"config"`
	LoadStart string      `json:"loadavgStart"`
	LoadEnd   string      `json:"loadavgEnd"`
	Lookups   []lookupRun `json:"lookups"`
	Big       []bigRun    `json:"big"`
	Targets   []target    `json:"targets"`
}

type host struct {
	CPUs         int    `json:"cpus"`
	Kernel       string `json:"kernel"`
	GoVersion    string `json:"goVersion"`
	GenGOMAXPROC int    `json:"generatorGOMAXPROCS"`
	JavaHeap     string `json:"javaNamesrvHeap"`
	Pinned       string `json:"pinned,omitempty"`
	SputnikProcs int    `json:"sputnikGOMAXPROCS,omitempty"` // 0: its default
}

type config struct {
	Brokers    int           `json:"brokers"`
	Topics     int           `json:"topics"`
	Queues     int           `json:"queues"`
	Conns      int           `json:"conns"`
	Depths     []int         `json:"depths"` // requests in flight per connection, one lookup run each
	Warmup     time.Duration `json:"warmupNanos"`
	Duration   time.Duration `json:"durationNanos"`
	BigTopics  int           `json:"bigTopics"`
	BigQueues  int           `json:"bigQueues"`
	BigLookups int           `json:"bigLookups"`
}

// target is one of the targets, checked.
type target struct {
	Name   string `json:"name"`
	Want   string `json:"want"`
	Got    string `json:"got"`
	Result string `json:"result"` // PASS, MISS, or n/a when not measured
}

func newReport(c *compare) *report {
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return &report{
		Started: time.Now(),
		Host: host{CPUs: runtime.NumCPU(), Kernel: strings.TrimSpace(string(kernel)), GoVersion: runtime.Version(),
			GenGOMAXPROC: runtime.GOMAXPROCS(0), JavaHeap: c.launcher.Java.NamesrvHeap, Pinned: c.pinned,
			SputnikProcs: c.sputnikProcs},
		Config: config{Brokers: c.bench.Brokers, Topics: c.bench.Topics, Queues: c.bench.Queues, Conns: c.bench.Conns,
			Depths: c.depths, Warmup: c.bench.Warmup, Duration: c.bench.Duration,
			BigTopics: c.bigTopics, BigQueues: c.bigQueues, BigLookups: c.bigChecks},
		LoadStart: procfs.LoadAvg(),
	}
}

// lookup returns impl's representative lookup run: of several rounds, the
// one with the median QPS (the lower one of an even count); a failed run
// when none succeeded; nil when impl did not run.
func (r *report) lookup(impl cluster.Impl) *lookupRun {
	var ok []*lookupRun
	var failed *lookupRun
	for i := range r.Lookups {
		l := &r.Lookups[i]
		switch {
		case l.Impl != impl:
		case l.ok():
			ok = append(ok, l)
		case failed == nil:
			failed = l
		}
	}
	if len(ok) == 0 {
		return failed
	}
	slices.SortFunc(ok, func(a, b *lookupRun) int { return cmp.Compare(a.Bench.Lookups.QPS, b.Bench.Lookups.QPS) })
	return ok[(len(ok)-1)/2]
}

// impls lists the implementations that ran lookups, in run order.
func (r *report) impls() []cluster.Impl {
	var out []cluster.Impl
	for _, l := range r.Lookups {
		if !slices.Contains(out, l.Impl) {
			out = append(out, l.Impl)
		}
	}
	return out
}

// complete says whether every implementation ran its lookups.
func (r *report) complete() bool {
	for i := range r.Lookups {
		if !r.Lookups[i].ok() {
			return false
		}
	}
	return len(r.Lookups) > 0
}

func (r *report) missed() int {
	n := 0
	for _, t := range r.Targets {
		if t.Result == "MISS" {
			n++
		}
	}
	return n
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}

// depths lists the depths that lookups ran at, in run order (one
// request in flight when none ran).
func (r *report) depths() []int {
	var out []int
	for _, l := range r.Lookups {
		if !slices.Contains(out, l.depth()) {
			out = append(out, l.depth())
		}
	}
	if len(out) == 0 {
		return []int{1}
	}
	return out
}

// atDepth is a view of r with only the lookups run at depth d.
func (r *report) atDepth(d int) *report {
	v := *r
	v.Lookups = nil
	for _, l := range r.Lookups {
		if l.depth() == d {
			v.Lookups = append(v.Lookups, l)
		}
	}
	return &v
}

// evaluate checks the targets; a target whose inputs are missing is n/a.
// QPS and p99 are checked at every depth; memory and start time on the
// first depth's runs.
func (r *report) evaluate() {
	add := func(name, want, got, result string) {
		r.Targets = append(r.Targets, target{Name: name, Want: want, Got: got, Result: result})
	}
	depths := r.depths()
	for _, d := range depths {
		v := r.atDepth(d)
		j, s := v.lookup(cluster.Java), v.lookup(cluster.Sputnik)
		qName := "route-lookup QPS vs Java, " + inFlight(d)
		pName := "route-lookup p99 vs Java, " + inFlight(d)
		if j != nil && s != nil && j.ok() && s.ok() && j.Bench.Lookups.QPS > 0 && j.Bench.Lookups.Latency.P99 > 0 {
			q := s.Bench.Lookups.QPS / j.Bench.Lookups.QPS
			p := float64(s.Bench.Lookups.Latency.P99) / float64(j.Bench.Lookups.Latency.P99)
			add(qName, fmt.Sprintf("≥ %.1f×", targetQPSRatio), fmt.Sprintf("%.2f×", q), verdict(q >= targetQPSRatio))
			add(pName, fmt.Sprintf("≤ %.1f×", targetP99Ratio), fmt.Sprintf("%.2f×", p), verdict(p <= targetP99Ratio))
		} else {
			add(qName, fmt.Sprintf("≥ %.1f×", targetQPSRatio), "not measured", "n/a")
			add(pName, fmt.Sprintf("≤ %.1f×", targetP99Ratio), "not measured", "n/a")
		}
	}
	s := r.atDepth(depths[0]).lookup(cluster.Sputnik)
	if s != nil && s.Memory.Samples > 0 {
		peak := max(s.Memory.PeakRSS, s.Memory.HWM)
		add("Sputnik peak RSS (lookup run)", "≤ 25 MiB", mib(peak), verdict(peak <= targetRSS))
	} else {
		add("Sputnik peak RSS (lookup run)", "≤ 25 MiB", "not measured", "n/a")
	}
	if s != nil && s.Start.Listening > 0 {
		add("Sputnik start → listening", "≤ 50 ms", ms(s.Start.Listening), verdict(s.Start.Listening <= targetStart))
	} else {
		add("Sputnik start → listening", "≤ 50 ms", "not measured", "n/a")
	}
	for i := range r.Big {
		b := &r.Big[i]
		if b.Impl != cluster.Sputnik || b.Case.TopicNameLen > 0 {
			continue // the oversized body is informational: both refuse it
		}
		name := fmt.Sprintf("Sputnik %d topics, %s body: register + lookups", b.Register.Topics, b.Case.Name)
		add(name, "work", bigOutcome(b), verdict(b.worked()))
	}
}

func bigOutcome(b *bigRun) string {
	reg := "registered"
	if b.Register.OK < b.Register.Brokers {
		reg = "registration failed"
	}
	return fmt.Sprintf("%s, %d/%d routes", reg, b.Check.OK, b.Check.Asked)
}

// printMarkdown writes the tables.
func (r *report) printMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# Name server benchmark, %s\n\n", r.Started.Format("2006-01-02 15:04:05 MST"))
	pinned := "no CPU pinning"
	if r.Host.Pinned != "" {
		pinned = r.Host.Pinned
	}
	sprocs := "default"
	if r.Host.SputnikProcs > 0 {
		sprocs = strconv.Itoa(r.Host.SputnikProcs)
	}
	fmt.Fprintf(w, "%d CPUs, Linux %s, %s; generator GOMAXPROCS %d, %s; Sputnik GOMAXPROCS %s; Java name server -Xms/-Xmx %s. Load average: start %s, end %s.\n\n",
		r.Host.CPUs, r.Host.Kernel, r.Host.GoVersion, r.Host.GenGOMAXPROC, pinned, sprocs, r.Host.JavaHeap, r.LoadStart, r.LoadEnd)
	r.printLookups(w)
	r.printBig(w)
	fmt.Fprintln(w, "## Targets")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | want | got | result |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, t := range r.Targets {
		fmt.Fprintf(w, "| %s | %s | %s | **%s** |\n", t.Name, t.Want, t.Got, t.Result)
	}
	fmt.Fprintln(w)
}

// row is one line of the lookup table: a label and a value per run.
type row struct {
	label string
	val   func(*lookupRun) string
	ratio func(j, s *lookupRun) string // sputnik/java, may be nil
	// measured rows need a run whose lookups completed.
	measured bool
}

// latencyRow shows a duration per run and the sputnik/java ratio.
func latencyRow(label string, get func(*lookupRun) time.Duration) row {
	return row{label: label, measured: true,
		val:   func(l *lookupRun) string { return us(get(l)) },
		ratio: func(j, s *lookupRun) string { return ratio(float64(get(s)), float64(get(j))) }}
}

// numberRow shows a number per run, with the ratio when withRatio.
func numberRow(label, format string, get func(*lookupRun) float64, measured, withRatio bool) row {
	rw := row{label: label, measured: measured, val: func(l *lookupRun) string { return fmt.Sprintf(format, get(l)) }}
	if withRatio {
		rw.ratio = func(j, s *lookupRun) string { return ratio(get(s), get(j)) }
	}
	return rw
}

func lookupRows(cpus int) []row {
	lat := func(l *lookupRun) nsbench.Latency { return l.Bench.Lookups.Latency }
	mem := func(f func(procfs.Memory) int64) func(*lookupRun) float64 {
		return func(l *lookupRun) float64 { return float64(f(l.Memory)) / (1 << 20) }
	}
	msOf := func(f func(startTimes) time.Duration) func(*lookupRun) float64 {
		return func(l *lookupRun) float64 { return float64(f(l.Start).Nanoseconds()) / 1e6 }
	}
	return []row{
		numberRow("lookups/s", "%.0f", func(l *lookupRun) float64 { return l.Bench.Lookups.QPS }, true, true),
		latencyRow("p50", func(l *lookupRun) time.Duration { return lat(l).P50 }),
		latencyRow("p90", func(l *lookupRun) time.Duration { return lat(l).P90 }),
		latencyRow("p99", func(l *lookupRun) time.Duration { return lat(l).P99 }),
		latencyRow("p99.9", func(l *lookupRun) time.Duration { return lat(l).P999 }),
		latencyRow("max", func(l *lookupRun) time.Duration { return lat(l).Max }),
		numberRow("errors", "%.0f", func(l *lookupRun) float64 { return float64(l.Bench.Lookups.Errors) }, true, false),
		numberRow("route body (bytes)", "%.0f", func(l *lookupRun) float64 { return float64(l.Bench.Lookups.BodyMax) }, true, false),
		latencyRow("server CPU per lookup", func(l *lookupRun) time.Duration { return l.perLookup(l.ServerCPU) }),
		latencyRow("generator CPU per lookup", func(l *lookupRun) time.Duration { return l.perLookup(l.Bench.Lookups.GenCPU) }),
		numberRow("other processes (cores busy)", "%.2f", (*lookupRun).otherCores, true, false),
		numberRow("CPU-bound QPS estimate", "%.0f", func(l *lookupRun) float64 { return l.cpuBoundQPS(cpus) }, true, true),
		numberRow("server threads", "%.0f", func(l *lookupRun) float64 { return float64(l.Memory.Threads) }, false, false),
		numberRow("peak RSS, MiB (VmRSS every 100 ms)", "%.1f", mem(func(m procfs.Memory) int64 { return m.PeakRSS }), false, true),
		numberRow("VmHWM at the end, MiB", "%.1f", mem(func(m procfs.Memory) int64 { return m.HWM }), false, true),
		numberRow("start → listening, ms", "%.1f", msOf(func(s startTimes) time.Duration { return s.Listening }), false, true),
		numberRow("start → boot line, ms", "%.1f", msOf(func(s startTimes) time.Duration { return s.BootLine }), false, true),
		{label: "load average before", val: func(l *lookupRun) string { return l.LoadBefore }},
		{label: "load average after", val: func(l *lookupRun) string { return l.LoadAfter }},
	}
}

// inFlight says how a connection asks: synchronously or pipelined.
func inFlight(depth int) string {
	if depth <= 1 {
		return "1 request in flight (synchronous)"
	}
	return fmt.Sprintf("%d requests in flight (pipelined)", depth)
}

func (r *report) printLookups(w io.Writer) {
	for _, d := range r.depths() {
		r.atDepth(d).printLookupSection(w, d)
	}
}

// printLookupSection writes the lookup tables of one depth; r holds only
// its runs.
func (r *report) printLookupSection(w io.Writer, depth int) {
	c := r.Config
	fmt.Fprintf(w, "## Route lookups: %d brokers × %d topics × %d queues, %d connections × %s, warmup %v, measured %v\n\n",
		c.Brokers, c.Topics, c.Queues, c.Conns, inFlight(depth), c.Warmup, c.Duration)
	if len(r.Lookups) == 0 {
		fmt.Fprintln(w, "(not run)")
		return
	}
	if rounds := r.rounds(); rounds > 1 {
		fmt.Fprintf(w, "%d rounds, alternating; each column is the round with the implementation's median QPS.\n\n", rounds)
	}
	r.printLookupTable(w, lookupRows(r.Host.CPUs))
	fmt.Fprintln(w)
	for _, l := range r.Lookups {
		if l.Error != "" {
			fmt.Fprintf(w, "- %s round %d failed: %s\n", l.Impl, l.Round, l.Error)
		} else if e := l.Bench.Lookups.FirstError; e != "" {
			fmt.Fprintf(w, "- %s round %d first lookup error: %s\n", l.Impl, l.Round, e)
		}
	}
	fmt.Fprintln(w, "CPU per lookup is process CPU (user+system, /proc) over the measured window divided by the lookups in it;",
		"\"other processes\" is the machine's busy time minus server and generator; the CPU-bound estimate is",
		"what the QPS would be with every CPU shared by server and generator alone (CPUs ÷ their CPU per lookup).")
	fmt.Fprintln(w)
	r.printRounds(w)
}

// printLookupTable writes one column per implementation (its
// representative run) and the sputnik/java ratio when both ran.
func (r *report) printLookupTable(w io.Writer, rows []row) {
	var cols []*lookupRun
	head, rule := []string{"metric"}, []string{"---"}
	for _, impl := range r.impls() {
		cols = append(cols, r.lookup(impl))
		head, rule = append(head, string(impl)), append(rule, "---:")
	}
	j, s := r.lookup(cluster.Java), r.lookup(cluster.Sputnik)
	both := j != nil && s != nil
	if both {
		head, rule = append(head, "sputnik / java"), append(rule, "---:")
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(rule, " | "))
	for _, rw := range rows {
		cells := []string{rw.label}
		for _, l := range cols {
			cells = append(cells, orDash(!rw.measured || l.ok(), func() string { return rw.val(l) }))
		}
		if both {
			ok := rw.ratio != nil && (!rw.measured || j.ok() && s.ok())
			cells = append(cells, orDash(ok, func() string { return rw.ratio(j, s) }))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

func (r *report) rounds() int {
	n := 0
	for _, l := range r.Lookups {
		n = max(n, l.Round)
	}
	return n
}

// printRounds lists every round when there were several.
func (r *report) printRounds(w io.Writer) {
	if r.rounds() < 2 {
		return
	}
	fmt.Fprintln(w, "| round | impl | lookups/s | p99 | server CPU per lookup | other processes (cores) | load average before |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---|")
	for i := range r.Lookups {
		l := &r.Lookups[i]
		if !l.ok() {
			fmt.Fprintf(w, "| %d | %s | failed | | | | %s |\n", l.Round, l.Impl, l.LoadBefore)
			continue
		}
		fmt.Fprintf(w, "| %d | %s | %.0f | %s | %s | %.2f | %s |\n", l.Round, l.Impl, l.Bench.Lookups.QPS,
			us(l.Bench.Lookups.Latency.P99), us(l.perLookup(l.ServerCPU)), l.otherCores(), l.LoadBefore)
	}
	fmt.Fprintln(w)
}

func (r *report) printBig(w io.Writer) {
	if len(r.Big) == 0 {
		return
	}
	fmt.Fprintf(w, "## %d topics × %d queues registered by one broker, then %d random lookups\n\n",
		r.Config.BigTopics, r.Config.BigQueues, r.Config.BigLookups)
	fmt.Fprintln(w, "| body | impl | body bytes | frame > 16 MiB | registration | took | routes found | route body (bytes) | lookup p99 | RSS after register | VmHWM | alive |")
	fmt.Fprintln(w, "|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|")
	for i := range r.Big {
		b := &r.Big[i]
		reg := "OK"
		if b.Register.OK < b.Register.Brokers {
			reg = "FAILED"
		}
		over := "no"
		if b.Register.FrameBytes > frameLimit {
			over = "yes"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %d/%d | %d | %s | %s | %s | %v |\n",
			b.Case.Name, b.Impl, b.Register.BodyBytes, over, reg, ms(b.Register.Took),
			b.Check.OK, b.Check.Asked, b.Check.BodyMax, us(b.Check.Latency.P99),
			mib(b.AfterRegister.RSS), mib(b.Memory.HWM), b.Alive)
	}
	fmt.Fprintln(w)
	for i := range r.Big {
		b := &r.Big[i]
		if b.Error != "" || b.Check.FirstError != "" {
			fmt.Fprintf(w, "- %s / %s: %s", b.Case.Name, b.Impl, b.Error)
			if b.Check.FirstError != "" {
				fmt.Fprintf(w, " (first lookup error: %s)", b.Check.FirstError)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w)
}

func orDash(ok bool, f func() string) string {
	if !ok {
		return "–"
	}
	return f()
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func us(d time.Duration) string {
	return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Nanoseconds())/1e6)
}

func mib(b int64) string {
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}
