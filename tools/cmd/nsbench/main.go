// Command nsbench loads a name server — Sputnik's or Java's, it only needs
// an address — the way a fleet does: it registers brokers with topics
// (REGISTER_BROKER, JSON or compressed body) over connections it keeps
// open, one per broker, checks a sample of routes, then runs route lookups
// (GET_ROUTEINFO_BY_TOPIC, pre-encoded raw frames, one request in flight
// per connection) for a fixed time and reports QPS and latency
// percentiles. The work is in package tools/nsbench.
//
//	nsbench -n 127.0.0.1:9876 -brokers 10 -topics 100 -conns 16 -warmup 5s -duration 15s
//	nsbench -n 127.0.0.1:9876 -brokers 1 -topics 100000 -queues 8 -compressed -lookups=false
//
// The run is bounded by -warmup plus -duration and stops by itself; it
// only talks to the address given (use loopback). Exit status 1 when
// registration, the route check or the lookups fail.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/tools/nsbench"
)

func main() {
	o := nsbench.Defaults()
	var (
		jsonOut string
		lookups bool
		checks  int
		procs   int
	)
	flag.StringVar(&o.Namesrv, "n", o.Namesrv, "name server address")
	flag.IntVar(&o.Brokers, "brokers", o.Brokers, "brokers to register (one cluster)")
	flag.IntVar(&o.Topics, "topics", o.Topics, "topics per broker (all brokers serve the same topics)")
	flag.IntVar(&o.Queues, "queues", o.Queues, "read/write queues per topic")
	flag.IntVar(&o.TopicNameLen, "topic-len", 0, "pad topic names with 'x' to this length (0: BenchTopic<i>)")
	flag.BoolVar(&o.Compressed, "compressed", false, "send the compressed RegisterBrokerBody")
	flag.IntVar(&o.MaxFrame, "max-frame", o.MaxFrame, "client frame limit (bytes, length field included)")
	flag.DurationVar(&o.Heartbeat, "heartbeat", o.Heartbeat, "re-register every broker this often (0: never)")
	flag.IntVar(&o.Conns, "conns", o.Conns, "lookup connections")
	flag.IntVar(&o.Depth, "depth", 1, "requests in flight per lookup connection (above 1: pipelined)")
	flag.DurationVar(&o.Warmup, "warmup", o.Warmup, "unmeasured lookup time first")
	flag.DurationVar(&o.Duration, "duration", o.Duration, "measured lookup time")
	flag.BoolVar(&lookups, "lookups", true, "run the timed lookup load after registering")
	flag.IntVar(&checks, "checks", 300, "random topics looked up once each after registering")
	flag.IntVar(&procs, "gomaxprocs", 0, "the generator's GOMAXPROCS (0: the runtime's default)")
	flag.StringVar(&jsonOut, "json", "", "write the result as JSON to this file")
	flag.Parse()
	if procs > 0 {
		runtime.GOMAXPROCS(procs)
	}
	l := logrus.New()
	l.SetLevel(logrus.WarnLevel)
	o.Log = logrus.NewEntry(l)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := nsbench.Run(ctx, o, checks, lookups)
	report(res)
	if jsonOut != "" {
		b, jerr := json.MarshalIndent(res, "", "  ")
		if jerr == nil {
			jerr = os.WriteFile(jsonOut, b, 0o644)
		}
		err = errors.Join(err, jerr)
	}
	if err == nil && res.Lookups != nil && res.Lookups.Errors > 0 {
		err = fmt.Errorf("%d lookups failed", res.Lookups.Errors)
	}
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "nsbench:") {
			msg = "nsbench: " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(1)
	}
}

func report(res nsbench.Result) {
	r := res.Register
	form := "JSON"
	if r.Compressed {
		form = "compressed"
	}
	fmt.Printf("register: %d/%d brokers x %d topics x %d queues, %s body %d bytes (frame %d, 16 MiB = %d) in %v\n",
		r.OK, r.Brokers, r.Topics, r.Queues, form, r.BodyBytes, r.FrameBytes, 16<<20, r.Took.Round(time.Millisecond))
	if r.Error != "" {
		fmt.Println("register failed:", r.Error)
		return
	}
	c := res.Check
	fmt.Printf("routes: %d/%d random topics found, body %d..%d bytes, p50 %v p99 %v\n",
		c.OK, c.Asked, c.BodyMin, c.BodyMax, c.Latency.P50, c.Latency.P99)
	if c.FirstError != "" {
		fmt.Println("route check failed:", c.FirstError)
	}
	if lr := res.Lookups; lr != nil {
		fmt.Printf("lookups: %d in %v over %d conns × %d in flight (GOMAXPROCS %d): %.0f/s, p50 %v p90 %v p99 %v p99.9 %v max %v, body %d..%d bytes, errors %d, generator CPU %.2f µs/lookup\n",
			lr.Lookups, lr.Window, lr.Conns, lr.Depth, lr.GoMaxProcs, lr.QPS, lr.Latency.P50, lr.Latency.P90, lr.Latency.P99,
			lr.Latency.P999, lr.Latency.Max, lr.BodyMin, lr.BodyMax, lr.Errors,
			float64(lr.GenCPU.Nanoseconds())/1e3/float64(max(lr.Lookups, 1)))
		if lr.FirstError != "" {
			fmt.Println("first error:", lr.FirstError)
		}
	}
}
