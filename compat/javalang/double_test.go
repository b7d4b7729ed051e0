package javalang

import (
	"math"
	"testing"
)

// Double.parseDouble as OpenJDK 17.0.15 answered: the result's bits, or the
// NumberFormatException message.
func TestParseDouble(t *testing.T) {
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
		{in: "0x1.2.3p1", msg: `For input string: "0x1.2.3p1"`}, // a hex number never says "multiple points"
		{in: "1_0", msg: `For input string: "1_0"`},
		{in: "1 0", msg: `For input string: "1 0"`},
		{in: "+", msg: `For input string: "+"`},
		{in: "-", msg: `For input string: "-"`},
		{in: "++1", msg: `For input string: "++1"`},
		{in: "\u0661", msg: "For input string: \"\u0661\""}, // ASCII digits only
	}
	for _, tt := range tests {
		got, err := ParseDouble(tt.in)
		if msg := message(err); msg != tt.msg {
			t.Errorf("ParseDouble(%q): message %q, want %q", tt.in, msg, tt.msg)
			continue
		}
		if err != nil {
			continue
		}
		if math.IsNaN(got) && tt.bits == 0x7ff8000000000000 {
			continue
		}
		if math.Float64bits(got) != tt.bits {
			t.Errorf("ParseDouble(%q) = %v (%#x), want %#x", tt.in, got, math.Float64bits(got), tt.bits)
		}
	}
}

// Float.parseFloat as OpenJDK 17.0.15 answered (Float.floatToRawIntBits):
// the decimal is rounded once, straight to a float.
func TestParseFloat(t *testing.T) {
	tests := []struct {
		in   string
		bits uint32 // result, when msg is ""
		msg  string
	}{
		{in: "1.5", bits: 0x3fc00000},
		{in: " 0.1f ", bits: 0x3dcccccd},
		{in: "16777217", bits: 0x4b800000},                     // 2^24+1: a tie, rounded to even
		{in: "1.00000017881393432617187499", bits: 0x3f800001}, // just below a tie: double rounding would give 1.0
		{in: "3.4028235e38", bits: 0x7f7fffff},
		{in: "3.4028236e38", bits: 0x7f800000}, // beyond MAX_VALUE + ulp/2
		{in: "1e39", bits: 0x7f800000},
		{in: "1.4e-45", bits: 0x00000001},
		{in: "1e-46", bits: 0},
		{in: "-0x1.8p1", bits: 0xc0400000},
		{in: "-Infinity", bits: 0xff800000},
		{in: "1.2.3", msg: "multiple points"},
		{in: "\t", msg: "empty String"},
		{in: "1f5", msg: `For input string: "1f5"`},
	}
	for _, tt := range tests {
		got, err := ParseFloat(tt.in)
		if msg := message(err); msg != tt.msg {
			t.Errorf("ParseFloat(%q): message %q, want %q", tt.in, msg, tt.msg)
			continue
		}
		if err == nil && math.Float32bits(got) != tt.bits {
			t.Errorf("ParseFloat(%q) = %v (%#x), want %#x", tt.in, got, math.Float32bits(got), tt.bits)
		}
	}
}

// message is the NumberFormatException message of err, "" for none.
func message(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
