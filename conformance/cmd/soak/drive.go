package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
	"github.com/sputnikmq/sputnik/conformance/rawclient"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/tools/procfs"
)

// groupsPerSlot is how many consumer groups a slot's cycles take turns
// with: a group comes back every groupsPerSlot cycles and resumes from
// the offsets its earlier members committed. A prime above the number of
// kinds, so that every group meets every kind: with as many groups as
// kinds, a slot's group would always run the same kind (and an orderly
// group would always wait out the locks of its vanished last member).
const groupsPerSlot = 13

func topicOf(slot int) string        { return fmt.Sprintf("SoakT%d", slot) }
func groupOf(slot, cycle int) string { return fmt.Sprintf("SoakCG%d_%d", slot, cycle%groupsPerSlot) }

// producerGroupOf is a cycle's producer group: one of seven, or for tx
// and jtx cycles txProducerGroup and jtxProducerGroup.
func producerGroupOf(kind string, cycle int) string {
	switch kind {
	case kindTx:
		return txProducerGroup
	case kindJTx:
		return jtxProducerGroup
	}
	return fmt.Sprintf("SoakPG%d", cycle%7)
}
func instanceOf(slot, cycle int) string { return fmt.Sprintf("soak%d-%d", slot, cycle) }

// shutsDown says whether a cycle shuts its clients down at its end (even
// cycles) or just exits (odd ones, as a killed client would).
func shutsDown(cycle int) bool { return cycle%2 == 0 }

// counts are the cycles run so far, in all and by kind.
type counts struct {
	ok, failed atomic.Int64

	mu     sync.Mutex
	byKind map[string]*kindCounts
}

type kindCounts struct {
	ok, failed int
	took       time.Duration // the ok cycles' time in all
}

func (n *counts) add(kind string, ok bool, took time.Duration) {
	if ok {
		n.ok.Add(1)
	} else {
		n.failed.Add(1)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.byKind == nil {
		n.byKind = map[string]*kindCounts{}
	}
	k := n.byKind[kind]
	if k == nil {
		k = &kindCounts{}
		n.byKind[kind] = k
	}
	if ok {
		k.ok++
		k.took += took
	} else {
		k.failed++
	}
}

// printKinds prints each kind's cycles (by Java client version with
// -java-clients) and their mean time.
func (n *counts) printKinds(kinds []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	labels := make([]string, 0, len(n.byKind))
	for l := range n.byKind {
		labels = append(labels, l)
	}
	sortLabels(labels, kinds)
	for _, l := range labels {
		k := n.byKind[l]
		mean := time.Duration(0)
		if k.ok > 0 {
			mean = k.took / time.Duration(k.ok)
		}
		fmt.Printf("  %-16s %d ok (%v each on average), %d failed\n", l, k.ok, mean.Round(10*time.Millisecond), k.failed)
	}
}

// drive runs the cycles for o.duration, sampling the servers, then checks
// that no group kept a member.
func drive(ctx context.Context, o options) int {
	runCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var n counts
	var wg sync.WaitGroup
	for slot := range o.slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runSlot(runCtx, o, slot, &n)
		}()
	}
	restarts := make(chan error, 1)
	go func() { restarts <- restartBroker(runCtx, o) }()
	s := newSampler(o.pids)
	s.print(&n)
	t := time.NewTicker(o.every)
	defer t.Stop()
	for done := false; !done; {
		select {
		case <-runCtx.Done():
			done = true
		case <-t.C:
			s.print(&n)
		}
	}
	wg.Wait()
	s.print(&n)
	status := 0
	if n.failed.Load() > 0 || n.ok.Load() == 0 {
		status = 1
	}
	if err := <-restarts; err != nil {
		fmt.Fprintln(os.Stderr, "soak: restart:", err)
		status = 1
	}
	if ctx.Err() != nil {
		return 2
	}
	left, err := membersLeft(ctx, o)
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "soak: final check:", err)
		status = 1
	case len(left) > 0:
		fmt.Printf("groups that kept members after every client had gone: %s\n", strings.Join(left, "; "))
		status = 1
	case o.broker != "":
		fmt.Println("no group kept a member after every client had gone")
	}
	if err := checkReplica(ctx, o); err != nil {
		fmt.Println("replica:", err)
		status = 1
	}
	fmt.Printf("cycles: %d received all their messages, %d failed\n", n.ok.Load(), n.failed.Load())
	n.printKinds(o.kinds)
	s.summary()
	return status
}

// runSlot runs one slot's cycles one after the other until ctx ends.
func runSlot(ctx context.Context, o options, slot int, n *counts) {
	for cycle := 0; ctx.Err() == nil; cycle++ {
		kind, start := kindOf(o.kinds, slot, cycle), time.Now()
		what := kind
		if javaKind(kind) {
			what = label(kind, clientOf(o, kind, slot, cycle))
		}
		// Not tied to ctx: a cycle started is let finish.
		out, err := cycleCommand(o, kind, slot, cycle).CombinedOutput()
		n.add(what, err == nil, time.Since(start))
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s cycle %d,%d (%s): %v: %s\n", time.Now().Format("15:04:05"), slot, cycle, what, err, strings.TrimSpace(string(out)))
		}
	}
}

