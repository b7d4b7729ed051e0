package main

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/tools/brokerbench"
	"github.com/sputnikmq/sputnik/tools/procfs"
)

// Topics of a run: BenchTopic takes the send load, BenchConsume is
// pre-filled and drained.
const (
	sendTopic    = "BenchTopic"
	consumeTopic = "BenchConsume"
	benchQueues  = 8
)

// implRun is everything measured against one broker.
type implRun struct {
	Impl       cluster.Impl `json:"impl"`
	Round      int          `json:"round"`
	LoadBefore string       `json:"loadavgBefore"`
	// HostSteal is the share of the machine's CPU time the host stole
	// (a virtual machine's steal) from the broker's start to its last
	// drain: a round with much of it says more about the host than the
	// brokers.
	HostSteal float64 `json:"hostStealShare"`
	// Registered is from process start to the name server listing the
	// broker (the answer to the first poll that did); RegisteredAfter from
	// process start to the last poll that did not, a lower bound.
	Registered      time.Duration `json:"startToRegisteredNanos"`
	RegisteredAfter time.Duration `json:"startToRegisteredAfterNanos"`
	// Phases place the start's steps on the same clock.
	Phases startPhases `json:"startPhases"`
	// Settled is the wait for a quiet host before the start (see settler).
	Settled settled `json:"settled"`
	IdleRSS int64   `json:"idleRSSBytes"`
	// RawSend is the closed-loop raw-frame send; JavaSend the Java client's
	// (BenchDriver) sync send; Rate the open-loop send at half Java's peak.
	RawSend  brokerbench.SendResult `json:"rawSend"`
	JavaSend map[string]float64     `json:"javaSend,omitempty"`
	// ClientGoSend is client-go's benchmark producer's sendTps.
	ClientGoSend float64                 `json:"clientGoSend,omitempty"`
	Rate         *brokerbench.SendResult `json:"rate,omitempty"`
	// Prefill is the closed-loop fill of the consume topic.
	Prefill   brokerbench.SendResult  `json:"prefill"`
	JavaDrain map[string]float64      `json:"javaDrain,omitempty"`
	GoDrain   brokerbench.DrainResult `json:"goDrain"`
	// JavaDrainCPU and GoDrainCPU: what each drain cost in CPU.
	JavaDrainCPU drainCPU      `json:"javaDrainCPU"`
	GoDrainCPU   drainCPU      `json:"goDrainCPU"`
	Memory       procfs.Memory `json:"memory"`
	Errors       []string      `json:"errors,omitempty"`
}

func (r *implRun) fail(what string, err error) {
	if err != nil {
		r.Errors = append(r.Errors, what+": "+err.Error())
		progress("%s: %s: %v", r.Impl, what, err)
	}
}

// runImpl starts a broker of impl, measures it and stops it; rate is the
// open-loop rate, 0 meaning half of this broker's own closed-loop TPS (the
// Java broker sets the rate of its round).
func (c *compare) runImpl(ctx context.Context, impl cluster.Impl, round int, rate float64) *implRun {
	r := &implRun{Impl: impl, Round: round}
	if c.settle != nil {
		r.Settled = c.settle.wait(ctx)
		progress("%s: %v", impl, r.Settled)
	}
	r.LoadBefore = procfs.LoadAvg()
	steal := procfs.StartSteal()
	defer func() { r.HostSteal = steal() }()
	name := fmt.Sprintf("bench-%s-r%d", impl, round)
	node, rss, err := c.startBroker(ctx, impl, name, r)
	if err != nil {
		r.fail("start", err)
		return r
	}
	defer func() {
		r.Memory = rss.Close()
		c.stopNode(node)
	}()
	sleepCtx(ctx, c.idle)
	r.IdleRSS = rss.Read().RSS
	progress("%s: registered after %v (not yet at %v; %v), idle RSS %.1f MiB", impl, r.Registered, r.RegisteredAfter, r.Phases, mib(r.IdleRSS))
	for _, t := range []string{sendTopic, consumeTopic} {
		r.fail("create topic "+t, brokerbench.CreateTopic(ctx, node.Addr(), t, benchQueues))
	}
	if c.ha {
		slave, err := c.startSlave(ctx, impl, name, node)
		if slave != nil {
			defer c.stopNode(slave)
		}
		if err != nil {
			r.fail("slave", err)
			return r
		}
	}
	sleepCtx(ctx, time.Second)
	c.sendPhase(ctx, r, node)
	if rate == 0 {
		rate = r.RawSend.TPS / 2
	}
	if rate > 0 {
		o := c.send
		o.Broker, o.Topic = node.Addr(), sendTopic
		o.Conns = c.rateConns
		res, err := brokerbench.SendAtRate(ctx, o, rate)
		r.fail("rate send", err)
		r.Rate = &res
		progress("%s: at %.0f/s: p99 %v p99.9 %v (late %d)", impl, rate, res.Latency.P99, res.Latency.P999, res.Late)
	}
	c.consumePhase(ctx, r, node)
	return r
}

