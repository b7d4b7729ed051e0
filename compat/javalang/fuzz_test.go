package javalang

import (
	"math"
	"strconv"
	"testing"
	"unicode/utf8"
)

// FuzzParse: the parsers never panic; the fast integer paths agree with the
// general one; on ASCII input ParseInt and ParseLong accept exactly what
// strconv.ParseInt does; ParseDouble and ParseFloat share syntax and
// messages; what ParseDouble accepts, FormatDouble prints back to the same
// double.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "0", "-0", "+7", "-", "007", "999999999", "-2147483648", "2147483648",
		"999999999999999999", "-9223372036854775808", "9223372036854775808", "\u0661\u0662", "\uff11",
		"\U0001D7CE", "1\xff", " 1", "1.5", ".5", "5.", "1.2.3", "1e", "1e-400", "0x1.8p1", "0x1p-1075",
		"NaN", "-Infinity", " nan ", "1.5f", "TRUE", "123456789012345678901234567890",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i32, err32 := ParseInt(s)
		i64, err64 := ParseLong(s)
		slow32, ok32 := parseInteger(s, math.MaxInt32)
		slow64, ok64 := parseInteger(s, math.MaxInt64)
		if (err32 == nil) != ok32 || ok32 && int64(i32) != slow32 {
			t.Fatalf("ParseInt(%q) = %d, %v; general path %d, %v", s, i32, err32, slow32, ok32)
		}
		if (err64 == nil) != ok64 || ok64 && i64 != slow64 {
			t.Fatalf("ParseLong(%q) = %d, %v; general path %d, %v", s, i64, err64, slow64, ok64)
		}
		if isASCII(s) {
			want, err := strconv.ParseInt(s, 10, 64)
			if (err == nil) != (err64 == nil) || err == nil && want != i64 {
				t.Fatalf("ParseLong(%q) = %d, %v; strconv %d, %v", s, i64, err64, want, err)
			}
			want, err = strconv.ParseInt(s, 10, 32)
			if (err == nil) != (err32 == nil) || err == nil && want != int64(i32) {
				t.Fatalf("ParseInt(%q) = %d, %v; strconv %d, %v", s, i32, err32, want, err)
			}
		}
		d, errD := ParseDouble(s)
		_, errF := ParseFloat(s)
		if (errD == nil) != (errF == nil) || errD != nil && errD.Error() != errF.Error() {
			t.Fatalf("ParseDouble(%q): %v; ParseFloat: %v", s, errD, errF)
		}
		if errD == nil && !math.IsNaN(d) {
			back, err := ParseDouble(FormatDouble(d))
			if err != nil || math.Float64bits(back) != math.Float64bits(d) {
				t.Fatalf("ParseDouble(%q) = %v printed as %s, read back as %v, %v", s, d, FormatDouble(d), back, err)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FuzzFormat: every double and float prints in Java's layout and reads
// back to itself.
func FuzzFormat(f *testing.F) {
	for _, bits := range []uint64{0, 1, 2, 0x63, 0x8000000000000000, 0x3ff0000000000000, 0x416312d000000000,
		0x3f50624dd2f1a9fc, 0x44b52d02c7e14af6, 0x7fefffffffffffff, 0x7ff8000000000000, 0xfff0000000000000} {
		f.Add(bits)
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		d := math.Float64frombits(bits)
		if math.IsNaN(d) {
			return
		}
		s := FormatDouble(d)
		if back, err := ParseDouble(s); err != nil || math.Float64bits(back) != bits {
			t.Fatalf("FormatDouble(%#x) = %s, read back as %v, %v", bits, s, back, err)
		}
		if got := string(AppendDouble([]byte("x"), d)); got != "x"+s {
			t.Fatalf("AppendDouble(%#x) = %s, FormatDouble %s", bits, got, s)
		}
		fl := math.Float32frombits(uint32(bits))
		if fl != fl {
			return
		}
		s = FormatFloat(fl)
		if back, err := ParseFloat(s); err != nil || math.Float32bits(back) != uint32(bits) {
			t.Fatalf("FormatFloat(%#x) = %s, read back as %v, %v", uint32(bits), s, back, err)
		}
	})
}
