package message

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Annotate returns a hex dump of the record at the start of b, one line per
// field (offset, bytes, field name, value), for golden tests and debugging.
// Long fields continue on following lines, 16 bytes each. It reads the
// lengths from the record and stops with a note where b ends; it checks
// nothing else (use DecodeRecord for that).
func Annotate(b []byte) string {
	a := annotator{b: b}
	be := binary.BigEndian
	a.field("TOTALSIZE", 4, func(v []byte) string { return strconv.Itoa(int(int32(be.Uint32(v)))) })
	a.field("MAGICCODE", 4, magicName)
	if magic, ok := a.int32At(OffMagic); !ok || magic != MagicMessage {
		return a.sb.String()
	}
	a.field("BODYCRC", 4, i32)
	a.field("QUEUEID", 4, i32)
	a.field("FLAG", 4, i32)
	a.field("QUEUEOFFSET", 8, i64)
	a.field("PHYSICALOFFSET", 8, i64)
	a.field("SYSFLAG", 4, func(v []byte) string { return fmt.Sprintf("0x%X", be.Uint32(v)) })
	sysFlag, _ := a.int32At(OffSysFlag)
	l := Offsets(sysFlag)
	a.field("BORNTIMESTAMP", 8, i64)
	a.field("BORNHOST", l.BornHostSize, hostString)
	a.field("STORETIMESTAMP", 8, i64)
	a.field("STOREHOST", l.StoreHostSize, hostString)
	a.field("RECONSUMETIMES", 4, i32)
	a.field("PREPAREDTXOFFSET", 8, i64)
	bodyLen, _ := a.int32At(l.BodyLen)
	a.field("BODYLEN", 4, i32)
	a.field("BODY", max(int(bodyLen), 0), quote)
	topicLen := 0
	if a.pos < len(b) {
		topicLen = max(int(int8(b[a.pos])), 0)
	}
	a.field("TOPICLEN", 1, func(v []byte) string { return strconv.Itoa(int(int8(v[0]))) })
	a.field("TOPIC", topicLen, quote)
	propsLen := 0
	if a.pos+2 <= len(b) {
		propsLen = max(int(int16(be.Uint16(b[a.pos:]))), 0)
	}
	a.field("PROPERTIESLEN", 2, func(v []byte) string { return strconv.Itoa(int(int16(be.Uint16(v)))) })
	a.field("PROPERTIES", propsLen, quote)
	return a.sb.String()
}

type annotator struct {
	b    []byte
	pos  int
	done bool
	sb   strings.Builder
}

const annotateRow = 16

func (a *annotator) int32At(off int) (int32, bool) {
	if off+4 > len(a.b) {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(a.b[off:])), true
}

// field prints n bytes at the current position as one field.
func (a *annotator) field(name string, n int, value func([]byte) string) {
	if a.done {
		return
	}
	if a.pos+n > len(a.b) {
		fmt.Fprintf(&a.sb, "%06x  %-48s %-16s <truncated: %d of %d bytes>\n", a.pos, "", name, len(a.b)-a.pos, n)
		a.done = true
		return
	}
	v := a.b[a.pos : a.pos+n]
	for row := 0; row == 0 || row < n; row += annotateRow {
		chunk := v[row:min(row+annotateRow, n)]
		if row == 0 {
			fmt.Fprintf(&a.sb, "%06x  %-48s %-16s %s\n", a.pos, hexBytes(chunk), name, value(v))
		} else {
			fmt.Fprintf(&a.sb, "%06x  %s\n", a.pos+row, hexBytes(chunk))
		}
	}
	a.pos += n
}

func hexBytes(b []byte) string {
	var sb strings.Builder
	for i, c := range b {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", c)
	}
	return sb.String()
}

func i32(v []byte) string { return strconv.Itoa(int(int32(binary.BigEndian.Uint32(v)))) }
func i64(v []byte) string { return strconv.FormatInt(int64(binary.BigEndian.Uint64(v)), 10) }

func quote(v []byte) string {
	const limit = 64
	if len(v) > limit {
		return strconv.Quote(string(v[:limit])) + "…"
	}
	return strconv.Quote(string(v))
}

func hostString(v []byte) string { return readHost(v, len(v)).String() }

func magicName(v []byte) string {
	m := int32(binary.BigEndian.Uint32(v))
	s := fmt.Sprintf("0x%08X", uint32(m))
	switch m {
	case MagicMessage:
		return s + " message"
	case MagicBlank:
		return s + " blank"
	}
	return s + " unknown"
}
