package storebench

import (
	"fmt"
	"slices"
	"strings"
)

// Markdown renders the report as tables: page-cache baselines, append
// runs, the ratios issue #5 sets targets for, and recovery.
func Markdown(r *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Store benchmark (%s, %d CPUs, %s)\n\n", r.Started.Format("2006-01-02 15:04"), r.NumCPU, r.GoVersion)
	fmt.Fprintf(&b, "ASYNC_FLUSH, commit-log files of %s, index and consume-queue dispatch on, %d queues, "+
		"TAGS+KEYS+UNIQ_KEY on every message; Java 4.9.8 with %s. All numbers are warm page cache.\n\n",
		mib(int64(r.Options.SegmentSize)), r.Options.Queues, strings.Join(JavaFlags[:2], " "))
	if len(r.Options.StoreSettings) > 0 {
		fmt.Fprintf(&b, "Store settings for both: `%s`.\n\n", strings.Join(r.Options.StoreSettings, "`, `"))
	}
	writeBaselines(&b, r)
	writeAppends(&b, r)
	writeRatios(&b, r)
	writeRecoveries(&b, r)
	return b.String()
}

func writeBaselines(b *strings.Builder, r *Report) {
	if len(r.Baselines) == 0 {
		return
	}
	b.WriteString("### Page cache (pre-allocated file, no fsync but in the last method)\n\n" +
		"Each measured several times before and after the appends; on this VM the same run varies several-fold.\n\n" +
		"| method | chunk | bytes | runs | best MB/s | median MB/s | worst MB/s | most steal |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range baselineKinds(r) {
		rates := baselineRates(r, k.method, k.chunk)
		fmt.Fprintf(b, "| %s | %s | %s | %d | %.0f | %.0f | %.0f | %.1f%% |\n", k.method, mib(int64(k.chunk)), mib(k.bytes),
			len(rates), rates[len(rates)-1]/1e6, rates[len(rates)/2]/1e6, rates[0]/1e6, 100*mostSteal(r, k.method, k.chunk))
	}
	b.WriteString("\n")
}

func writeAppends(b *strings.Builder, r *Report) {
	if len(r.Appends) == 0 {
		return
	}
	b.WriteString("### Append\n\n" +
		"| size | thr | impl | round | msgs | failed | msgs/s | log MB/s | msgs/s +dispatch | p50 µs | p99 µs | p99.9 µs | peak RSS | peak anon | heap at end | load | steal | write(2) just before MB/s |\n" +
		"|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n")
	for i := range r.Appends {
		a := &r.Appends[i]
		fmt.Fprintf(b, "| %s | %d | %s | %d | %d | %s | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s | %s | %s | %.1f%% | %s |\n",
			mib(int64(a.Size)), a.Threads, a.Impl, a.Round+1, a.Messages, failed(a), a.MsgsPerSec(), a.LogBytesPerSec()/1e6,
			a.MsgsPerSecDispatched(), micros(a.Latency.P50), micros(a.Latency.P99), micros(a.Latency.P999),
			mib(a.Peak.RSS), mib(a.Peak.Anon), mib(a.Memory.HeapUsed), a.Load, 100*a.Steal, pageCacheBefore(a))
	}
	b.WriteString("\n")
}

type baselineKind struct {
	method string
	chunk  int
	bytes  int64
}

