package remoting

import (
	"context"
	"errors"
	"fmt"
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

var serializeTypes = []wire.SerializeType{wire.SerializeJSON, wire.SerializeRocketMQ}

func TestRoundTripSync(t *testing.T) {
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	for _, st := range serializeTypes {
		t.Run(st.String(), func(t *testing.T) {
			cl := newClient(t, ClientConfig{Serialize: st})
			req := request(codeEcho, wire.SerializeJSON, "hello")
			req.AddExt("topic", "T")
			resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), s.Addr().String(), req)
			require.NoError(t, err)
			defer resp.Release()
			assert.True(t, resp.IsResponse())
			assert.Equal(t, st, resp.Serialize, "response in the request's serialize type")
			assert.Equal(t, "hello", string(resp.Body))
			assert.Equal(t, "ok", resp.Remark)
			v, _ := resp.ExtValue("topic")
			assert.Equal(t, "T", v)
		})
	}
}

// Java 4.9.8 NettyRemotingAbstract: the callback sets the response's
// serialize type to the request's, whatever the server's default.
func TestResponseUsesRequestSerializeType(t *testing.T) {
	s := startServer(t, ServerConfig{DefaultSerialize: wire.SerializeRocketMQ}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	r := dialRaw(t, s)
	req := request(codeEcho, wire.SerializeJSON, "x")
	req.Opaque = 77
	r.send(req)
	resp := r.read()
	assert.Equal(t, wire.SerializeJSON, resp.Serialize)
	assert.Equal(t, int32(77), resp.Opaque)
	assert.Equal(t, wire.FlagResponse, resp.Flag)
}

// Java answers an exception its processor threw with a new command, in the
// server's type; an ordinary refusal and an answer a handler gives its own
// type keep theirs.
func TestErrorAndHandlerSerializeTypes(t *testing.T) {
	const (
		codeRefuse protocol.RequestCode = 7001 + iota
		codeThrow
		codeOwnType
	)
	s := startServer(t, ServerConfig{DefaultSerialize: wire.SerializeRocketMQ}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeRefuse, codeThrow, codeOwnType}, Processor{Handler: func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
			switch protocol.RequestCode(req.Code) {
			case codeRefuse:
				return nil, protocol.Errorf(protocol.RespTopicNotExist, "no topic")
			case codeThrow:
				return nil, fmt.Errorf("decode: %w", protocol.ErrFieldNull("topic"))
			}
			resp := wire.NewResponse(req, 0, "")
			resp.Serialize = wire.SerializeRocketMQ
			return resp, nil
		}})
	})
	r := dialRaw(t, s)
	for i, tc := range []struct {
		code protocol.RequestCode
		want wire.SerializeType
		resp protocol.ResponseCode
	}{
		{codeRefuse, wire.SerializeJSON, protocol.RespTopicNotExist},
		{codeThrow, wire.SerializeRocketMQ, protocol.RespSystemError},
		{codeOwnType, wire.SerializeRocketMQ, protocol.RespSuccess},
	} {
		req := request(tc.code, wire.SerializeJSON, "")
		req.Opaque = int32(i + 1)
		r.send(req)
		resp := r.read()
		assert.Equal(t, int32(tc.resp), resp.Code, tc.code)
		assert.Equal(t, tc.want, resp.Serialize, tc.code)
		assert.Equal(t, int32(i+1), resp.Opaque)
	}
}

func TestRoundTripAsync(t *testing.T) {
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	for _, st := range serializeTypes {
		t.Run(st.String(), func(t *testing.T) {
			cl := newClient(t, ClientConfig{Serialize: st})
			got := make(chan *wire.Command, 1)
			err := cl.InvokeAsync(s.Addr().String(), request(codeEcho, st, "async"), 5*time.Second,
				func(resp *wire.Command, err error) {
					assert.NoError(t, err)
					got <- resp
				})
			require.NoError(t, err)
			resp := <-got
			assert.Equal(t, "async", string(resp.Body))
			assert.Equal(t, st, resp.Serialize)
			resp.Release()
		})
	}
}

