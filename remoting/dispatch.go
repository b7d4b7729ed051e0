package remoting

// Request dispatch, mirroring Java 4.9.8
// NettyRemotingAbstract.processRequestCommand:
//
//   - no processor for the code and no default ⇒ REQUEST_CODE_NOT_SUPPORTED
//     " request type <code> not supported" (written even for oneway
//     requests, as Java does);
//   - processor.rejectRequest() ⇒ SYSTEM_BUSY "[REJECTREQUEST]…" (also
//     written for oneway requests, as Java does);
//   - pool full ⇒ SYSTEM_BUSY "[OVERLOAD]…", or a dropped oneway request;
//   - handler error or panic ⇒ SYSTEM_ERROR (Java's catch of Throwable);
//   - otherwise the handler's response, if any and unless oneway, with the
//     request's opaque and the response flag.
//
// Replies made by this layer (NOT_SUPPORTED, SYSTEM_BUSY, SYSTEM_ERROR for a
// thrown error) are new commands in Java (RemotingCommand.
// createResponseCommand), so they carry the endpoint's configured serialize
// type, not the request's. A handler's response keeps the serialize type
// the handler gave it: wire.NewResponse gives it the request's, as Java's
// callback does; a handler sets the server's configured type for the
// answers Java writes outside the callback.

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// handleRequest runs on the read loop, with req already counted in
// ep.handlers: it picks the processor and runs the handler inline or
// submits the request to the processor's pool. Replies made here are
// queued without waking the writer; the read loop flushes them once its
// read burst is served (flushReplies).
func (c *Conn) handleRequest(req *wire.Command) {
	p := c.ep.procs.lookup(req.Code)
	switch {
	case p == nil:
		remark := NotSupportedRemark(req.Code)
		c.log.WithField("code", req.Code).Error("remoting:" + remark)
		c.replyError(req, protocol.RespRequestCodeNotSupported, remark)
	case p.RejectRequest != nil && p.RejectRequest():
		c.replyError(req, protocol.RespSystemBusy, remarkReject)
	case p.Inline || p.InlineWhen != nil && p.InlineWhen(req):
		if resp := c.runHandler(p, req); resp != nil {
			_ = c.push(outItem{cmd: resp, after: req})
		}
	default:
		c.submit(p, req)
		return // counted until the worker ends
	}
	c.ep.handlers.done()
}

// submit hands req to p's pool. A request the pool refuses (its queue is
// full) is answered SYSTEM_BUSY "[OVERLOAD]…", or dropped if oneway, like
// Java; one cut from the queue while it waits is answered SYSTEM_BUSY with
// the cut's remark, oneway or not, as Java's RequestTask.returnResponse.
func (c *Conn) submit(p *processor, req *wire.Command) {
	remark, err := c.awaitWorker(p)
	if err == nil {
		err = p.pool.Submit(func() {
			defer c.ep.handlers.done()
			if p.slots != nil {
				defer func() { <-p.slots }()
			}
			if resp := c.runHandler(p, req); resp != nil {
				_ = c.enqueue(outItem{cmd: resp, after: req})
			}
		})
		if err == nil {
			return
		}
		if p.slots != nil {
			<-p.slots
		}
	}
	defer c.ep.handlers.done()
	if remark != "" {
		c.replyError(req, protocol.RespSystemBusy, remark)
		return
	}
	if c.ep.warnLimited() {
		c.log.WithFields(logrus.Fields{"code": req.Code, "error": err}).
			Warn("remoting: too many requests and processor pool busy")
	}
	if req.IsOneway() {
		req.Release()
		return
	}
	c.replyError(req, protocol.RespSystemBusy, remarkOverload)
}

// awaitWorker takes one of p's slots, waiting for a running task to end
// when none is free (a pool without a queue has no slots and does not
// wait here). It fails with errQueueFull when the queue is full or the
// connection closes, and with the remark to answer when the request is
// cut from the queue.
func (c *Conn) awaitWorker(p *processor) (cutRemark string, err error) {
	if p.slots == nil {
		return "", nil
	}
	select {
	case p.slots <- struct{}{}:
		return "", nil
	default:
	}
	w, ok := p.waiting.enter(time.Now(), p.QueueCapacity)
	if !ok {
		return "", errQueueFull
	}
	select {
	case p.slots <- struct{}{}:
		p.waiting.leave(w) // a cut at the same moment is ignored
		return "", nil
	case remark := <-w.cut:
		return remark, errQueueCut
	case <-c.ctx.Done():
		p.waiting.leave(w)
		return "", errQueueFull
	}
}

var (
	errQueueFull = errors.New("remoting: processor queue full")
	errQueueCut  = errors.New("remoting: request cut from the processor queue")
)

// replyError queues, from the read loop, a response made by the remoting
// layer, in the endpoint's serialize type, and releases req after it.
func (c *Conn) replyError(req *wire.Command, code protocol.ResponseCode, remark string) {
	resp := wire.NewResponse(req, int32(code), remark)
	resp.Serialize = c.ep.serialize
	_ = c.push(outItem{cmd: resp, after: req})
}

// runHandler runs p's handler and returns the response to write, with
// req's opaque, or nil when nothing is to be written; then req has been
// released.
func (c *Conn) runHandler(p *processor, req *wire.Command) *wire.Command {
	resp, err := c.callHandler(p.Handler, req)
	switch {
	case err != nil:
		if resp != nil {
			resp.Release()
		}
		resp = c.errorResponse(req, err)
	case resp != nil:
		resp.Opaque = req.Opaque
		resp.MarkResponse()
	}
	if resp == nil || req.IsOneway() {
		if resp != nil {
			resp.Release()
		}
		req.Release()
		return nil
	}
	return resp
}

// errorResponse answers a handler error: a *protocol.Error is an ordinary
// response (the request's serialize type), or Java's caught exception if
// Thrown (the endpoint's type); anything else is a caught exception too,
// SYSTEM_ERROR in the endpoint's serialize type.
func (c *Conn) errorResponse(req *wire.Command, err error) *wire.Command {
	if pe, ok := protocol.AsError(err); ok {
		resp := wire.NewResponse(req, int32(pe.Code), pe.Remark)
		if pe.Thrown {
			resp.Serialize = c.ep.serialize
		}
		return resp
	}
	if _, panicked := err.(*panicError); !panicked { // panics are logged with their stack
		c.log.WithFields(logrus.Fields{"code": req.Code, "error": err}).Error("remoting: process request failed")
	}
	resp := wire.NewResponse(req, int32(protocol.RespSystemError), err.Error())
	resp.Serialize = c.ep.serialize
	return resp
}

// panicError is a recovered handler panic.
type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.v) }

// callHandler calls the endpoint's BeforeRequest hook, then h, turning a
// panic in either into a *panicError and a log line with the stack.
func (c *Conn) callHandler(h Handler, req *wire.Command) (resp *wire.Command, err error) {
	defer func() {
		if v := recover(); v != nil {
			c.log.WithFields(logrus.Fields{"code": req.Code, "panic": v}).
				Errorf("remoting: handler panic\n%s", debug.Stack())
			resp, err = nil, &panicError{v: v}
		}
	}()
	if before := c.ep.before; before != nil {
		if err := before(c, req); err != nil {
			return nil, err
		}
	}
	return h(c.ctx, c, req)
}
