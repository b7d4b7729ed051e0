package remoting

import (
	"errors"
	"net"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/valyala/bytebufferpool"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// smallBody is the largest body copied next to its header in the pooled
// buffer, so that a batch of small commands becomes a few iovecs. Larger
// bodies and all payloads are written from where they are.
const smallBody = 512

// outItem is one queued command.
type outItem struct {
	cmd *wire.Command
	// after is the request a response answers; its pooled frame is released
	// once the response is written, so the response may alias its body.
	after *wire.Command
	size  int // bytes counted against the queue limit
}

func (it *outItem) release() {
	it.cmd.Release()
	if it.after != nil {
		it.after.Release()
	}
}

// estimate is the frame size of cmd, near enough for the queue limit.
func estimate(cmd *wire.Command) int {
	n := wire.FramePrefixSize + 64 + len(cmd.Remark) + cmd.BodyLen()
	for _, f := range cmd.Ext {
		n += len(f.Key) + len(f.Value) + 8
	}
	return n
}

// Send queues cmd exactly as it is (opaque, flag and serialize type are
// the caller's). Its payload, and its pooled frame if it was read from a
// connection, are released once written or dropped; the caller must not
// change cmd afterwards. Send never blocks: when the queue limit would be
// exceeded the connection is closed and ErrSlowConsumer returned.
func (c *Conn) Send(cmd *wire.Command) error {
	return c.enqueue(outItem{cmd: cmd})
}

// Respond writes resp as the answer to req, for handlers that return nil
// and answer later (long polling): it copies req's opaque and serialize
// type and sets the response flag. A oneway req gets no answer: resp is
// released and nil returned. req is not released.
func (c *Conn) Respond(req, resp *wire.Command) error {
	if req.IsOneway() {
		resp.Release()
		return nil
	}
	resp.Opaque = req.Opaque
	resp.MarkResponse()
	resp.Serialize = req.Serialize
	return c.Send(resp)
}

// enqueue queues it and wakes the write loop.
func (c *Conn) enqueue(it outItem) error {
	if err := c.push(it); err != nil {
		return err
	}
	c.wakeWriter()
	return nil
}

// push adds it to the outbound queue without waking the write loop, or
// releases it and fails when the connection is closed or the peer is too
// slow. The read loop pushes the replies of a read burst, then calls
// flushReplies.
func (c *Conn) push(it outItem) error {
	it.size = estimate(it.cmd)
	c.mu.Lock()
	if c.isClosed {
		c.mu.Unlock()
		it.release()
		return ErrClosed
	}
	if c.queued > 0 && c.queued+it.size > c.ep.writeLimit {
		queued := c.queued
		c.mu.Unlock()
		it.release()
		c.log.WithField("queued", queued).Warn("remoting: peer not reading, outbound queue limit exceeded, closing connection")
		c.closeWith(reasonSlow)
		return ErrSlowConsumer
	}
	c.queue = append(c.queue, it)
	c.queued += it.size
	c.mu.Unlock()
	return nil
}

func (c *Conn) wakeWriter() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// drain makes the write loop close the connection once the queue is empty.
func (c *Conn) drain() {
	c.mu.Lock()
	c.draining = true
	c.mu.Unlock()
	c.wakeWriter()
}

// inlineWriteMax bounds what the read loop writes itself when it must
// write through net.Conn (no raw socket): a few small replies, which the
// socket buffer takes at once. More is left to the write loop, so that a
// peer slow to read stalls the writer, not the reader. With a raw socket
// the read loop never waits: what the socket does not take at once is
// handed to the write loop (pendingWrite).
const inlineWriteMax = 64 << 10

// pendingWrite is a batch being written (Conn.pw, the writer of the
// moment's): its encoded frame prefixes (buf) and what of it is still to
// write (vec, over full).
type pendingWrite struct {
	batch []outItem
	buf   *bytebufferpool.ByteBuffer
	vec   net.Buffers
	full  net.Buffers
	size  int // bytes accounted against the queue limit
}

// flushReplies runs on the read loop once no whole frame is left buffered.
// When the write loop is idle it writes the queue itself — one writev for
// the replies of the whole read burst and no hand-off to the writer
// goroutine (nats-server's readLoop flush); otherwise it wakes the write
// loop.
func (c *Conn) flushReplies() {
	c.mu.Lock()
	switch {
	case c.isClosed || len(c.queue) == 0:
		c.mu.Unlock()
		return
	case c.writing || (c.raw == nil && c.queued > inlineWriteMax):
		c.mu.Unlock()
		c.wakeWriter()
		return
	}
	batch := c.takeLocked()
	c.mu.Unlock()
	w := c.encode(batch)
	var err error
	if c.raw != nil {
		err = c.raw.writevNow(&w.vec)
		if err == nil && len(w.vec) > 0 {
			// The socket buffer is full: the write loop finishes the batch,
			// unless the connection closed meanwhile: the write loop may
			// have gone, so the batch is released here.
			c.mu.Lock()
			closed := c.isClosed
			c.handedOff = !closed
			c.mu.Unlock()
			if closed {
				c.recycle(w)
				return
			}
			c.wakeWriter()
			return
		}
	} else {
		err = c.writeVec(&w.vec)
	}
	if c.endWrite(w, err) {
		c.wakeWriter() // more was queued meanwhile, or the queue drains
	}
}

// takeLocked takes the queue for writing and marks a write in progress.
// Lock should be held.
func (c *Conn) takeLocked() []outItem {
	batch := c.queue
	c.queue, c.spare = c.spare, nil // the two never share an array
	c.writing = true
	return batch
}

// endWrite releases a written (or failed) batch, ends the write in
// progress and reports whether the write loop has work: a queue filled
// meanwhile or a drain to finish.
func (c *Conn) endWrite(w *pendingWrite, err error) bool {
	c.recycle(w)
	c.mu.Lock()
	c.queued -= w.size
	c.writing = false
	more := len(c.queue) > 0 || c.draining
	c.mu.Unlock()
	if err != nil {
		c.writeFailed(err)
	} else {
		c.touch()
	}
	return more
}

// recycle releases w's commands and keeps its arrays for the next batch.
func (c *Conn) recycle(w *pendingWrite) {
	releaseAll(w.batch)
	clear(w.batch)
	c.spare = w.batch[:0]
	clear(w.full)
	c.vec = w.full[:0]
	bytebufferpool.Put(w.buf)
}

// writeLoop writes queued commands in batches until the connection closes;
// whatever is still queued then is released unwritten. While the read loop
// writes (flushReplies) it leaves the queue alone: the read loop wakes it
// when done if anything is left, or hands it the rest of its batch.
func (c *Conn) writeLoop() {
	defer c.ep.loops.Done()
	defer close(c.writerDone)
	for {
		select {
		case <-c.wake:
		case <-c.closed:
		}
		c.mu.Lock()
		switch {
		case c.isClosed:
			batch, handedOff := c.queue, c.handedOff
			c.queue, c.handedOff = nil, false
			c.mu.Unlock()
			releaseAll(batch)
			if handedOff {
				c.recycle(&c.pw)
			}
			return
		case c.handedOff:
			c.handedOff = false
			c.mu.Unlock()
			if c.endWrite(&c.pw, c.writeVec(&c.pw.vec)) {
				c.wakeWriter()
			}
		case c.writing:
			c.mu.Unlock()
		case len(c.queue) > 0:
			w := c.encode(c.takeLocked())
			c.mu.Unlock()
			if c.endWrite(w, c.writeVec(&w.vec)) {
				c.wakeWriter()
			}
		case c.draining:
			c.mu.Unlock()
			c.closeWith(reasonLocal)
		default:
			c.mu.Unlock()
		}
	}
}

func releaseAll(items []outItem) {
	for i := range items {
		items[i].release()
	}
}

func (c *Conn) writeFailed(err error) {
	if c.Closed() {
		return
	}
	c.log.WithError(err).Warn("remoting: write error, closing connection")
	c.closeWith(reasonException)
}

// encode lays batch out for one writev: frame prefixes and small bodies
// in a pooled buffer, larger bodies and payloads where they are.
func (c *Conn) encode(batch []outItem) *pendingWrite {
	buf := bytebufferpool.Get()
	size := 0
	offs := c.offs[:0]
	for i := range batch {
		size += batch[i].size
		cmd := batch[i].cmd
		start := len(buf.B)
		var err error
		buf.B, err = wire.AppendFramePrefix(buf.B, cmd)
		if err != nil {
			c.log.WithFields(logrus.Fields{"code": cmd.Code, "error": err}).Error("remoting: cannot encode command, dropped")
			offs = append(offs, -1, -1)
			continue
		}
		if len(cmd.Body) <= smallBody {
			buf.B = append(buf.B, cmd.Body...)
		}
		offs = append(offs, start, len(buf.B))
	}
	vec := c.vec[:0]
	run := -1 // index in vec of a slice of buf.B that the next header may extend
	runStart := 0
	for i := range batch {
		start, end := offs[2*i], offs[2*i+1]
		if start < 0 {
			continue
		}
		if run >= 0 {
			vec[run] = buf.B[runStart:end]
		} else {
			run, runStart = len(vec), start
			vec = append(vec, buf.B[start:end])
		}
		cmd := batch[i].cmd
		if len(cmd.Body) > smallBody {
			vec, run = append(vec, cmd.Body), -1
		}
		if cmd.Payload != nil {
			for _, b := range cmd.Payload.Buffers() {
				if len(b) > 0 {
					vec, run = append(vec, b), -1
				}
			}
		}
	}
	c.vec, c.offs = nil, offs[:0]
	c.pw = pendingWrite{batch: batch, buf: buf, vec: vec, full: vec, size: size}
	return &c.pw
}

// writeVec writes v, failing only when a write makes no progress for the
// write timeout. With a raw socket the deadline is cleared again after:
// the read loop's writevNow must not find an old one expired.
func (c *Conn) writeVec(v *net.Buffers) error {
	if c.raw != nil && c.ep.writeTimeout > 0 {
		defer func() { _ = c.nc.SetWriteDeadline(time.Time{}) }()
	}
	for len(*v) > 0 {
		if c.ep.writeTimeout > 0 {
			_ = c.nc.SetWriteDeadline(time.Now().Add(c.ep.writeTimeout))
		}
		var n int64
		var err error
		if c.raw != nil {
			n, err = c.raw.writev(v)
		} else {
			n, err = v.WriteTo(c.nc)
		}
		if err == nil {
			return nil
		}
		var ne net.Error
		if n > 0 && errors.As(err, &ne) && ne.Timeout() {
			continue
		}
		return err
	}
	return nil
}
