package remoting

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func TestMain(m *testing.M) {
	// ants starts a default pool at init; ignore what exists before tests.
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// Request codes used by the tests' processors.
const (
	codeEcho  protocol.RequestCode = 10
	codeBlock protocol.RequestCode = 11
	codeFail  protocol.RequestCode = 12
	codeNil   protocol.RequestCode = 13
)

// testLog returns a debug-level entry whose lines are kept by the hook.
func testLog() (*logrus.Entry, *logtest.Hook) {
	l, hook := logtest.NewNullLogger()
	l.SetLevel(logrus.DebugLevel)
	return logrus.NewEntry(l), hook
}

// hasLog reports whether a kept log line contains s.
func hasLog(hook *logtest.Hook, s string) bool {
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, s) {
			return true
		}
	}
	return false
}

// startServer runs a server on 127.0.0.1:0 with setup's processors; it is
// shut down when the test ends.
func startServer(t *testing.T, cfg ServerConfig, setup func(*Server)) *Server {
	t.Helper()
	cfg.ListenAddr = "127.0.0.1:0"
	if cfg.Log == nil {
		cfg.Log, _ = testLog()
	}
	s := NewServer(cfg)
	if setup != nil {
		setup(s)
	}
	require.NoError(t, s.Listen())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, s.Shutdown(ctx))
	})
	return s
}

// newClient returns a client closed when the test ends.
func newClient(t *testing.T, cfg ClientConfig) *Client {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log, _ = testLog()
	}
	cl := NewClient(cfg)
	t.Cleanup(func() { _ = cl.Close() })
	return cl
}

// waitFor polls cond until it holds or fails the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func ctxTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// echo answers with the request's body and ext fields.
func echo(_ context.Context, _ *Conn, req *wire.Command) (*wire.Command, error) {
	resp := wire.NewResponse(req, int32(protocol.RespSuccess), "ok")
	resp.Body = req.Body // may alias: released after the write
	for _, f := range req.Ext {
		resp.AddExt(f.Key, f.Value)
	}
	return resp, nil
}

func echoProcessor(workers int) Processor {
	return Processor{Handler: echo, Workers: workers}
}

// rawConn speaks frames directly, for what a Client would not send.
type rawConn struct {
	t  *testing.T
	nc net.Conn
	fr *wire.FrameReader
}

func dialRaw(t *testing.T, s *Server) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", s.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { _ = nc.Close() })
	return &rawConn{t: t, nc: nc, fr: wire.NewFrameReader(nc, 0)}
}

func (r *rawConn) send(cmd *wire.Command) {
	r.t.Helper()
	b, err := wire.AppendFrame(nil, cmd)
	require.NoError(r.t, err)
	r.write(b)
}

func (r *rawConn) write(b []byte) {
	r.t.Helper()
	_, err := r.nc.Write(b)
	require.NoError(r.t, err)
}

func (r *rawConn) read() *wire.Command {
	r.t.Helper()
	require.NoError(r.t, r.nc.SetReadDeadline(time.Now().Add(5*time.Second)))
	cmd, err := r.fr.ReadCommand()
	require.NoError(r.t, err)
	cmd.DetachBody()
	return cmd
}

// waitClosed reads until the server closes the connection.
func (r *rawConn) waitClosed() {
	r.t.Helper()
	require.NoError(r.t, r.nc.SetReadDeadline(time.Now().Add(5*time.Second)))
	var buf [4096]byte
	for {
		_, err := r.nc.Read(buf[:])
		if err == nil {
			continue
		}
		var ne net.Error
		require.False(r.t, errors.As(err, &ne) && ne.Timeout(), "connection still open")
		return
	}
}

func request(code protocol.RequestCode, st wire.SerializeType, body string) *wire.Command {
	req := wire.NewRequest(int32(code))
	req.Serialize = st
	if body != "" {
		req.Body = []byte(body)
	}
	return req
}

// countingPayload records its releases; a second Release panics.
type countingPayload struct {
	bufs     [][]byte
	released *atomic.Int32
	done     atomic.Bool
}

func (p *countingPayload) Buffers() [][]byte { return p.bufs }

func (p *countingPayload) Len() int {
	n := 0
	for _, b := range p.bufs {
		n += len(b)
	}
	return n
}

func (p *countingPayload) Release() {
	if p.done.Swap(true) {
		panic("payload released twice")
	}
	p.released.Add(1)
}
