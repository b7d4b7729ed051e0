package nsbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// LookupResult is the lookup load's measured window.
type LookupResult struct {
	Conns      int           `json:"conns"`
	Depth      int           `json:"depth"`
	GoMaxProcs int           `json:"generatorGOMAXPROCS"`
	Warmup     time.Duration `json:"warmupNanos"`
	Window     time.Duration `json:"windowNanos"`
	Lookups    int           `json:"lookups"` // successful, in the window
	Errors     int           `json:"errors"`  // failed, warmup included
	FirstError string        `json:"firstError,omitempty"`
	QPS        float64       `json:"qps"`
	Latency    Latency       `json:"latency"`
	BodyMin    int           `json:"routeBodyMin"`
	BodyMax    int           `json:"routeBodyMax"`
	// GenCPU is this process's user+system CPU over the window: the
	// generator's own cost.
	GenCPU time.Duration `json:"generatorCPUNanos"`
}

// worker is one connection's loop and what it saw.
type worker struct {
	conn    *rawConn
	rng     *rand.Rand
	samples []int64 // latencies in the window, ns
	errs    int
	first   string
	bodyMin int
	bodyMax int
}

// Lookups runs o.Conns synchronous lookup loops of random topics for
// o.Warmup+o.Duration and reports the measured window. Cancelling ctx ends
// it early (with an error).
func Lookups(ctx context.Context, o Options) (LookupResult, error) {
	depth := max(o.Depth, 1)
	res := LookupResult{Conns: o.Conns, Depth: depth, GoMaxProcs: runtime.GOMAXPROCS(0), Warmup: o.Warmup}
	if o.Topics <= 0 || o.Conns <= 0 || o.Duration <= 0 {
		return res, fmt.Errorf("nsbench: lookups need topics, conns and a duration")
	}
	// frames[slot][topic] carries opaque = slot: the slot of a pipelined
	// connection that its answer frees.
	frames := make([][][]byte, depth)
	for slot := range frames {
		f, err := RouteRequests(o.Topics, o.TopicNameLen, int32(slot))
		if err != nil {
			return res, err
		}
		frames[slot] = f
	}
	begin := time.Now()
	measureFrom := begin.Add(o.Warmup)
	end := measureFrom.Add(o.Duration)
	workers := make([]*worker, o.Conns)
	for i := range workers {
		c, err := dialRaw(o.Namesrv, o.MaxFrame, end.Add(30*time.Second))
		if err != nil {
			closeWorkers(workers)
			return res, err
		}
		// A guess at the window's share, to avoid regrowing mid-run.
		expect := int(o.Duration.Seconds()*2000) + 1024
		workers[i] = &worker{conn: c, rng: rand.New(rand.NewPCG(uint64(i), 7)),
			samples: make([]int64, 0, expect), bodyMin: -1}
	}
	defer closeWorkers(workers)

	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(frames, measureFrom, end)
		}()
	}
	cpu0, cpu1, err := window(ctx, measureFrom, end, o.Hooks, func() { closeWorkers(workers) })
	wg.Wait()
	if err != nil {
		return res, err
	}
	res.GenCPU = cpu1 - cpu0
	res.Window = end.Sub(measureFrom)
	res.collect(workers)
	return res, nil
}

// window waits for the measured window, calling the hooks at its edges and
// reading this process's CPU time there; abort runs if ctx ends first.
func window(ctx context.Context, from, to time.Time, h Hooks, abort func()) (cpu0, cpu1 time.Duration, err error) {
	wait := func(t time.Time) error {
		timer := time.NewTimer(time.Until(t))
		defer timer.Stop()
		select {
		case <-ctx.Done():
			abort()
			return ctx.Err()
		case <-timer.C:
			return nil
		}
	}
	if err := wait(from); err != nil {
		return 0, 0, err
	}
	if h.MeasureStart != nil {
		h.MeasureStart()
	}
	cpu0 = ProcessCPU()
	if err := wait(to); err != nil {
		return 0, 0, err
	}
	cpu1 = ProcessCPU()
	if h.MeasureEnd != nil {
		h.MeasureEnd()
	}
	return cpu0, cpu1, nil
}

func closeWorkers(ws []*worker) {
	for _, w := range ws {
		if w != nil {
			w.conn.Close()
		}
	}
}

