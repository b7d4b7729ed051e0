//go:build javadiff

package javaprops

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
)

func hexJ(s string) string {
	if s == "" {
		return "-"
	}
	var b strings.Builder
	for _, c := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", c)
	}
	return b.String()
}

func TestJavaDiffLoad(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(1))
	alpha := []string{" ", "\t", "\f", "\r", "\n", "\r\n", "\\", "\\", "=", ":", "#", "!", "u", "0", "a", "F", "k", "\xc3\xa9", "\xff", "\\u0041", "\\uD83D\\uDE00", "\\uD83D", "\\u00", "x", "\\t", "\\n", "\\=", "\\ ", "\\\\", "\\r", "\\f", "\\x", "\\:", "\\#", "\\u004a", "\\u004G", "\\U0041"}
	var cases [][]byte
	for i := 0; i < 100000; i++ {
		n := rng.Intn(30)
		var b []byte
		for j := 0; j < n; j++ {
			b = append(b, alpha[rng.Intn(len(alpha))]...)
		}
		cases = append(cases, b)
	}
	for i, c := range cases {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%06d", i)), c, 0o644)
	}
	for _, mode := range []string{"load", "reader"} {
		out, err := exec.Command("java", "-cp", "/tmp/jx", "PropsProbe", mode, dir).Output()
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			name, res, _ := strings.Cut(line, "\t")
			var idx int
			fmt.Sscanf(name, "%d", &idx)
			var p *Properties
			if mode == "load" {
				p, err = ParseString(string(cases[idx]))
			} else {
				p, err = ParseUTF8(strings.NewReader(string(cases[idx])))
			}
			var got string
			if err != nil {
				got = "ERR"
			} else {
				keys := p.Keys()
				sort.Slice(keys, func(i, j int) bool { return hexJ(keys[i]) < hexJ(keys[j]) })
				got = "OK"
				for _, k := range keys {
					v, _ := p.Get(k)
					got += " " + hexJ(k) + "=" + hexJ(v)
				}
			}
			want := res
			if strings.HasPrefix(res, "ERR") {
				want = "ERR"
			}
			if got != want {
				bad++
				if bad < 15 {
					t.Errorf("%s %q:\n java %s\n go   %s", mode, cases[idx], res, got)
				}
			}
		}
		t.Logf("%s: %d mismatches", mode, bad)
	}
}