// cycleCommand is a cycle's process: soak itself with -worker, or for the
// j kinds conformance/java's SoakWorker (javaclient.SoakCycle).
func cycleCommand(o options, kind string, slot, cycle int) *exec.Cmd {
	if javaKind(kind) {
		home := filepath.Join(os.TempDir(), "sputnik-soak-javaclients")
		if o.runDir != "" {
			home = filepath.Join(o.runDir, "javaclients")
		}
		c := javaclient.SoakCycle{Namesrv: o.namesrv, Topic: topicOf(slot), Group: groupOf(slot, cycle),
			ProducerGroup: producerGroupOf(kind, cycle), Instance: instanceOf(slot, cycle), Kind: kind,
			Msgs: o.msgs, Timeout: o.cycleTimeout, Shutdown: shutsDown(cycle)}
		jvm := append(append([]string{}, javaclient.SoakWorkerJVM...), "-Duser.home="+home, "-cp", classpathOf(o, kind, slot, cycle), javaclient.SoakWorkerClass)
		return exec.Command("java", append(jvm, c.Args()...)...)
	}
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return exec.Command(self, "-n", o.namesrv, "-msgs", fmt.Sprint(o.msgs), "-cycle-timeout", o.cycleTimeout.String(),
		"-kinds", strings.Join(o.kinds, ","), "-worker", fmt.Sprintf("%d,%d", slot, cycle))
}

// membersLeft asks the broker for the members of every group the cycles
// used, waiting up to 30 s for the close events of the last clients, and
// returns the groups that still list any.
func membersLeft(ctx context.Context, o options) ([]string, error) {
	if o.broker == "" {
		return nil, nil
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var left []string
		for slot := range o.slots {
			for g := range groupsPerSlot {
				group := groupOf(slot, g)
				ids, err := consumerIDs(ctx, o.broker, group)
				if err != nil {
					return nil, err
				}
				if len(ids) > 0 {
					left = append(left, group+": "+strings.Join(ids, ","))
				}
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left, nil
		}
		time.Sleep(time.Second)
	}
}

// consumerIDs is GET_CONSUMER_LIST_BY_GROUP; a group without members
// answers SYSTEM_ERROR ("no consumer for this group") on both brokers.
func consumerIDs(ctx context.Context, broker, group string) ([]string, error) {
	req := rawclient.Request(int32(protocol.ReqGetConsumerListByGroup), "consumerGroup", group)
	resp, err := rawclient.Call(ctx, broker, req, 10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("consumers of %s: %w", group, err)
	}
	if resp.Code != int32(protocol.RespSuccess) {
		return nil, nil
	}
	var list struct {
		ConsumerIDList []string `json:"consumerIdList"`
	}
	if err := rawclient.UnmarshalFastJSON(resp.Body, &list); err != nil {
		return nil, fmt.Errorf("consumers of %s: %w", group, err)
	}
	return list.ConsumerIDList, nil
}

// restartBroker restarts the broker (or, with -slave, the node
// restartTarget picks) every o.restartEvery until ctx ends, by SIGKILL,
// SIGKILL, SIGTERM, SIGTERM, and so on, each switching the implementation
// with o.switchImpl (so that each implementation is both killed and
// stopped, and starts on the store the other left either way). The nodes
// run when it returns, unless a start failed (the error).
func restartBroker(ctx context.Context, o options) error {
	if o.restartEvery <= 0 || o.brokerNode == nil {
		return nil
	}
	// Half a sample interval late, so that the samples (every o.every from
	// the start) do not read a broker as it goes down.
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(o.every / 2):
	}
	t := time.NewTicker(o.restartEvery)
	defer t.Stop()
	for i := 1; ; i++ {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		b, role := restartTarget(o, i)
		how, stop := "SIGTERM", func() error { return b.Stop(time.Minute) }
		if i%4 == 1 || i%4 == 2 {
			how, stop = "SIGKILL", b.Kill
		}
		from := b.Impl
		if err := stop(); err != nil {
			return fmt.Errorf("restart %d (%s of the %s %s): %w", i, how, from, role, err)
		}
		if o.switchImpl {
			if err := b.SwitchImpl(); err != nil {
				return err
			}
		}
		start := time.Now()
		// Not ctx: a broker stopped is started again even as the run ends.
		if err := b.Start(context.Background()); err != nil {
			return fmt.Errorf("restart %d (%s of the %s %s, start as %s): %w", i, how, from, role, b.Impl, err)
		}
		fmt.Printf("%s restart %d: %s of the %s %s, started as %s in %v\n",
			time.Now().Format("15:04:05"), i, how, from, role, b.Impl, time.Since(start).Round(time.Millisecond))
	}
}

// sampler prints the servers' memory, threads and open files.
type sampler struct {
	pids  func() []int
	first map[int]procfs.MemStatus
	last  map[int]procfs.MemStatus
}

func newSampler(pids func() []int) *sampler {
	return &sampler{pids: pids, first: map[int]procfs.MemStatus{}, last: map[int]procfs.MemStatus{}}
}

func (s *sampler) print(n *counts) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s cycles %d ok %d failed", time.Now().Format("15:04:05"), n.ok.Load(), n.failed.Load())
	for _, pid := range s.pids() {
		st, err := procfs.ReadStatus(pid)
		if err != nil {
			fmt.Fprintf(&b, " | pid %d: %v", pid, err)
			continue
		}
		if _, ok := s.first[pid]; !ok {
			s.first[pid] = st
		}
		s.last[pid] = st
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		fmt.Fprintf(&b, " | pid %d: rss %.1f MiB, anon %.1f MiB, %d threads, %d fds",
			pid, mib(st.RSS), mib(st.Anon), st.Threads, len(fds))
	}
	fmt.Println(b.String())
}

// summary prints each process's anonymous memory at the first and the last
// sample: what a long run added that no file backs (a broker restarted
// is a new process).
func (s *sampler) summary() {
	for _, pid := range s.pids() {
		f, ok1 := s.first[pid]
		l, ok2 := s.last[pid]
		if ok1 && ok2 {
			fmt.Printf("pid %d: anon %.1f -> %.1f MiB, threads %d -> %d, peak rss %.1f MiB\n",
				pid, mib(f.Anon), mib(l.Anon), f.Threads, l.Threads, mib(l.HWM))
		}
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