// run keeps len(frames) requests in flight until end (one: a synchronous
// write-then-read loop), writing the replacements of every answer of one
// read burst together, then collects the answers still due; a broken
// connection ends it early.
func (w *worker) run(frames [][][]byte, measureFrom, end time.Time) {
	depth := len(frames)
	sent := make([]time.Time, depth) // zero: the slot is free
	free := make([]int32, 0, depth)
	for slot := range depth {
		free = append(free, int32(slot))
	}
	var out []byte
	inflight := 0
	for {
		if len(free) > 0 && (inflight == 0 || !w.conn.frameBuffered()) {
			if time.Now().Before(end) {
				out = out[:0]
				for _, slot := range free {
					out = append(out, frames[slot][w.rng.IntN(len(frames[slot]))]...)
				}
				now := time.Now()
				for _, slot := range free {
					sent[slot] = now
				}
				if _, err := w.conn.nc.Write(out); err != nil {
					w.fail(err.Error())
					return
				}
				inflight += len(free)
				free = free[:0]
			} else if inflight == 0 {
				return
			}
		}
		frame, err := w.conn.readFrame()
		if err != nil {
			w.fail(err.Error())
			return
		}
		took := time.Now()
		code, n, opaque, err := ResponseHead(frame)
		switch {
		case err != nil:
			w.fail(err.Error())
			return
		case opaque < 0 || int(opaque) >= depth || sent[opaque].IsZero():
			w.fail(fmt.Sprintf("answer with opaque %d, none in flight", opaque))
			return
		}
		start := sent[opaque]
		sent[opaque] = time.Time{}
		free = append(free, opaque)
		inflight--
		if code != int32(protocol.RespSuccess) {
			w.fail(fmt.Sprintf("response code %d", code))
			continue
		}
		w.seen(n)
		if !start.Before(measureFrom) && start.Before(end) {
			w.samples = append(w.samples, int64(took.Sub(start)))
		}
	}
}

// seen records a route body's length.
func (w *worker) seen(n int) {
	if w.bodyMin < 0 || n < w.bodyMin {
		w.bodyMin = n
	}
	w.bodyMax = max(w.bodyMax, n)
}

func (w *worker) fail(msg string) {
	w.errs++
	if w.first == "" {
		w.first = msg
	}
}

func (r *LookupResult) collect(ws []*worker) {
	var all []int64
	r.BodyMin = -1
	for _, w := range ws {
		all = append(all, w.samples...)
		r.Errors += w.errs
		if r.FirstError == "" {
			r.FirstError = w.first
		}
		if w.bodyMin >= 0 && (r.BodyMin < 0 || w.bodyMin < r.BodyMin) {
			r.BodyMin = w.bodyMin
		}
		r.BodyMax = max(r.BodyMax, w.bodyMax)
	}
	r.BodyMin = max(r.BodyMin, 0)
	r.Lookups = len(all)
	r.QPS = float64(len(all)) / r.Window.Seconds()
	r.Latency = Summarize(all)
}

// ProcessCPU is this process's user plus system CPU time so far.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// RouteCheck is the result of looking up a sample of topics once each.
type RouteCheck struct {
	Asked      int     `json:"asked"`
	OK         int     `json:"ok"`
	Failed     int     `json:"failed"`
	FirstError string  `json:"firstError,omitempty"`
	BodyMin    int     `json:"routeBodyMin"`
	BodyMax    int     `json:"routeBodyMax"`
	Latency    Latency `json:"latency"`
}

// CheckRoutes looks up n distinct random topics (all of them when n is
// larger) over one raw connection, one at a time; a broken connection ends
// the check.
func CheckRoutes(ctx context.Context, o Options, n int, seed uint64) (RouteCheck, error) {
	var rc RouteCheck
	n = min(n, o.Topics)
	if n <= 0 {
		return rc, nil
	}
	c, err := dialRaw(o.Namesrv, o.MaxFrame, time.Now().Add(2*time.Minute))
	if err != nil {
		return rc, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	picks := rand.New(rand.NewPCG(seed, 11)).Perm(o.Topics)[:n]
	lat := make([]int64, 0, n)
	rc.BodyMin = -1
	for i, t := range picks {
		name := TopicName(t, o.TopicNameLen)
		frame, err := RouteRequest(name, int32(i))
		if err != nil {
			return rc, err
		}
		rc.Asked++
		start := time.Now()
		code, body, err := c.roundTrip(frame)
		lat = append(lat, int64(time.Since(start)))
		if err != nil { // the connection is gone: stop here
			rc.Failed++
			rc.FirstError = fmt.Sprintf("%s: %v", name, err)
			if ctx.Err() != nil {
				return rc, ctx.Err()
			}
			break
		}
		if code != int32(protocol.RespSuccess) {
			rc.Failed++
			if rc.FirstError == "" {
				rc.FirstError = fmt.Sprintf("%s: response code %d", name, code)
			}
			continue
		}
		rc.OK++
		if rc.BodyMin < 0 || body < rc.BodyMin {
			rc.BodyMin = body
		}
		rc.BodyMax = max(rc.BodyMax, body)
	}
	rc.BodyMin = max(rc.BodyMin, 0)
	rc.Latency = Summarize(lat)
	return rc, nil
}
