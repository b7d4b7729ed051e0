package javalang

import (
	"strconv"
	"testing"
	"unicode"
)

// The expectations below are what OpenJDK 17.0.15 printed for the same
// inputs: Integer.parseInt, Long.parseLong, Double.parseDouble (shown by
// Double.toString, or the NumberFormatException message) and
// Boolean.parseBoolean. Java's parsing has not changed from JDK 8 to 21.
func TestParseNumbers(t *testing.T) {
	const nfe = "NFE" // NumberFormatException: For input string: "<in>"
	tests := []struct {
		in        string
		int, long string // decimal result, or nfe
		double    string // Double.toString of the result, or the exception message
		bool      bool
	}{
		{"0", "0", "0", "0.0", false},
		{"7", "7", "7", "7.0", false},
		{"-7", "-7", "-7", "-7.0", false},
		{"+7", "7", "7", "7.0", false}, // a leading '+' is accepted since JDK 7
		{"-0", "0", "0", "-0.0", false},
		{"007", "7", "7", "7.0", false},
		{"00012", "12", "12", "12.0", false},
		{"-", nfe, nfe, `For input string: "-"`, false},
		{"+", nfe, nfe, `For input string: "+"`, false},
		{"", nfe, nfe, "empty String", false},
		{"  1", nfe, nfe, "1.0", false}, // only the floating-point parsers trim
		{"1 ", nfe, nfe, "1.0", false},
		{"2147483647", "2147483647", "2147483647", "2.147483647E9", false},
		{"2147483648", nfe, "2147483648", "2.147483648E9", false},
		{"-2147483648", "-2147483648", "-2147483648", "-2.147483648E9", false},
		{"-2147483649", nfe, "-2147483649", "-2.147483649E9", false},
		{"999999999", "999999999", "999999999", "9.99999999E8", false},     // the longest int fast path
		{"-999999999", "-999999999", "-999999999", "-9.99999999E8", false}, // and with a sign
		{"999999999999999999", nfe, "999999999999999999", "1.0E18", false}, // the longest long fast path
		{"9223372036854775807", nfe, "9223372036854775807", "9.223372036854776E18", false},
		{"9223372036854775808", nfe, nfe, "9.223372036854776E18", false},
		{"-9223372036854775808", nfe, "-9223372036854775808", "-9.223372036854776E18", false},
		{"-9223372036854775809", nfe, nfe, "-9.223372036854776E18", false},
		{"99999999999999999999", nfe, nfe, "1.0E20", false},
		{"\u0661\u0662", "12", "12", "For input string: \"\u0661\u0662\"", false}, // Arabic-Indic digits: any Nd
		{"\uff11\uff12", "12", "12", "For input string: \"\uff11\uff12\"", false}, // fullwidth digits
		{"\u0967", "1", "1", "For input string: \"\u0967\"", false},               // Devanagari one
		{"12\u0663", "123", "123", "For input string: \"12\u0663\"", false},
		{"-\u0661", "-1", "-1", "For input string: \"-\u0661\"", false},
		{"\U0001D7CE", nfe, nfe, "For input string: \"\U0001D7CE\"", false}, // Nd outside the BMP: two chars in Java, neither a digit
		{"\u00b2", nfe, nfe, "For input string: \"\u00b2\"", false},         // superscript two is No, not Nd
		{"1_000", nfe, nfe, `For input string: "1_000"`, false},
		{"0x10", nfe, nfe, `For input string: "0x10"`, false},
		{"1e3", nfe, nfe, "1000.0", false},
		{"1.0", nfe, nfe, "1.0", false},
		{"--1", nfe, nfe, `For input string: "--1"`, false},
		{"+-1", nfe, nfe, `For input string: "+-1"`, false},
		{"1\xff", nfe, nfe, "For input string: \"1\xff\"", false}, // invalid UTF-8 reads as U+FFFD in Java
		{"1.5", nfe, nfe, "1.5", false},
		{"1.5f", nfe, nfe, "1.5", false},
		{"1.5D", nfe, nfe, "1.5", false},
		{".5", nfe, nfe, "0.5", false},
		{"5.", nfe, nfe, "5.0", false},
		{".", nfe, nfe, `For input string: "."`, false},
		{"1e", nfe, nfe, `For input string: "1e"`, false},
		{"1e+", nfe, nfe, `For input string: "1e+"`, false},
		{"1e400", nfe, nfe, "Infinity", false},
		{"1e-400", nfe, nfe, "0.0", false},
		{"0x1.8p1", nfe, nfe, "3.0", false},
		{"0x.8p1", nfe, nfe, "1.0", false},
		{"0x1p", nfe, nfe, `For input string: "0x1p"`, false},
		{"0x1", nfe, nfe, `For input string: "0x1"`, false},
		{"0x1_0p0", nfe, nfe, `For input string: "0x1_0p0"`, false},
		{"NaN", nfe, nfe, "NaN", false},
		{"+NaN", nfe, nfe, "NaN", false},
		{"-Infinity", nfe, nfe, "-Infinity", false},
		{"nan", nfe, nfe, `For input string: "nan"`, false},
		{"inf", nfe, nfe, `For input string: "inf"`, false},
		{"true", nfe, nfe, `For input string: "true"`, true},
		{"TRUE", nfe, nfe, `For input string: "TRUE"`, true},
		{"tRue", nfe, nfe, `For input string: "tRue"`, true},
		{"true ", nfe, nfe, `For input string: "true"`, false},
		{"yes", nfe, nfe, `For input string: "yes"`, false},
	}
	for _, tt := range tests {
		i, err := ParseInt(tt.in)
		if got := intResult(int64(i), err, tt.in); got != tt.int {
			t.Errorf("ParseInt(%q) = %s, want %s", tt.in, got, tt.int)
		}
		l, err := ParseLong(tt.in)
		if got := intResult(l, err, tt.in); got != tt.long {
			t.Errorf("ParseLong(%q) = %s, want %s", tt.in, got, tt.long)
		}
		d, err := ParseDouble(tt.in)
		got := FormatDouble(d)
		if err != nil {
			got = err.Error()
		}
		if got != tt.double {
			t.Errorf("ParseDouble(%q) = %s, want %s", tt.in, got, tt.double)
		}
		if got := ParseBool(tt.in); got != tt.bool {
			t.Errorf("ParseBool(%q) = %v, want %v", tt.in, got, tt.bool)
		}
	}
}

