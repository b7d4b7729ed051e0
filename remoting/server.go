package remoting

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ServerConfig configures a Server. Zero values take the defaults noted.
// Java 4.9.8 mirror: NettyServerConfig.
type ServerConfig struct {
	// ListenAddr is used by Listen, e.g. ":9876" or "127.0.0.1:0".
	ListenAddr string
	// MaxFrameLength bounds a frame, length field included (16 MiB,
	// com.rocketmq.remoting.frameMaxLength).
	MaxFrameLength int
	// IdleTimeout closes a connection with no read and no write for this
	// long (120 s, serverChannelMaxIdleTimeSeconds); negative disables.
	IdleTimeout time.Duration
	// DefaultSerialize is the server's configured serialize type
	// (rocketmq.serialize.type): used for replies made by the remoting layer
	// itself and for requests the server sends to clients.
	DefaultSerialize wire.SerializeType
	// Log receives the server's log lines; nil discards them.
	Log *logrus.Entry
	// Hooks are called on connection events.
	Hooks ConnHooks
	// WriteQueueLimit bounds the bytes queued or being written on one
	// connection (DefaultWriteQueueLimit); beyond it the connection closes.
	WriteQueueLimit int
	// WriteTimeout closes a connection whose write makes no progress for
	// this long (DefaultWriteTimeout); negative disables.
	WriteTimeout time.Duration
	// AsyncLimit bounds outstanding Conn.InvokeAsync calls
	// (serverAsyncSemaphoreValue, 64).
	AsyncLimit int
	// SocketSndBuf and SocketRcvBuf, when positive, set SO_SNDBUF and
	// SO_RCVBUF of accepted connections (serverSocketSndBufSize,
	// serverSocketRcvBufSize; 0 leaves the system's).
	SocketSndBuf, SocketRcvBuf int
	// BeforeRequest, when set, is called with every request about to be
	// handled (after the processor is found and takes it, before its
	// handler; Java's RPCHook.doBeforeRequest, as the broker's ACL
	// registers it). An error answers the request as a handler's error
	// would: SYSTEM_ERROR with the error's text, or the code of a
	// *protocol.Error.
	BeforeRequest func(c *Conn, req *wire.Command) error
}

// Server accepts remoting connections and dispatches their requests.
type Server struct {
	ep         *endpoint
	listenAddr string
	sndBuf     int // ServerConfig.SocketSndBuf
	rcvBuf     int // ServerConfig.SocketRcvBuf

	mu       sync.Mutex
	ln       net.Listener       // Lock should be held
	conns    map[*Conn]struct{} // Lock should be held
	closing  bool               // Lock should be held
	acceptWG sync.WaitGroup
}

// NewServer returns a server; register processors, then Listen or Serve.
func NewServer(cfg ServerConfig) *Server {
	limit := cfg.AsyncLimit
	if limit <= 0 {
		limit = 64
	}
	ep := newEndpoint(connConfig{
		log:          cfg.Log,
		maxFrame:     cfg.MaxFrameLength,
		idle:         cfg.IdleTimeout,
		writeLimit:   cfg.WriteQueueLimit,
		writeTimeout: cfg.WriteTimeout,
		serialize:    cfg.DefaultSerialize,
		hooks:        cfg.Hooks,
		before:       cfg.BeforeRequest,
	}, limit)
	s := &Server{ep: ep, conns: make(map[*Conn]struct{})}
	s.listenAddr = cfg.ListenAddr
	s.sndBuf, s.rcvBuf = cfg.SocketSndBuf, cfg.SocketRcvBuf
	ep.onClosed = s.removeConn
	return s
}

// RegisterProcessor serves codes with p. Registering a code twice panics.
func (s *Server) RegisterProcessor(codes []protocol.RequestCode, p Processor) {
	s.ep.procs.register(codes, p)
}

// QueueLen is how many requests wait for a worker of code's processor
// (Java's executor queue size): 0 for an inline processor or an unknown
// code.
func (s *Server) QueueLen(code protocol.RequestCode) int {
	if p := s.pooled(code); p != nil {
		return p.waiting.len()
	}
	return 0
}

// QueueHeadWait is how long the request that has waited longest for a
// worker of code's processor has waited (Java's queue head wait time), 0
// when none waits.
func (s *Server) QueueHeadWait(code protocol.RequestCode) time.Duration {
	if p := s.pooled(code); p != nil {
		return p.waiting.headWait(time.Now())
	}
	return 0
}

