package remoting

import (
	"bytes"
	"context"
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

// A burst of requests sent in one write to an inline processor is served
// on the read loop, one after the other, and answered in order.
func TestInlineBurstServedInOrder(t *testing.T) {
	var running, maxRunning atomic.Int32
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Inline: true, Handler: func(ctx context.Context, c *Conn, req *wire.Command) (*wire.Command, error) {
			n := running.Add(1)
			defer running.Add(-1)
			if n > maxRunning.Load() {
				maxRunning.Store(n)
			}
			return echo(ctx, c, req)
		}})
	})
	r := dialRaw(t, s)
	const n = 200
	var burst []byte
	for i := range n {
		req := request(codeEcho, wire.SerializeType(i%2), strconv.Itoa(i))
		req.Opaque = int32(i)
		burst = append(burst, mustFrame(t, req)...)
	}
	r.write(burst)
	for i := range n {
		resp := r.read()
		require.Equal(t, int32(i), resp.Opaque)
		require.Equal(t, strconv.Itoa(i), string(resp.Body))
		require.Equal(t, wire.SerializeType(i%2), resp.Serialize)
	}
	assert.Equal(t, int32(1), maxRunning.Load(), "one connection's requests run one at a time")
}

// Inline and pool processors answer alike: the same table as the pool
// path's tests, run both ways.
func TestInlineAnswersLikePool(t *testing.T) {
	for _, inline := range []bool{false, true} {
		t.Run("inline="+strconv.FormatBool(inline), func(t *testing.T) {
			var reject atomic.Bool
			s := startServer(t, ServerConfig{}, func(s *Server) {
				mk := func(h Handler) Processor {
					if inline {
						return Processor{Inline: true, Handler: h}
					}
					return Processor{Handler: h, Workers: 4}
				}
				s.RegisterProcessor([]protocol.RequestCode{codeFail}, mk(func(context.Context, *Conn, *wire.Command) (*wire.Command, error) {
					panic("boom")
				}))
				s.RegisterProcessor([]protocol.RequestCode{codeNil}, mk(func(context.Context, *Conn, *wire.Command) (*wire.Command, error) {
					return nil, protocol.Errorf(17, "topic[%s] not exist", "T")
				}))
				p := mk(echo)
				p.RejectRequest = reject.Load
				s.RegisterProcessor([]protocol.RequestCode{codeEcho}, p)
			})
			r := dialRaw(t, s)
			call := func(code protocol.RequestCode, body string) *wire.Command {
				r.send(request(code, 0, body))
				return r.read()
			}
			resp := call(codeFail, "")
			assert.Equal(t, int32(protocol.RespSystemError), resp.Code)
			assert.Contains(t, resp.Remark, "boom")
			resp = call(codeNil, "")
			assert.Equal(t, int32(17), resp.Code)
			assert.Equal(t, "topic[T] not exist", resp.Remark)
			reject.Store(true)
			resp = call(codeEcho, "x")
			assert.Equal(t, int32(protocol.RespSystemBusy), resp.Code)
			assert.Equal(t, remarkReject, resp.Remark)
			reject.Store(false)

			oneway := request(codeEcho, 0, "oneway")
			oneway.MarkOneway()
			r.send(oneway)
			resp = call(codeEcho, "next") // the oneway request got no answer
			assert.Equal(t, "next", string(resp.Body))
		})
	}
}

// Inline replies go out while the write loop is busy with a large pool
// response on the same connection; every caller gets its own answer.
func TestInlineRepliesWhileWriterBusy(t *testing.T) {
	var released atomic.Int32
	big := bytes.Repeat([]byte{'p'}, 2*inlineWriteMax)
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Inline: true, Handler: echo})
		s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Workers: 8, QueueCapacity: 1000, Handler: func(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
			resp := wire.NewResponse(req, 0, "")
			resp.Body = []byte(string(req.Body))
			resp.Payload = &countingPayload{bufs: [][]byte{big}, released: &released}
			return resp, nil
		}})
	})
	cl := newClient(t, ClientConfig{})
	addr := s.Addr().String()
	var wg sync.WaitGroup
	for i := range 300 {
		code := codeEcho
		if i%5 == 0 {
			code = codeBlock
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := strconv.Itoa(i)
			resp, err := cl.InvokeSync(ctxTimeout(t, 10*time.Second), addr, request(code, 0, body))
			if !assert.NoError(t, err) {
				return
			}
			want := body
			if code == codeBlock {
				want += string(big)
			}
			if got := string(resp.Body); got != want {
				t.Errorf("request %d: got %d bytes %.20q, want %d bytes %.20q", i, len(got), got, len(want), want)
			}
			resp.Release()
		}()
	}
	wg.Wait()
	waitFor(t, 5*time.Second, func() bool { return released.Load() == 60 })
}