// stopNode stops a broker and removes its store (gigabytes of commit log)
// unless -keep-store.
func (c *compare) stopNode(node *cluster.Node) {
	if err := node.Stop(30 * time.Second); err != nil {
		progress("%s: stop: %v", node.Name, err)
	}
	if !c.keepStore {
		if err := os.RemoveAll(filepath.Join(node.Dir, "store")); err != nil {
			progress("%s: remove store: %v", node.Name, err)
		}
	}
}

// startSlave starts the SLAVE of master (-ha) and waits until the master
// answers a send SUCCESS, which a SYNC_MASTER does only once the slave has
// the message.
func (c *compare) startSlave(ctx context.Context, impl cluster.Impl, name string, master *cluster.Node) (*cluster.Node, error) {
	extra := maps.Clone(c.brokerExtra)
	if impl == cluster.Sputnik {
		maps.Copy(extra, c.sputnikExtra)
	}
	slave, err := c.launcher.StartBroker(ctx, impl, cluster.BrokerOptions{Name: name, Cluster: "BenchCluster", ID: 1,
		Role: "SLAVE", Namesrv: c.namesrv.Addr(), Heap: c.brokerHeap, Extra: extra})
	if err != nil {
		return slave, err
	}
	deadline := time.Now().Add(60 * time.Second)
	req := brokerbench.SendRequest("bench_ha_probe", sendTopic, 0, []byte("probe"))
	for {
		resp, err := rawclient.Call(ctx, master.Addr(), req, 3*time.Second)
		if err == nil && resp.Code == int32(protocol.RespSuccess) {
			progress("%s: the slave confirms sends", impl)
			return slave, nil
		}
		if time.Now().After(deadline) {
			return slave, fmt.Errorf("the master does not answer SUCCESS with its slave after 60 s: %v %v", resp, err)
		}
		sleepCtx(ctx, 200*time.Millisecond)
	}
}

// startBroker starts the broker while polling the name server for it.
func (c *compare) startBroker(ctx context.Context, impl cluster.Impl, name string, r *implRun) (*cluster.Node, *procfs.Sampler, error) {
	pctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	type reg struct {
		brokerbench.Registration
		err error
	}
	regc := make(chan reg, 1)
	go func() {
		r, err := brokerbench.WaitRegistered(pctx, c.namesrv.Addr(), name, 2*time.Millisecond)
		regc <- reg{r, err}
	}()
	t0 := time.Now()
	extra := maps.Clone(c.brokerExtra)
	if impl == cluster.Sputnik {
		maps.Copy(extra, c.sputnikExtra)
	}
	role := ""
	if c.ha {
		role = "SYNC_MASTER"
	}
	node, err := c.launcher.StartBroker(ctx, impl, cluster.BrokerOptions{Name: name, Cluster: "BenchCluster",
		Namesrv: c.namesrv.Addr(), Heap: c.brokerHeap, Extra: extra, Role: role})
	if err != nil {
		return nil, nil, err
	}
	rss := procfs.StartSampler(node.Pid(), 100*time.Millisecond)
	g := <-regc
	if g.err != nil {
		return node, rss, g.err
	}
	start := bannerTime(node.StdoutPath(), t0)
	r.Registered, r.RegisteredAfter = g.By.Sub(start), max(g.After.Sub(start), 0)
	r.Phases = phasesOf(node, start)
	return node, rss, nil
}