// CutQueued answers SYSTEM_BUSY, with remark's text, to every request
// that has waited maxWait or longer for a worker of code's processor
// (all of them for 0), oldest first, and returns how many it answered.
// Java 4.9.8's BrokerFastFailure does this to its executors' queues.
// Requests served without a queue are never cut.
func (s *Server) CutQueued(code protocol.RequestCode, maxWait time.Duration, remark CutRemark) int {
	if p := s.pooled(code); p != nil && p.slots != nil {
		return p.waiting.cut(time.Now(), maxWait, remark)
	}
	return 0
}

// pooled is code's registered processor when it has a pool.
func (s *Server) pooled(code protocol.RequestCode) *processor {
	if m := s.ep.procs.codes.Load(); m != nil {
		if p := (*m)[int32(code)]; p != nil && p.pool != nil {
			return p
		}
	}
	return nil
}

// SetDefaultProcessor serves the codes no processor is registered for.
func (s *Server) SetDefaultProcessor(p Processor) { s.ep.procs.setDefault(p) }

// Listen binds ListenAddr and serves in the background.
func (s *Server) Listen() error {
	lc := net.ListenConfig{KeepAlive: -1} // Java: SO_KEEPALIVE false
	ln, err := lc.Listen(context.Background(), "tcp", s.listenAddr)
	if err != nil {
		return err
	}
	if err := s.setListener(ln); err != nil {
		_ = ln.Close()
		return err
	}
	go s.acceptLoop(ln)
	return nil
}

// Serve accepts connections on ln until Shutdown, then returns
// ErrServerClosed.
func (s *Server) Serve(ln net.Listener) error {
	if err := s.setListener(ln); err != nil {
		_ = ln.Close()
		return err
	}
	return s.acceptLoop(ln)
}

func (s *Server) setListener(ln net.Listener) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return ErrServerClosed
	case s.ln != nil:
		return errors.New("remoting: server already listening")
	}
	s.ln = ln
	s.acceptWG.Add(1)
	return nil
}

// Addr is the listening address, nil before Listen or Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

func (s *Server) acceptLoop(ln net.Listener) error {
	defer s.acceptWG.Done()
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.ep.log.WithError(err).Warn("remoting: accept failed, retrying")
			time.Sleep(delay)
			continue
		}
		delay = 0
		s.addConn(nc)
	}
}

// sizeBuffers applies SocketSndBuf and SocketRcvBuf to an accepted
// connection; a failure is logged, the connection kept (as Netty).
func (s *Server) sizeBuffers(nc net.Conn) {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return
	}
	if n := s.sndBuf; n > 0 {
		if err := tc.SetWriteBuffer(n); err != nil {
			s.ep.log.WithError(err).Warn("remoting: set SO_SNDBUF")
		}
	}
	if n := s.rcvBuf; n > 0 {
		if err := tc.SetReadBuffer(n); err != nil {
			s.ep.log.WithError(err).Warn("remoting: set SO_RCVBUF")
		}
	}
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

func (s *Server) addConn(nc net.Conn) {
	s.sizeBuffers(nc)
	c := newConn(s.ep, nc, "")
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		c.closeWith(reasonLocal)
		return
	}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	c.log.Debug("remoting: connection accepted")
	c.start()
}

func (s *Server) removeConn(c *Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// Conns returns the open connections.
func (s *Server) Conns() []*Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Conn, 0, len(s.conns))
	for c := range s.conns {
		out = append(out, c)
	}
	return out
}

// Shutdown stops the server gracefully: it stops accepting, stops reading
// from the connections (requests already read but not yet dispatched are
// dropped; so are responses to the server's own calls still pending), waits
// for the handlers in flight and for their responses to be written, then
// closes the connections. When ctx ends first, handler contexts are cancelled,
// connections are closed at once and ctx's error is returned. Pools the
// server created are released.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	ln := s.ln
	s.mu.Unlock()
	s.ep.stopping.Store(true)
	if ln != nil {
		_ = ln.Close()
	}
	s.acceptWG.Wait()
	conns := s.Conns()
	for _, c := range conns {
		_ = c.nc.SetReadDeadline(time.Now()) // wake the read loop
	}
	err := s.ep.handlers.wait(ctx)
	if err == nil {
		for _, c := range conns {
			c.drain()
		}
		err = waitCtx(ctx, &s.ep.loops)
	}
	if err != nil {
		s.ep.log.WithError(err).Warn("remoting: shutdown deadline, closing connections")
		s.ep.cancel()
		for _, c := range s.Conns() {
			c.closeWith(reasonLocal)
		}
		s.ep.loops.Wait()
	}
	s.ep.cancel()
	s.ep.procs.release()
	return err
}

// waitCtx waits for wg or ctx.
func waitCtx(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
