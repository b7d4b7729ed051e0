package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/valyala/bytebufferpool"
)

// Errors of the frame codec. A connection that produces one of them is
// closed, as Java's NettyDecoder closes the channel.
var (
	// ErrFrameTooLong: the length field exceeds the maximum frame length.
	ErrFrameTooLong = errors.New("wire: frame too long")
	// ErrMalformed: the frame or its header cannot be decoded.
	ErrMalformed = errors.New("wire: malformed frame")
	// ErrHeaderTooLong: an encoded header does not fit the 24-bit length.
	ErrHeaderTooLong = errors.New("wire: header longer than 16 MiB")
)

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Decode decodes one frame without its leading length field: the
// serialize-type/header-length int, the header and the body. Body aliases
// frame; every string is copied out of it.
func Decode(frame []byte) (*Command, error) {
	c := &Command{}
	if err := c.decode(frame); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Command) decode(frame []byte) error {
	st, header, body, err := splitFrame(frame)
	if err != nil {
		return err
	}
	c.Ext = c.extInline[:0]
	c.Serialize = st
	switch st {
	case SerializeJSON:
		err = decodeJSONHeader(c, header)
	case SerializeRocketMQ:
		err = decodeBinaryHeader(c, header)
	default:
		err = malformed("unknown serialize type %d", byte(st))
	}
	if err != nil {
		return err
	}
	if len(body) > 0 {
		c.Body = body
	}
	return nil
}

// splitFrame cuts a frame without its length field into serialize type,
// header and body.
func splitFrame(frame []byte) (st SerializeType, header, body []byte, err error) {
	if len(frame) < typeAndLenSize {
		return 0, nil, nil, malformed("frame of %d bytes has no header length", len(frame))
	}
	word := binary.BigEndian.Uint32(frame)
	hl := int(word & headerLenMask)
	if hl > len(frame)-typeAndLenSize {
		return 0, nil, nil, malformed("bad header length: %d", hl)
	}
	return SerializeType(word >> 24), frame[typeAndLenSize : typeAndLenSize+hl], frame[typeAndLenSize+hl:], nil
}

// Head is what PeekHead reads of a frame: enough to count or match a
// response without decoding its remark, ext fields or body.
type Head struct {
	Serialize    SerializeType
	Code, Opaque int32
	BodyLen      int
	// HasCode and HasOpaque say whether the header carried the field: a
	// ROCKETMQ header always does, a JSON one may leave it out (Java then
	// reads 0).
	HasCode, HasOpaque bool
}

// PeekHead reads the code and opaque of a frame without its length
// field, for load generators that must not spend a whole decode per
// response.
func PeekHead(frame []byte) (Head, error) {
	st, header, body, err := splitFrame(frame)
	if err != nil {
		return Head{}, err
	}
	h := Head{Serialize: st, BodyLen: len(body)}
	switch st {
	case SerializeRocketMQ:
		if len(header) < binFlagOff {
			return Head{}, malformed("binary header of %d bytes", len(header))
		}
		h.Code = int32(int16(binary.BigEndian.Uint16(header[binCodeOff:])))
		h.Opaque = int32(binary.BigEndian.Uint32(header[binOpaqueOff:]))
		h.HasCode, h.HasOpaque = true, true
	case SerializeJSON:
		p := newJSONParser(header)
		p.objectStart()
		for key, ok := p.nextMember(); ok; key, ok = p.nextMember() {
			switch key {
			case "code":
				h.Code, h.HasCode = p.int32Value(key), true
			case "opaque":
				h.Opaque, h.HasOpaque = p.int32Value(key), true
			default:
				p.skipValue()
			}
		}
		if p.err != nil {
			return Head{}, p.err
		}
	default:
		return Head{}, malformed("unknown serialize type %d", byte(st))
	}
	return h, nil
}

// AppendHeader appends the header of c in c.Serialize form.
func AppendHeader(dst []byte, c *Command) ([]byte, error) {
	switch c.Serialize {
	case SerializeJSON:
		return appendJSONHeader(dst, c), nil
	case SerializeRocketMQ:
		return appendBinaryHeader(dst, c), nil
	}
	return dst, fmt.Errorf("wire: cannot encode serialize type %d", byte(c.Serialize))
}