func TestOnewayGetsNoResponse(t *testing.T) {
	var seen atomic.Int32
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Handler: func(ctx context.Context, c *Conn, req *wire.Command) (*wire.Command, error) {
			seen.Add(1)
			return echo(ctx, c, req)
		}})
	})
	for _, st := range serializeTypes {
		t.Run(st.String(), func(t *testing.T) {
			r := dialRaw(t, s)
			before := seen.Load()
			ow := request(codeEcho, st, "oneway")
			ow.Opaque = 1
			ow.MarkOneway()
			r.send(ow)
			waitFor(t, 5*time.Second, func() bool { return seen.Load() == before+1 && s.ep.handlers.n.Load() == 0 })
			syncReq := request(codeEcho, st, "sync")
			syncReq.Opaque = 2
			r.send(syncReq)
			resp := r.read()
			assert.Equal(t, int32(2), resp.Opaque, "the oneway request must not be answered")
		})
	}
	// Through the client as well.
	cl := newClient(t, ClientConfig{})
	before := seen.Load()
	require.NoError(t, cl.InvokeOneway(s.Addr().String(), request(codeEcho, 0, "x")))
	waitFor(t, 5*time.Second, func() bool { return seen.Load() == before+1 })
}

func TestConcurrentSyncOneConnection(t *testing.T) {
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(1024))
	})
	cl := newClient(t, ClientConfig{Serialize: wire.SerializeRocketMQ})
	const n = 500
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := "msg-" + strconv.Itoa(i)
			resp, err := cl.InvokeSync(ctxTimeout(t, 10*time.Second), s.Addr().String(), request(codeEcho, 0, body))
			if assert.NoError(t, err) {
				assert.Equal(t, body, string(resp.Body))
				resp.Release()
			}
		}()
	}
	wg.Wait()
	assert.Len(t, s.Conns(), 1, "one connection per address")
}

// Java 4.9.8: " request type " + code + " not supported", written with the
// server's configured serialize type (createResponseCommand).
func TestUnknownCode(t *testing.T) {
	s := startServer(t, ServerConfig{DefaultSerialize: wire.SerializeRocketMQ}, nil)
	r := dialRaw(t, s)
	req := request(9999, wire.SerializeJSON, "")
	req.Opaque = 5
	r.send(req)
	resp := r.read()
	assert.Equal(t, int32(protocol.RespRequestCodeNotSupported), resp.Code)
	assert.Equal(t, " request type 9999 not supported", resp.Remark)
	assert.Equal(t, int32(5), resp.Opaque)
	assert.True(t, resp.IsResponse())
	assert.Equal(t, wire.SerializeRocketMQ, resp.Serialize)
}

func TestDefaultProcessor(t *testing.T) {
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.SetDefaultProcessor(echoProcessor(0))
	})
	cl := newClient(t, ClientConfig{})
	resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), s.Addr().String(), request(4242, 0, "d"))
	require.NoError(t, err)
	assert.Equal(t, "d", string(resp.Body))
}

// blocker is a handler that waits until released.
type blocker struct {
	started atomic.Int32
	release chan struct{}
}

func newBlocker() *blocker { return &blocker{release: make(chan struct{})} }

func (b *blocker) handle(ctx context.Context, c *Conn, req *wire.Command) (*wire.Command, error) {
	b.started.Add(1)
	<-b.release
	return echo(ctx, c, req)
}

