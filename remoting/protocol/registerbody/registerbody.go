// Package registerbody is the compressed form of REGISTER_BROKER's body
// (Java 4.9.8 RegisterBrokerBody.encode(true) / decode(data, true)), which
// the broker writes when compressedRegister is set and the name server
// reads when the request header says compressed=true:
//
//	+-----------+----------------------+
//	| int32 len | DataVersion JSON     |
//	+-----------+----------------------+
//	| int32 n   |                      |   number of topics
//	+-----------+----------------------+
//	| int32 len | "<topic> <read> <write> <perm> <SINGLE_TAG|MULTI_TAG>" | × n
//	+-----------+----------------------+
//	| int32 len | filterServerList JSON|
//	+-----------+----------------------+
//
// all of it deflated as one zlib (java.util.zip.Deflater) stream, integers
// big-endian. The topic text is TopicConfig.encode(): it carries no
// topicSysFlag and no order flag. The JSON parts are the callers' (fastjson
// bean encodings); this package owns only the framing.
package registerbody

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrBadBody is wrapped by every decoding error.
var ErrBadBody = errors.New("registerbody: bad compressed body")

// Parts are the pieces of a compressed body, in stream order.
type Parts struct {
	DataVersion   []byte   // DataVersion JSON
	Topics        [][]byte // TopicConfig.encode() texts
	FilterServers []byte   // filterServerList JSON
}

// AppendTopicText appends TopicConfig.encode(): the five fields joined by
// single spaces.
func AppendTopicText(dst []byte, name string, read, write, perm int32, filterType string) []byte {
	dst = append(dst, name...)
	for _, n := range []int32{read, write, perm} {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	dst = append(dst, ' ')
	return append(dst, filterType...)
}

// Append deflates p at the zlib level given (Java uses
// Deflater.BEST_COMPRESSION) and appends it to dst.
func (p *Parts) Append(dst []byte, level int) ([]byte, error) {
	raw := make([]byte, 0, 64+len(p.Topics)*48)
	part := func(b []byte) {
		raw = binary.BigEndian.AppendUint32(raw, uint32(len(b)))
		raw = append(raw, b...)
	}
	part(p.DataVersion)
	raw = binary.BigEndian.AppendUint32(raw, uint32(len(p.Topics)))
	for _, t := range p.Topics {
		part(t)
	}
	part(p.FilterServers)
	out := bytes.NewBuffer(dst)
	zw, err := zlib.NewWriterLevel(out, level)
	if err != nil {
		return dst, err
	}
	if _, err := zw.Write(raw); err != nil {
		return dst, err
	}
	if err := zw.Close(); err != nil {
		return dst, err
	}
	return out.Bytes(), nil
}

// Decode inflates a compressed body, reading at most maxInflated bytes of
// it (Java has no bound), and splits it into its parts.
func Decode(body []byte, maxInflated int64) (Parts, error) {
	zr, err := zlib.NewReader(bytes.NewReader(body))
	if err != nil {
		return Parts{}, fmt.Errorf("%w: %w", ErrBadBody, err)
	}
	r := &chunkReader{r: bufio.NewReaderSize(io.LimitReader(zr, maxInflated), 64<<10)}
	var p Parts
	p.DataVersion = r.chunk()
	n := r.int32()
	for i := int32(0); i < n && r.err == nil; i++ {
		p.Topics = append(p.Topics, r.chunk())
	}
	p.FilterServers = r.chunk()
	if r.err != nil {
		return Parts{}, fmt.Errorf("%w: %w", ErrBadBody, r.err)
	}
	return p, nil
}

type chunkReader struct {
	r   io.Reader
	err error
}

func (c *chunkReader) int32() int32 {
	var b [4]byte
	if c.err == nil {
		if _, err := io.ReadFull(c.r, b[:]); err != nil {
			c.err = fmt.Errorf("end of compressed data: %w", err)
		}
	}
	return int32(binary.BigEndian.Uint32(b[:]))
}

func (c *chunkReader) chunk() []byte {
	n := c.int32()
	if c.err != nil {
		return nil
	}
	if n < 0 {
		c.err = fmt.Errorf("negative chunk length %d", n)
		return nil
	}
	if n <= 64<<10 {
		b := make([]byte, n)
		if _, err := io.ReadFull(c.r, b); err != nil {
			c.err = fmt.Errorf("end of compressed data: %w", err)
			return nil
		}
		return b
	}
	// A large length is only believed as far as data arrives.
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, c.r, int64(n)); err != nil {
		c.err = fmt.Errorf("end of compressed data: %w", err)
		return nil
	}
	return buf.Bytes()
}
