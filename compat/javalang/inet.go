package javalang

import (
	"net/netip"
	"strconv"
	"strings"
)

// HostAddress is InetAddress.getHostAddress(): dotted decimal for IPv4
// (an IPv4-mapped address too: Java makes an Inet4Address of it), and for
// IPv6 all eight groups in lower-case hex without "::" compression, with
// "%zone" when the address has one.
func HostAddress(a netip.Addr) string {
	if a.Is4() || a.Is4In6() {
		return a.Unmap().String()
	}
	b16 := a.As16()
	var sb strings.Builder
	for i := 0; i < 16; i += 2 {
		if i > 0 {
			sb.WriteByte(':')
		}
		sb.WriteString(strconv.FormatUint(uint64(b16[i])<<8|uint64(b16[i+1]), 16))
	}
	if z := a.Zone(); z != "" {
		sb.WriteString("%" + z)
	}
	return sb.String()
}