// Java 4.9.8: RejectedExecutionException ⇒ SYSTEM_BUSY
// "[OVERLOAD]system busy, start flow control for a while"; oneway dropped.
func TestPoolFullAnswersSystemBusy(t *testing.T) {
	b := newBlocker()
	log, hook := testLog()
	s := startServer(t, ServerConfig{Log: log}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle, Workers: 1})
	})
	cl := newClient(t, ClientConfig{})
	addr := s.Addr().String()
	first := make(chan *wire.Command, 1)
	require.NoError(t, cl.InvokeAsync(addr, request(codeBlock, 0, "1"), 5*time.Second, func(r *wire.Command, err error) {
		assert.NoError(t, err)
		first <- r
	}))
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 1 })

	resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeBlock, 0, "2"))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespSystemBusy), resp.Code)
	assert.Equal(t, "[OVERLOAD]system busy, start flow control for a while", resp.Remark)
	assert.True(t, hasLog(hook, "pool busy"))

	require.NoError(t, cl.InvokeOneway(addr, request(codeBlock, 0, "3")))
	// Requests on one connection are read in order: once this one is
	// refused, the oneway request before it has been dropped.
	resp, err = cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeBlock, 0, "4"))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespSystemBusy), resp.Code)
	close(b.release)
	assert.Equal(t, "1", string((<-first).Body))
	waitFor(t, 5*time.Second, func() bool { return s.ep.handlers.n.Load() == 0 })
	assert.Equal(t, int32(1), b.started.Load(), "the oneway request was dropped, not queued")
}

// With a queue, requests beyond the busy workers wait (Java's bounded
// executor queue) and only a full queue answers SYSTEM_BUSY.
func TestQueuedPoolWaitsThenOverloads(t *testing.T) {
	b := newBlocker()
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle, Workers: 1, QueueCapacity: 1})
	})
	addr := s.Addr().String()
	results := make(chan *wire.Command, 2)
	for i := 0; i < 2; i++ { // one runs, one waits; separate connections
		cl := newClient(t, ClientConfig{})
		require.NoError(t, cl.InvokeAsync(addr, request(codeBlock, 0, "q"), 10*time.Second, func(r *wire.Command, err error) {
			assert.NoError(t, err)
			results <- r
		}))
		waitFor(t, 5*time.Second, func() bool { return s.ep.handlers.n.Load() >= int64(i+1) })
	}
	waitFor(t, 5*time.Second, func() bool { return s.QueueLen(codeBlock) == 1 })
	assert.Zero(t, s.QueueLen(codeEcho), "an unregistered code")
	waitFor(t, 5*time.Second, func() bool { return s.QueueHeadWait(codeBlock) >= 20*time.Millisecond })
	assert.Zero(t, s.QueueHeadWait(codeEcho))
	third := newClient(t, ClientConfig{})
	resp, err := third.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeBlock, 0, "3"))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespSystemBusy), resp.Code, "the queue of one is full")
	close(b.release)
	for i := 0; i < 2; i++ {
		assert.Equal(t, int32(protocol.RespSuccess), (<-results).Code)
	}
	assert.Zero(t, s.QueueLen(codeBlock))
	assert.Zero(t, s.QueueHeadWait(codeBlock), "nobody waits any more")
	assert.Equal(t, int32(2), b.started.Load())
}

// Java 4.9.8: rejectRequest() ⇒ SYSTEM_BUSY "[REJECTREQUEST]…".
func TestRejectRequest(t *testing.T) {
	var reject atomic.Bool
	reject.Store(true)
	s := startServer(t, ServerConfig{}, func(s *Server) {
		p := echoProcessor(0)
		p.RejectRequest = reject.Load
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, p)
	})
	cl := newClient(t, ClientConfig{})
	resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), s.Addr().String(), request(codeEcho, 0, "x"))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespSystemBusy), resp.Code)
	assert.Equal(t, "[REJECTREQUEST]system busy, start flow control for a while", resp.Remark)
	reject.Store(false)
	resp, err = cl.InvokeSync(ctxTimeout(t, 5*time.Second), s.Addr().String(), request(codeEcho, 0, "x"))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespSuccess), resp.Code)
}

