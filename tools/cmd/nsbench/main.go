// Command nsbench loads a name server — Sputnik's or Java's, it only needs
// an address — the way a fleet does: it registers brokers with topics
// (REGISTER_BROKER, JSON or compressed body) over connections it keeps
// open, then runs route lookups (GET_ROUTEINFO_BY_TOPIC) from several
// connections for a fixed time and reports QPS and latency percentiles.
//
//	nsbench -n 127.0.0.1:9876 -brokers 10 -topics 100 -conns 16 -duration 10s
//
// The request loop is bounded by -duration and stops by itself; it only
// talks to the address given (use loopback).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

type options struct {
	namesrv    string
	brokers    int
	topics     int
	queues     int
	conns      int
	duration   time.Duration
	warmup     time.Duration
	compressed bool
	maxFrame   int
	jsonOut    string
	lookups    bool
}

func main() {
	var o options
	flag.StringVar(&o.namesrv, "n", "127.0.0.1:9876", "name server address")
	flag.IntVar(&o.brokers, "brokers", 10, "brokers to register (one cluster)")
	flag.IntVar(&o.topics, "topics", 100, "topics per broker (all brokers serve the same topics)")
	flag.IntVar(&o.queues, "queues", 8, "read/write queues per topic")
	flag.IntVar(&o.conns, "conns", 16, "lookup connections")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "measured lookup time")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured lookup time before")
	flag.BoolVar(&o.compressed, "compressed", false, "send the compressed RegisterBrokerBody")
	flag.IntVar(&o.maxFrame, "max-frame", wire.DefaultMaxFrameLength, "client frame limit")
	flag.StringVar(&o.jsonOut, "json", "", "write the result as JSON to this file")
	flag.BoolVar(&o.lookups, "lookups", true, "run the lookup phase after registering")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "nsbench:", err)
		os.Exit(1)
	}
}

// result is what one run measured.
type result struct {
	Namesrv     string        `json:"namesrv"`
	Brokers     int           `json:"brokers"`
	Topics      int           `json:"topics"`
	Conns       int           `json:"conns"`
	RegisterDur time.Duration `json:"registerNanos"`
	BodyBytes   int           `json:"registerBodyBytes"`
	Lookups     int           `json:"lookups"`
	Errors      int           `json:"errors"`
	QPS         float64       `json:"qps"`
	P50         time.Duration `json:"p50Nanos"`
	P99         time.Duration `json:"p99Nanos"`
	P999        time.Duration `json:"p999Nanos"`
	Max         time.Duration `json:"maxNanos"`
	FirstError  string        `json:"firstError,omitempty"`
}

func run(o options) error {
	log := logrus.New()
	log.SetLevel(logrus.WarnLevel)
	entry := logrus.NewEntry(log)
	reg := remoting.NewClient(remoting.ClientConfig{Log: entry, MaxFrameLength: o.maxFrame})
	defer reg.Close() // closing drops the registrations, as a broker's exit does

	res := result{Namesrv: o.namesrv, Brokers: o.brokers, Topics: o.topics, Conns: o.conns}
	start := time.Now()
	for b := 0; b < o.brokers; b++ {
		n, err := register(reg, o, b)
		if err != nil {
			return fmt.Errorf("register broker %d: %w", b, err)
		}
		res.BodyBytes = n
	}
	res.RegisterDur = time.Since(start)
	fmt.Printf("registered %d brokers x %d topics in %v (body %d bytes)\n", o.brokers, o.topics, res.RegisterDur, res.BodyBytes)
	if err := checkRoute(reg, o); err != nil {
		return err
	}
	if o.lookups {
		lookups(o, entry, &res)
		fmt.Printf("lookups %d errors %d qps %.0f p50 %v p99 %v p99.9 %v max %v\n",
			res.Lookups, res.Errors, res.QPS, res.P50, res.P99, res.P999, res.Max)
		if res.FirstError != "" {
			fmt.Println("first error:", res.FirstError)
		}
	}
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(res, "", "  ")
		return os.WriteFile(o.jsonOut, b, 0o644)
	}
	return nil
}

