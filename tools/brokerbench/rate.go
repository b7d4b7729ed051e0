package brokerbench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// drainWait bounds how long SendAtRate waits for the replies of the last
// requests after the schedule ends; requests still unanswered then count
// as failed.
const drainWait = 5 * time.Second

// lateSlack is how far behind its schedule a request may be issued before
// it counts as late.
const lateSlack = time.Millisecond

func isReplyErr(err error) bool { return errors.Is(err, ErrBadReply) }

// openConn is one open-loop connection: a writer issuing requests on its
// schedule and a reader matching replies by opaque.
type openConn struct {
	c        *conn
	o        SendOptions
	req      *wire.Command
	buf      []byte
	from, to time.Time // measured window, by scheduled time

	mu      sync.Mutex
	pending map[int32]time.Time // opaque -> scheduled time; Lock should be held
	lat     []int64             // Lock should be held
	failed  int64               // Lock should be held
	late    int64               // Lock should be held
}

// SendAtRate runs the open-loop benchmark: rate requests per second in
// total, spread evenly over o.Conns connections, for o.Warmup+o.Duration;
// latency is measured from each request's scheduled send time to its
// reply, for requests scheduled inside the measured window.
func SendAtRate(ctx context.Context, o SendOptions, rate float64) (SendResult, error) {
	if rate <= 0 {
		return SendResult{}, fmt.Errorf("brokerbench: rate %v must be positive", rate)
	}
	cs, err := dialAll(ctx, o.Broker, max(o.Conns, 1))
	if err != nil {
		return SendResult{}, err
	}
	defer closeAll(cs)
	start := time.Now().Add(10 * time.Millisecond)
	w := &window{from: start.Add(o.Warmup), to: start.Add(o.Warmup + o.Duration)}
	hooksDone := startHooks(ctx, w, o.Hooks)
	interval := time.Duration(float64(time.Second) * float64(len(cs)) / rate)
	ocs := make([]*openConn, len(cs))
	errs := make([]error, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		oc := &openConn{c: c, o: o, from: w.from, to: w.to, pending: make(map[int32]time.Time)}
		oc.req = SendRequest(o.Group, o.Topic, int32(i%max(o.Queues, 1)), Body(o.BodySize))
		ocs[i] = oc
		first := start.Add(interval * time.Duration(i) / time.Duration(len(cs)))
		wg.Go(func() { errs[i] = oc.run(ctx, first, interval) })
	}
	wg.Wait()
	<-hooksDone
	r := SendResult{Rate: rate}
	lat := make([][]int64, len(ocs))
	failed := make([]int64, len(ocs))
	for i, oc := range ocs {
		lat[i], failed[i] = oc.lat, oc.failed+int64(oc.unanswered())
		r.Late += oc.late
	}
	res, err := collect(w, start, lat, failed, errs)
	res.Rate, res.Late = rate, r.Late
	return res, err
}

// run issues the schedule and reads replies until every measured request
// is answered or drainWait passes after the schedule's end.
func (oc *openConn) run(ctx context.Context, first time.Time, interval time.Duration) error {
	readErr := make(chan error, 1)
	go func() { readErr <- oc.readLoop() }()
	werr := oc.writeLoop(ctx, first, interval)
	deadline := time.Now().Add(drainWait)
	for time.Now().Before(deadline) && oc.unanswered() > 0 && werr == nil {
		time.Sleep(5 * time.Millisecond)
	}
	oc.c.nc.Close() // ends readLoop; replies still missing count as failed
	<-readErr
	return werr
}

func (oc *openConn) writeLoop(ctx context.Context, first time.Time, interval time.Duration) error {
	for k := int32(0); ctx.Err() == nil; k++ {
		due := first.Add(interval * time.Duration(k))
		if !due.Before(oc.to) {
			return nil
		}
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		} else if -d > lateSlack && !due.Before(oc.from) {
			oc.mu.Lock()
			oc.late++
			oc.mu.Unlock()
		}
		oc.req.Opaque = k
		var err error
		if oc.buf, err = wire.AppendFrame(oc.buf[:0], oc.req); err != nil {
			return fmt.Errorf("brokerbench: encode: %w", err)
		}
		if !due.Before(oc.from) {
			oc.mu.Lock()
			oc.pending[k] = due
			oc.mu.Unlock()
		}
		if _, err := oc.c.nc.Write(oc.buf); err != nil {
			return fmt.Errorf("brokerbench: write: %w", err)
		}
	}
	return ctx.Err()
}

func (oc *openConn) readLoop() error {
	for {
		rep, err := oc.c.fr.ReadCommand()
		if err != nil {
			return err
		}
		now := time.Now()
		ok := replyError(rep) == nil
		op := rep.Opaque
		rep.Release()
		oc.mu.Lock()
		if due, found := oc.pending[op]; found {
			delete(oc.pending, op)
			if ok {
				oc.lat = append(oc.lat, int64(now.Sub(due)))
			} else {
				oc.failed++
			}
		}
		oc.mu.Unlock()
	}
}

func (oc *openConn) unanswered() int {
	oc.mu.Lock()
	defer oc.mu.Unlock()
	return len(oc.pending)
}
