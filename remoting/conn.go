package remoting

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// closeReason says why a connection closed; it picks the hooks fired.
type closeReason uint8

const (
	reasonNone      closeReason = iota
	reasonLocal                 // Close, Shutdown, client timeout
	reasonEOF                   // the peer closed
	reasonDecode                // malformed or oversized frame
	reasonIdle                  // no read or write for the idle timeout
	reasonException             // read or write error
	reasonSlow                  // outbound queue limit exceeded
)

// Conn is one remoting connection, accepted by a Server or dialed by a
// Client. It is safe for concurrent use.
type Conn struct {
	ep     *endpoint
	nc     net.Conn
	raw    *rawSock // nc's raw reads and writes; nil: use nc
	id     uint64
	remote string
	local  string
	key    string // the address a client dialed
	log    *logrus.Entry
	ctx    context.Context
	cancel context.CancelFunc
	attr   atomic.Pointer[any]

	lastActive atomic.Int64 // monotonic nanos since epoch of the last read or write
	idleTimer  *time.Timer

	wake       chan struct{} // wakes the write loop; capacity 1
	closed     chan struct{} // closed by close
	writerDone chan struct{}

	mu       sync.Mutex
	queue    []outItem       // Lock should be held
	queued   int             // bytes queued or being written; Lock should be held
	draining bool            // write what is queued, then close; Lock should be held
	isClosed bool            // Lock should be held
	reason   closeReason     // Lock should be held
	pending  map[int32]*call // calls awaiting a response; Lock should be held
	writing  bool            // a batch is being written; Lock should be held
	// The writer of the moment — the write loop or the read loop, whichever
	// set writing — owns these.
	spare []outItem
	vec   net.Buffers
	offs  []int
	pw    pendingWrite // the batch being written
	// handedOff: the read loop left the rest of pw to the write loop; Lock
	// should be held.
	handedOff bool
}

// epoch is the origin of lastActive; time.Since on it is monotonic.
var epoch = time.Now()

func newConn(ep *endpoint, nc net.Conn, key string) *Conn {
	c := &Conn{
		ep:         ep,
		nc:         nc,
		raw:        newRawSock(nc),
		id:         ep.nextID.Add(1),
		remote:     addrString(nc.RemoteAddr()),
		local:      addrString(nc.LocalAddr()),
		key:        key,
		wake:       make(chan struct{}, 1),
		closed:     make(chan struct{}),
		writerDone: make(chan struct{}),
		pending:    make(map[int32]*call),
	}
	c.log = ep.log.WithField("remote", c.remote)
	c.ctx, c.cancel = context.WithCancel(ep.ctx)
	c.touch()
	if ep.idle > 0 {
		// Armed only once assigned: checkIdle reads c.idleTimer.
		c.idleTimer = time.AfterFunc(math.MaxInt64, c.checkIdle)
		c.idleTimer.Reset(ep.idle)
	}
	return c
}

// addrString renders an address as Java's RemotingHelper.parseChannelRemoteAddr
// does (InetSocketAddress.toString after the last '/'): "ip:port", IPv6 in
// Java's uncompressed form without brackets ("0:0:0:0:0:0:0:1:9876").
func addrString(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		if a == nil {
			return ""
		}
		return a.String()
	}
	port := strconv.Itoa(ta.Port)
	if ip4 := ta.IP.To4(); ip4 != nil {
		return ip4.String() + ":" + port
	}
	if len(ta.IP) != net.IPv6len {
		return a.String()
	}
	var b []byte
	for i := 0; i < net.IPv6len; i += 2 {
		if i > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendUint(b, uint64(ta.IP[i])<<8|uint64(ta.IP[i+1]), 16)
	}
	if ta.Zone != "" {
		b = append(append(b, '%'), ta.Zone...)
	}
	return string(b) + ":" + port
}

// start runs the read and write loops. A Conn that is never started is
// discarded with closeWith.
func (c *Conn) start() {
	c.ep.loops.Add(2)
	go c.writeLoop()
	go c.readLoop()
}

// ID is unique among the connections of one server or client.
func (c *Conn) ID() uint64 { return c.id }

// RemoteAddr is the peer's "ip:port".
func (c *Conn) RemoteAddr() string { return c.remote }

// LocalAddr is this side's "ip:port".
func (c *Conn) LocalAddr() string { return c.local }

// Attr returns the value stored with SetAttr, or nil.
func (c *Conn) Attr() any {
	if p := c.attr.Load(); p != nil {
		return *p
	}
	return nil
}

