package remoting

import (
	"bytes"
	"context"
	"encoding/binary"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Java 4.9.8 NettyDecoder: a decode error closes that channel only.
func TestBadFramesCloseOnlyThatConnection(t *testing.T) {
	log, hook := testLog()
	s := startServer(t, ServerConfig{Log: log, MaxFrameLength: 1024}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	cl := newClient(t, ClientConfig{})
	addr := s.Addr().String()
	_, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "before"))
	require.NoError(t, err)

	frames := map[string][]byte{
		// length 8, serialize type 7, header length 4, 4 header bytes
		"malformed": {0, 0, 0, 8, 7, 0, 0, 4, 1, 2, 3, 4},
		// length field 2000 > MaxFrameLength 1024
		"oversized": binary.BigEndian.AppendUint32(nil, 2000),
		// JSON header that is not JSON
		"bad json": append([]byte{0, 0, 0, 7, 0, 0, 0, 3}, "{{{"...),
	}
	for name, frame := range frames {
		t.Run(name, func(t *testing.T) {
			r := dialRaw(t, s)
			r.write(frame)
			r.waitClosed()
		})
	}
	assert.True(t, hasLog(hook, "decode error"))
	resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "after"))
	require.NoError(t, err)
	assert.Equal(t, "after", string(resp.Body))
}

// hookRecorder counts hook calls.
type hookRecorder struct {
	connect, close, idle, exception atomic.Int32
}

func (h *hookRecorder) hooks() ConnHooks {
	return ConnHooks{
		OnConnect:   func(*Conn) { h.connect.Add(1) },
		OnClose:     func(*Conn) { h.close.Add(1) },
		OnIdle:      func(*Conn) { h.idle.Add(1) },
		OnException: func(*Conn) { h.exception.Add(1) },
	}
}

// Java 4.9.8: IdleStateHandler(0, 0, serverChannelMaxIdleTimeSeconds)
// closes an all-idle channel and fires IDLE, then CLOSE.
func TestIdleTimeoutClosesConnection(t *testing.T) {
	var h hookRecorder
	s := startServer(t, ServerConfig{IdleTimeout: 100 * time.Millisecond, Hooks: h.hooks()}, nil)
	r := dialRaw(t, s)
	r.waitClosed()
	waitFor(t, 5*time.Second, func() bool { return h.close.Load() == 1 })
	assert.Equal(t, int32(1), h.connect.Load())
	assert.Equal(t, int32(1), h.idle.Load())
	assert.Equal(t, int32(0), h.exception.Load())

	// The client side closes its idle connections too.
	s2 := startServer(t, ServerConfig{}, nil)
	cl := newClient(t, ClientConfig{IdleTimeout: 100 * time.Millisecond})
	c, err := cl.Conn(ctxTimeout(t, 5*time.Second), s2.Addr().String())
	require.NoError(t, err)
	waitFor(t, 5*time.Second, c.Closed)
}

func TestHooksConnectCloseException(t *testing.T) {
	var h hookRecorder
	s := startServer(t, ServerConfig{Hooks: h.hooks()}, nil)
	cl := newClient(t, ClientConfig{})
	_, err := cl.Conn(ctxTimeout(t, 5*time.Second), s.Addr().String())
	require.NoError(t, err)
	waitFor(t, 5*time.Second, func() bool { return h.connect.Load() == 1 })
	require.NoError(t, cl.Close())
	waitFor(t, 5*time.Second, func() bool { return h.close.Load() == 1 })
	assert.Equal(t, int32(0), h.exception.Load())

	// A reset connection is an exception, then a close.
	r := dialRaw(t, s)
	waitFor(t, 5*time.Second, func() bool { return h.connect.Load() == 2 })
	require.NoError(t, r.nc.(*net.TCPConn).SetLinger(0))
	require.NoError(t, r.nc.Close())
	waitFor(t, 5*time.Second, func() bool { return h.close.Load() == 2 })
	assert.Equal(t, int32(1), h.exception.Load())
	assert.Equal(t, int32(0), h.idle.Load())
}

