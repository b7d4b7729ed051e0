package acl

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// Cases from Java 4.9.8's RemoteAddressStrategyTest and more.
func TestAddrPatternMatch(t *testing.T) {
	for _, c := range []struct {
		pattern string
		yes, no []string
	}{
		{"", nil, []string{"127.0.0.1", "", "::1"}},
		{"  ", nil, []string{"127.0.0.1"}},
		{"*", []string{"127.0.0.1", "::1", "anything"}, nil},
		{"*.*.*.*", []string{"1.2.3.4"}, nil},
		{"*:*:*:*:*:*:*:*", []string{"::1"}, nil},
		{"127.0.0.1", []string{"127.0.0.1"}, []string{"127.0.0.2", "", "127.0.0.10"}},
		{"::1", []string{"::1", "0000:0000:0000:0000:0000:0000:0000:0001", "0:0:0:0:0:0:0:1"}, []string{"::2", ""}},
		{"1050:0000:0000:0000:0005:0600:300c:326b", []string{"1050:0:0:0:5:600:300C:326B", "1050::5:600:300c:326b"}, []string{"1050::5:600:300c:326c"}},
		{"127.0.0.1,127.0.0.2,127.0.0.3", []string{"127.0.0.1", "127.0.0.2", "127.0.0.3"}, []string{"127.0.0.4", "127.0.0.0"}},
		{"127.0.0.{1,2,3}", []string{"127.0.0.1", "127.0.0.2", "127.0.0.3"}, []string{"127.0.0.4", "127.0.0.0"}},
		{"192.168.1.{1}", []string{"192.168.1.1"}, []string{"192.168.1.2"}},
		{"1050::0005:0600:300c:1,1050::0005:0600:300c:2,1050::0005:0600:300c:3",
			[]string{"1050:0000:0000:0000:0005:0600:300c:1", "1050:0:0:0:5:600:300c:3"}, []string{"1050:0000:0000:0000:0005:0600:300c:4"}},
		{"1050::0005:0600:300c:{1,2,3}", []string{"1050:0000:0000:0000:0005:0600:300c:2"},
			[]string{"1050:0000:0000:0000:0005:0600:300c:0"}},
		{"192.100-150.*.*", []string{"192.130.0.2", "192.100.255.255", "192.150.0.0"}, []string{"192.99.0.1", "192.151.0.1", "193.130.0.2"}},
		{"192.168.*.*", []string{"192.168.0.1", "192.168.255.3"}, []string{"192.169.0.1"}},
		{"10.*.*.*", []string{"10.0.0.1", "10.255.1.2"}, []string{"11.0.0.1", "::1"}},
		{"192.168.1.1-100", []string{"192.168.1.1", "192.168.1.100"}, []string{"192.168.1.0", "192.168.1.101", "192.168.2.50"}},
		{"127.0.1-20.*", []string{"127.0.1.0", "127.0.20.255"}, []string{"127.0.0.1", "127.0.21.1"}},
		{"1050:0005:0600:300c:3261:*", []string{"1050:5:600:300c:3261:0:0:0", "1050:5:600:300c:3261:ffff:1:2"}, []string{"1050:5:600:300c:3262:0:0:0"}},
		{"1050::0005:0600:3001:*", nil, []string{"1050::0005:0600:300c:1"}},
		{"1050::0005:0600:300c:1-200:*", []string{"1050::0005:0600:300c:1:0", "1050::0005:0600:300c:200:ffff"}, []string{"1050::0005:0600:300c:201:0"}},
	} {
		t.Run(c.pattern, func(t *testing.T) {
			m, err := parseAddrPattern(c.pattern)
			require.NoError(t, err)
			for _, a := range c.yes {
				require.True(t, m(a), "%s should match", a)
			}
			for _, a := range c.no {
				require.False(t, m(a), "%s should not match", a)
			}
		})
	}
}