// Shutdown waits for an inline handler in flight and delivers its answer.
func TestGracefulShutdownInline(t *testing.T) {
	b := newBlocker()
	log, _ := testLog()
	s := NewServer(ServerConfig{ListenAddr: "127.0.0.1:0", Log: log})
	s.RegisterProcessor([]protocol.RequestCode{codeBlock}, Processor{Inline: true, Handler: b.handle})
	require.NoError(t, s.Listen())
	r := dialRaw(t, s)
	r.send(request(codeBlock, 0, "in-flight"))
	waitFor(t, 5*time.Second, func() bool { return b.started.Load() == 1 })

	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctxTimeout(t, 10*time.Second)) }()
	waitFor(t, 5*time.Second, s.ep.stopping.Load)
	close(b.release)
	assert.Equal(t, "in-flight", string(r.read().Body))
	require.NoError(t, <-shut)
	r.waitClosed()
	assert.Empty(t, s.Conns())
}

func TestInlineProcessorWithPoolPanics(t *testing.T) {
	for _, p := range []Processor{
		{Inline: true, Handler: echo, Workers: 1},
		{Inline: true, Handler: echo, QueueCapacity: 1},
	} {
		s := NewServer(ServerConfig{})
		assert.Panics(t, func() { s.RegisterProcessor([]protocol.RequestCode{codeEcho}, p) })
		require.NoError(t, s.Shutdown(context.Background()))
	}
}

// InlineWhen serves the requests it approves on the read loop and the rest
// on the pool: with the pool's one worker held by a request, an approved
// request is still answered, and the held one after it is let go.
func TestInlineWhenPicksRequests(t *testing.T) {
	hold := make(chan struct{})
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Workers: 1, QueueCapacity: 10,
			InlineWhen: func(req *wire.Command) bool { return string(req.Body) != "pooled" },
			Handler: func(ctx context.Context, c *Conn, req *wire.Command) (*wire.Command, error) {
				if string(req.Body) == "pooled" {
					<-hold
				}
				return echo(ctx, c, req)
			}})
	})
	r := dialRaw(t, s)
	pooled := request(codeEcho, 0, "pooled")
	pooled.Opaque = 1
	r.send(pooled)
	inline := request(codeEcho, 0, "inline")
	inline.Opaque = 2
	r.send(inline)
	resp := r.read()
	require.Equal(t, "inline", string(resp.Body), "answered while the only worker is held")
	close(hold)
	resp = r.read()
	require.Equal(t, "pooled", string(resp.Body))
	require.Panics(t, func() {
		(&table{}).newProcessor(Processor{Inline: true, InlineWhen: func(*wire.Command) bool { return true }, Handler: echo})
	}, "Inline and InlineWhen together")
}

// An inline reply larger than the socket buffers takes is finished by the
// write loop while the read loop goes on serving: a small request sent
// behind it is answered once the client reads, and both answers are whole.
func TestInlineReplyHandedToWriter(t *testing.T) {
	var released atomic.Int32
	big := bytes.Repeat([]byte{'h'}, 15<<20) // more than loopback socket buffers hold
	var served atomic.Int32
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Inline: true, Handler: func(ctx context.Context, c *Conn, req *wire.Command) (*wire.Command, error) {
			defer served.Add(1)
			resp, err := echo(ctx, c, req)
			if string(req.Body) == "big" {
				resp.Payload = &countingPayload{bufs: [][]byte{big}, released: &released}
			}
			return resp, err
		}})
	})
	r := dialRaw(t, s)
	big1 := request(codeEcho, 0, "big")
	big1.Opaque = 1
	r.send(big1)
	waitFor(t, 5*time.Second, func() bool { return served.Load() == 1 })
	small := request(codeEcho, 0, "small")
	small.Opaque = 2
	r.send(small)
	// The read loop is not stuck behind the unread big reply.
	waitFor(t, 5*time.Second, func() bool { return served.Load() == 2 })
	resp := r.read()
	require.Equal(t, int32(1), resp.Opaque)
	require.Equal(t, len("big")+len(big), len(resp.Body))
	require.True(t, bytes.Equal(big, resp.Body[3:]))
	resp = r.read()
	require.Equal(t, int32(2), resp.Opaque)
	require.Equal(t, "small", string(resp.Body))
	waitFor(t, 5*time.Second, func() bool { return released.Load() == 1 })
}

// A write deadline left from an earlier write by the write loop does not
// fail a later inline reply.
func TestInlineReplyAfterWriterDeadline(t *testing.T) {
	s := startServer(t, ServerConfig{WriteTimeout: 20 * time.Millisecond}, func(s *Server) {
		s.RegisterProcessor([]protocol.RequestCode{codeEcho}, Processor{Inline: true, Handler: echo})
		s.RegisterProcessor([]protocol.RequestCode{codeNil}, Processor{Workers: 1, Handler: echo})
	})
	r := dialRaw(t, s)
	r.send(request(codeNil, 0, "pooled")) // written by the write loop
	require.Equal(t, "pooled", string(r.read().Body))
	time.Sleep(50 * time.Millisecond) // past the write loop's deadline
	r.send(request(codeEcho, 0, "inline"))
	require.Equal(t, "inline", string(r.read().Body))
	assert.Len(t, s.Conns(), 1)
}