func baselineKinds(r *Report) []baselineKind {
	var out []baselineKind
	for _, x := range r.Baselines {
		k := baselineKind{x.Method, x.Chunk, x.Bytes}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// baselineRates are the bandwidths measured for method and chunk, sorted.
func baselineRates(r *Report, method string, chunk int) []float64 {
	var out []float64
	for _, x := range r.Baselines {
		if x.Method == method && x.Chunk == chunk {
			out = append(out, x.BytesPerSec())
		}
	}
	slices.Sort(out)
	return out
}

// pageCacheBefore is the bandwidth of the settle write before a ("–"
// without one).
func pageCacheBefore(a *AppendResult) string {
	if a.PageCache == nil {
		return "–"
	}
	return fmt.Sprintf("%.0f", a.PageCache.BytesPerSec()/1e6)
}

// pairedPct lists, round by round, each of impl's runs for size and
// threads as a share of the write(2) bandwidth measured just before it.
func pairedPct(r *Report, impl string, size, threads int) string {
	var out []string
	for i := range r.Appends {
		a := &r.Appends[i]
		if a.Impl == impl && a.Size == size && a.Threads == threads && a.PageCache != nil {
			out = append(out, pct(a.LogBytesPerSec(), a.PageCache.BytesPerSec()))
		}
	}
	if len(out) == 0 {
		return "–"
	}
	return strings.Join(out, ", ")
}

func failed(a *AppendResult) string {
	if a.Failed == 0 {
		return "0"
	}
	return fmt.Sprintf("%d %s", a.Failed, a.FailedStatus)
}

// mostSteal is the highest steal share of the baselines of method and chunk.
func mostSteal(r *Report, method string, chunk int) float64 {
	var most float64
	for _, x := range r.Baselines {
		if x.Method == method && x.Chunk == chunk {
			most = max(most, x.Steal)
		}
	}
	return most
}

// bestBaseline is the highest bandwidth measured for method and chunk.
func bestBaseline(r *Report, method string, chunk int) float64 {
	rates := baselineRates(r, method, chunk)
	if len(rates) == 0 {
		return 0
	}
	return rates[len(rates)-1]
}

// find is impl's best round (append rate) for size and threads.
func (r *Report) find(impl string, size, threads int) *AppendResult {
	var best *AppendResult
	for i := range r.Appends {
		a := &r.Appends[i]
		if a.Impl == impl && a.Size == size && a.Threads == threads && (best == nil || a.MsgsPerSec() > best.MsgsPerSec()) {
			best = a
		}
	}
	return best
}

func writeRatios(b *strings.Builder, r *Report) {
	if len(r.Appends) == 0 {
		return
	}
	mm, wr := bestBaseline(r, BaselineMmap, 64<<10), bestBaseline(r, BaselineWrite, 64<<10)
	wf := bestBaseline(r, BaselineWriteFlush, 64<<10)
	b.WriteString("### Ratios (targets: Sputnik ≥ 1.5× Java; ≥ 80% of page cache at 64 KiB)\n\n" +
		"Rounds alternate which store runs first (Sputnik in odd rounds). Each implementation's best round; page cache is the best baseline run of each method. " +
		"The column after it pairs each Sputnik run with the 64 KiB write(2) of the same bytes that settled the page cache just before it, round by round. " +
		"The last one is against write(2) with a thread beside it that each write wakes to fdatasync, the flush duty both stores have under ASYNC_FLUSH with Java's defaults (not a target).\n\n" +
		"| size | thr | Sputnik/Java append | Sputnik/Java +dispatch | Sputnik / mmap+memcpy | Sputnik / write(2) 64K | Java / mmap+memcpy | Sputnik / write(2) just before | Sputnik / write(2)+flush 64K |\n" +
		"|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, size := range r.Options.Sizes {
		for _, threads := range r.Options.Threads {
			s, j := r.find(Sputnik, size, threads), r.find(Java, size, threads)
			if s == nil {
				continue
			}
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", mib(int64(size)), threads,
				ratioOf(s, j, (*AppendResult).MsgsPerSec), ratioOf(s, j, (*AppendResult).MsgsPerSecDispatched),
				pct(s.LogBytesPerSec(), mm), pct(s.LogBytesPerSec(), wr), javaPct(j, mm), pairedPct(r, Sputnik, size, threads),
				pct(s.LogBytesPerSec(), wf))
		}
	}
	b.WriteString("\n")
}

func ratioOf(s, j *AppendResult, rate func(*AppendResult) float64) string {
	if j == nil || rate(j) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", rate(s)/rate(j))
}

func javaPct(j *AppendResult, base float64) string {
	if j == nil {
		return "–"
	}
	return pct(j.LogBytesPerSec(), base)
}

func pct(v, base float64) string {
	if base == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*v/base)
}

func writeRecoveries(b *strings.Builder, r *Report) {
	if len(r.Fills) == 0 && len(r.Recoveries) == 0 {
		return
	}
	b.WriteString("### Recovery (target: Sputnik ≤ 10 s after kill -9 of a 10 GB log)\n\n")
	for _, f := range r.Fills {
		fmt.Fprintf(b, "- %s wrote %s in %.1f s (%.0f MB/s), peak RSS %s, then kill -9\n",
			f.Impl, gib(f.LogBytes), float64(f.Nanos)/1e9, perSec(f.LogBytes, f.Nanos)/1e6, mib(f.Peak.RSS))
	}
	b.WriteString("\n| log | impl | last exit ok | load s | load+start s | s/GiB | RSS after open | anon after open | heap after open | peak RSS | load |\n" +
		"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, x := range r.Recoveries {
		perGiB := float64(x.OpenNanos) / 1e9 / max(float64(x.LogBytes)/(1<<30), 1e-9)
		fmt.Fprintf(b, "| %s (%s) | %s | %v | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s |\n",
			x.Case, gib(x.LogBytes), x.Impl, x.LastExitOK, float64(x.LoadNanos)/1e9, float64(x.OpenNanos)/1e9, perGiB,
			mib(x.Memory.VmRSS), mib(x.Memory.RssAnon), mib(x.Memory.HeapUsed), mib(x.Peak.RSS), x.Load)
	}
	b.WriteString("\n")
}

func mib(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func gib(n int64) string { return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30)) }

func micros(ns int64) string { return fmt.Sprintf("%.1f", float64(ns)/1e3) }
