package javalang

import (
	"net/netip"
	"testing"
)

func TestHostAddress(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1":        "127.0.0.1",
		"::ffff:10.0.0.7":  "10.0.0.7",
		"::1":              "0:0:0:0:0:0:0:1",
		"fe80::1%eth0":     "fe80:0:0:0:0:0:0:1%eth0",
		"2001:db8::ab:c0d": "2001:db8:0:0:0:0:ab:c0d",
	} {
		if got := HostAddress(netip.MustParseAddr(in)); got != want {
			t.Errorf("HostAddress(%s) = %q, want %q", in, got, want)
		}
	}
}
