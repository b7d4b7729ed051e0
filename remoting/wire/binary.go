package wire

import "encoding/binary"

// decodeBinaryHeader decodes the ROCKETMQ header (layout.go). Strings are
// substrings of one copy of the header. Java 4.9.8 mirror:
// RocketMQSerializable.rocketMQProtocolDecode.
func decodeBinaryHeader(c *Command, header []byte) error {
	if len(header) < binFixedLen {
		return malformed("binary header of %d bytes, need %d", len(header), binFixedLen)
	}
	c.Code = int32(int16(binary.BigEndian.Uint16(header[binCodeOff:])))
	c.Language = LanguageCode(header[binLangOff])
	c.Version = int32(int16(binary.BigEndian.Uint16(header[binVersionOff:])))
	c.Opaque = int32(binary.BigEndian.Uint32(header[binOpaqueOff:]))
	c.Flag = int32(binary.BigEndian.Uint32(header[binFlagOff:]))
	s := string(header)
	r := binReader{s: s, i: binRemarkLenOff}
	c.Remark = r.str(r.int32(), "remark")
	extLen := r.int32()
	if r.err != nil {
		return r.err
	}
	if extLen <= 0 {
		return r.finish()
	}
	if extLen > len(s)-r.i {
		return malformed("extFields length %d, but %d header bytes left", extLen, len(s)-r.i)
	}
	end := r.i + extLen
	for r.i < end && r.err == nil {
		k := r.str(r.int16(), "ext key")
		v := r.str(r.int32(), "ext value")
		if r.i > end {
			return malformed("ext entry %q overruns extFields length %d", k, extLen)
		}
		if k != "" && v != "" { // Java: empty reads as null, null means absent
			c.SetExt(k, v) // HashMap.put: the last duplicate wins

		}
	}
	if r.err != nil {
		return r.err
	}
	return r.finish()
}

// binReader reads big-endian fields with a sticky error.
type binReader struct {
	s   string
	i   int
	err error
}

func (r *binReader) need(n int, what string) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || n > len(r.s)-r.i {
		r.err = malformed("%s: need %d bytes at %d, header has %d", what, n, r.i, len(r.s))
		return false
	}
	return true
}

func (r *binReader) int32() int {
	if !r.need(4, "int32") {
		return 0
	}
	v := int32(uint32(r.s[r.i])<<24 | uint32(r.s[r.i+1])<<16 | uint32(r.s[r.i+2])<<8 | uint32(r.s[r.i+3]))
	r.i += 4
	return int(v)
}

func (r *binReader) int16() int {
	if !r.need(2, "int16") {
		return 0
	}
	v := int16(uint16(r.s[r.i])<<8 | uint16(r.s[r.i+1]))
	r.i += 2
	return int(v)
}

func (r *binReader) str(n int, what string) string {
	if n == 0 || !r.need(n, what) {
		return ""
	}
	v := r.s[r.i : r.i+n]
	r.i += n
	return v
}

// finish rejects bytes after the ext map: Java would read them as body,
// misaligning it, so a frame with them is not one Java could have written.
func (r *binReader) finish() error {
	if r.i != len(r.s) {
		return malformed("%d trailing bytes in binary header", len(r.s)-r.i)
	}
	return nil
}

// BinaryHeaderLen is the encoded size of c's binary header.
func BinaryHeaderLen(c *Command) int {
	n := binFixedLen + len(c.Remark)
	for _, f := range c.Ext {
		n += binKeyLenSize + len(f.Key) + binValLenSize + len(f.Value)
	}
	return n
}

// appendBinaryHeader mirrors RocketMQSerializable.rocketMQProtocolEncode:
// code and version are truncated to 16 bits as Java's writeShort does; ext
// fields in Java's order (extorder.go).
func appendBinaryHeader(dst []byte, c *Command) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(c.Code))
	dst = append(dst, byte(c.Language))
	dst = binary.BigEndian.AppendUint16(dst, uint16(c.Version))
	dst = binary.BigEndian.AppendUint32(dst, uint32(c.Opaque))
	dst = binary.BigEndian.AppendUint32(dst, uint32(c.Flag))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.Remark)))
	dst = append(dst, c.Remark...)
	lenAt := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var buf [extOrderInline]int
	order := extOrder(c, true, buf[:0])
	for i := range c.Ext {
		f := &c.Ext[i]
		if order != nil {
			f = &c.Ext[order[i]]
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Key)))
		dst = append(dst, f.Key...)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(f.Value)))
		dst = append(dst, f.Value...)
	}
	binary.BigEndian.PutUint32(dst[lenAt:], uint32(len(dst)-lenAt-4))
	return dst
}