func TestHandlerPanic(t *testing.T) {
	log, hook := testLog()
	s := startServer(t, ServerConfig{Log: log}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeFail}, Processor{Handler: func(context.Context, *Conn, *wire.Command) (*wire.Command, error) {
			panic("boom")
		}})
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	addr := s.Addr().String()
	cl := newClient(t, ClientConfig{})
	resp, err := cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeFail, 0, ""))
	require.NoError(t, err)
	assert.Equal(t, int32(protocol.RespSystemError), resp.Code)
	assert.Contains(t, resp.Remark, "boom")
	waitFor(t, 5*time.Second, func() bool { return hasLog(hook, "handler panic") })
	assert.True(t, hasLog(hook, "goroutine"), "the log line carries the stack")

	// The same and other connections keep being served.
	resp, err = cl.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "still"))
	require.NoError(t, err)
	assert.Equal(t, "still", string(resp.Body))
	other := newClient(t, ClientConfig{})
	resp, err = other.InvokeSync(ctxTimeout(t, 5*time.Second), addr, request(codeEcho, 0, "other"))
	require.NoError(t, err)
	assert.Equal(t, "other", string(resp.Body))
}

func TestHandlerErrors(t *testing.T) {
	pe := protocol.Errorf(17, "topic[%s] not exist, apply first please!", "T")
	cases := []struct {
		name      string
		err       error
		code      protocol.ResponseCode
		remark    string
		serialize wire.SerializeType
	}{
		{"protocol error", pe, 17, "topic[T] not exist, apply first please!", wire.SerializeJSON},
		{"wrapped protocol error", fmt.Errorf("send: %w", pe), 17, "topic[T] not exist, apply first please!", wire.SerializeJSON},
		{"plain error", errors.New("disk on fire"), protocol.RespSystemError, "disk on fire", wire.SerializeRocketMQ},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, ServerConfig{DefaultSerialize: wire.SerializeRocketMQ}, func(s *Server) {
				s.RegisterProcessor([]protocol.RequestCode{codeFail}, Processor{Handler: func(context.Context, *Conn, *wire.Command) (*wire.Command, error) {
					return nil, tc.err
				}})
			})
			r := dialRaw(t, s)
			r.send(request(codeFail, wire.SerializeJSON, ""))
			resp := r.read()
			assert.Equal(t, int32(tc.code), resp.Code)
			assert.Equal(t, tc.remark, resp.Remark)
			assert.Equal(t, tc.serialize, resp.Serialize)
		})
	}
}

func TestNilResponseTimesOut(t *testing.T) {
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeNil}, Processor{Handler: func(context.Context, *Conn, *wire.Command) (*wire.Command, error) {
			return nil, nil
		}})
	})
	addr := s.Addr().String()

	// Java clientCloseSocketIfTimeout defaults to true: the connection goes.
	cl := newClient(t, ClientConfig{})
	c, err := cl.Conn(ctxTimeout(t, 5*time.Second), addr)
	require.NoError(t, err)
	_, err = cl.InvokeSync(ctxTimeout(t, 50*time.Millisecond), addr, request(codeNil, 0, ""))
	require.ErrorIs(t, err, ErrTimeout)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	waitFor(t, 5*time.Second, c.Closed)

	keep := newClient(t, ClientConfig{KeepConnOnTimeout: true})
	c, err = keep.Conn(ctxTimeout(t, 5*time.Second), addr)
	require.NoError(t, err)
	_, err = keep.InvokeSync(ctxTimeout(t, 50*time.Millisecond), addr, request(codeNil, 0, ""))
	require.ErrorIs(t, err, ErrTimeout)
	assert.False(t, c.Closed())

	done := make(chan error, 1)
	require.NoError(t, keep.InvokeAsync(addr, request(codeNil, 0, ""), 50*time.Millisecond, func(_ *wire.Command, err error) {
		done <- err
	}))
	assert.ErrorIs(t, <-done, ErrTimeout)
}