func TestGracefulShutdownDeliversInFlightResponse(t *testing.T) {
	b := newBlocker()
	log, _ := testLog()
	s := NewServer(ServerConfig{ListenAddr: "127.0.0.1:0", Log: log})
	s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle})
	require.NoError(t, s.Listen())
	cl := newClient(t, ClientConfig{KeepConnOnTimeout: true})
	addr := s.Addr().String()

	type result struct {
		resp *wire.Command
		err  error
	}
	first := make(chan result, 1)
	go func() {
		resp, err := cl.InvokeSync(ctxTimeout(t, 10*time.Second), addr, request(codeBlock, 0, "in-flight"))
		first <- result{resp, err}
	}()
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 1 })

	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctxTimeout(t, 10*time.Second)) }()
	waitFor(t, 5*time.Second, s.ep.stopping.Load)

	// New requests are not served any more.
	_, err := cl.InvokeSync(ctxTimeout(t, 100*time.Millisecond), addr, request(codeBlock, 0, "late"))
	require.ErrorIs(t, err, ErrTimeout)
	_, err = net.Dial("tcp", addr)
	require.Error(t, err, "the listener is closed")

	close(b.release)
	res := <-first
	require.NoError(t, res.err)
	assert.Equal(t, "in-flight", string(res.resp.Body))
	require.NoError(t, <-shut)
	assert.Equal(t, int32(1), b.started.Load())
	assert.Empty(t, s.Conns())
}

func TestShutdownDeadlineClosesConnections(t *testing.T) {
	b := newBlocker()
	log, _ := testLog()
	s := NewServer(ServerConfig{ListenAddr: "127.0.0.1:0", Log: log})
	s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle})
	require.NoError(t, s.Listen())
	cl := newClient(t, ClientConfig{})
	errc := make(chan error, 1)
	go func() {
		_, err := cl.InvokeSync(ctxTimeout(t, 10*time.Second), s.Addr().String(), request(codeBlock, 0, ""))
		errc <- err
	}()
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 1 })
	err := s.Shutdown(ctxTimeout(t, 50*time.Millisecond))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorIs(t, <-errc, ErrClosed)
	close(b.release)
}

func TestHandlerContextCancelledOnClose(t *testing.T) {
	var done atomic.Bool
	started := make(chan struct{})
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: func(ctx context.Context, _ *Conn, _ *wire.Command) (*wire.Command, error) {
			close(started)
			<-ctx.Done()
			done.Store(true)
			return nil, nil
		}})
	})
	r := dialRaw(t, s)
	r.send(request(codeBlock, 0, ""))
	<-started
	require.NoError(t, r.nc.Close())
	waitFor(t, 5*time.Second, done.Load)
}

func TestPayloadReleasedOnce(t *testing.T) {
	var released atomic.Int32
	hold := make(chan struct{})
	payload := func() wire.Payload {
		return &countingPayload{bufs: [][]byte{[]byte("pay"), []byte("load")}, released: &released}
	}
	withPayload := func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
		if string(req.Body) == "hold" {
			<-hold
		}
		resp := wire.NewResponse(req, 0, "")
		resp.Body = []byte("head-")
		resp.Payload = payload()
		if string(req.Body) == "fail" {
			return resp, protocol.Errorf(1, "failed")
		}
		return resp, nil
	}
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Handler: withPayload})
	})
	cl := newClient(t, ClientConfig{})
	addr := s.Addr().String()

	t.Run("written", func(t *testing.T) {
		released.Store(0)
		resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "x"))
		require.NoError(t, err)
		assert.Equal(t, "head-payload", string(resp.Body))
		waitFor(t, 5*time.Second, func() bool { return released.Load() == 1 })
	})
	t.Run("oneway and error", func(t *testing.T) {
		released.Store(0)
		require.NoError(t, cl.InvokeOneway(addr, request(codeEcho, 0, "x")))
		resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "fail"))
		require.NoError(t, err)
		assert.Equal(t, "failed", resp.Remark)
		waitFor(t, 5*time.Second, func() bool { return released.Load() == 2 })
	})
	t.Run("connection gone before the write", func(t *testing.T) {
		released.Store(0)
		r := dialRaw(t, s)
		r.send(request(codeEcho, 0, "hold"))
		waitFor(t, 5*time.Second, func() bool { return s.ep.handlers.n.Load() == 1 })
		require.NoError(t, r.nc.Close())
		waitFor(t, 5*time.Second, func() bool { return len(s.Conns()) == 1 }) // the client's
		close(hold)
		waitFor(t, 5*time.Second, func() bool { return s.ep.handlers.n.Load() == 0 })
		assert.Equal(t, int32(1), released.Load())
	})
	t.Run("request payload", func(t *testing.T) {
		released.Store(0)
		req := request(codeEcho, 0, "")
		req.Payload = payload()
		_, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, req)
		require.NoError(t, err)
		waitFor(t, 5*time.Second, func() bool { return released.Load() == 2 }) // request's and response's
	})
}