// Java 4.9.8: RemoteAddressStrategyTest.rangeNetaddressStrategyTest, every
// last group from -10 to 299.
func TestAddrPatternRangeSweep(t *testing.T) {
	for _, c := range []struct {
		pattern    string
		head       string
		start, end int
	}{
		{"127.0.0.1-200", "127.0.0.", 1, 200},
		{"127.0.0.*", "127.0.0.", 0, 255},
		{"127.*.*.*", "127.0.0.", 0, 255},
	} {
		m, err := parseAddrPattern(c.pattern)
		require.NoError(t, err)
		for i := -10; i < 300; i++ {
			want := i >= c.start && i <= c.end
			require.Equal(t, want, m(c.head+strconv.Itoa(i)), "%s vs %s%d", c.pattern, c.head, i)
		}
	}
	m, err := parseAddrPattern("1050::0005:0600:300c:1-200")
	require.NoError(t, err)
	for i := -10; i < 0x10000+100; i += 7 {
		want := i >= 1 && i <= 0x200
		host := "1050::0005:0600:300c:" + strconv.FormatInt(int64(i), 16)
		require.Equal(t, want, m(host), host)
	}
}

// Patterns Java refuses to build (AclException or another exception out of
// the factory), and the one it builds but cannot match (head null).
func TestAddrPatternErrors(t *testing.T) {
	for _, p := range []string{
		"256.0.0.1", "::1ggg", "127.0.0.01", "1.2.3",
		"127.0.0.1,2,3}", "::1,2,3}", "192.168.{1}", "{192.168.1}", "{192.168.1.1}", "192.168.1.{1,2,x}",
		"127.0.0.2-1", "127.0.0.-1-200", "127.0.0.0-256", "127.0.0.1-", "192.*", "1-5",
		"127.0.0.1,127.0.0.x", "*.1.2.3", "1.2.3.4.*",
		"1050::*:1", "1050::1-2:3", "1050::0005:0600:300c:1-10000",
	} {
		_, err := parseAddrPattern(p)
		require.Error(t, err, "%q", p)
	}
}

// InetAddressValidator (commons-validator 1.7).
func TestValidIP(t *testing.T) {
	for _, c := range []struct {
		s      string
		v4, v6 bool
	}{
		{"127.0.0.1", true, false}, {"255.255.255.255", true, false}, {"256.1.1.1", false, false},
		{"01.1.1.1", false, false}, {"1.1.1", false, false}, {"0.0.0.0", true, false},
		{"::1", false, true}, {"::", false, true}, {"1::", false, true}, {"0:0:0:0:0:0:0:1", false, true},
		{"1:2:3:4:5:6:7:8", false, true}, {"1:2:3:4:5:6:7:8:9", false, false}, {"1:2:3", false, false},
		{"::ffff:1.2.3.4", false, true}, {"1::2::3", false, false}, {":1::2", false, false},
		{"fe80::1%eth0", false, true}, {"::1/128", false, true}, {"::1/x", false, false}, {"12345::", false, false},
		{"", false, false},
	} {
		require.Equal(t, c.v4, validIPv4(c.s), "v4 %q", c.s)
		require.Equal(t, c.v6, validIPv6(c.s), "v6 %q", c.s)
	}
}

// AclUtils.expandIP.
func TestExpandIP(t *testing.T) {
	for in, want := range map[string]string{
		"::1":                   "0000:0000:0000:0000:0000:0000:0000:0001",
		"1050::5:600:300c:326b": "1050:0000:0000:0000:0005:0600:300C:326B",
		"0:0:0:0:0:0:0:1":       "0000:0000:0000:0000:0000:0000:0000:0001",
		"127.0.0.1":             "127.0.0.1",
		"":                      "",
	} {
		require.Equal(t, want, expandIP(in, 8), in)
	}
	require.Equal(t, "1050:0000:0000:0005:0600:300C", expandIP("1050::0005:0600:300c", 6))
}

func ExampleSign() {
	fmt.Println(Sign([]byte("The quick brown fox jumps over the lazy dog"), "key"))
	// Output: 3nybhbi3iqa8ino29wqQcBydtNk=
}
