// Command brokerbench is the raw-frame load generator of tools/brokerbench
// against one broker:
//
//	brokerbench -broker 127.0.0.1:10911 send             # closed loop, TPS + latency
//	brokerbench -broker 127.0.0.1:10911 -rate 5000 rate  # open loop at 5000 msg/s
//	brokerbench -broker 127.0.0.1:10911 -count 100000 fill
//	brokerbench -namesrv 127.0.0.1:9876 -count 100000 drain   # client-go push consumer
//
// The topic is created first (UPDATE_AND_CREATE_TOPIC, -queues queues)
// unless -create=false. The result is printed as JSON.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/sputnikmq/sputnik/tools/benchcli"
	"github.com/sputnikmq/sputnik/tools/brokerbench"
)

func main() { os.Exit(run()) }

func run() int {
	o := brokerbench.Defaults()
	var (
		namesrv, group string
		rate           float64
		create         bool
		timeout        time.Duration
		cpuprofile     string
	)
	flag.StringVar(&o.Broker, "broker", "127.0.0.1:10911", "broker address")
	flag.StringVar(&namesrv, "namesrv", "127.0.0.1:9876", "name server (drain)")
	flag.StringVar(&o.Topic, "topic", o.Topic, "topic")
	flag.StringVar(&o.Group, "group", o.Group, "producer group (send, rate, fill)")
	flag.StringVar(&group, "consumer-group", "bench_drain", "consumer group of drain")
	flag.IntVar(&o.Queues, "queues", o.Queues, "queues to spread over (and to create)")
	flag.IntVar(&o.BodySize, "size", o.BodySize, "body bytes")
	flag.IntVar(&o.Conns, "conns", o.Conns, "connections")
	flag.DurationVar(&o.Warmup, "warmup", o.Warmup, "unmeasured time")
	flag.DurationVar(&o.Duration, "duration", o.Duration, "measured time")
	flag.Int64Var(&o.Count, "count", 100000, "messages of fill and drain")
	flag.Float64Var(&rate, "rate", 1000, "open-loop rate of rate, msg/s")
	flag.BoolVar(&create, "create", true, "create the topic first")
	flag.DurationVar(&timeout, "timeout", 2*time.Minute, "drain timeout")
	flag.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: brokerbench [flags] send|rate|fill|drain")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mode := flag.Arg(0)
	if create && mode != "drain" {
		if err := brokerbench.CreateTopic(ctx, o.Broker, o.Topic, int32(o.Queues)); err != nil {
			fmt.Fprintln(os.Stderr, "brokerbench:", err)
			return 1
		}
	}
	if cpuprofile != "" {
		stopProfile, err := benchcli.StartCPUProfile(cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "brokerbench:", err)
			return 1
		}
		defer stopProfile()
	}
	var res any
	var err error
	switch mode {
	case "send":
		o.Count = 0
		res, err = brokerbench.Send(ctx, o)
	case "rate":
		res, err = brokerbench.SendAtRate(ctx, o, rate)
	case "fill":
		res, err = brokerbench.Send(ctx, o)
	case "drain":
		brokerbench.QuietClientGo()
		res, err = brokerbench.Drain(ctx, namesrv, o.Topic, group, o.Count, timeout)
	default:
		fmt.Fprintf(os.Stderr, "brokerbench: unknown mode %q\n", mode)
		return 2
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	fmt.Println(string(b))
	if err != nil {
		fmt.Fprintln(os.Stderr, "brokerbench:", err)
		return 1
	}
	return 0
}
