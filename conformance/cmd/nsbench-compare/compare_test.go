package main

import (
	"bytes"
	"fmt"
	"github.com/sputnikmq/sputnik/tools/procfs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/nsbench"
)

func TestProcfs(t *testing.T) {
	m, err := procfs.ReadStatus(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS <= 0 || m.HWM < m.RSS || m.Threads <= 0 {
		t.Errorf("status %+v", m)
	}
	if _, err := procfs.ProcessCPU(os.Getpid()); err != nil {
		t.Error(err)
	}
	if busy, err := procfs.MachineCPU(); err != nil || busy <= 0 {
		t.Errorf("machine CPU %v, %v", busy, err)
	}
	if la := procfs.LoadAvg(); len(strings.Fields(la)) != 3 {
		t.Errorf("loadavg %q", la)
	}
	s := procfs.StartSampler(os.Getpid(), time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	if got := s.Close(); got.Samples < 2 || got.PeakRSS <= 0 {
		t.Errorf("sampler %+v", got)
	}
}

func TestBannerTime(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	path := filepath.Join(dir, "stdout.log")
	banner := "=== start #1 at " + at.Format(time.RFC3339Nano) + ": /x/mqnamesrv -c /x/namesrv.properties\nThe Name Server boot success. serializeType=JSON\n"
	if err := os.WriteFile(path, []byte(banner), 0o644); err != nil {
		t.Fatal(err)
	}
	fallback := time.Now()
	if got := bannerTime(path, fallback); !got.Equal(at) {
		t.Errorf("banner time %v, want %v", got, at)
	}
	if got := bannerTime(filepath.Join(dir, "missing"), fallback); !got.Equal(fallback) {
		t.Errorf("missing file: %v", got)
	}
}

func fakeRun(impl cluster.Impl, qps float64, p99 time.Duration) lookupRun {
	lr := &nsbench.LookupResult{Conns: 16, Window: 15 * time.Second, Lookups: int(qps * 15), QPS: qps,
		Latency: nsbench.Latency{P50: p99 / 4, P99: p99}, GenCPU: time.Second, BodyMax: 1955}
	return lookupRun{Impl: impl, Bench: nsbench.Result{Lookups: lr}, ServerCPU: 10 * time.Second,
		MachineBusy: 25 * time.Second, Memory: procfs.Memory{PeakRSS: 12 << 20, HWM: 13 << 20, Samples: 5},
		Start: startTimes{Listening: 5 * time.Millisecond}}
}

func TestReport(t *testing.T) {
	r := &report{
		Config:  config{Brokers: 10, Topics: 100, Queues: 8, Conns: 16, BigTopics: 100000, BigQueues: 8, BigLookups: 300},
		Lookups: []lookupRun{fakeRun(cluster.Java, 10000, 4*time.Millisecond), fakeRun(cluster.Sputnik, 40000, time.Millisecond)},
		Big: []bigRun{{Case: bigCase{Name: "compressed", Compressed: true}, Impl: cluster.Sputnik,
			Register: nsbench.Registered{Brokers: 1, OK: 1, Topics: 100000}, Check: nsbench.RouteCheck{Asked: 300, OK: 300}, Alive: true}},
	}
	r.evaluate()
	want := map[string]string{
		"route-lookup QPS vs Java, 1 request in flight (synchronous)": "PASS",
		"route-lookup p99 vs Java, 1 request in flight (synchronous)": "PASS",
		"Sputnik peak RSS (lookup run)":                               "PASS",
		"Sputnik start → listening":                                   "PASS",
		"Sputnik 100000 topics, compressed body: register + lookups":  "PASS",
	}
	for _, tg := range r.Targets {
		if want[tg.Name] != tg.Result {
			t.Errorf("target %q: %s (%s), want %s", tg.Name, tg.Result, tg.Got, want[tg.Name])
		}
		delete(want, tg.Name)
	}
	if len(want) > 0 {
		t.Errorf("targets not evaluated: %v", want)
	}
	if !r.complete() || r.missed() != 0 {
		t.Errorf("complete %v missed %d", r.complete(), r.missed())
	}
	var out bytes.Buffer
	r.printMarkdown(&out)
	for _, s := range []string{"| lookups/s | 10000 | 40000 | 4.00× |", "| p99 | 4000.0 µs | 1000.0 µs | 0.25× |",
		"| other processes (cores busy) | 0.93 | 0.93 |", "| compressed | sputnik |",
		"| route-lookup QPS vs Java, 1 request in flight (synchronous) | ≥ 3.5× | 4.00× | **PASS** |"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}

	// A slower Sputnik misses; a failed run makes the targets n/a.
	r.Lookups[1] = fakeRun(cluster.Sputnik, 20000, 3*time.Millisecond)
	r.Targets = nil
	r.evaluate()
	if r.missed() != 2 {
		t.Errorf("missed %d, want 2: %+v", r.missed(), r.Targets)
	}
	r.Lookups[1].Error = "boom"
	r.Targets = nil
	r.evaluate()
	if r.complete() || r.Targets[0].Result != "n/a" {
		t.Errorf("failed run: complete %v, %+v", r.complete(), r.Targets[0])
	}
}

// Runs at several depths get a section and a pair of targets each; a
// miss at one depth is not hidden by a pass at another.
func TestReportDepths(t *testing.T) {
	r := &report{Config: config{Brokers: 10, Topics: 100, Queues: 8, Conns: 16, Depths: []int{1, 8}}}
	add := func(impl cluster.Impl, depth int, qps float64, p99 time.Duration) {
		l := fakeRun(impl, qps, p99)
		l.Depth = depth
		r.Lookups = append(r.Lookups, l)
	}
	add(cluster.Java, 1, 10000, 2*time.Millisecond)
	add(cluster.Sputnik, 1, 30000, 2*time.Millisecond)
	add(cluster.Java, 8, 20000, 8*time.Millisecond)
	add(cluster.Sputnik, 8, 100000, time.Millisecond)
	r.evaluate()
	got := map[string]string{}
	for _, tg := range r.Targets {
		got[tg.Name] = tg.Result + " " + tg.Got
	}
	for name, want := range map[string]string{
		"route-lookup QPS vs Java, 1 request in flight (synchronous)": "MISS 3.00×",
		"route-lookup p99 vs Java, 1 request in flight (synchronous)": "MISS 1.00×",
		"route-lookup QPS vs Java, 8 requests in flight (pipelined)":  "PASS 5.00×",
		"route-lookup p99 vs Java, 8 requests in flight (pipelined)":  "PASS 0.12×",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	var out bytes.Buffer
	r.printMarkdown(&out)
	for _, s := range []string{"16 connections × 1 request in flight (synchronous)", "16 connections × 8 requests in flight (pipelined)",
		"| lookups/s | 10000 | 30000 | 3.00× |", "| lookups/s | 20000 | 100000 | 5.00× |"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
}

func TestPin(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	if err := pin(cmd.Process.Pid, []int{1}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Cpus_allowed_list:\t1\n") {
		t.Errorf("affinity not set:\n%s", b)
	}
}

func TestMedianRound(t *testing.T) {
	r := &report{Host: host{CPUs: 2}}
	for round, qps := range [][2]float64{{10000, 40000}, {30000, 20000}, {20000, 50000}} {
		j, s := fakeRun(cluster.Java, qps[0], time.Millisecond), fakeRun(cluster.Sputnik, qps[1], time.Millisecond)
		j.Round, s.Round = round+1, round+1
		r.Lookups = append(r.Lookups, j, s)
	}
	if j := r.lookup(cluster.Java); j.Round != 3 {
		t.Errorf("java median round %d, want 3", j.Round)
	}
	if s := r.lookup(cluster.Sputnik); s.Round != 1 {
		t.Errorf("sputnik median round %d, want 1", s.Round)
	}
	r.evaluate()
	if r.Targets[0].Got != "2.00×" {
		t.Errorf("QPS ratio %s, want 2.00×", r.Targets[0].Got)
	}
	var out bytes.Buffer
	r.printMarkdown(&out)
	for _, want := range []string{"3 rounds", "| 2 | sputnik | 20000 |", "| lookups/s | 20000 | 40000 | 2.00× |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
