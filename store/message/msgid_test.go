package message

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: MessageDecoder.createMessageId / decodeMessageId, UtilAll.bytes2string.
func TestOffsetMsgID(t *testing.T) {
	cases := []struct {
		host Host
		off  int64
		want string
	}{
		{Host{netip.MustParseAddr("10.0.0.1"), 10911}, 0x1234, "0A00000100002A9F0000000000001234"},
		{Host{netip.MustParseAddr("255.1.2.3"), -1}, -2, "FF010203FFFFFFFFFFFFFFFFFFFFFFFE"},
		{Host{netip.MustParseAddr("2001:db8::1"), 10911}, 1 << 32, "20010DB800000000000000000000000100002A9F0000000100000000"},
	}
	for _, c := range cases {
		got := OffsetMsgID(c.host, c.off)
		require.Equal(t, c.want, got)
		h, off, err := ParseOffsetMsgID(got)
		require.NoError(t, err)
		require.Equal(t, c.host, h)
		require.Equal(t, c.off, off)
		h, off, err = ParseOffsetMsgID(strings.ToLower(got))
		require.NoError(t, err, "Java upper-cases before decoding")
		require.Equal(t, c.host, h)
		require.Equal(t, c.off, off)
	}
	for _, bad := range []string{"", "0A", strings.Repeat("0", 31), strings.Repeat("0", 33), strings.Repeat("G", 32), strings.Repeat("0", 55)} {
		_, _, err := ParseOffsetMsgID(bad)
		require.ErrorIs(t, err, ErrMsgID, bad)
	}
	r := Record{StoreHost: cases[0].host, PhysicalOffset: cases[0].off}
	require.Equal(t, cases[0].want, r.MsgID())
}