// A peer that does not read gets its connection closed once the outbound
// queue limit is exceeded; every queued payload is released.
func TestSlowPeerClosedAtQueueLimit(t *testing.T) {
	var created, released atomic.Int32
	big := make([]byte, 4<<20)
	log, hook := testLog()
	s := startServer(t, ServerConfig{Log: log, WriteQueueLimit: 1 << 20}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Workers: 64, Handler: func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
			created.Add(1)
			resp := wire.NewResponse(req, 0, "")
			resp.Payload = &countingPayload{bufs: [][]byte{big}, released: &released}
			return resp, nil
		}})
	})
	r := dialRaw(t, s)
	for i := range 40 {
		req := request(codeEcho, 0, "")
		req.Opaque = int32(i)
		if _, err := r.nc.Write(mustFrame(t, req)); err != nil {
			break // already closed
		}
	}
	waitFor(t, 10*time.Second, func() bool { return hasLog(hook, "outbound queue limit exceeded") })
	waitFor(t, 10*time.Second, func() bool { return len(s.Conns()) == 0 })
	waitFor(t, 10*time.Second, func() bool {
		return s.ep.handlers.n.Load() == 0 && released.Load() == created.Load()
	})
	assert.GreaterOrEqual(t, created.Load(), int32(2))
}

// A write that makes no progress for WriteTimeout closes the connection.
func TestStalledWriteClosesConnection(t *testing.T) {
	var released atomic.Int32
	big := make([]byte, 32<<20) // more than the loopback socket buffers hold
	log, hook := testLog()
	s := startServer(t, ServerConfig{Log: log, WriteTimeout: 100 * time.Millisecond}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Handler: func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
			resp := wire.NewResponse(req, 0, "")
			resp.Payload = &countingPayload{bufs: [][]byte{big}, released: &released}
			return resp, nil
		}})
	})
	r := dialRaw(t, s)
	r.send(request(codeEcho, 0, "")) // and never read
	waitFor(t, 10*time.Second, func() bool { return hasLog(hook, "write error") })
	waitFor(t, 10*time.Second, func() bool { return len(s.Conns()) == 0 && released.Load() == 1 })
}

func mustFrame(t *testing.T, cmd *wire.Command) []byte {
	b, err := wire.AppendFrame(nil, cmd)
	require.NoError(t, err)
	return b
}

// Mixed body sizes and payloads exercise the writev batching.
func TestMixedBodiesCoalesced(t *testing.T) {
	var released atomic.Int32
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Workers: 256, Handler: func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
			n, _ := strconv.Atoi(string(req.Body))
			resp := wire.NewResponse(req, 0, "")
			resp.Body = bytes.Repeat([]byte{'b'}, n)
			if n%2 == 1 {
				resp.Payload = &countingPayload{bufs: [][]byte{bytes.Repeat([]byte{'p'}, n)}, released: &released}
			}
			return resp, nil
		}})
	})
	cl := newClient(t, ClientConfig{})
	sizes := []int{0, 1, 10, smallBody, smallBody + 1, 3000, 70001}
	var wg sync.WaitGroup
	for i := range 200 {
		n := sizes[i%len(sizes)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := cl.InvokeSync(ctxTimeout(t, 10*time.Second), s.Addr().String(), request(codeEcho, 0, strconv.Itoa(n)))
			if !assert.NoError(t, err) {
				return
			}
			want := bytes.Repeat([]byte{'b'}, n)
			if n%2 == 1 {
				want = append(want, bytes.Repeat([]byte{'p'}, n)...)
			}
			assert.Equal(t, string(want), string(resp.Body))
			resp.Release()
		}()
	}
	wg.Wait()
}

func TestAddrStringMatchesJava(t *testing.T) {
	cases := []struct {
		addr *net.TCPAddr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("10.0.0.7"), Port: 10911}, "10.0.0.7:10911"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: 9876}, "127.0.0.1:9876"},
		{&net.TCPAddr{IP: net.ParseIP("::1"), Port: 9876}, "0:0:0:0:0:0:0:1:9876"},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 1, Zone: "eth0"}, "fe80:0:0:0:0:0:0:1%eth0:1"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, addrString(tc.addr))
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	s := NewServer(ServerConfig{})
	defer func() { require.NoError(t, s.Shutdown(context.Background())) }()
	s.RegisterProcessor([]protocol.RequestCode{1, 2}, echoProcessor(1))
	assert.Panics(t, func() { s.RegisterProcessor([]protocol.RequestCode{3, 2}, echoProcessor(1)) })
	assert.Panics(t, func() { s.RegisterProcessor([]protocol.RequestCode{4}, Processor{}) })
}
