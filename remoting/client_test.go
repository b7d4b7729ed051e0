package remoting

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

const (
	codeCheckTransactionState    protocol.RequestCode = 39
	codeNotifyConsumerIdsChanged protocol.RequestCode = 40
)

// Server-initiated requests (broker → client) go out in the server's
// default serialize type and are answered by the client's processors.
func TestServerToClientRequests(t *testing.T) {
	var serverConn atomic.Pointer[Conn]
	s := startServer(t, ServerConfig{
		DefaultSerialize: wire.SerializeRocketMQ,
		Hooks:            ConnHooks{OnConnect: func(c *Conn) { serverConn.Store(c) }},
	}, nil)
	cl := newClient(t, ClientConfig{})
	var notified atomic.Int32
	cl.RegisterProcessor(codeCheckTransactionState, func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
		assert.Equal(t, wire.SerializeRocketMQ, req.Serialize)
		return wire.NewResponse(req, 0, "state"), nil
	})
	cl.RegisterProcessor(codeNotifyConsumerIdsChanged, func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
		notified.Add(1)
		return nil, nil
	})
	_, err := cl.Conn(ctxTimeout(t, 5*time.Second), s.Addr().String())
	require.NoError(t, err)
	waitFor(t, 5*time.Second, func() bool { return serverConn.Load() != nil })
	sc := serverConn.Load()

	resp, err := sc.InvokeSync(ctxTimeout(t, 5*time.Second), request(codeCheckTransactionState, 0, ""))
	require.NoError(t, err)
	assert.Equal(t, "state", resp.Remark)
	assert.Equal(t, wire.SerializeRocketMQ, resp.Serialize)

	require.NoError(t, sc.InvokeOneway(request(codeNotifyConsumerIdsChanged, 0, "")))
	waitFor(t, 5*time.Second, func() bool { return notified.Load() == 1 })

	got := make(chan *wire.Command, 1)
	require.NoError(t, sc.InvokeAsync(request(codeCheckTransactionState, 0, ""), 5*time.Second, func(r *wire.Command, err error) {
		assert.NoError(t, err)
		got <- r
	}))
	assert.Equal(t, "state", (<-got).Remark)

	// Unknown codes are answered 3 by the client too.
	resp, err = sc.InvokeSync(ctxTimeout(t, 5*time.Second), request(999, 0, ""))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespRequestCodeNotSupported), resp.Code)
	assert.Equal(t, " request type 999 not supported", resp.Remark)
}

// Java semaphoreAsync: at most AsyncLimit outstanding async calls.
func TestClientAsyncLimit(t *testing.T) {
	b := newBlocker()
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle})
	})
	cl := newClient(t, ClientConfig{AsyncLimit: 1})
	addr := s.Addr().String()
	first := make(chan error, 1)
	require.NoError(t, cl.InvokeAsync(addr, request(codeBlock, 0, ""), 5*time.Second, func(_ *wire.Command, err error) {
		first <- err
	}))
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 1 })
	err := cl.InvokeAsync(addr, request(codeBlock, 0, ""), 30*time.Millisecond, func(*wire.Command, error) {
		t.Error("callback of a refused call")
	})
	require.ErrorIs(t, err, ErrTooManyRequests)
	close(b.release)
	require.NoError(t, <-first)
	third := make(chan error, 1)
	require.NoError(t, cl.InvokeAsync(addr, request(codeBlock, 0, ""), 5*time.Second, func(_ *wire.Command, err error) {
		third <- err
	}))
	require.NoError(t, <-third)
}

func TestClientRedialsAfterClose(t *testing.T) {
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	cl := newClient(t, ClientConfig{})
	addr := s.Addr().String()
	c1, err := cl.Conn(ctxTimeout(t, 5*time.Second), addr)
	require.NoError(t, err)
	waitFor(t, 5*time.Second, func() bool { return len(s.Conns()) == 1 })
	require.NoError(t, s.Conns()[0].Close())
	waitFor(t, 5*time.Second, c1.Closed)
	resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "again"))
	require.NoError(t, err)
	assert.Equal(t, "again", string(resp.Body))
	c2, err := cl.Conn(ctxTimeout(t, 5*time.Second), addr)
	require.NoError(t, err)
	assert.NotEqual(t, c1.ID(), c2.ID())
	assert.Equal(t, s.Addr().String(), c2.RemoteAddr())
}

func TestClientConnectFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	cl := newClient(t, ClientConfig{})
	_, err = cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, ""))
	require.ErrorIs(t, err, ErrConnect)
	require.NoError(t, cl.Close())
	_, err = cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, ""))
	require.ErrorIs(t, err, ErrClientClosed)
}

// Java failFast: pending calls fail when their channel closes.
func TestPendingCallsFailOnClose(t *testing.T) {
	b := newBlocker()
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle})
	})
	cl := newClient(t, ClientConfig{})
	addr := s.Addr().String()
	syncErr := make(chan error, 1)
	go func() {
		_, err := cl.InvokeSync(ctxTimeout(t, 10*time.Second), addr, request(codeBlock, 0, ""))
		syncErr <- err
	}()
	asyncErr := make(chan error, 1)
	require.NoError(t, cl.InvokeAsync(addr, request(codeBlock, 0, ""), 10*time.Second, func(_ *wire.Command, err error) {
		asyncErr <- err
	}))
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 2 })
	for _, c := range s.Conns() {
		require.NoError(t, c.Close())
	}
	require.ErrorIs(t, <-syncErr, ErrClosed)
	require.ErrorIs(t, <-asyncErr, ErrClosed)
	close(b.release)
}

func TestConnAttr(t *testing.T) {
	var got atomic.Value
	s := startServer(t, ServerConfig{Hooks: ConnHooks{
		OnConnect: func(c *Conn) { c.SetAttr("broker-a") },
		OnClose:   func(c *Conn) { got.Store(c.Attr()) },
	}}, nil)
	cl := newClient(t, ClientConfig{})
	c, err := cl.Conn(ctxTimeout(t, 5*time.Second), s.Addr().String())
	require.NoError(t, err)
	assert.Nil(t, c.Attr())
	waitFor(t, 5*time.Second, func() bool { return len(s.Conns()) == 1 })
	assert.Equal(t, c.LocalAddr(), s.Conns()[0].RemoteAddr())
	require.NoError(t, c.Close())
	waitFor(t, 5*time.Second, func() bool { return got.Load() != nil })
	assert.Equal(t, "broker-a", got.Load())
}
