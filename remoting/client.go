package remoting

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/panjf2000/ants/v2"
	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ClientConfig configures a Client. Zero values take the defaults noted.
// Java 4.9.8 mirror: NettyClientConfig and NettySystemConfig.
type ClientConfig struct {
	// ConnectTimeout bounds a dial (3 s, connectTimeoutMillis).
	ConnectTimeout time.Duration
	// IdleTimeout closes a connection with no read and no write for this
	// long (120 s, clientChannelMaxIdleTimeSeconds); negative disables.
	IdleTimeout time.Duration
	// MaxFrameLength bounds a frame (16 MiB).
	MaxFrameLength int
	// Serialize is the serialize type of every request the client sends
	// and of the replies its remoting layer makes (JSON).
	Serialize wire.SerializeType
	// Log receives the client's log lines; nil discards them.
	Log *logrus.Entry
	// Hooks are called on connection events.
	Hooks ConnHooks
	// KeepConnOnTimeout keeps the connection when InvokeSync times out.
	// Java closes it by default (clientCloseSocketIfTimeout = true).
	KeepConnOnTimeout bool
	// AsyncLimit bounds outstanding async calls (65535,
	// clientAsyncSemaphoreValue).
	AsyncLimit int
	// Workers sizes the pool that serves requests from servers
	// (DefaultClientWorkers); when it is full they get SYSTEM_BUSY.
	Workers int
	// WriteQueueLimit and WriteTimeout are as in ServerConfig.
	WriteQueueLimit int
	WriteTimeout    time.Duration
}

// Client defaults.
const (
	DefaultConnectTimeout = 3 * time.Second
	DefaultAsyncLimit     = 65535
	DefaultClientWorkers  = 64
)

// Client sends requests to remoting servers over one lazily dialed
// connection per address, re-dialed after it closes (Java
// NettyRemotingClient's channel table), and serves requests the servers
// send back (CHECK_TRANSACTION_STATE, NOTIFY_CONSUMER_IDS_CHANGED, …).
type Client struct {
	ep             *endpoint
	pool           *ants.Pool
	connectTimeout time.Duration
	keepOnTimeout  bool

	mu     sync.Mutex
	conns  map[string]*dialEntry // Lock should be held
	closed bool                  // Lock should be held
	dials  sync.WaitGroup
}

// dialEntry is the connection to one address, or its dial in progress.
type dialEntry struct {
	ready chan struct{} // closed when conn or err is set
	conn  *Conn         // set under Client.mu
	err   error
}

// NewClient returns a client. Close releases it.
func NewClient(cfg ClientConfig) *Client {
	if cfg.AsyncLimit <= 0 {
		cfg.AsyncLimit = DefaultAsyncLimit
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultClientWorkers
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	ep := newEndpoint(connConfig{
		log:          cfg.Log,
		maxFrame:     cfg.MaxFrameLength,
		idle:         cfg.IdleTimeout,
		writeLimit:   cfg.WriteQueueLimit,
		writeTimeout: cfg.WriteTimeout,
		serialize:    cfg.Serialize,
		hooks:        cfg.Hooks,
	}, cfg.AsyncLimit)
	pool, err := ants.NewPool(cfg.Workers, ants.WithNonblocking(true))
	if err != nil {
		panic(fmt.Sprintf("remoting: client pool: %v", err)) // positive size cannot fail
	}
	cl := &Client{
		ep:             ep,
		pool:           pool,
		connectTimeout: cfg.ConnectTimeout,
		keepOnTimeout:  cfg.KeepConnOnTimeout,
		conns:          make(map[string]*dialEntry),
	}
	ep.onClosed = cl.forgetConn
	return cl
}

// RegisterProcessor serves requests with code sent by servers. Registering
// a code twice panics; unknown codes are answered REQUEST_CODE_NOT_SUPPORTED.
func (cl *Client) RegisterProcessor(code protocol.RequestCode, h Handler) {
	cl.ep.procs.register([]protocol.RequestCode{code}, Processor{Handler: h, Pool: cl.pool})
}

// Conn returns the connection to addr ("host:port"), dialing it if needed.
func (cl *Client) Conn(ctx context.Context, addr string) (*Conn, error) {
	for {
		cl.mu.Lock()
		if cl.closed {
			cl.mu.Unlock()
			return nil, ErrClientClosed
		}
		e := cl.conns[addr]
		if e == nil {
			e = &dialEntry{ready: make(chan struct{})}
			cl.conns[addr] = e
			cl.dials.Add(1)
			go cl.dial(addr, e)
		}
		cl.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %s: %w", ErrConnect, addr, ctx.Err())
		}
		if e.err != nil {
			return nil, e.err
		}
		if !e.conn.Closed() {
			return e.conn, nil
		}
		cl.forget(addr, e)
	}
}

