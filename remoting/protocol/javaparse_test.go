package protocol

import (
	"math"
	"strconv"
	"testing"
	"unicode"
)

// The expectations below are what OpenJDK 17.0.15 printed for the same
// inputs (Integer.parseInt, Long.parseLong, Boolean.parseBoolean,
// Double.parseDouble with the NumberFormatException message, and
// Double.toString); Java's parsing has not changed between JDK 8 and 21.

func TestParseJavaIntLong(t *testing.T) {
	const bad = "NFE"
	tests := []struct {
		in        string
		int, long string // decimal result, or bad
	}{
		{"0", "0", "0"},
		{"7", "7", "7"},
		{"-7", "-7", "-7"},
		{"+7", "7", "7"}, // a leading '+' is accepted since JDK 7
		{"-", bad, bad},
		{"+", bad, bad},
		{"", bad, bad},
		{"  1", bad, bad}, // no trimming
		{"1 ", bad, bad},
		{"007", "7", "7"},
		{"2147483647", "2147483647", "2147483647"},
		{"2147483648", bad, "2147483648"},
		{"-2147483648", "-2147483648", "-2147483648"},
		{"-2147483649", bad, "-2147483649"},
		{"9223372036854775807", bad, "9223372036854775807"},
		{"9223372036854775808", bad, bad},
		{"-9223372036854775808", bad, "-9223372036854775808"},
		{"-9223372036854775809", bad, bad},
		{"99999999999999999999999", bad, bad},
		{"\u0661\u0662", "12", "12"}, // Arabic-Indic digits: Character.digit accepts any Nd
		{"\uff11\uff12", "12", "12"}, // fullwidth digits
		{"\u0967", "1", "1"},         // Devanagari one
		{"12\u0663", "123", "123"},
		{"\U0001D7CE", bad, bad}, // Nd, but outside the BMP: two chars in Java, neither a digit
		{"\u00b2", bad, bad},     // superscript two is No, not Nd
		{"1_000", bad, bad},
		{"0x10", bad, bad},
		{"1e3", bad, bad},
		{"1.0", bad, bad},
		{"--1", bad, bad},
		{"+-1", bad, bad},
		{"1\xff", bad, bad}, // invalid UTF-8 reads as U+FFFD in Java
	}
	for _, tt := range tests {
		gotI, okI := parseJavaInt(tt.in)
		if got := result(int64(gotI), okI); got != tt.int {
			t.Errorf("parseJavaInt(%q) = %s, want %s", tt.in, got, tt.int)
		}
		gotL, okL := parseJavaLong(tt.in)
		if got := result(gotL, okL); got != tt.long {
			t.Errorf("parseJavaLong(%q) = %s, want %s", tt.in, got, tt.long)
		}
	}
	if got, want := javaNumberFormat("1 "), `For input string: "1 "`; got != want {
		t.Errorf("javaNumberFormat = %q, want %q", got, want)
	}
}

func result(v int64, ok bool) string {
	if !ok {
		return "NFE"
	}
	return strconv.FormatInt(v, 10)
}

// TestJavaDigitTable checks the assumption javaDigit makes about Go's
// Unicode tables: every BMP range of category Nd holds whole runs 0..9.
func TestJavaDigitTable(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %#x..%#x stride %d is not whole runs of ten", rg.Lo, rg.Hi, rg.Stride)
		}
	}
	for r := rune(0); r <= 0xFFFF; r++ {
		d := javaDigit(r)
		if unicode.Is(unicode.Nd, r) != (d >= 0) || d > 9 {
			t.Fatalf("javaDigit(%U) = %d", r, d)
		}
	}
}