// intResult renders a ParseInt/ParseLong result; a failure must carry
// Java's message for in.
func intResult(v int64, err error, in string) string {
	if err == nil {
		return strconv.FormatInt(v, 10)
	}
	if want := `For input string: "` + in + `"`; err.Error() != want {
		return "message " + strconv.Quote(err.Error())
	}
	return "NFE"
}

// TestDigitTable checks the assumption digit makes about Go's Unicode
// tables: every BMP range of category Nd holds whole runs 0..9.
func TestDigitTable(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %#x..%#x stride %d is not whole runs of ten", rg.Lo, rg.Hi, rg.Stride)
		}
	}
	for r := rune(0); r <= 0xFFFF; r++ {
		d := digit(r)
		if unicode.Is(unicode.Nd, r) != (d >= 0) || d > 9 {
			t.Fatalf("digit(%U) = %d", r, d)
		}
	}
}

func TestParseBool(t *testing.T) {
	for in, want := range map[string]bool{
		"true": true, "TRUE": true, "True": true, "tRuE": true,
		"yes": false, "1": false, "": false, "true ": false, "t": false, "truee": false, "tru\u00e9": false,
	} {
		if got := ParseBool(in); got != want {
			t.Errorf("ParseBool(%q) = %v, want %v", in, got, want)
		}
	}
}

// The fast paths of ParseInt and ParseLong allocate nothing; the header
// decoders of remoting/protocol rely on it.
func TestParseAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = ParseInt("-12345")
		_, _ = ParseLong("1700000000000")
		_, _ = ParseInt("\u0661")
		_ = ParseBool("TRUE")
		_, _ = ParseDouble("1.5")
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}