// CutQueued answers the requests waiting for a worker (Java's
// BrokerFastFailure): SYSTEM_BUSY with the remark, oneway requests too,
// and the connections go on.
func TestCutQueued(t *testing.T) {
	b := newBlocker()
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Handler: b.handle, Workers: 1, QueueCapacity: 10})
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
	})
	addr := s.Addr().String()
	first := make(chan *wire.Command, 1)
	cl := newClient(t, ClientConfig{})
	require.NoError(t, cl.InvokeAsync(addr, request(codeBlock, 0, "1"), 10*time.Second, func(r *wire.Command, err error) {
		assert.NoError(t, err)
		first <- r
	}))
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 1 })

	waiting := dialRaw(t, s) // its read loop waits for the worker
	oneway := request(codeBlock, 0, "2")
	oneway.Opaque = 7
	oneway.MarkOneway()
	waiting.send(oneway)
	waitFor(t, 5*time.Second, func() bool { return s.QueueLen(codeBlock) == 1 })
	assert.Zero(t, s.CutQueued(codeBlock, time.Hour, nil), "not waited long enough")
	assert.Zero(t, s.CutQueued(codeEcho, 0, nil), "no queue")

	var left []int
	n := s.CutQueued(codeBlock, 0, func(waited time.Duration, l int) string {
		left = append(left, l)
		return fmt.Sprintf("[TEST]waited %v", waited > 0)
	})
	assert.Equal(t, 1, n)
	assert.Equal(t, []int{0}, left)
	resp := waiting.read()
	assert.True(t, resp.IsResponse())
	assert.Equal(t, int32(7), resp.Opaque)
	assert.Equal(t, int32(protocol.RespSystemBusy), resp.Code)
	assert.Equal(t, "[TEST]waited true", resp.Remark)
	assert.Zero(t, s.QueueLen(codeBlock))

	waiting.send(request(codeEcho, 0, "after")) // the connection reads on
	assert.Equal(t, "after", string(waiting.read().Body))
	close(b.release)
	assert.Equal(t, int32(protocol.RespSuccess), (<-first).Code)
	waitFor(t, 5*time.Second, func() bool { return s.ep.handlers.n.Load() == 0 })
	assert.Equal(t, int32(1), b.started.Load(), "the cut request never ran")
}

// Java 4.9.8 NettyRemotingAbstract.processRequestCommand runs the RPC
// hooks inside the request's task: an exception there is answered
// SYSTEM_ERROR with the exception's description (a new command, in the
// server's serialize type), nothing for a oneway request; a code with no
// processor never reaches the hooks.
func TestBeforeRequest(t *testing.T) {
	var seen atomic.Int32
	cfg := ServerConfig{DefaultSerialize: wire.SerializeRocketMQ, BeforeRequest: func(c *Conn, req *wire.Command) error {
		seen.Add(1)
		if v, _ := req.ExtValue("AccessKey"); v != "good" {
			return errors.New("AclException: No acl config for " + v)
		}
		return nil
	}}
	s := startServer(t, cfg, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, echoProcessor(0))
		s.RegisterProcessor([]protocol.RequestCode{codeNil}, Processor{Handler: echo, Inline: true})
	})
	r := dialRaw(t, s)
	for i, code := range []protocol.RequestCode{codeEcho, codeNil} {
		bad := request(code, wire.SerializeJSON, "x")
		bad.Opaque = int32(10 + i)
		bad.AddExt("AccessKey", "bad")
		r.send(bad)
		resp := r.read()
		assert.Equal(t, int32(protocol.RespSystemError), resp.Code)
		assert.Equal(t, "AclException: No acl config for bad", resp.Remark)
		assert.Equal(t, int32(10+i), resp.Opaque)
		assert.Equal(t, wire.SerializeRocketMQ, resp.Serialize)

		oneway := request(code, wire.SerializeJSON, "x")
		oneway.MarkOneway()
		r.send(oneway)
		good := request(code, wire.SerializeJSON, "y")
		good.Opaque = int32(20 + i)
		good.AddExt("AccessKey", "good")
		r.send(good)
		resp = r.read() // the oneway request got no answer
		assert.Equal(t, int32(protocol.RespSuccess), resp.Code)
		assert.Equal(t, int32(20+i), resp.Opaque)
		assert.Equal(t, "y", string(resp.Body))
	}
	before := seen.Load()
	r.send(request(9999, wire.SerializeJSON, ""))
	resp := r.read()
	assert.Equal(t, int32(protocol.RespRequestCodeNotSupported), resp.Code)
	assert.Equal(t, before, seen.Load(), "no processor, no hook")
}