// SetAttr attaches a value to the connection (the broker's client channel
// info, the name server's broker address).
func (c *Conn) SetAttr(v any) { c.attr.Store(&v) }

// Context is cancelled when the connection closes.
func (c *Conn) Context() context.Context { return c.ctx }

// Done is closed when the connection closes.
func (c *Conn) Done() <-chan struct{} { return c.closed }

// Closed reports whether the connection is closed or closing: true from
// the moment a close begins, before the close hooks run.
func (c *Conn) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.isClosed
}

// Close closes the connection at once: queued commands are dropped (their
// payloads released) and pending calls fail with ErrClosed.
func (c *Conn) Close() error {
	c.closeWith(reasonLocal)
	return nil
}

// closeWith closes the connection once, recording why.
func (c *Conn) closeWith(r closeReason) {
	c.mu.Lock()
	if c.isClosed {
		c.mu.Unlock()
		return
	}
	c.isClosed = true
	c.reason = r
	pend := c.pending
	c.pending = nil
	c.mu.Unlock()

	c.cancel()
	_ = c.nc.Close()
	close(c.closed)
	if c.idleTimer != nil {
		c.idleTimer.Stop()
	}
	for _, k := range pend {
		k.finish(nil, ErrClosed)
	}
}

func (c *Conn) touch() { c.lastActive.Store(int64(time.Since(epoch))) }

// checkIdle runs on the idle timer: it closes a connection with neither
// read nor write for the idle timeout (Java IdleStateHandler ALL_IDLE) or
// re-arms the timer for the remaining time.
func (c *Conn) checkIdle() {
	if c.Closed() {
		return
	}
	quiet := time.Since(epoch) - time.Duration(c.lastActive.Load())
	if quiet < c.ep.idle {
		c.idleTimer.Reset(c.ep.idle - quiet)
		return
	}
	c.log.Warn("remoting: closing idle connection")
	c.closeWith(reasonIdle)
}

// readLoop reads frames until the connection fails or closes, then fires
// the close hooks once the write loop has ended.
func (c *Conn) readLoop() {
	defer c.ep.loops.Done()
	if h := c.ep.hooks.OnConnect; h != nil {
		h(c)
	}
	var r io.Reader = c.nc
	if c.raw != nil {
		r = c.raw
	}
	fr := wire.NewFrameReader(r, c.ep.maxFrame)
	for {
		cmd, err := fr.ReadCommand()
		if err != nil {
			c.flushReplies() // what the burst answered before a bad frame
			c.readFailed(err)
			break
		}
		c.touch()
		if cmd.IsResponse() {
			c.handleResponse(cmd)
			continue
		}
		// Count the request before looking at stopping, so that Shutdown,
		// which sets stopping before waiting for zero, sees it.
		c.ep.handlers.add()
		if c.ep.stopping.Load() {
			c.ep.handlers.done()
			cmd.Release() // shutting down: no new requests
			continue
		}
		c.handleRequest(cmd)
		if !fr.FrameBuffered() {
			c.flushReplies() // the read burst is served
		}
	}
	<-c.writerDone
	c.fireCloseHooks()
	if c.ep.onClosed != nil {
		c.ep.onClosed(c)
	}
}

// readFailed closes the connection after a read error, logging why.
func (c *Conn) readFailed(err error) {
	c.mu.Lock()
	closing := c.isClosed // closeWith closes the socket before c.closed
	c.mu.Unlock()
	if closing {
		return
	}
	var ne net.Error
	switch {
	case c.ep.stopping.Load() && errors.As(err, &ne) && ne.Timeout():
		<-c.closed // Shutdown stopped reading; it closes the connection
	case errors.Is(err, io.EOF):
		c.log.Debug("remoting: connection closed by peer")
		c.closeWith(reasonEOF)
	case errors.Is(err, wire.ErrMalformed), errors.Is(err, wire.ErrFrameTooLong):
		c.log.WithError(err).Warn("remoting: decode error, closing connection")
		c.closeWith(reasonDecode)
	default:
		c.log.WithError(err).Warn("remoting: read error, closing connection")
		c.closeWith(reasonException)
	}
}

func (c *Conn) fireCloseHooks() {
	c.mu.Lock()
	r := c.reason
	c.mu.Unlock()
	h := c.ep.hooks
	switch {
	case r == reasonIdle && h.OnIdle != nil:
		h.OnIdle(c)
	case r == reasonException && h.OnException != nil:
		h.OnException(c)
	}
	if h.OnClose != nil {
		h.OnClose(c)
	}
}
