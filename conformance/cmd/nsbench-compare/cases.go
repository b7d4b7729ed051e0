package main

import (
	"context"
	"fmt"
	"github.com/sputnikmq/sputnik/tools/procfs"
	"os"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/tools/nsbench"
)

// lookupRun is the route-lookup benchmark against one implementation.
type lookupRun struct {
	Impl  cluster.Impl   `json:"impl"`
	Round int            `json:"round"`
	Depth int            `json:"depth"` // requests in flight per connection
	Start startTimes     `json:"start"`
	Bench nsbench.Result `json:"bench"`
	// ServerCPU is the server process's CPU over the measured window;
	// MachineBusy is every CPU's busy time over it (all processes).
	ServerCPU   time.Duration `json:"serverCPUNanos"`
	MachineBusy time.Duration `json:"machineBusyNanos"`
	Memory      procfs.Memory `json:"memory"` // at the end of the run
	LoadBefore  string        `json:"loadavgBefore"`
	LoadAfter   string        `json:"loadavgAfter"`
	Error       string        `json:"error,omitempty"`
}

// depth is the run's requests in flight per connection (at least one).
func (r *lookupRun) depth() int { return max(r.Depth, 1) }

// ok says whether the lookups ran.
func (r *lookupRun) ok() bool { return r.Error == "" && r.Bench.Lookups != nil }

// perLookup divides a CPU time by the measured lookups.
func (r *lookupRun) perLookup(d time.Duration) time.Duration {
	if !r.ok() || r.Bench.Lookups.Lookups == 0 {
		return 0
	}
	return d / time.Duration(r.Bench.Lookups.Lookups)
}

// otherCores is how many cores processes other than the server and the
// generator kept busy during the window.
func (r *lookupRun) otherCores() float64 {
	if !r.ok() || r.Bench.Lookups.Window <= 0 {
		return 0
	}
	other := r.MachineBusy - r.ServerCPU - r.Bench.Lookups.GenCPU
	return max(other.Seconds(), 0) / r.Bench.Lookups.Window.Seconds()
}

// cpuBoundQPS is the QPS the server and the generator would reach with
// cpus CPUs to themselves: cpus ÷ their CPU per lookup.
func (r *lookupRun) cpuBoundQPS(cpus int) float64 {
	per := r.perLookup(r.ServerCPU) + r.perLookup(r.Bench.Lookups.GenCPU)
	if per <= 0 {
		return 0
	}
	return float64(cpus) / per.Seconds()
}

// runLookups starts a fresh name server of impl, registers the brokers,
// runs the lookup load and stops the server.
func (c *compare) runLookups(ctx context.Context, impl cluster.Impl, round, depth int) (r lookupRun) {
	r = lookupRun{Impl: impl, Round: round, Depth: depth, LoadBefore: procfs.LoadAvg()}
	defer func() { r.LoadAfter = procfs.LoadAvg() }()
	s, err := c.startServer(ctx, impl, "lookup")
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Start = s.start
	pid := s.node.Pid()
	if c.pinServer != nil {
		restore, err := c.pinLookups(pid)
		if err != nil {
			r.Error = err.Error()
			r.Memory = s.stop()
			return r
		}
		defer restore()
	}
	o := c.bench
	o.Namesrv, o.Depth = s.node.Addr(), depth
	var cpu0, busy0 time.Duration
	o.Hooks = nsbench.Hooks{
		MeasureStart: func() {
			cpu0, _ = procfs.ProcessCPU(pid)
			busy0, _ = procfs.MachineCPU()
		},
		MeasureEnd: func() {
			cpu1, err1 := procfs.ProcessCPU(pid)
			busy1, err2 := procfs.MachineCPU()
			if err1 == nil && err2 == nil {
				r.ServerCPU, r.MachineBusy = cpu1-cpu0, busy1-busy0
			}
		},
	}
	r.Bench, err = nsbench.Run(ctx, o, 100, true)
	if err != nil {
		r.Error = err.Error()
	}
	r.Memory = s.stop()
	return r
}

// bigCase is one way of registering the 100,000 topics.
type bigCase struct {
	Name         string `json:"name"`
	Compressed   bool   `json:"compressed"`
	TopicNameLen int    `json:"topicNameLen"`
}

// bigRun is a big registration against one implementation.
type bigRun struct {
	Case     bigCase            `json:"case"`
	Impl     cluster.Impl       `json:"impl"`
	Register nsbench.Registered `json:"register"`
	Check    nsbench.RouteCheck `json:"check"`
	// Alive: the server still ran after registering and looking up.
	Alive bool `json:"alive"`
	// AfterRegister is the procfs.Memory once registration returned; Memory is
	// at the end (after the lookups).
	AfterRegister procfs.Memory `json:"afterRegister"`
	Memory        procfs.Memory `json:"memory"`
	Error         string        `json:"error,omitempty"`
}

// worked says whether registration and every sampled lookup succeeded.
func (r *bigRun) worked() bool {
	return r.Error == "" && r.Register.OK == r.Register.Brokers && r.Check.Asked > 0 && r.Check.OK == r.Check.Asked
}

// runBig starts a fresh name server, registers one broker with the big
// topic set, looks a sample of topics up and stops the server.
func (c *compare) runBig(ctx context.Context, impl cluster.Impl, bc bigCase) bigRun {
	r := bigRun{Case: bc, Impl: impl}
	s, err := c.startServer(ctx, impl, "big-"+bc.Name)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	o := c.bench
	o.Namesrv = s.node.Addr()
	o.Brokers, o.Topics, o.Queues = 1, c.bigTopics, c.bigQueues
	o.Compressed, o.TopicNameLen, o.Heartbeat = bc.Compressed, bc.TopicNameLen, 0
	reg, err := nsbench.Register(ctx, o)
	r.Register = reg.Registered
	r.AfterRegister = s.rss.Read()
	if err != nil {
		r.Error = err.Error()
	}
	// Look up even after a failed registration: the server must still
	// answer (TOPIC_NOT_EXIST) rather than have died.
	r.Check, err = nsbench.CheckRoutes(ctx, o, c.bigChecks, 2)
	if err != nil && r.Error == "" {
		r.Error = err.Error()
	}
	r.Alive = s.node.Running()
	if err := reg.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "nsbench-compare: close registration:", err)
	}
	r.Memory = s.stop()
	return r
}

// bigCases lists the registrations of the 100k-topic test: plain JSON and
// compressed bodies with the default names, and plain JSON with names long
// enough to push the body past the 16 MiB frame (when longName > 0).
func bigCases(longName int) []bigCase {
	cs := []bigCase{{Name: "plain"}, {Name: "compressed", Compressed: true}}
	if longName > 0 {
		cs = append(cs, bigCase{Name: fmt.Sprintf("plain-names%d", longName), TopicNameLen: longName})
	}
	return cs
}
