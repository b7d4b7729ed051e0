package nsbench

import (
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ErrBadResponse reports a response frame the generator cannot read.
var ErrBadResponse = errors.New("nsbench: bad response frame")

// RouteRequest encodes one GET_ROUTEINFO_BY_TOPIC frame, length field
// included, as the 4.9.8 Java client sends it: JSON header, language JAVA,
// version 409, extFields {topic}. The opaque names the in-flight slot of
// its connection that the answer frees.
func RouteRequest(topic string, opaque int32) ([]byte, error) {
	req := wire.NewRequest(int32(protocol.ReqGetRouteinfoByTopic))
	req.Serialize = wire.SerializeJSON
	req.Opaque = opaque
	(&protocol.GetRouteInfoRequestHeader{Topic: protocol.Some(topic)}).EncodeTo(req)
	return wire.AppendFrame(nil, req)
}

// RouteRequests encodes the request of every topic, all with the given
// opaque.
func RouteRequests(topics, nameLen int, opaque int32) ([][]byte, error) {
	frames := make([][]byte, topics)
	for t := range topics {
		f, err := RouteRequest(TopicName(t, nameLen), opaque)
		if err != nil {
			return nil, err
		}
		frames[t] = f
	}
	return frames, nil
}

// rawConn is one lookup connection: a synchronous write-then-read loop (or
// a pipelined one) over a plain TCP socket, reading whole frames into one
// reused buffer.
type rawConn struct {
	nc  net.Conn
	fr  *wire.FrameReader
	buf []byte
}

func dialRaw(addr string, maxFrame int, deadline time.Time) (*rawConn, error) {
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true) // Go's default; said here because it matters
	}
	// One deadline for the whole run: no timer work per request, and a
	// silent server cannot hold the generator past it.
	if err := nc.SetDeadline(deadline); err != nil {
		nc.Close()
		return nil, err
	}
	return &rawConn{nc: nc, fr: wire.NewFrameReader(nc, maxFrame), buf: make([]byte, 4096)}, nil
}

func (c *rawConn) Close() error { return c.nc.Close() }

// roundTrip writes one request frame and reads the next frame, returning
// its response code and body length. The frame is the answer: the server
// sends nothing else on a connection that only asks.
func (c *rawConn) roundTrip(req []byte) (code int32, bodyLen int, err error) {
	if _, err := c.nc.Write(req); err != nil {
		return 0, 0, err
	}
	frame, err := c.readFrame()
	if err != nil {
		return 0, 0, err
	}
	return ResponseCode(frame)
}

// readFrame reads the next frame, without its length field, into the
// connection's reused buffer.
func (c *rawConn) readFrame() ([]byte, error) {
	frame, err := c.fr.ReadFrame(c.buf)
	c.buf = frame[:0]
	switch {
	case errors.Is(err, wire.ErrMalformed), errors.Is(err, wire.ErrFrameTooLong):
		return nil, fmt.Errorf("%w: %w", ErrBadResponse, err)
	case err != nil:
		return nil, err
	}
	return frame, nil
}

// frameBuffered reports whether a whole frame is already read into the
// buffer, so that reading it needs no system call.
func (c *rawConn) frameBuffered() bool { return c.fr.FrameBuffered() }

// ResponseHead is ResponseCode plus the frame's opaque, which must be
// present.
func ResponseHead(frame []byte) (code int32, bodyLen int, opaque int32, err error) {
	h, err := head(frame)
	if err != nil {
		return 0, 0, 0, err
	}
	if !h.HasOpaque {
		return 0, 0, 0, fmt.Errorf("%w: no opaque", ErrBadResponse)
	}
	return h.Code, h.BodyLen, h.Opaque, nil
}

// ResponseCode reads the code of a frame (without its length field), which
// must be present, and the length of its body, decoding as little as
// possible (wire.PeekHead).
func ResponseCode(frame []byte) (code int32, bodyLen int, err error) {
	h, err := head(frame)
	if err != nil {
		return 0, 0, err
	}
	return h.Code, h.BodyLen, nil
}

func head(frame []byte) (wire.Head, error) {
	h, err := wire.PeekHead(frame)
	switch {
	case err != nil:
		return h, fmt.Errorf("%w: %w", ErrBadResponse, err)
	case !h.HasCode:
		return h, fmt.Errorf("%w: no code", ErrBadResponse)
	}
	return h, nil
}
