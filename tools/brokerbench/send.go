package brokerbench

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/tools/nsbench"
)

// SendOptions configures Send and SendAtRate.
type SendOptions struct {
	// Broker is the broker's address (host:port).
	Broker string
	// Topic, Group and Queues: messages go round-robin to queues 0..Queues-1.
	Topic  string
	Group  string
	Queues int
	// BodySize is the message body length (1024).
	BodySize int
	// Conns is the number of connections (closed loop: one request in
	// flight on each).
	Conns int
	// Warmup is sent but not measured; Duration is measured. With Count
	// > 0, Send instead stops after Count successful sends (no warmup).
	Warmup, Duration time.Duration
	Count            int64
	// Hooks run at the edges of the measured window.
	Hooks Hooks
}

// Hooks are called when the measured window starts and ends.
type Hooks struct {
	MeasureStart, MeasureEnd func()
}

// Defaults returns the options of a 1 KiB sync-send benchmark.
func Defaults() SendOptions {
	return SendOptions{Topic: "BenchTopic", Group: "bench_producer", Queues: 8, BodySize: 1024, Conns: 32,
		Warmup: 3 * time.Second, Duration: 10 * time.Second}
}

// SendResult is what a send run measured.
type SendResult struct {
	Sent    int64           `json:"sent"`   // successful sends in the window
	Failed  int64           `json:"failed"` // failed sends in the window
	Window  time.Duration   `json:"windowNanos"`
	TPS     float64         `json:"tps"`
	Rate    float64         `json:"rate,omitempty"` // SendAtRate's target
	Latency nsbench.Latency `json:"latency"`
	// Late counts open-loop requests issued more than 1 ms behind their
	// schedule (the generator could not keep up).
	Late int64 `json:"late,omitempty"`
}

// conn is one raw connection to the broker.
type conn struct {
	nc net.Conn
	w  *bufio.Writer
	fr *wire.FrameReader
}

func dial(ctx context.Context, addr string) (*conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("brokerbench: dial %s: %w", addr, err)
	}
	return &conn{nc: nc, w: bufio.NewWriterSize(nc, 64<<10), fr: wire.NewFrameReader(bufio.NewReaderSize(nc, 64<<10), 0)}, nil
}

func dialAll(ctx context.Context, addr string, n int) ([]*conn, error) {
	cs := make([]*conn, 0, n)
	for range n {
		c, err := dial(ctx, addr)
		if err != nil {
			closeAll(cs)
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func closeAll(cs []*conn) {
	for _, c := range cs {
		c.nc.Close()
	}
}

// roundTrip writes frame and reads the reply.
func (c *conn) roundTrip(frame []byte) error {
	if _, err := c.nc.Write(frame); err != nil {
		return fmt.Errorf("brokerbench: write: %w", err)
	}
	rep, err := c.fr.ReadCommand()
	if err != nil {
		return fmt.Errorf("brokerbench: read: %w", err)
	}
	defer rep.Release()
	return replyError(rep)
}

// frames pre-encodes one request per queue.
func frames(o SendOptions) ([][]byte, error) {
	body := Body(o.BodySize)
	out := make([][]byte, max(o.Queues, 1))
	for q := range out {
		f, err := SendFrame(o.Group, o.Topic, int32(q), body, int32(q))
		if err != nil {
			return nil, err
		}
		out[q] = f
	}
	return out, nil
}

// window tracks the measured window of a closed-loop run.
type window struct {
	from, to time.Time
	count    int64
	done     atomic.Int64 // successes, for Count mode
}

func (w *window) measured(start, end time.Time) bool {
	if w.count > 0 {
		return true
	}
	return !start.Before(w.from) && !end.After(w.to)
}

func (w *window) over(now time.Time) bool {
	if w.count > 0 {
		return w.done.Load() >= w.count
	}
	return !now.Before(w.to)
}

// Send runs the closed-loop benchmark: every connection sends, waits for
// the reply, and sends again. A connection error ends the run with it.
func Send(ctx context.Context, o SendOptions) (SendResult, error) {
	fs, err := frames(o)
	if err != nil {
		return SendResult{}, err
	}
	cs, err := dialAll(ctx, o.Broker, max(o.Conns, 1))
	if err != nil {
		return SendResult{}, err
	}
	defer closeAll(cs)
	start := time.Now()
	w := &window{from: start.Add(o.Warmup), to: start.Add(o.Warmup + o.Duration), count: o.Count}
	if o.Count > 0 {
		w.from = start
	}
	hooksDone := startHooks(ctx, w, o.Hooks)
	lat := make([][]int64, len(cs))
	failed := make([]int64, len(cs))
	errs := make([]error, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() { lat[i], failed[i], errs[i] = sendLoop(ctx, c, fs, i, w) })
	}
	wg.Wait()
	<-hooksDone
	return collect(w, start, lat, failed, errs)
}

// sendLoop is one closed-loop connection.
func sendLoop(ctx context.Context, c *conn, fs [][]byte, seed int, w *window) ([]int64, int64, error) {
	var lat []int64
	var failed int64
	for i := seed; ctx.Err() == nil; i++ {
		t0 := time.Now()
		if w.over(t0) {
			break
		}
		err := c.roundTrip(fs[i%len(fs)])
		t1 := time.Now()
		if err != nil && !isReplyErr(err) {
			return lat, failed, err
		}
		if !w.measured(t0, t1) {
			continue
		}
		if err != nil {
			failed++
			continue
		}
		w.done.Add(1)
		lat = append(lat, int64(t1.Sub(t0)))
	}
	return lat, failed, ctx.Err()
}

// startHooks calls the hooks at the window's edges from a goroutine; the
// returned channel is closed once both ran (or ctx ended).
func startHooks(ctx context.Context, w *window, h Hooks) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		measureHooks(ctx, w, h)
	}()
	return done
}

func measureHooks(ctx context.Context, w *window, h Hooks) {
	if w.count > 0 {
		return
	}
	sleepUntil(ctx, w.from)
	if h.MeasureStart != nil {
		h.MeasureStart()
	}
	sleepUntil(ctx, w.to)
	if h.MeasureEnd != nil {
		h.MeasureEnd()
	}
}

func sleepUntil(ctx context.Context, t time.Time) {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-timer.C:
	}
}

func collect(w *window, start time.Time, lat [][]int64, failed []int64, errs []error) (SendResult, error) {
	var all []int64
	var r SendResult
	for i := range lat {
		all = append(all, lat[i]...)
		r.Failed += failed[i]
	}
	r.Sent = int64(len(all))
	r.Window = w.to.Sub(w.from)
	if w.count > 0 {
		r.Window = time.Since(start)
	}
	if r.Window > 0 {
		r.TPS = float64(r.Sent) / r.Window.Seconds()
	}
	r.Latency = nsbench.Summarize(all)
	for _, err := range errs {
		if err != nil {
			return r, err
		}
	}
	return r, nil
}