// AppendFramePrefix appends the length field, the type/length int and the
// header; Body and Payload are left for the caller to write (writev).
func AppendFramePrefix(dst []byte, c *Command) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	dst, err := AppendHeader(dst, c)
	if err != nil {
		return dst[:start], err
	}
	hl := len(dst) - start - FramePrefixSize
	if hl > MaxHeaderLen {
		return dst[:start], ErrHeaderTooLong
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(typeAndLenSize+hl+c.BodyLen()))
	binary.BigEndian.PutUint32(dst[start+lengthFieldSize:], uint32(c.Serialize)<<24|uint32(hl))
	return dst, nil
}

// AppendFrame appends the whole frame: prefix, header, Body and Payload.
func AppendFrame(dst []byte, c *Command) ([]byte, error) {
	dst, err := AppendFramePrefix(dst, c)
	if err != nil {
		return dst, err
	}
	dst = append(dst, c.Body...)
	if c.Payload != nil {
		for _, b := range c.Payload.Buffers() {
			dst = append(dst, b...)
		}
	}
	return dst, nil
}

// FrameReader reads frames from a stream into pooled buffers.
type FrameReader struct {
	r      *bufio.Reader
	max    int
	lenBuf [lengthFieldSize]byte
}

// NewFrameReader reads frames from r; maxFrame is compared, as Netty does,
// with the length field plus 4 (0 means DefaultMaxFrameLength).
func NewFrameReader(r io.Reader, maxFrame int) *FrameReader {
	if maxFrame <= 0 {
		maxFrame = DefaultMaxFrameLength
	}
	return &FrameReader{r: bufio.NewReaderSize(r, 64<<10), max: maxFrame}
}

// ReadCommand reads and decodes the next frame. The command's Body aliases
// a pooled buffer: call Release once the body is no longer needed. io.EOF
// is returned only on a clean end between frames.
func (fr *FrameReader) ReadCommand() (*Command, error) {
	buf := bytebufferpool.Get()
	var err error
	if buf.B, err = fr.ReadFrame(buf.B); err != nil {
		bytebufferpool.Put(buf)
		return nil, err
	}
	c := &Command{}
	if err := c.decode(buf.B); err != nil {
		bytebufferpool.Put(buf)
		return nil, err
	}
	c.frame = buf
	return c, nil
}

// ReadFrame reads the next frame without its length field into dst's
// array (a new one when it is too small) and returns it undecoded. io.EOF
// is returned only on a clean end between frames.
func (fr *FrameReader) ReadFrame(dst []byte) ([]byte, error) {
	if _, err := io.ReadFull(fr.r, fr.lenBuf[:]); err != nil {
		return dst, err
	}
	n := int64(int32(binary.BigEndian.Uint32(fr.lenBuf[:])))
	if n < 0 {
		return dst, malformed("negative frame length %d", n)
	}
	if n+lengthFieldSize > int64(fr.max) {
		return dst, fmt.Errorf("%w: %d bytes, max %d", ErrFrameTooLong, n+lengthFieldSize, fr.max)
	}
	dst = grow(dst, int(n))
	if _, err := io.ReadFull(fr.r, dst); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return dst, err
	}
	return dst, nil
}

// FrameBuffered reports whether the next ReadCommand returns without
// reading from the stream: a whole frame, or a length field that fails at
// once, is already buffered. A server uses it to answer every request of
// one read burst before writing their responses together.
func (fr *FrameReader) FrameBuffered() bool {
	n := fr.r.Buffered()
	if n < lengthFieldSize {
		return false
	}
	head, err := fr.r.Peek(lengthFieldSize)
	if err != nil {
		return false
	}
	size := int64(int32(binary.BigEndian.Uint32(head)))
	return size < 0 || size+lengthFieldSize > int64(fr.max) || int64(n-lengthFieldSize) >= size
}

func grow(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n)
}

// Release returns the pooled frame buffer the body aliases, if any, and the
// payload. The command's strings stay valid; Body does not.
func (c *Command) Release() {
	if c.frame != nil {
		bytebufferpool.Put(c.frame)
		c.frame = nil
		c.Body = nil
	}
	if c.Payload != nil {
		c.Payload.Release()
		c.Payload = nil
	}
}

// DetachBody copies Body out of the pooled frame buffer and returns that
// buffer to the pool, so the command and its body outlive Release.
func (c *Command) DetachBody() {
	if c.frame == nil {
		return
	}
	if c.Body != nil {
		c.Body = append([]byte(nil), c.Body...)
	}
	bytebufferpool.Put(c.frame)
	c.frame = nil
}
