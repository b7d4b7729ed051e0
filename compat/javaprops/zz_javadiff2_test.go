//go:build javadiff

package javaprops

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestJavaDiffNum(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(2))
	alpha := []string{"0", "1", "9", "5", "+", "-", " ", ".", "e", "E", "x", "X", "p", "P", "f", "d", "D", "F", "a", "NaN", "Infinity", "\u0663", "\uff15", "\u00a0", "\t", "_", "0x", "1", "2", "7", "\U0001D7CF", "\u0660", "tRue", "inf"}
	cases := []string{"", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "+5", "-0", "+", "-", " 5", "5 ", "1e400", "1e-400", "0x1.8p1", "0x.8p1", "0x1p", "0x1", ".5", "5.", ".", "1e", "1e+", "1.5f", "1.5d", "NaN", "-Infinity", "+NaN", "nan", "true", "TRUE", "True ", "1_000", "0x1_0p0", "\u0661\u0662", "\uff11\uff12", "00012", "1.0E10", "4.9e-324", "3.4028235e38", "3.4028236e38", "1e39"}
	for i := 0; i < 30000; i++ {
		n := 1 + rng.Intn(8)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteString(alpha[rng.Intn(len(alpha))])
		}
		cases = append(cases, b.String())
	}
	for i, c := range cases {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%06d", i)), []byte(c), 0o644)
	}
	out, err := exec.Command("java", "-cp", "/tmp/jx", "PropsProbe", "num", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		var idx int
		fmt.Sscanf(f[0], "%d", &idx)
		s := cases[idx]
		var got []string
		if v, err := ParseJavaInt(s, 32); err != nil {
			got = append(got, "int=ERR")
		} else {
			got = append(got, fmt.Sprintf("int=%d", v))
		}
		if v, err := ParseJavaInt(s, 64); err != nil {
			got = append(got, "long=ERR")
		} else {
			got = append(got, fmt.Sprintf("long=%d", v))
		}
		if v, err := ParseJavaDouble(s, 64); err != nil {
			got = append(got, "double=ERR")
		} else {
			got = append(got, fmt.Sprintf("double=%x/%s", math.Float64bits(v), FormatJavaDouble(v, 64)))
		}
		if v, err := ParseJavaDouble(s, 32); err != nil {
			got = append(got, "float=ERR")
		} else {
			got = append(got, fmt.Sprintf("float=%x/%s", math.Float32bits(float32(v)), FormatJavaDouble(v, 32)))
		}
		got = append(got, fmt.Sprintf("bool=%v", ParseJavaBool(s)))
		want := strings.Join(f[1:], "\t")
		// NaN bit patterns may differ; compare loosely
		g := strings.Join(got, "\t")
		g = strings.ReplaceAll(g, "double=7ff8000000000001/NaN", "double=7ff8000000000000/NaN")
		if g != want {
			bad++
			if bad < 20 {
				t.Errorf("%q\n java %s\n go   %s", s, want, g)
			}
		}
	}
	t.Logf("%d num mismatches of %d", bad, len(cases))
}

func TestJavaDiffFmt(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var in bytes.Buffer
	var vals []float64
	for i := 0; i < 200000; i++ {
		var f float64
		switch i % 5 {
		case 4:
			f = math.Float64frombits(uint64(rng.Int63n(1 << uint(rng.Intn(52)+1))))
		case 0:
			f = math.Float64frombits(rng.Uint64())
		case 1:
			f = float64(rng.Int63n(1e12)) / math.Pow10(rng.Intn(15))
		case 2:
			f = float64(float32(rng.NormFloat64() * math.Pow10(rng.Intn(20)-10)))
		case 3:
			f = rng.Float64() * math.Pow10(rng.Intn(40)-20)
		}
		vals = append(vals, f)
		fmt.Fprintf(&in, "%016x\n", math.Float64bits(f))
	}
	cmd := exec.Command("java", "-cp", "/tmp/jx:"+strings.TrimSpace(mustRead("/tmp/cp.txt")), "PropsProbe", "fmt")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	bad := [4]int{}
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		v := vals[i]
		g1 := FormatJavaDouble(v, 64)
		g2 := FormatJavaDouble(float64(float32(v)), 32)
		if g1 != f[1] {
			bad[0]++
			if bad[0] < 10 {
				t.Logf("Double.toString %s: java %s go %s", f[0], f[1], g1)
			}
		}
		if g2 != f[2] {
			bad[1]++
			if bad[1] < 10 {
				t.Logf("Float.toString %s: java %s go %s", f[0], f[2], g2)
			}
		}
		fj1 := FormatJavaDouble(v, 64)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			fj1 = "null"
		}
		if fj1 != f[3] {
			bad[2]++
			if bad[2] < 10 {
				t.Logf("fastjson double %s: java %s go %s", f[0], f[3], fj1)
			}
		}
		fj2 := FormatJavaDouble(float64(float32(v)), 32)
		if math.IsNaN(v) || math.IsInf(float64(float32(v)), 0) {
			fj2 = "null"
		}
		if fj2 != f[4] {
			bad[3]++
			if bad[3] < 10 {
				t.Logf("fastjson float %s: java %s go %s", f[0], f[4], fj2)
			}
		}
		_ = strconv.Itoa
	}
	t.Logf("Double.toString mismatches %d, Float.toString mismatches %d, fastjson double %d float %d of %d", bad[0], bad[1], bad[2], bad[3], len(vals))
}

func mustRead(p string) string { b, _ := os.ReadFile(p); return string(b) }
