package remoting

// Requests sent on a connection and the table of calls awaiting their
// responses, matched by opaque. Java 4.9.8 mirror: the responseTable,
// invokeSyncImpl, invokeAsyncImpl, invokeOnewayImpl and
// processResponseCommand of NettyRemotingAbstract.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// call is one request awaiting its response. finish is called exactly once,
// by whoever removes the call from the connection's table.
type call struct {
	done  chan struct{} // sync: closed by finish
	resp  *wire.Command
	err   error
	cb    func(*wire.Command, error) // async
	timer *time.Timer                // async timeout; set under Conn.mu
	ep    *endpoint
}

func (k *call) finish(resp *wire.Command, err error) {
	if k.cb == nil {
		k.resp, k.err = resp, err
		close(k.done)
		return
	}
	if k.timer != nil {
		k.timer.Stop()
	}
	go k.runCallback(resp, err)
}

// runCallback runs an async callback on its own goroutine (their number is
// bounded by the async limit) and frees the async slot after it.
func (k *call) runCallback(resp *wire.Command, err error) {
	defer k.ep.releaseAsync()
	defer func() {
		if v := recover(); v != nil {
			k.ep.log.WithField("panic", v).Warn("remoting: invoke callback panicked")
		}
	}()
	k.cb(resp, err)
}

// register gives req a fresh opaque and records k under it; an async
// call's timer starts here.
func (c *Conn) register(req *wire.Command, k *call, timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.isClosed {
		return ErrClosed
	}
	op := c.ep.nextOpaque()
	for c.pending[op] != nil { // only after wrapping around 2^32 requests
		op = c.ep.nextOpaque()
	}
	req.Opaque = op
	c.pending[op] = k
	if k.cb != nil {
		k.timer = time.AfterFunc(timeout, func() { c.expire(op, timeout) })
	}
	return nil
}

// take removes and returns the call waiting on opaque, if any.
func (c *Conn) take(opaque int32) *call {
	c.mu.Lock()
	k := c.pending[opaque]
	if k != nil {
		delete(c.pending, opaque)
	}
	c.mu.Unlock()
	return k
}

func (c *Conn) expire(opaque int32, timeout time.Duration) {
	if k := c.take(opaque); k != nil {
		k.finish(nil, fmt.Errorf("%w: opaque %d to %s after %v: %w",
			ErrTimeout, opaque, c.remote, timeout, context.DeadlineExceeded))
	}
}

// handleResponse runs on the read loop.
func (c *Conn) handleResponse(resp *wire.Command) {
	if k := c.take(resp.Opaque); k != nil {
		k.finish(resp, nil)
		return
	}
	if c.log.Logger.IsLevelEnabled(logrus.DebugLevel) {
		c.log.WithFields(logrus.Fields{"code": resp.Code, "opaque": resp.Opaque}).
			Debug("remoting: response matches no request, dropped")
	}
	resp.Release()
}

// InvokeSync sends req and waits for its response until ctx is done. The
// request gets a fresh opaque and the endpoint's serialize type; its
// payload is released once written. The caller owns the response and may
// Release it. On ctx expiry the error matches ErrTimeout and
// context.DeadlineExceeded.
func (c *Conn) InvokeSync(ctx context.Context, req *wire.Command) (*wire.Command, error) {
	k := &call{done: make(chan struct{})}
	req.Serialize = c.ep.serialize
	if err := c.register(req, k, 0); err != nil {
		req.Release()
		return nil, err
	}
	opaque := req.Opaque
	if err := c.enqueue(outItem{cmd: req}); err != nil {
		if c.take(opaque) != nil {
			return nil, err
		}
		<-k.done
		return k.resp, k.err
	}
	select {
	case <-k.done:
		return k.resp, k.err
	case <-ctx.Done():
		if c.take(opaque) == nil { // answered or failed meanwhile
			<-k.done
			return k.resp, k.err
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("%w: opaque %d to %s: %w", ErrTimeout, opaque, c.remote, ctx.Err())
		}
		return nil, ctx.Err()
	}
}

// InvokeAsync sends req and calls cb with the response, or with an error
// matching ErrTimeout after timeout or ErrClosed if the connection closes
// first. cb runs on its own goroutine. At most the endpoint's async limit
// of calls are outstanding; InvokeAsync waits up to timeout for a slot
// (Java semaphoreAsync.tryAcquire) and fails with ErrTooManyRequests. When
// InvokeAsync returns an error, cb is not called.
func (c *Conn) InvokeAsync(req *wire.Command, timeout time.Duration, cb func(*wire.Command, error)) error {
	waited, ok := c.ep.acquireAsync(timeout)
	if !ok {
		req.Release()
		return ErrTooManyRequests
	}
	if timeout -= waited; timeout <= 0 {
		c.ep.releaseAsync()
		req.Release()
		return fmt.Errorf("%w: waiting for an async slot", ErrTimeout)
	}
	k := &call{cb: cb, ep: c.ep}
	req.Serialize = c.ep.serialize
	if err := c.register(req, k, timeout); err != nil {
		c.ep.releaseAsync()
		req.Release()
		return err
	}
	opaque := req.Opaque
	if err := c.enqueue(outItem{cmd: req}); err != nil {
		if k := c.take(opaque); k != nil {
			k.timer.Stop()
			c.ep.releaseAsync()
			return err
		}
		// already failed by the close; cb reports it
	}
	return nil
}

// InvokeOneway sets the oneway flag and a fresh opaque on req and queues
// it; no response is expected.
func (c *Conn) InvokeOneway(req *wire.Command) error {
	req.MarkOneway()
	req.Serialize = c.ep.serialize
	req.Opaque = c.ep.nextOpaque()
	return c.Send(req)
}
