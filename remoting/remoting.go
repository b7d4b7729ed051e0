// Package remoting is the RocketMQ 4.x remoting transport: a TCP server that
// dispatches request commands to bounded worker pools, a client with one
// connection per address, and the connection type both share.
//
// Every connection (Conn) runs two goroutines: a read loop that decodes
// frames and either matches a response to a pending call by opaque or hands a
// request to its processor's pool, and a write loop that drains a bounded
// queue of outgoing commands and writes them with one writev per batch
// (headers from a pooled buffer, bodies and payloads without copying).
//
// A processor marked Inline (cheap handlers that never block, such as the
// name server's) runs on the read loop instead of a pool. The read loop
// serves every whole frame it has buffered, then, if the write loop is idle,
// writes the burst's replies itself with one writev: a lookup costs one
// goroutine wake-up instead of three. It never waits for the peer: what the
// socket does not take at once is left to the write loop. On Linux both
// loops call read and writev on the non-blocking socket directly
// (rawio_linux.go), so that the runtime's sysmon is not woken per request.
//
// Java 4.9.8 mirrors: NettyRemotingAbstract (request dispatch, response
// table, invokeSync/Async/Oneway), NettyRemotingServer, NettyRemotingClient,
// NettyServerConfig, NettyClientConfig, RemotingHelper.
package remoting

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Errors returned by invocations and by the write path.
var (
	// ErrClosed: the connection was closed before the command was written
	// or before its response arrived (Java RemotingSendRequestException).
	ErrClosed = errors.New("remoting: connection closed")
	// ErrTimeout: no response before the deadline (Java
	// RemotingTimeoutException). It also matches context.DeadlineExceeded.
	ErrTimeout = errors.New("remoting: wait response timeout")
	// ErrTooManyRequests: the async request limit was reached and no slot
	// freed before the timeout (Java RemotingTooMuchRequestException).
	ErrTooManyRequests = errors.New("remoting: too many outstanding async requests")
	// ErrSlowConsumer: the peer did not read and the outbound queue limit
	// was exceeded; the connection has been closed.
	ErrSlowConsumer = errors.New("remoting: outbound queue limit exceeded")
	// ErrConnect: the client could not connect (Java RemotingConnectException).
	ErrConnect = errors.New("remoting: connect failed")
	// ErrServerClosed is returned by Serve after Shutdown.
	ErrServerClosed = errors.New("remoting: server closed")
	// ErrClientClosed is returned by a Client after Close.
	ErrClientClosed = errors.New("remoting: client closed")
)

// Handler serves one request. It returns the response to write, or nil for
// none (Java processors returning null). The remoting layer sets the
// response's opaque, response flag and serialize type (the request's); a
// handler that needs another serialize type writes with Conn.Send itself and
// returns nil.
//
// An error carrying a *protocol.Error (possibly wrapped) becomes a response
// with its code and remark; any other error becomes SYSTEM_ERROR with the
// error text as remark; a panic becomes SYSTEM_ERROR and an error log line.
// Oneway requests never get a response.
//
// req.Body aliases a pooled frame buffer that is returned after the
// response has been written (or after the handler returns when there is no
// response). A response may therefore point into req.Body, but a handler
// that keeps the body longer must call req.DetachBody() and keep the
// resulting req.Body slice.
type Handler func(ctx context.Context, conn *Conn, req *wire.Command) (*wire.Command, error)

// ConnHooks are called on connection events, on the connection's read
// goroutine, one at a time per connection, in this order: OnConnect before
// the first request is read; at the end OnIdle (closed for idleness) or
// OnException (closed after an I/O error), then OnClose. Hooks must not
// block for long. Java 4.9.8 mirror: ChannelEventListener.
type ConnHooks struct {
	OnConnect   func(*Conn)
	OnClose     func(*Conn)
	OnIdle      func(*Conn)
	OnException func(*Conn)
}

// Defaults shared by the server and the client.
const (
	// DefaultIdleTimeout mirrors serverChannelMaxIdleTimeSeconds and
	// clientChannelMaxIdleTimeSeconds (120 s).
	DefaultIdleTimeout = 120 * time.Second
	// DefaultWriteQueueLimit bounds the bytes queued or being written on
	// one connection.
	DefaultWriteQueueLimit = 64 << 20
	// DefaultWriteTimeout is how long one write may make no progress.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultWorkers is the pool size of a processor registered without a
	// pool of its own (Java serverWorkerThreads is 8).
	DefaultWorkers = 8
)

// Remarks written by the remoting layer itself (Java 4.9.8
// NettyRemotingAbstract.processRequestCommand).
const (
	remarkOverload = "[OVERLOAD]system busy, start flow control for a while"
	remarkReject   = "[REJECTREQUEST]system busy, start flow control for a while"
)

// NotSupportedRemark is Java's text for an unknown request code, leading
// space included.
func NotSupportedRemark(code int32) string {
	return " request type " + strconv.Itoa(int(code)) + " not supported"
}

// connConfig is what a Conn needs from its server or client.
type connConfig struct {
	log          *logrus.Entry
	maxFrame     int
	idle         time.Duration
	writeLimit   int
	writeTimeout time.Duration
	serialize    wire.SerializeType // the endpoint's default
	hooks        ConnHooks
	before       func(*Conn, *wire.Command) error // ServerConfig.BeforeRequest
}

func (c *connConfig) fill() {
	if c.log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		c.log = logrus.NewEntry(l)
	}
	if c.maxFrame <= 0 {
		c.maxFrame = wire.DefaultMaxFrameLength
	}
	if c.idle == 0 {
		c.idle = DefaultIdleTimeout
	}
	if c.writeLimit <= 0 {
		c.writeLimit = DefaultWriteQueueLimit
	}
	if c.writeTimeout == 0 {
		c.writeTimeout = DefaultWriteTimeout
	}
}
