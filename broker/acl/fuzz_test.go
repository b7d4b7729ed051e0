package acl

import (
	"os"
	"testing"
)

// FuzzParseFile: any input gives a configuration or an error, never a
// panic; whatever parses also builds or fails cleanly.
func FuzzParseFile(f *testing.F) {
	if data, err := os.ReadFile("testdata/plain_acl.yml"); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		"", "~", "{}", "- a", "accounts: [", "accounts:\n  - accessKey: *a\n",
		"a: &a [*a]\n", "accounts:\n  - !!binary abc\n", "globalWhiteRemoteAddresses: [1050::*:1, '{}', '1.2.3.{']\n",
		"accounts:\n  - {accessKey: abcdefgh, secretKey: 12345678, whiteRemoteAddress: '1.2.3.4-'}\n",
		"dataVersion: [{counter: x}]\n", "dataVersion: [1]\n", "accounts: [{admin: !!float .nan}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseFile(data)
		if err != nil {
			return
		}
		for _, p := range c.GlobalWhite {
			if m, err := parseAddrPattern(p); err == nil {
				m("127.0.0.1")
				m("::1")
			}
		}
		for _, a := range c.Accounts {
			if acc, err := buildAccount(a, "f"); err == nil {
				acc.white("10.0.0.1")
				acc.white("1050::5:600:300c:1")
			}
		}
	})
}

// FuzzAddrPattern: patterns never panic, built or matched.
func FuzzAddrPattern(f *testing.F) {
	for _, s := range []string{"*", "1.2.3.4", "1.2.3.{1,2}", "1050::*", "1050::1-2:*", "1.2.*.*", "1-2", "::1,1.2.3.4", "{}"} {
		f.Add(s, "1.2.3.4")
	}
	f.Fuzz(func(t *testing.T, pattern, host string) {
		if m, err := parseAddrPattern(pattern); err == nil {
			m(host)
		}
	})
}
