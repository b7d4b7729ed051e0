// Package nsbench loads a name server — Sputnik's or Java's, it only needs
// an address — the way a fleet does: brokers register their topics
// (REGISTER_BROKER with a JSON or compressed body) over connections kept
// open for the whole run, one per broker, then clients look routes up
// (GET_ROUTEINFO_BY_TOPIC) from several connections for a fixed time.
//
// Registration goes through remoting.Client, as a broker would. The lookup
// load is raw frames: every request frame is encoded once up front (JSON
// header, version 409, as the 4.9.8 Java client sends it), and each
// connection writes a frame and reads the answer synchronously, parsing
// only the frame length and the response code, so that the generator
// spends as little CPU per lookup as possible and the server's cost
// dominates what is measured.
//
// Everything is bounded: lookups stop after Warmup+Duration, sockets carry
// a deadline past that, and only the address given is contacted.
package nsbench

import (
	"context"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Options describe one benchmark run.
type Options struct {
	// Namesrv is the name server's address, host:port.
	Namesrv string
	// Brokers register in one cluster, each serving every topic.
	Brokers int
	// Topics per broker, named BenchTopic<i> (see TopicNameLen).
	Topics int
	// Queues is each topic's read and write queue count.
	Queues int
	// TopicNameLen pads topic names with 'x' to this length (0: no
	// padding); it grows the plain JSON body past the 16 MiB frame.
	TopicNameLen int
	// Compressed sends RegisterBrokerBody.encode(true)'s zlib form.
	Compressed bool
	// MaxFrame bounds the frames the registration client reads.
	MaxFrame int
	// Heartbeat re-registers every broker this often, as a broker does
	// every 30 s, so that runs longer than the name server's 120 s expiry
	// keep their routes; 0 turns it off.
	Heartbeat time.Duration

	// Conns is the number of lookup connections.
	Conns int
	// Depth is the number of requests each connection keeps in flight
	// (0 and 1: one, a synchronous write-then-read loop). Above one the
	// generator pipelines, as a Java client does when many threads share
	// its one channel to a name server: it matches answers by opaque and
	// writes the replacements of every answer read in one burst together.
	Depth int
	// Warmup is unmeasured lookup time before Duration.
	Warmup, Duration time.Duration
	// Hooks are told when the measured window starts and ends.
	Hooks Hooks

	// Log receives the registration client's log lines; nil discards.
	Log *logrus.Entry
}

// Hooks let a caller sample other processes (server CPU, memory) over
// exactly the measured window. Either may be nil.
type Hooks struct {
	MeasureStart func()
	MeasureEnd   func()
}

// Defaults returns the configuration: 10 brokers, 100 topics of 8
// queues, 16 connections, 5 s warmup and 15 s measured.
func Defaults() Options {
	return Options{
		Namesrv: "127.0.0.1:9876", Brokers: 10, Topics: 100, Queues: 8,
		MaxFrame: wire.DefaultMaxFrameLength, Heartbeat: 30 * time.Second,
		Conns: 16, Warmup: 5 * time.Second, Duration: 15 * time.Second,
	}
}

func (o *Options) log() *logrus.Entry {
	if o.Log != nil {
		return o.Log
	}
	l := logrus.New()
	l.SetLevel(logrus.PanicLevel)
	return logrus.NewEntry(l)
}

// Result is what Run measured.
type Result struct {
	Namesrv  string        `json:"namesrv"`
	Register Registered    `json:"register"`
	Check    RouteCheck    `json:"check"`
	Lookups  *LookupResult `json:"lookups,omitempty"`
}

// Run registers the brokers, checks a few routes, runs the lookup load
// when lookups is true, and unregisters by closing the brokers'
// connection. A failed registration is returned as an error together with
// what was measured so far.
func Run(ctx context.Context, o Options, checks int, lookups bool) (Result, error) {
	res := Result{Namesrv: o.Namesrv}
	reg, err := Register(ctx, o)
	if reg != nil {
		res.Register = reg.Registered
		defer reg.Close()
	}
	if err != nil {
		return res, err
	}
	if res.Check, err = CheckRoutes(ctx, o, checks, 1); err != nil {
		return res, err
	}
	if res.Check.Asked > 0 && res.Check.OK == 0 {
		return res, fmt.Errorf("no route lookup succeeded: %s", res.Check.FirstError)
	}
	if lookups {
		lr, err := Lookups(ctx, o)
		if err != nil {
			return res, err
		}
		res.Lookups = &lr
	}
	return res, nil
}
