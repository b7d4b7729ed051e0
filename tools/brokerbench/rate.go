package brokerbench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"syscall"
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

// openConn is one open-loop connection: the pacer issues requests on it
// and a reader matches replies by opaque.
type openConn struct {
	c        *conn
	o        SendOptions
	req      *wire.Command
	buf      []byte
	next     int32     // opaque of the next request; the pacer's
	from, to time.Time // measured window, by scheduled time

	mu      sync.Mutex
	pending map[int32]time.Time // opaque -> scheduled time; Lock should be held
	lat     []int64             // Lock should be held
	failed  int64               // Lock should be held
	late    int64               // Lock should be held
}

// SendAtRate runs the open-loop benchmark: rate requests per second in
// total, round-robin over o.Conns connections, for o.Warmup+o.Duration;
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
	ocs := make([]*openConn, len(cs))
	readErrs := make([]chan error, len(cs))
	for i, c := range cs {
		oc := &openConn{c: c, o: o, from: w.from, to: w.to, pending: make(map[int32]time.Time)}
		oc.req = SendRequest(o.Group, o.Topic, int32(i%max(o.Queues, 1)), Body(o.BodySize))
		ocs[i] = oc
		readErrs[i] = make(chan error, 1)
		go func() { readErrs[i] <- oc.readLoop() }()
	}
	errs := make([]error, len(cs))
	paceErr := make(chan error, 1)
	go func() { paceErr <- pace(ctx, ocs, start, w.to, time.Duration(float64(time.Second)/rate)) }()
	if err := <-paceErr; err != nil {
		errs[0] = err
	}
	awaitReplies(ocs)
	for i, oc := range ocs {
		oc.c.nc.Close() // ends readLoop; replies still missing count as failed
		<-readErrs[i]
	}
	<-hooksDone
	lat := make([][]int64, len(ocs))
	failed := make([]int64, len(ocs))
	var late int64
	for i, oc := range ocs {
		lat[i], failed[i] = oc.lat, oc.failed+int64(oc.unanswered())
		late += oc.late
	}
	res, err := collect(w, start, lat, failed, errs)
	res.Rate, res.Late = rate, late
	return res, err
}

// pace issues request k at start+k·interval on connection k mod len(ocs)
// until the schedule reaches end. It runs on a thread of its own and
// sleeps with nanosleep(2): the Go runtime's timers wake sub-millisecond
// sleeps through its poller, rounded up to a millisecond, which made the
// generator itself the source of late requests.
func pace(ctx context.Context, ocs []*openConn, start, end time.Time, interval time.Duration) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for k := int64(0); ctx.Err() == nil; k++ {
		due := start.Add(interval * time.Duration(k))
		if !due.Before(end) {
			return nil
		}
		nanosleepUntil(due)
		if err := ocs[k%int64(len(ocs))].issue(due); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// nanosleepUntil blocks the calling thread until t (or returns at once when t
// has passed).
func nanosleepUntil(t time.Time) {
	for {
		d := time.Until(t)
		if d <= 0 {
			return
		}
		ts := syscall.NsecToTimespec(int64(d))
		if err := syscall.Nanosleep(&ts, nil); err == nil {
			return
		}
	}
}

// issue writes the next request, scheduled at due, counting it late when
// it goes out more than lateSlack after due.
func (oc *openConn) issue(due time.Time) error {
	measured := !due.Before(oc.from)
	if time.Since(due) > lateSlack && measured {
		oc.mu.Lock()
		oc.late++
		oc.mu.Unlock()
	}
	k := oc.next
	oc.next++
	oc.req.Opaque = k
	var err error
	if oc.buf, err = wire.AppendFrame(oc.buf[:0], oc.req); err != nil {
		return fmt.Errorf("brokerbench: encode: %w", err)
	}
	if measured {
		oc.mu.Lock()
		oc.pending[k] = due
		oc.mu.Unlock()
	}
	if _, err := oc.c.nc.Write(oc.buf); err != nil {
		return fmt.Errorf("brokerbench: write: %w", err)
	}
	return nil
}

// awaitReplies waits until every measured request is answered or drainWait
// passes.
func awaitReplies(ocs []*openConn) {
	deadline := time.Now().Add(drainWait)
	for time.Now().Before(deadline) {
		left := 0
		for _, oc := range ocs {
			left += oc.unanswered()
		}
		if left == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
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
