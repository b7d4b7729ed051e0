package nsbench

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"time"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ErrBadResponse reports a response frame the generator cannot read.
var ErrBadResponse = errors.New("nsbench: bad response frame")

// RouteRequest encodes one GET_ROUTEINFO_BY_TOPIC frame, length field
// included, as the 4.9.8 Java client sends it: JSON header, language JAVA,
// version 409, extFields {topic}. With one request in flight per
// connection the opaque need not be unique.
func RouteRequest(topic string, opaque int32) ([]byte, error) {
	req := wire.NewRequest(int32(protocol.ReqGetRouteinfoByTopic))
	req.Serialize = wire.SerializeJSON
	req.Opaque = opaque
	(&protocol.GetRouteInfoRequestHeader{Topic: topic}).EncodeTo(req)
	return wire.AppendFrame(nil, req)
}

// RouteRequests encodes the request of every topic, opaque = index.
func RouteRequests(topics, nameLen int) ([][]byte, error) {
	return routeRequests(topics, nameLen, func(t int) int32 { return int32(t) })
}

// RouteRequestsOpaque encodes the request of every topic, all with the
// given opaque.
func RouteRequestsOpaque(topics, nameLen int, opaque int32) ([][]byte, error) {
	return routeRequests(topics, nameLen, func(int) int32 { return opaque })
}

func routeRequests(topics, nameLen int, opaque func(t int) int32) ([][]byte, error) {
	frames := make([][]byte, topics)
	for t := range topics {
		f, err := RouteRequest(TopicName(t, nameLen), opaque(t))
		if err != nil {
			return nil, err
		}
		frames[t] = f
	}
	return frames, nil
}

// rawConn is one lookup connection: a synchronous write-then-read loop over
// a plain TCP socket, reading whole frames into one reused buffer.
type rawConn struct {
	nc  net.Conn
	r   *bufio.Reader
	buf []byte
	max int
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
	if maxFrame <= 0 {
		maxFrame = wire.DefaultMaxFrameLength
	}
	return &rawConn{nc: nc, r: bufio.NewReaderSize(nc, 64<<10), buf: make([]byte, 4096), max: maxFrame}, nil
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
	var lenBuf [4]byte
	if _, err := io.ReadFull(c.r, lenBuf[:]); err != nil {
		return nil, err
	}
	n := int(int32(binary.BigEndian.Uint32(lenBuf[:])))
	if n < 4 || n+4 > c.max {
		return nil, fmt.Errorf("%w: length %d (max frame %d)", ErrBadResponse, n, c.max)
	}
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	frame := c.buf[:n]
	if _, err := io.ReadFull(c.r, frame); err != nil {
		return nil, err
	}
	return frame, nil
}

// frameBuffered reports whether a whole frame is already read into the
// buffer, so that reading it needs no system call.
func (c *rawConn) frameBuffered() bool {
	b := c.r.Buffered()
	if b < 4 {
		return false
	}
	head, err := c.r.Peek(4)
	if err != nil {
		return false
	}
	return b >= 4+int(int32(binary.BigEndian.Uint32(head)))
}

// The JSON header keys ResponseCode and ResponseHead look for.
var (
	jsonCodeKey   = []byte(`"code":`)
	jsonOpaqueKey = []byte(`"opaque":`)
)

// binaryOpaqueAt is the opaque's offset in a ROCKETMQ header: after
// code (int16), language (byte) and version (int16).
const binaryOpaqueAt = 5

// ResponseHead is ResponseCode plus the frame's opaque.
func ResponseHead(frame []byte) (code int32, bodyLen int, opaque int32, err error) {
	code, bodyLen, err = ResponseCode(frame)
	if err != nil {
		return 0, 0, 0, err
	}
	hl := int(binary.BigEndian.Uint32(frame) & 0xFFFFFF)
	header := frame[4 : 4+hl]
	if wire.SerializeType(frame[0]) == wire.SerializeRocketMQ {
		if len(header) < binaryOpaqueAt+4 {
			return 0, 0, 0, fmt.Errorf("%w: short binary header", ErrBadResponse)
		}
		return code, bodyLen, int32(binary.BigEndian.Uint32(header[binaryOpaqueAt:])), nil
	}
	i := bytes.Index(header, jsonOpaqueKey)
	if i < 0 {
		return 0, 0, 0, fmt.Errorf("%w: no opaque in %.80q", ErrBadResponse, header)
	}
	opaque, ok := parseInt32(header[i+len(jsonOpaqueKey):])
	if !ok {
		return 0, 0, 0, fmt.Errorf("%w: bad opaque in %.80q", ErrBadResponse, header)
	}
	return code, bodyLen, opaque, nil
}

// ResponseCode reads the code of a frame (without its length field) and
// the length of its body, decoding as little as possible: the int16 at the
// start of a ROCKETMQ header, or the digits after "code": in a JSON one
// (first key in Java's and Sputnik's output; searched for otherwise).
func ResponseCode(frame []byte) (code int32, bodyLen int, err error) {
	if len(frame) < 4 {
		return 0, 0, fmt.Errorf("%w: %d bytes", ErrBadResponse, len(frame))
	}
	word := binary.BigEndian.Uint32(frame)
	hl := int(word & 0xFFFFFF)
	if hl > len(frame)-4 {
		return 0, 0, fmt.Errorf("%w: header length %d of %d", ErrBadResponse, hl, len(frame)-4)
	}
	header := frame[4 : 4+hl]
	bodyLen = len(frame) - 4 - hl
	switch wire.SerializeType(word >> 24) {
	case wire.SerializeRocketMQ:
		if len(header) < 2 {
			return 0, 0, fmt.Errorf("%w: short binary header", ErrBadResponse)
		}
		return int32(int16(binary.BigEndian.Uint16(header))), bodyLen, nil
	case wire.SerializeJSON:
		i := bytes.Index(header, jsonCodeKey)
		if i < 0 {
			return 0, 0, fmt.Errorf("%w: no code in %.80q", ErrBadResponse, header)
		}
		code, ok := parseInt32(header[i+len(jsonCodeKey):])
		if !ok {
			return 0, 0, fmt.Errorf("%w: bad code in %.80q", ErrBadResponse, header)
		}
		return code, bodyLen, nil
	}
	return 0, 0, fmt.Errorf("%w: serialize type %d", ErrBadResponse, word>>24)
}

// parseInt32 reads an optionally signed decimal number at the start of b,
// ended by any non-digit.
func parseInt32(b []byte) (int32, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	var v int64
	n := 0
	for ; n < len(b) && b[n] >= '0' && b[n] <= '9'; n++ {
		v = v*10 + int64(b[n]-'0')
		if v > 1<<31 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if n == 0 || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}