func TestParseJavaBool(t *testing.T) {
	for in, want := range map[string]bool{
		"true": true, "TRUE": true, "True": true, "tRuE": true,
		"yes": false, "1": false, "": false, "true ": false, "t": false, "truee": false, "tru\u00e9": false,
	} {
		if got := parseJavaBool(in); got != want {
			t.Errorf("parseJavaBool(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestParseJavaDouble(t *testing.T) {
	tests := []struct {
		in   string
		bits uint64 // result, when msg is ""
		msg  string // NumberFormatException message
	}{
		{in: "1", bits: 0x3ff0000000000000},
		{in: "1.5", bits: 0x3ff8000000000000},
		{in: "-0", bits: 0x8000000000000000},
		{in: "-0.0", bits: 0x8000000000000000},
		{in: "  2.5  ", bits: 0x4004000000000000}, // String.trim
		{in: "\t3\n", bits: 0x4008000000000000},
		{in: ".5", bits: 0x3fe0000000000000},
		{in: "5.", bits: 0x4014000000000000},
		{in: "1e3", bits: 0x408f400000000000},
		{in: "1E-3", bits: 0x3f50624dd2f1a9fc},
		{in: "1e+3", bits: 0x408f400000000000},
		{in: "1.e5", bits: 0x40f86a0000000000},
		{in: "1.5d", bits: 0x3ff8000000000000},
		{in: "1.5F", bits: 0x3ff8000000000000}, // parsed as a double all the same
		{in: "2f", bits: 0x4000000000000000},
		{in: "-NaN", bits: 0x7ff8000000000000},
		{in: "NaN", bits: 0x7ff8000000000000},
		{in: "+Infinity", bits: 0x7ff0000000000000},
		{in: "Infinity", bits: 0x7ff0000000000000},
		{in: "-Infinity", bits: 0xfff0000000000000},
		{in: "0x1p3", bits: 0x4020000000000000},
		{in: "0X1.8P1", bits: 0x4008000000000000},
		{in: "-0x.8p1", bits: 0xbff0000000000000},
		{in: "0x1.p1", bits: 0x4000000000000000},
		{in: "0x1p1d", bits: 0x4000000000000000},
		{in: "0x1.8p1f", bits: 0x4008000000000000},
		{in: "+0x1p1", bits: 0x4000000000000000},
		{in: "-.5e-1d", bits: 0xbfa999999999999a},
		{in: "0x1p-1075", bits: 0},                                // a tie, rounded to even
		{in: "0x1.fffffffffffff8p1023", bits: 0x7ff0000000000000}, // rounds up past MAX_VALUE
		{in: "1e400", bits: 0x7ff0000000000000},
		{in: "1e-400", bits: 0},
		{in: "0.1", bits: 0x3fb999999999999a},
		{in: "123456789012345678901234567890", bits: 0x45f8ee90ff6c373e},
		{in: "", msg: "empty String"},
		{in: "   ", msg: "empty String"},
		{in: "1.2.3", msg: "multiple points"},
		{in: "..", msg: "multiple points"},
		{in: "1..", msg: "multiple points"},
		{in: " nan ", msg: `For input string: "nan"`}, // the message shows the trimmed text
		{in: "inf", msg: `For input string: "inf"`},
		{in: "infinity", msg: `For input string: "infinity"`},
		{in: "NaNd", msg: `For input string: "NaNd"`},
		{in: "Infinityf", msg: `For input string: "Infinityf"`},
		{in: ".", msg: `For input string: "."`},
		{in: "e5", msg: `For input string: "e5"`},
		{in: "1e", msg: `For input string: "1e"`},
		{in: "1e+", msg: `For input string: "1e+"`},
		{in: "1ee5", msg: `For input string: "1ee5"`},
		{in: "1e5.3", msg: `For input string: "1e5.3"`},
		{in: "1d5", msg: `For input string: "1d5"`},
		{in: "0x1", msg: `For input string: "0x1"`},
		{in: "0x1p", msg: `For input string: "0x1p"`},
		{in: "0xp1", msg: `For input string: "0xp1"`},
		{in: "1_0", msg: `For input string: "1_0"`},
		{in: "1 0", msg: `For input string: "1 0"`},
		{in: "+", msg: `For input string: "+"`},
		{in: "-", msg: `For input string: "-"`},
		{in: "++1", msg: `For input string: "++1"`},
		{in: "\u0661", msg: "For input string: \"\u0661\""}, // ASCII digits only
	}
	for _, tt := range tests {
		got, msg := parseJavaDoubleMsg(tt.in)
		if msg != tt.msg {
			t.Errorf("parseJavaDouble(%q): message %q, want %q", tt.in, msg, tt.msg)
			continue
		}
		if msg != "" {
			continue
		}
		if math.IsNaN(got) && tt.bits == 0x7ff8000000000000 {
			continue
		}
		if math.Float64bits(got) != tt.bits {
			t.Errorf("parseJavaDouble(%q) = %v (%#x), want %#x", tt.in, got, math.Float64bits(got), tt.bits)
		}
	}
}

func TestFormatJavaDouble(t *testing.T) {
	tests := []struct {
		bits uint64
		want string
	}{
		{0x3ff0000000000000, "1.0"},
		{0x3fe0000000000000, "0.5"},
		{0x416312d000000000, "1.0E7"},
		{0x416312cfe0000000, "9999999.0"},
		{0x3f50624dd2f1a9fc, "0.001"},
		{0x3f505e1c15097c81, "9.99E-4"},
		{0x3f1a36e2eb1c432d, "1.0E-4"},
		{0x405edd2f1a9fbe77, "123.456"},
		{0x4059000000000000, "100.0"},
		{0x4059100000000000, "100.25"},
		{0x3fb999999999999a, "0.1"},
		{0x7fefffffffffffff, "1.7976931348623157E308"},
		{0x1, "4.9E-324"}, // Double.MIN_VALUE: two digits, the closer ones
		{0x3, "1.5E-323"},
		{0x63, "4.9E-322"},
		{0xbff8000000000000, "-1.5"},
		{0x8000000000000000, "-0.0"},
		{0, "0.0"},
		{0x7ff8000000000000, "NaN"},
		{0x7ff0000000000000, "Infinity"},
		{0xfff0000000000000, "-Infinity"},
		{0x4132d68700000000, "1234567.0"},
		{0x41678c29c0000000, "1.2345678E7"},
		{0x3f53a92a30553261, "0.0012"},
		{0x421bf08eb0000000, "3.0E10"},
		{0x3fd5555555555555, "0.3333333333333333"},
		{0x3fe5555555555555, "0.6666666666666666"},
		{0x3ddb7cdfd9d7bdbb, "1.0E-10"},
		{0x444b1ae4d6e2ef50, "1.0E21"},
		{0x4480f0cf064dd592, "1.0E22"},
		// JDK 19+ prints the shortest digits; JDK 17 printed these as
		// "9.999999999999999E22" and "1.9999999999999998E23" (JDK-4511638).
		{0x44b52d02c7e14af6, "1.0E23"},
		{0x44c52d02c7e14af6, "2.0E23"},
	}
	for _, tt := range tests {
		v := math.Float64frombits(tt.bits)
		if got := formatJavaDouble(v); got != tt.want {
			t.Errorf("formatJavaDouble(%#x) = %q, want %q", tt.bits, got, tt.want)
		}
		if got, ok := parseJavaDouble(tt.want); !ok || math.Float64bits(got) != tt.bits && !math.IsNaN(v) {
			t.Errorf("parseJavaDouble(%q) = %v, %v; want bits %#x", tt.want, got, ok, tt.bits)
		}
	}
}