func brokerName(b int) string { return fmt.Sprintf("bench-broker-%d", b) }
func topicName(t int) string  { return fmt.Sprintf("BenchTopic%d", t) }

// register sends one REGISTER_BROKER and returns the body size.
func register(cl *remoting.Client, o options, b int) (int, error) {
	req := wire.NewRequest(int32(protocol.ReqRegisterBroker))
	addr := fmt.Sprintf("127.0.0.1:%d", 30000+b*4)
	h := protocol.RegisterBrokerRequestHeader{
		BrokerName: brokerName(b), BrokerAddr: addr, ClusterName: "BenchCluster",
		HaServerAddr: fmt.Sprintf("127.0.0.1:%d", 30001+b*4), BrokerId: 0, Compressed: o.compressed,
	}
	body, err := registerBody(o, time.Now().UnixMilli())
	if err != nil {
		return 0, err
	}
	h.EncodeTo(req)
	req.Body = body
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := cl.InvokeSync(ctx, o.namesrv, req)
	if err != nil {
		return 0, err
	}
	if resp.Code != int32(protocol.RespSuccess) {
		return 0, fmt.Errorf("code %d: %s", resp.Code, resp.Remark)
	}
	return len(body), nil
}

// checkRoute makes sure a lookup works before measuring.
func checkRoute(cl *remoting.Client, o options) error {
	if o.topics == 0 {
		return nil
	}
	resp, err := lookup(cl, o.namesrv, topicName(o.topics-1))
	if err != nil {
		return fmt.Errorf("route lookup: %w", err)
	}
	if resp.Code != int32(protocol.RespSuccess) {
		return fmt.Errorf("route lookup: code %d: %s", resp.Code, resp.Remark)
	}
	fmt.Printf("route of %s: %d bytes\n", topicName(o.topics-1), len(resp.Body))
	return nil
}

func lookup(cl *remoting.Client, addr, topic string) (*wire.Command, error) {
	req := wire.NewRequest(int32(protocol.ReqGetRouteinfoByTopic))
	(&protocol.GetRouteInfoRequestHeader{Topic: topic}).EncodeTo(req)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return cl.InvokeSync(ctx, addr, req)
}

// lookups runs o.conns loops for warmup+duration and fills res.
func lookups(o options, log *logrus.Entry, res *result) {
	var (
		mu      sync.Mutex
		samples []time.Duration
		errs    int
		first   string
		wg      sync.WaitGroup
	)
	begin := time.Now()
	measureFrom := begin.Add(o.warmup)
	end := measureFrom.Add(o.duration)
	for c := 0; c < o.conns; c++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			cl := remoting.NewClient(remoting.ClientConfig{Log: log, MaxFrameLength: o.maxFrame})
			defer cl.Close()
			rng := rand.New(rand.NewPCG(seed, 7))
			var mine []time.Duration
			var myErrs int
			var myFirst string
			for now := time.Now(); now.Before(end); now = time.Now() {
				resp, err := lookup(cl, o.namesrv, topicName(rng.IntN(max(o.topics, 1))))
				took := time.Since(now)
				if err == nil && resp.Code != int32(protocol.RespSuccess) {
					err = fmt.Errorf("code %d: %s", resp.Code, resp.Remark)
				}
				if now.Before(measureFrom) {
					continue
				}
				if err != nil {
					myErrs++
					if myFirst == "" {
						myFirst = err.Error()
					}
					continue
				}
				mine = append(mine, took)
			}
			mu.Lock()
			samples = append(samples, mine...)
			errs += myErrs
			if first == "" {
				first = myFirst
			}
			mu.Unlock()
		}(uint64(c))
	}
	wg.Wait()
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	res.Lookups, res.Errors, res.FirstError = len(samples), errs, first
	res.QPS = float64(len(samples)) / o.duration.Seconds()
	res.P50, res.P99, res.P999 = pct(samples, 0.50), pct(samples, 0.99), pct(samples, 0.999)
	if len(samples) > 0 {
		res.Max = samples[len(samples)-1]
	}
}

func pct(s []time.Duration, p float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}