// dial connects e; a failed entry is forgotten so the next call re-dials.
func (cl *Client) dial(addr string, e *dialEntry) {
	defer cl.dials.Done()
	defer close(e.ready)
	ctx, cancel := context.WithTimeout(cl.ep.ctx, cl.connectTimeout)
	defer cancel()
	d := net.Dialer{KeepAlive: -1}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		e.err = fmt.Errorf("%w: %s: %w", ErrConnect, addr, err)
		cl.forget(addr, e)
		return
	}
	c := newConn(cl.ep, nc, addr)
	cl.mu.Lock()
	if cl.closed {
		cl.mu.Unlock()
		c.closeWith(reasonLocal)
		e.err = ErrClientClosed
		return
	}
	e.conn = c
	cl.mu.Unlock()
	c.log.Debug("remoting: connected")
	c.start()
}

func (cl *Client) forget(addr string, e *dialEntry) {
	cl.mu.Lock()
	if cl.conns[addr] == e {
		delete(cl.conns, addr)
	}
	cl.mu.Unlock()
}

// forgetConn drops a closed connection from the table.
func (cl *Client) forgetConn(c *Conn) {
	cl.mu.Lock()
	if e := cl.conns[c.key]; e != nil && e.conn == c {
		delete(cl.conns, c.key)
	}
	cl.mu.Unlock()
}

// InvokeSync sends req to addr and waits for the response until ctx is
// done. On a timeout the connection is closed unless KeepConnOnTimeout
// (Java NettyRemotingClient.invokeSync). See Conn.InvokeSync.
func (cl *Client) InvokeSync(ctx context.Context, addr string, req *wire.Command) (*wire.Command, error) {
	c, err := cl.Conn(ctx, addr)
	if err != nil {
		req.Release()
		return nil, err
	}
	resp, err := c.InvokeSync(ctx, req)
	if err != nil && errors.Is(err, ErrTimeout) && !cl.keepOnTimeout {
		c.log.Warn("remoting: invokeSync timeout, closing connection")
		c.closeWith(reasonLocal)
	}
	return resp, err
}

// InvokeAsync sends req to addr and calls cb with the response or an
// error; the timeout covers connecting, waiting for an async slot and the
// response. See Conn.InvokeAsync.
func (cl *Client) InvokeAsync(addr string, req *wire.Command, timeout time.Duration, cb func(*wire.Command, error)) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	c, err := cl.Conn(ctx, addr)
	cancel()
	if err != nil {
		req.Release()
		return err
	}
	left := timeout - time.Since(start)
	if left <= 0 {
		req.Release()
		return fmt.Errorf("%w: invokeAsync to %s", ErrTimeout, addr)
	}
	return c.InvokeAsync(req, left, cb)
}

// InvokeOneway sends req to addr with the oneway flag; no response.
func (cl *Client) InvokeOneway(addr string, req *wire.Command) error {
	ctx, cancel := context.WithTimeout(context.Background(), cl.connectTimeout)
	c, err := cl.Conn(ctx, addr)
	cancel()
	if err != nil {
		req.Release()
		return err
	}
	return c.InvokeOneway(req)
}

// Close closes every connection, failing pending calls with ErrClosed, and
// waits for the connection loops. Handlers still running finish on their
// own; their responses are dropped.
func (cl *Client) Close() error {
	cl.mu.Lock()
	if cl.closed {
		cl.mu.Unlock()
		return nil
	}
	cl.closed = true
	cl.mu.Unlock()
	cl.ep.cancel()
	cl.dials.Wait()
	cl.mu.Lock()
	entries := cl.conns
	cl.conns = map[string]*dialEntry{}
	cl.mu.Unlock()
	for _, e := range entries {
		if e.conn != nil {
			e.conn.closeWith(reasonLocal)
		}
	}
	cl.ep.loops.Wait()
	cl.pool.Release()
	cl.ep.procs.release()
	return nil
}
