// Package rawclient is the conformance harness's own minimal remoting
// client: one TCP connection, frames built and read with remoting/wire, no
// retries, no background traffic. Scenarios use it for what the official
// clients cannot send (unknown codes, chosen versions and serialize types)
// and to observe exactly what a server answers.
package rawclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ErrNoResponse is returned by Invoke when no response arrived in time.
var ErrNoResponse = errors.New("rawclient: no response")

// Conn is one connection to a server. Invoke may be called from one
// goroutine at a time.
type Conn struct {
	nc     net.Conn
	fr     *wire.FrameReader
	opaque int32

	mu      sync.Mutex
	pending *wire.Command // a response read while waiting for another opaque
}

// Dial connects to addr.
func Dial(ctx context.Context, addr string) (*Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Conn{nc: nc, fr: wire.NewFrameReader(nc, 0), opaque: 1000}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.nc.Close() }

// Request builds a request as a Java 4.9.8 client would (language JAVA,
// version 409, JSON header) with the given ext fields, written in Java's
// HashMap order as a Java client writes them.
func Request(code int32, ext ...string) *wire.Command {
	cmd := wire.NewRequest(code)
	for i := 0; i+1 < len(ext); i += 2 {
		cmd.AddExt(ext[i], ext[i+1])
	}
	return cmd
}

// Invoke sends req (assigning its opaque) and waits up to timeout for the
// response with that opaque; responses to other opaques are dropped.
// The returned command's body is detached and survives.
func (c *Conn) Invoke(ctx context.Context, req *wire.Command, timeout time.Duration) (*wire.Command, error) {
	c.opaque++
	req.Opaque = c.opaque
	if err := c.Send(req); err != nil {
		return nil, err
	}
	return c.readUntil(ctx, timeout, fmt.Sprintf("to code %d", req.Code), func(resp *wire.Command) bool {
		return resp.IsResponse() && resp.Opaque == req.Opaque
	})
}

// ReadRequest waits up to timeout for the next request the server sends on
// this connection (NOTIFY_CONSUMER_IDS_CHANGED and the like); responses
// read meanwhile are dropped. Its body is detached and survives.
func (c *Conn) ReadRequest(ctx context.Context, timeout time.Duration) (*wire.Command, error) {
	return c.readUntil(ctx, timeout, "from the server (a request)", func(cmd *wire.Command) bool {
		return !cmd.IsResponse()
	})
}

// readUntil reads commands until one is wanted, dropping the others, for
// up to timeout (what names the one awaited in the timeout error).
func (c *Conn) readUntil(ctx context.Context, timeout time.Duration, what string, wanted func(*wire.Command) bool) (*wire.Command, error) {
	deadline := time.Now().Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	c.nc.SetReadDeadline(deadline)
	defer c.nc.SetReadDeadline(time.Time{})
	for {
		cmd, err := c.fr.ReadCommand()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return nil, fmt.Errorf("%w %s within %s", ErrNoResponse, what, timeout)
			}
			return nil, fmt.Errorf("rawclient: read: %w", err)
		}
		cmd.DetachBody()
		cmd.Release()
		if wanted(cmd) {
			return cmd, nil
		}
	}
}

// Send writes one command without waiting.
func (c *Conn) Send(cmd *wire.Command) error {
	frame, err := wire.AppendFrame(nil, cmd)
	if err != nil {
		return err
	}
	c.nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err = c.nc.Write(frame)
	return err
}

// Call dials addr, invokes req once and closes the connection.
func Call(ctx context.Context, addr string, req *wire.Command, timeout time.Duration) (*wire.Command, error) {
	c, err := Dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.Invoke(ctx, req, timeout)
}
