// Package namesrvtest runs in-process name servers for tests: on
// 127.0.0.1:0, with their files under t.TempDir(), stopped at cleanup; and
// a raw-frame client speaking the remoting protocol over one connection.
package namesrvtest

import (
	"context"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sputnikmq/sputnik/namesrv"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// StartTestNamesrv starts a name server and stops it when the test ends.
// Options adjust the defaults (files in a temporary directory, listen on
// 127.0.0.1:0) before the server is built.
func StartTestNamesrv(t testing.TB, opts ...func(*namesrv.Options)) *namesrv.Server {
	t.Helper()
	dir := t.TempDir()
	home := dir
	cfg := namesrv.DefaultConfig(dir, &home)
	o := namesrv.Options{Config: cfg, Netty: namesrv.DefaultNettyConfig(), ListenAddr: "127.0.0.1:0"}
	o.Config.KvConfigPath = filepath.Join(dir, "namesrv", "kvConfig.json")
	o.Config.ConfigStorePath = filepath.Join(dir, "namesrv", "namesrv.properties")
	for _, f := range opts {
		f(&o)
	}
	s, err := namesrv.New(o)
	if err != nil {
		t.Fatalf("namesrv.New: %v", err)
	}
	if err := s.Start(); err != nil {
		t.Fatalf("namesrv.Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("namesrv.Shutdown: %v", err)
		}
	})
	return s
}

// Clock is a settable clock for Options.Now.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock set to start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Client sends commands as raw frames over one TCP connection.
type Client struct {
	t      testing.TB
	conn   net.Conn
	fr     *wire.FrameReader
	opaque atomic.Int32
}

// Dial connects to addr; the connection closes when the test ends.
func Dial(t testing.TB, addr string) *Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	c := &Client{t: t, conn: conn, fr: wire.NewFrameReader(conn, wire.DefaultMaxFrameLength)}
	t.Cleanup(func() { _ = conn.Close() })
	return c
}

// Send writes req with a fresh opaque, which it returns.
func (c *Client) Send(req *wire.Command) int32 {
	c.t.Helper()
	req.Opaque = c.opaque.Add(1)
	frame, err := wire.AppendFrame(nil, req)
	if err != nil {
		c.t.Fatalf("encode: %v", err)
	}
	if _, err := c.conn.Write(frame); err != nil {
		c.t.Fatalf("write: %v", err)
	}
	return req.Opaque
}

// Read reads the next command, failing the test after 10 s.
func (c *Client) Read() *wire.Command {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	cmd, err := c.fr.ReadCommand()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	cmd.DetachBody()
	return cmd
}

// Call sends req and returns its response.
func (c *Client) Call(req *wire.Command) *wire.Command {
	c.t.Helper()
	opaque := c.Send(req)
	resp := c.Read()
	if resp.Opaque != opaque || !resp.IsResponse() {
		c.t.Fatalf("response opaque %d flag %d, want opaque %d", resp.Opaque, resp.Flag, opaque)
	}
	return resp
}

// Close closes the connection.
func (c *Client) Close() { _ = c.conn.Close() }

// LocalAddr is the client side's address (the server's view of RemoteAddr).
func (c *Client) LocalAddr() string { return c.conn.LocalAddr().String() }

// TryRead reads the next command, returning the read error (io.EOF when
// the server closed the connection) instead of failing the test.
func (c *Client) TryRead(timeout time.Duration) (*wire.Command, error) {
	_ = c.conn.SetReadDeadline(time.Now().Add(timeout))
	cmd, err := c.fr.ReadCommand()
	if err != nil {
		return nil, err
	}
	cmd.DetachBody()
	return cmd, nil
}