// startPhases are the steps of a broker's start, each from the same start
// as Registered: the process created (the kernel's start time, to 10 ms),
// its exec returned to the harness, and its boot line read. A slow start
// then shows whether the time went before the broker's own code ran.
type startPhases struct {
	Forked   time.Duration `json:"forkedNanos"`
	Launched time.Duration `json:"launchedNanos"`
	Booted   time.Duration `json:"bootLineNanos"`
}

func phasesOf(node *cluster.Node, start time.Time) startPhases {
	var p startPhases
	if t, err := procfs.ProcessStart(node.Pid()); err == nil {
		p.Forked = t.Sub(start)
	}
	launched, booted := node.Launched()
	p.Launched = launched.Sub(start)
	if !booted.IsZero() {
		p.Booted = booted.Sub(start)
	}
	return p
}

func (p startPhases) String() string {
	return fmt.Sprintf("process created +%.0f ms, exec returned +%.1f ms, boot line +%.1f ms",
		ms(p.Forked), ms(p.Launched), ms(p.Booted))
}

// sendPhase runs the raw closed-loop send (profiled with perf when asked)
// and the Java client's send.
func (c *compare) sendPhase(ctx context.Context, r *implRun, node *cluster.Node) {
	o := c.send
	o.Broker, o.Topic = node.Addr(), sendTopic
	stopPerf := c.startPerf(r, node.Pid())
	res, err := brokerbench.Send(ctx, o)
	stopPerf()
	r.fail("raw send", err)
	r.RawSend = res
	progress("%s: raw send %.0f/s p99 %v (%d failed)", r.Impl, res.TPS, res.Latency.P99, res.Failed)
	if c.javaThreads > 0 {
		jr, _, err := c.javaDriver(ctx, fmt.Sprintf("driver-send-%s-r%d", r.Impl, r.Round), "send", c.namesrv.Addr(), sendTopic,
			"bench_java_producer", strconv.Itoa(c.javaThreads), secs(c.send.Warmup), secs(c.send.Duration), strconv.Itoa(c.send.BodySize))
		r.fail("java send", err)
		r.JavaSend = jr
		progress("%s: java send %.0f/s", r.Impl, jr["tps"])
	}
	if c.clientGoBench != "" {
		tps, err := c.clientGoSend(ctx, r, c.clientGoRun)
		r.fail("client-go benchmark send", err)
		r.ClientGoSend = tps
		progress("%s: client-go benchmark producer %.0f/s", r.Impl, tps)
	}
}

// consumePhase pre-fills the consume topic and times the Java and the
// client-go push consumers draining it.
func (c *compare) consumePhase(ctx context.Context, r *implRun, node *cluster.Node) {
	if c.prefill <= 0 {
		return
	}
	o := c.send
	o.Broker, o.Topic, o.Count = node.Addr(), consumeTopic, c.prefill
	res, err := brokerbench.Send(ctx, o)
	r.fail("prefill", err)
	r.Prefill = res
	n := strconv.FormatInt(c.prefill, 10)
	done := startDrainCPU(node, c.prefill)
	jr, jcpu, err := c.javaDriver(ctx, fmt.Sprintf("driver-consume-%s-r%d", r.Impl, r.Round), "consume", c.namesrv.Addr(),
		consumeTopic, fmt.Sprintf("bench_java_consumer_r%d", r.Round), n, "120")
	r.fail("java consume", err)
	r.JavaDrain = jr
	r.JavaDrainCPU = done(jcpu)
	progress("%s: java push consumer %.0f msg/s", r.Impl, jr["tps"])
	done = startDrainCPU(node, c.prefill)
	gr, gcpu, err := c.clientGoDrain(ctx, r, fmt.Sprintf("bench_go_consumer_r%d", r.Round))
	r.fail("client-go consume", err)
	r.GoDrain = gr
	r.GoDrainCPU = done(gcpu)
	progress("%s: client-go push consumer %.0f msg/s", r.Impl, gr.TPS)
}

