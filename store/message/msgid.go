package message

import (
	"encoding/binary"
	"fmt"
)

// Offset message ids (Java MessageDecoder.createMessageId / decodeMessageId):
// the store host's address (4 or 16 bytes), its port (int32) and the
// record's commit-log offset (int64), as upper-case hex (UtilAll.bytes2string):
// 32 characters for an IPv4 store host, 56 for IPv6.
const (
	msgIDLenV4 = 2 * (4 + 4 + 8)
	msgIDLenV6 = 2 * (16 + 4 + 8)
)

const hexDigits = "0123456789ABCDEF"

// OffsetMsgID returns the offset message id of the record at
// physicalOffset stored by storeHost.
func OffsetMsgID(storeHost Host, physicalOffset int64) string {
	var buf [msgIDLenV6]byte
	return string(AppendOffsetMsgID(buf[:0], storeHost, physicalOffset))
}

// AppendOffsetMsgID appends OffsetMsgID's characters to dst.
func AppendOffsetMsgID(dst []byte, storeHost Host, physicalOffset int64) []byte {
	var raw [hostSizeV6 + 8]byte
	b := appendHost(raw[:0], storeHost)
	b = binary.BigEndian.AppendUint64(b, uint64(physicalOffset))
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&0x0F])
	}
	return dst
}

// ParseOffsetMsgID decodes an offset message id. Java decides the address
// width by the length alone (32 ⇒ IPv4, anything else ⇒ IPv6) and maps a
// non-hex character to garbage; this accepts exactly 32 or 56 hex digits
// of either case (Java upper-cases first) and fails with ErrMsgID
// otherwise.
func ParseOffsetMsgID(id string) (Host, int64, error) {
	if len(id) != msgIDLenV4 && len(id) != msgIDLenV6 {
		return Host{}, 0, fmt.Errorf("%w: %d characters %q", ErrMsgID, len(id), id)
	}
	var raw [hostSizeV6 + 8]byte
	n := len(id) / 2
	for i := range n {
		hi, lo := unhex(id[2*i]), unhex(id[2*i+1])
		if hi < 0 || lo < 0 {
			return Host{}, 0, fmt.Errorf("%w: not hexadecimal: %q", ErrMsgID, id)
		}
		raw[i] = byte(hi<<4 | lo)
	}
	hostSize := n - 8
	h := readHost(raw[:hostSize], hostSize)
	return h, int64(binary.BigEndian.Uint64(raw[hostSize:n])), nil
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}
