package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/tools/brokerbench"
)

// The targets for Sputnik.
const (
	targetSendRatio    = 1.5
	targetLatencyRatio = 0.5
	targetConsumeRatio = 1.3
	targetIdleRSS      = 64 << 20
	targetRegistered   = 300 * time.Millisecond
)

// report is everything one run measured.
type report struct {
	Started       time.Time               `json:"started"`
	CPUs          int                     `json:"cpus"`
	GoVersion     string                  `json:"goVersion"`
	Heap          string                  `json:"javaBrokerHeap"`
	CommitLogFile string                  `json:"mappedFileSizeCommitLog"`
	Send          brokerbench.SendOptions `json:"send"`
	JavaThreads   int                     `json:"javaThreads"`
	Prefill       int64                   `json:"prefill"`
	RateConns     int                     `json:"rateConns"`
	SputnikExtra  map[string]string       `json:"sputnikExtraProps,omitempty"`
	HA            bool                    `json:"ha,omitempty"`
	Rounds        []round                 `json:"rounds"`
}

// round is Java then Sputnik.
type round struct {
	Round int     `json:"round"`
	Rate  float64 `json:"rate"` // open-loop rate: half Java's raw TPS
	// SputnikFirst: Sputnik ran first, at the rate of the round before.
	SputnikFirst bool     `json:"sputnikFirst,omitempty"`
	Java         *implRun `json:"java"`
	Sputnik      *implRun `json:"sputnik"`
}

func (r *report) complete() bool {
	for _, rd := range r.Rounds {
		if rd.Java == nil || rd.Sputnik == nil || len(rd.Java.Errors)+len(rd.Sputnik.Errors) > 0 {
			return false
		}
	}
	return len(r.Rounds) > 0
}

// row is one line of a round's table.
type row struct {
	name string
	// key names a targeted metric across rounds (the summary), where
	// name may carry the round's own rate.
	key        string
	java, sput float64
	unit       string
	// higher: bigger is better; target is the ratio (or absolute bound
	// when abs) Sputnik must reach; 0 means no target.
	higher bool
	target float64
	abs    bool
}

// value is what the target applies to: Sputnik's own value for an
// absolute bound, else the ratio Sputnik/Java (0 when Java measured
// nothing).
func (w row) value() float64 {
	switch {
	case w.abs:
		return w.sput
	case w.java > 0:
		return w.sput / w.java
	}
	return 0
}

// met reports whether the row reaches its target; measured is false when
// it has no target or a side it needs measured nothing (a zero).
func (w row) met() (ok, measured bool) {
	switch {
	case w.target == 0, w.sput <= 0, !w.abs && w.java <= 0:
		return false, false
	case w.abs:
		return w.sput <= w.target, true
	case w.higher:
		return w.value() >= w.target, true
	}
	return w.value() <= w.target, true
}

// bound is the target as the tables print it.
func (w row) bound() string {
	if w.abs {
		return "≤ " + fmtVal(w.target, w.unit)
	}
	return fmt.Sprintf("%s %.1f×", map[bool]string{true: "≥", false: "≤"}[w.higher], w.target)
}

func (w row) verdict() (ratio string, result string) {
	ratio = "–"
	if w.java > 0 {
		ratio = fmt.Sprintf("%.2f×", w.sput/w.java)
	}
	ok, measured := w.met()
	switch {
	case w.target == 0:
		return ratio, ""
	case !measured:
		return ratio, "n/a"
	case ok:
		return ratio, "PASS (" + w.bound() + ")"
	case w.abs:
		return ratio, fmt.Sprintf("MISS (%s, %.2f× over)", w.bound(), w.sput/w.target)
	}
	return ratio, "MISS (" + w.bound() + ")"
}