// drainCPU is the CPU time the consumer's process, the broker and the
// whole machine (busy time of all CPUs) used while the consumer drained
// Messages messages: the consumer's from its start to its exit, the
// others' over the same span. On a machine whose CPUs both processes
// share, their sum per message bounds the drain rate; what the machine
// used besides them is everything else running (the harness, the name
// server, kernel threads such as writeback). Steal is the CPU time the
// host stole from the machine meanwhile.
type drainCPU struct {
	Messages int64         `json:"messages"`
	Consumer time.Duration `json:"consumerCPUNanos"`
	Broker   time.Duration `json:"brokerCPUNanos"`
	Machine  time.Duration `json:"machineCPUNanos"`
	Steal    time.Duration `json:"stealNanos"`
}

// perMessage is d per message in µs; zero when nothing was drained.
func (c drainCPU) perMessage(d time.Duration) float64 {
	if c.Messages <= 0 {
		return 0
	}
	return float64(d) / float64(time.Microsecond) / float64(c.Messages)
}

// startDrainCPU reads the broker's and the machine's CPU time now and
// returns a function that, given the consumer's CPU time, completes the
// drain's drainCPU. A failed read leaves its field zero.
func startDrainCPU(node *cluster.Node, messages int64) func(consumer time.Duration) drainCPU {
	broker0, berr := procfs.ProcessCPU(node.Pid())
	machine0, merr := procfs.ReadMachineTimes()
	return func(consumer time.Duration) drainCPU {
		d := drainCPU{Messages: messages, Consumer: consumer}
		if b, err := procfs.ProcessCPU(node.Pid()); err == nil && berr == nil {
			d.Broker = b - broker0
		}
		if m, err := procfs.ReadMachineTimes(); err == nil && merr == nil {
			d.Machine, d.Steal = m.Busy-machine0.Busy, m.Steal-machine0.Steal
		}
		return d
	}
}

// startPerf runs `perf record -g` on pid when -perf-dir is set.
func (c *compare) startPerf(r *implRun, pid int) func() {
	if c.perfDir == "" || r.Impl != cluster.Sputnik {
		return func() {}
	}
	out := filepath.Join(c.perfDir, fmt.Sprintf("perf-%s-r%d.data", r.Impl, r.Round))
	cmd := exec.Command("perf", "record", "-F", "499", "-g", "-p", strconv.Itoa(pid), "-o", out)
	if err := cmd.Start(); err != nil {
		r.fail("perf", err)
		return func() {}
	}
	return func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		_ = cmd.Wait()
	}
}

func secs(d time.Duration) string { return strconv.Itoa(int(d.Round(time.Second) / time.Second)) }

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// bannerTime reads the launcher's banner, "=== start #1 at <RFC3339Nano>:
// <command>", the last thing written before the process is started;
// fallback when it cannot be read.
func bannerTime(stdoutPath string, fallback time.Time) time.Time {
	f, err := os.Open(stdoutPath)
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() {
		return fallback
	}
	_, rest, ok := strings.Cut(sc.Text(), " at ")
	if !ok {
		return fallback
	}
	stamp, _, ok := strings.Cut(rest, ": ")
	if !ok {
		return fallback
	}
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return fallback
	}
	return t
}
