package main

import (
	"fmt"
	"io"
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
	name       string
	java, sput float64
	unit       string
	// higher: bigger is better; target is the ratio (or absolute bound
	// when abs) Sputnik must reach; 0 means no target.
	higher bool
	target float64
	abs    bool
}

func (w row) verdict() (ratio string, result string) {
	r := 0.0
	if w.java > 0 {
		r = w.sput / w.java
		ratio = fmt.Sprintf("%.2f×", r)
	} else {
		ratio = "–"
	}
	switch {
	case w.target == 0:
		return ratio, ""
	case w.abs && w.sput <= w.target:
		return ratio, fmt.Sprintf("PASS (≤ %s)", fmtVal(w.target, w.unit))
	case w.abs:
		return ratio, fmt.Sprintf("MISS (≤ %s, %.2f× over)", fmtVal(w.target, w.unit), w.sput/w.target)
	case w.java <= 0 || w.sput <= 0:
		return ratio, "n/a"
	case w.higher && r >= w.target, !w.higher && r <= w.target:
		return ratio, fmt.Sprintf("PASS (%s %.1f×)", map[bool]string{true: "≥", false: "≤"}[w.higher], w.target)
	}
	return ratio, fmt.Sprintf("MISS (%s %.1f×)", map[bool]string{true: "≥", false: "≤"}[w.higher], w.target)
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
		{name: "1 KiB sync send, raw frames (msg/s)", java: j.RawSend.TPS, sput: s.RawSend.TPS, unit: "/s", higher: true, target: targetSendRatio},
		{name: "1 KiB sync send, Java client (msg/s)", java: j.JavaSend["tps"], sput: s.JavaSend["tps"], unit: "/s", higher: true},
		{name: "1000 B sync send, client-go benchmark, 1 instance (msg/s)", java: j.ClientGoSend, sput: s.ClientGoSend, unit: "/s", higher: true},
		{name: "raw sends refused (SYSTEM_BUSY etc.)", java: float64(j.RawSend.Failed), sput: float64(s.RawSend.Failed)},
		{name: "Java client sends failed (after retries)", java: j.JavaSend["failed"], sput: s.JavaSend["failed"]},
		{name: "closed-loop send p99 (ms)", java: ms(j.RawSend.Latency.P99), sput: ms(s.RawSend.Latency.P99), unit: "ms"},
	}
	if j.Rate != nil && s.Rate != nil {
		rs = append(rs,
			row{name: fmt.Sprintf("p99 at %.0f msg/s (ms)", rd.Rate), java: ms(j.Rate.Latency.P99), sput: ms(s.Rate.Latency.P99), unit: "ms", target: targetLatencyRatio},
			row{name: fmt.Sprintf("p99.9 at %.0f msg/s (ms)", rd.Rate), java: ms(j.Rate.Latency.P999), sput: ms(s.Rate.Latency.P999), unit: "ms", target: targetLatencyRatio})
	}
	return append(rs,
		row{name: "drain, Java push consumer (msg/s)", java: j.JavaDrain["tps"], sput: s.JavaDrain["tps"], unit: "/s", higher: true, target: targetConsumeRatio},
		row{name: "drain, client-go push consumer (msg/s)", java: j.GoDrain.TPS, sput: s.GoDrain.TPS, unit: "/s", higher: true, target: targetConsumeRatio},
		row{name: "idle RSS (MiB)", java: mib(j.IdleRSS), sput: mib(s.IdleRSS), unit: "MiB", target: mib(targetIdleRSS), abs: true},
		row{name: "peak RSS, sampled (MiB)", java: mib(j.Memory.PeakRSS), sput: mib(s.Memory.PeakRSS), unit: "MiB"},
		row{name: "start to registered (ms)", java: ms(j.Registered), sput: ms(s.Registered), unit: "ms", target: ms(targetRegistered), abs: true},
	)
}

func (r *report) printMarkdown(w io.Writer) {
	fmt.Fprintf(w, "Broker benchmark, %s: %d CPUs, %s; Java broker -Xms/-Xmx %s; both ASYNC_FLUSH, mappedFileSizeCommitLog %s; "+
		"%d B bodies, %d closed-loop conns, %d Java client threads, %d open-loop conns, warmup %v, measured %v, %d messages drained.\n\n",
		r.Started.Format("2006-01-02 15:04"), r.CPUs, r.GoVersion, r.Heap, r.CommitLogFile, r.Send.BodySize, r.Send.Conns,
		r.JavaThreads, r.RateConns, r.Send.Warmup, r.Send.Duration, r.Prefill)
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
		fmt.Fprintf(w, "Round %d, %s (load average before Java: %s, before Sputnik: %s)\n\n", rd.Round, order, rd.Java.LoadBefore, rd.Sputnik.LoadBefore)
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
				fmt.Fprintf(w, "\n%s: the name server did not list the broker %.0f ms after start and did %.0f ms after it (a slow name server widens this).\n",
					ir.Impl, ms(ir.RegisteredAfter), ms(ir.Registered))
			}
		}
		fmt.Fprintln(w)
	}
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