func fmtVal(v float64, unit string) string {
	switch unit {
	case "ms":
		return fmt.Sprintf("%.1f ms", v)
	case "MiB":
		return fmt.Sprintf("%.1f MiB", v)
	case "/s":
		return fmt.Sprintf("%.0f/s", v)
	}
	return fmt.Sprintf("%.3g", v)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func rows(rd round) []row {
	j, s := rd.Java, rd.Sputnik
	rs := []row{
		{name: "1 KiB sync send, raw frames (msg/s)", key: "1 KiB sync send, raw frames", java: j.RawSend.TPS, sput: s.RawSend.TPS, unit: "/s", higher: true, target: targetSendRatio},
		{name: "1 KiB sync send, Java client (msg/s)", java: j.JavaSend["tps"], sput: s.JavaSend["tps"], unit: "/s", higher: true},
		{name: "1000 B sync send, client-go benchmark, 1 instance (msg/s)", java: j.ClientGoSend, sput: s.ClientGoSend, unit: "/s", higher: true},
		{name: "raw sends refused (SYSTEM_BUSY etc.)", java: float64(j.RawSend.Failed), sput: float64(s.RawSend.Failed)},
		{name: "Java client sends failed (after retries)", java: j.JavaSend["failed"], sput: s.JavaSend["failed"]},
		{name: "closed-loop send p99 (ms)", java: ms(j.RawSend.Latency.P99), sput: ms(s.RawSend.Latency.P99), unit: "ms"},
	}
	if j.Rate != nil && s.Rate != nil {
		rs = append(rs,
			row{name: fmt.Sprintf("p99 at %.0f msg/s (ms)", rd.Rate), key: "open-loop p99 at half Java's raw peak", java: ms(j.Rate.Latency.P99), sput: ms(s.Rate.Latency.P99), unit: "ms", target: targetLatencyRatio},
			row{name: fmt.Sprintf("p99.9 at %.0f msg/s (ms)", rd.Rate), key: "open-loop p99.9 at half Java's raw peak", java: ms(j.Rate.Latency.P999), sput: ms(s.Rate.Latency.P999), unit: "ms", target: targetLatencyRatio})
	}
	rs = append(rs,
		row{name: "drain, Java push consumer (msg/s)", key: "drain, Java push consumer", java: j.JavaDrain["tps"], sput: s.JavaDrain["tps"], unit: "/s", higher: true, target: targetConsumeRatio},
		row{name: "drain, client-go push consumer (msg/s)", key: "drain, client-go push consumer", java: j.GoDrain.TPS, sput: s.GoDrain.TPS, unit: "/s", higher: true, target: targetConsumeRatio},
	)
	rs = append(rs, drainCPURows("Java push consumer", j.JavaDrainCPU, s.JavaDrainCPU)...)
	rs = append(rs, drainCPURows("client-go push consumer", j.GoDrainCPU, s.GoDrainCPU)...)
	return append(rs,
		row{name: "idle RSS (MiB)", key: "idle RSS (MiB)", java: mib(j.IdleRSS), sput: mib(s.IdleRSS), unit: "MiB", target: mib(targetIdleRSS), abs: true},
		row{name: "peak RSS, sampled (MiB)", java: mib(j.Memory.PeakRSS), sput: mib(s.Memory.PeakRSS), unit: "MiB"},
		row{name: "start to registered (ms)", key: "start to registered (ms)", java: ms(j.Registered), sput: ms(s.Registered), unit: "ms", target: ms(targetRegistered), abs: true},
	)
}

// drainCPURows are a drain's CPU costs per message, without targets: with
// both processes on the same CPUs, the ratio of the sums is about the
// inverse of the drain rates' ratio a CPU-bound machine allows.
func drainCPURows(consumer string, j, s drainCPU) []row {
	sum := func(c drainCPU) float64 { return c.perMessage(c.Consumer + c.Broker) }
	rest := func(c drainCPU) float64 { return c.perMessage(max(c.Machine-c.Consumer-c.Broker, 0)) }
	if j.Consumer == 0 || s.Consumer == 0 {
		return []row{{name: "broker CPU per message, " + consumer + " (µs)", java: j.perMessage(j.Broker), sput: s.perMessage(s.Broker), unit: "µs"}}
	}
	return []row{
		{name: "consumer CPU per message, " + consumer + " (µs)", java: j.perMessage(j.Consumer), sput: s.perMessage(s.Consumer), unit: "µs"},
		{name: "broker CPU per message, " + consumer + " (µs)", java: j.perMessage(j.Broker), sput: s.perMessage(s.Broker), unit: "µs"},
		{name: "consumer + broker CPU per message, " + consumer + " (µs)", java: sum(j), sput: sum(s), unit: "µs"},
		{name: "rest of the machine's CPU per message, " + consumer + " (µs)", java: rest(j), sput: rest(s), unit: "µs"},
		{name: "CPU stolen by the host per message, " + consumer + " (µs)", java: j.perMessage(j.Steal), sput: s.perMessage(s.Steal), unit: "µs"},
	}
}

func (r *report) printMarkdown(w io.Writer) {
	fmt.Fprintf(w, "Broker benchmark, %s: %d CPUs, %s; Java broker -Xms/-Xmx %s; both ASYNC_FLUSH, mappedFileSizeCommitLog %s; "+
		"%d B bodies, %d closed-loop conns, %d Java client threads, %d open-loop conns, warmup %v, measured %v, %d messages drained.\n\n",
		r.Started.Format("2006-01-02 15:04"), r.CPUs, r.GoVersion, r.Heap, r.CommitLogFile, r.Send.BodySize, r.Send.Conns,
		r.JavaThreads, r.RateConns, r.Send.Warmup, r.Send.Duration, r.Prefill)
	if r.HA {
		fmt.Fprintf(w, "**Master/slave (-ha):** each broker ran as SYNC_MASTER with a slave of its own implementation; every send waited for the slave.\n\n")
	}
	if len(r.SputnikExtra) > 0 {
		fmt.Fprintf(w, "**Diagnostic run, not like for like:** Sputnik's broker also had %v.\n\n", r.SputnikExtra)
	}
	for _, rd := range r.Rounds {
		if rd.Java == nil || rd.Sputnik == nil {
			continue
		}
		order := "Java first"
		if rd.SputnikFirst {
			order = "Sputnik first"
		}
		fmt.Fprintf(w, "Round %d, %s (load average before Java: %s, before Sputnik: %s; CPU time stolen by the host: %.1f%% during Java's run, %.1f%% during Sputnik's)\n\n",
			rd.Round, order, rd.Java.LoadBefore, rd.Sputnik.LoadBefore, 100*rd.Java.HostSteal, 100*rd.Sputnik.HostSteal)
		if rd.Java.Settled.Waited > 0 || rd.Sputnik.Settled.Waited > 0 {
			fmt.Fprintf(w, "Before Java's start: %v. Before Sputnik's: %v.\n\n", rd.Java.Settled, rd.Sputnik.Settled)
		}
		fmt.Fprintln(w, "| metric | Java 4.9.8 | Sputnik | Sputnik/Java | target |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---|")
		for _, x := range rows(rd) {
			ratio, res := x.verdict()
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", x.name, num(x.java, x.unit), num(x.sput, x.unit), ratio, res)
		}
		for _, ir := range []*implRun{rd.Java, rd.Sputnik} {
			for _, e := range ir.Errors {
				fmt.Fprintf(w, "\n%s error: %s\n", ir.Impl, e)
			}
			if ir.Rate != nil && ir.Rate.Late > 0 {
				fmt.Fprintf(w, "\n%s: %d open-loop requests went out > 1 ms late (generator behind).\n", ir.Impl, ir.Rate.Late)
			}
			if ir.Registered > targetRegistered {
				fmt.Fprintf(w, "\n%s: the name server did not list the broker %.0f ms after start and did %.0f ms after it (a slow name server widens this); %v.\n",
					ir.Impl, ms(ir.RegisteredAfter), ms(ir.Registered), ir.Phases)
			}
		}
		fmt.Fprintln(w)
	}
	r.printSummary(w)
}

// printSummary gives, for each target, the rounds that met it and the
// median over the rounds, so that a run of several rounds is read as a
// whole and not from its best or worst round. Nothing for a single round.
func (r *report) printSummary(w io.Writer) {
	type agg struct {
		row
		vals          []float64
		met, measured int
	}
	var order []string
	byKey := map[string]*agg{}
	for _, rd := range r.Rounds {
		if rd.Java == nil || rd.Sputnik == nil {
			continue
		}
		for _, x := range rows(rd) {
			ok, measured := x.met()
			if x.key == "" || !measured {
				continue
			}
			a := byKey[x.key]
			if a == nil {
				a = &agg{row: x}
				byKey[x.key] = a
				order = append(order, x.key)
			}
			a.vals = append(a.vals, x.value())
			a.measured++
			if ok {
				a.met++
			}
		}
	}
	if len(order) == 0 || byKey[order[0]].measured < 2 {
		return
	}
	fmt.Fprintln(w, "All rounds")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | met in | median | range | bound |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|")
	for _, k := range order {
		a := byKey[k]
		slices.Sort(a.vals)
		fmt.Fprintf(w, "| %s | %d of %d | %s | %s – %s | %s |\n", k, a.met, a.measured, a.show(median(a.vals)),
			a.show(a.vals[0]), a.show(a.vals[len(a.vals)-1]), a.bound())
	}
	fmt.Fprintln(w)
	r.printSteal(w)
}

// stealNoted is the host steal share above which a round is named in the
// summary: its numbers say as much about the host as about the brokers.
const stealNoted = 0.05

// printSteal sums up the host's CPU steal over the rounds.
func (r *report) printSteal(w io.Writer) {
	var java, sput []float64
	var noted []string
	for _, rd := range r.Rounds {
		if rd.Java == nil || rd.Sputnik == nil {
			continue
		}
		java, sput = append(java, rd.Java.HostSteal), append(sput, rd.Sputnik.HostSteal)
		if max(rd.Java.HostSteal, rd.Sputnik.HostSteal) > stealNoted {
			noted = append(noted, strconv.Itoa(rd.Round))
		}
	}
	if len(java) == 0 {
		return
	}
	pct := func(v []float64) string { return fmt.Sprintf("%.1f–%.1f%%", 100*slices.Min(v), 100*slices.Max(v)) }
	fmt.Fprintf(w, "CPU time stolen by the host during a broker's run: Java %s, Sputnik %s.", pct(java), pct(sput))
	if len(noted) > 0 {
		fmt.Fprintf(w, " Rounds with more than %.0f%% on either side: %s.", 100*stealNoted, strings.Join(noted, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
}

// show prints a value of the row's kind: Sputnik's own for an absolute
// bound, else a ratio.
func (w row) show(v float64) string {
	if w.abs {
		return num(v, w.unit)
	}
	return fmt.Sprintf("%.2f×", v)
}

// median of sorted values.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func num(v float64, unit string) string {
	switch {
	case unit == "":
		return fmt.Sprintf("%.0f", v)
	case v == 0:
		return "–"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
