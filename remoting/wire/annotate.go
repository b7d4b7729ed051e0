package wire

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Annotate renders a whole frame (with its length field) as an annotated
// hex dump: one line per field of the layouts in layout.go. It is meant for
// golden files and debugging and never fails: bytes it cannot place are
// shown as "rest".
func Annotate(frame []byte) string {
	var a annotator
	a.b = frame
	total := a.field(lengthFieldSize, "length")
	if total == nil {
		return a.out.String()
	}
	word := a.field(typeAndLenSize, "serializeType|headerLen")
	if word == nil {
		return a.out.String()
	}
	w := binary.BigEndian.Uint32(word)
	st, hl := SerializeType(w>>24), int(w&headerLenMask)
	fmt.Fprintf(&a.out, "      = length %d, %s, header %d bytes\n", binary.BigEndian.Uint32(total), st, hl)
	if hl > len(a.b)-a.off {
		hl = len(a.b) - a.off
	}
	if st == SerializeRocketMQ {
		a.binary(a.off + hl)
	} else {
		a.text(hl, "header")
	}
	a.chunked(len(a.b)-a.off, "body")
	return a.out.String()
}

type annotator struct {
	b   []byte
	off int
	out strings.Builder
}

// field prints n bytes as one line and returns them, or nil if short.
func (a *annotator) field(n int, name string) []byte {
	if n < 0 || n > len(a.b)-a.off {
		a.chunked(len(a.b)-a.off, "rest")
		return nil
	}
	v := a.b[a.off : a.off+n]
	fmt.Fprintf(&a.out, "%06x  %-48x  %s\n", a.off, v, name)
	a.off += n
	return v
}

// chunked prints n bytes in 16-byte lines.
func (a *annotator) chunked(n int, name string) {
	for n > 0 {
		k := min(n, 16)
		a.field(k, name)
		n -= k
	}
}

// text prints a JSON header 32 characters a line, with the text beside.
func (a *annotator) text(n int, name string) {
	for n > 0 {
		k := min(n, 24)
		v := a.b[a.off : a.off+k]
		fmt.Fprintf(&a.out, "%06x  %-48x  %s %q\n", a.off, v, name, v)
		a.off += k
		n -= k
	}
}

func (a *annotator) binary(end int) {
	for _, f := range []struct {
		n    int
		name string
	}{{2, "code"}, {1, "language"}, {2, "version"}, {4, "opaque"}, {4, "flag"}} {
		if a.field(f.n, f.name) == nil {
			return
		}
	}
	if !a.lenPrefixed(4, "remark") {
		return
	}
	extLen := a.field(4, "extFieldsLen")
	if extLen == nil {
		return
	}
	for a.off < end {
		if !a.lenPrefixed(2, "ext key") || !a.lenPrefixed(4, "ext value") {
			return
		}
	}
}

// lenPrefixed prints a length field of size n and the string it counts.
func (a *annotator) lenPrefixed(n int, name string) bool {
	lb := a.field(n, name+" length")
	if lb == nil {
		return false
	}
	var l int
	if n == 2 {
		l = int(int16(binary.BigEndian.Uint16(lb)))
	} else {
		l = int(int32(binary.BigEndian.Uint32(lb)))
	}
	if l <= 0 {
		return true
	}
	if l > len(a.b)-a.off {
		a.chunked(len(a.b)-a.off, "rest")
		return false
	}
	for l > 0 {
		k := min(l, 16)
		v := a.b[a.off : a.off+k]
		fmt.Fprintf(&a.out, "%06x  %-48x  %s %q\n", a.off, v, name, v)
		a.off += k
		l -= k
	}
	return true
}
