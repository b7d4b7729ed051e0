package protocol

import (
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Java's number and boolean parsing, as RemotingCommand uses it to decode
// header fields (Integer.parseInt, Long.parseLong, Boolean.parseBoolean,
// Double.parseDouble) and Double.toString to encode them. Header values are
// Java Strings: UTF-16, so a character outside the BMP is two chars, and
// invalid UTF-8 would have been decoded as U+FFFD; neither is a digit.

// parseJavaInt is Integer.parseInt(s): an optional '+' or '-', then one or
// more decimal digits of any script (Character.digit(ch, 10): Unicode
// category Nd), no spaces, and the value must fit an int.
func parseJavaInt(s string) (int32, bool) {
	if n := len(s); n > 0 && n < 10 { // fast path: up to 9 ASCII digits cannot overflow
		neg, i := s[0] == '-', 0
		if s[0] == '-' || s[0] == '+' {
			i = 1
		}
		var v int32
		for ; i < n; i++ {
			c := s[i] - '0'
			if c > 9 {
				return parseJavaIntSlow(s)
			}
			v = v*10 + int32(c)
		}
		if i == 1 && (s[0] == '-' || s[0] == '+') {
			return 0, false
		}
		if neg {
			v = -v
		}
		return v, true
	}
	return parseJavaIntSlow(s)
}

func parseJavaIntSlow(s string) (int32, bool) {
	v, ok := parseJavaInteger(s, math.MaxInt32)
	return int32(v), ok
}

// parseJavaLong is Long.parseLong(s), with the rules of parseJavaInt.
func parseJavaLong(s string) (int64, bool) {
	if n := len(s); n > 0 && n < 19 { // up to 18 ASCII digits cannot overflow
		neg, i := s[0] == '-', 0
		if s[0] == '-' || s[0] == '+' {
			i = 1
		}
		var v int64
		for ; i < n; i++ {
			c := s[i] - '0'
			if c > 9 {
				return parseJavaInteger(s, math.MaxInt64)
			}
			v = v*10 + int64(c)
		}
		if i == 1 && (s[0] == '-' || s[0] == '+') {
			return 0, false
		}
		if neg {
			v = -v
		}
		return v, true
	}
	return parseJavaInteger(s, math.MaxInt64)
}

// parseJavaInteger parses s like Java's parseInt/parseLong for a type whose
// largest value is max (the smallest is -max-1).
func parseJavaInteger(s string, max uint64) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	limit := max
	if neg {
		limit = max + 1
	}
	var v uint64
	for _, r := range s {
		d := javaDigit(r)
		if d < 0 || v > (limit-uint64(d))/10 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	if neg {
		return int64(-v), true // -v wraps to the right two's complement value
	}
	return int64(v), true
}

// javaDigit is Character.digit(ch, 10) for one char of a Java string: the
// value of a decimal digit of any script (category Nd), else -1.
func javaDigit(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || r > 0xFFFF || r == utf8.RuneError || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	// Unicode assigns decimal digits in runs of ten, 0 to 9, and the
	// table's ranges start at a zero (checked by TestJavaDigitTable).
	for _, rg := range unicode.Nd.R16 {
		if uint16(r) >= rg.Lo && uint16(r) <= rg.Hi {
			return int(uint16(r)-rg.Lo) % 10
		}
	}
	return -1
}

// javaNumberFormat is the message of the NumberFormatException that
// Integer.parseInt and Long.parseLong throw for s.
func javaNumberFormat(s string) string {
	return `For input string: "` + s + `"`
}

// parseJavaBool is Boolean.parseBoolean(s): "true" in any case is true,
// anything else false; it never fails.
func parseJavaBool(s string) bool {
	return len(s) == 4 && s[0]|0x20 == 't' && s[1]|0x20 == 'r' && s[2]|0x20 == 'u' && s[3]|0x20 == 'e'
}

// parseJavaDouble is Double.parseDouble(s) (FloatingDecimal.
// readJavaFormatString): leading and trailing chars <= ' ' are trimmed;
// then an optional sign and "NaN", "Infinity", a decimal number (ASCII
// digits with at most one '.', at least one digit, an optional exponent
// e/E with an optional sign and at least one digit) or a hexadecimal one
// (0x/0X, hex digits with at most one '.', a mandatory p/P binary exponent),
// the numbers optionally followed by one of f, F, d, D. The result is the
// correctly rounded double (overflow gives ±Infinity, underflow ±0).
func parseJavaDouble(s string) (float64, bool) {
	v, msg := parseJavaDoubleMsg(s)
	return v, msg == ""
}

// javaDoubleFormat is the message of the NumberFormatException that
// Double.parseDouble throws for s.
func javaDoubleFormat(s string) string {
	_, msg := parseJavaDoubleMsg(s)
	return msg
}

// parseJavaDoubleMsg parses s and returns "" or Java's exception message.
func parseJavaDoubleMsg(s string) (float64, string) {
	t := javaTrim(s)
	if t == "" {
		return 0, "empty String"
	}
	bad := `For input string: "` + t + `"`
	i := 0
	if t[0] == '+' || t[0] == '-' {
		i = 1
	}
	switch rest := t[i:]; {
	case rest == "NaN":
		return math.NaN(), ""
	case rest == "Infinity":
		if t[0] == '-' {
			return math.Inf(-1), ""
		}
		return math.Inf(1), ""
	case len(rest) > 1 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'):
		if !javaHexFloat(rest[2:]) {
			return 0, bad
		}
	default:
		if msg := javaDecimalFloat(rest); msg != "" {
			if msg == "multiple points" {
				return 0, msg
			}
			return 0, bad
		}
	}
	if c := t[len(t)-1]; c == 'f' || c == 'F' || c == 'd' || c == 'D' {
		t = t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !isRangeErr(err) {
		return 0, bad // cannot happen for a string that passed the checks
	}
	return v, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// javaTrim is String.trim: it drops chars <= ' ' at both ends.
func javaTrim(s string) string {
	for s != "" && s[0] <= ' ' {
		s = s[1:]
	}
	for s != "" && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// javaDecimalFloat checks an unsigned decimal number with an optional
// f/F/d/D suffix; it returns "" when valid, "multiple points" for a second
// '.', and "bad" otherwise.
func javaDecimalFloat(s string) string {
	digits, points, i := 0, 0, 0
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			if points++; points > 1 {
				return "multiple points"
			}
		default:
			goto mantissaDone
		}
	}
mantissaDone:
	if digits == 0 {
		return "bad"
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return "bad"
		}
	}
	return suffixOnly(s[i:])
}

// javaHexFloat checks the part after "0x" of a hexadecimal number.
func javaHexFloat(s string) bool {
	digits, points, i := 0, 0, 0
	for ; i < len(s); i++ {
		c := s[i]
		if isHex(c) {
			digits++
		} else if c == '.' && points == 0 {
			points++
		} else {
			break
		}
	}
	if digits == 0 || i == len(s) || s[i]|0x20 != 'p' {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > start && suffixOnly(s[i:]) == ""
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

// suffixOnly accepts "" or one float type suffix.
func suffixOnly(s string) string {
	if s == "" || len(s) == 1 && (s[0]|0x20 == 'f' || s[0]|0x20 == 'd') {
		return ""
	}
	return "bad"
}

// formatJavaDouble is Double.toString(v) as specified since JDK 19: NaN,
// Infinity, -Infinity, 0.0, -0.0; plain notation with at least one
// fractional digit for 1e-3 <= |v| < 1e7 ("1.0", "0.5", "123.456",
// "0.001"); otherwise computerized scientific notation ("1.0E7",
// "1.234E-5"). The digits are the shortest decimal that rounds to v, and
// when that is a single digit the closest two-digit decimal (so
// Double.MIN_VALUE is "4.9E-324", as Java prints it).
//
// Limit: JDK 8 to 18 used an older algorithm that, for some values, prints
// a digit or two more than the shortest (JDK-4511638); we follow the
// JDK 19+ output. No 4.9.8 header has a double field, so this only matters
// to callers formatting their own values.
func formatJavaDouble(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	var buf [32]byte
	digits, exp := shortestDigits(buf[:0], v)
	out := make([]byte, 0, 32)
	if v < 0 {
		out = append(out, '-')
	}
	abs := math.Abs(v)
	if abs >= 1e-3 && abs < 1e7 {
		out = appendPlain(out, digits, exp)
	} else {
		out = append(out, digits[0], '.')
		if len(digits) > 1 {
			out = append(out, digits[1:]...)
		} else {
			out = append(out, '0')
		}
		out = append(out, 'E')
		out = strconv.AppendInt(out, int64(exp), 10)
	}
	return string(out)
}

// shortestDigits returns the significant digits of |v| (no trailing
// zeros) and the decimal exponent of the first one.
func shortestDigits(buf []byte, v float64) ([]byte, int) {
	v = math.Abs(v)
	e := strconv.AppendFloat(buf, v, 'e', -1, 64) // d[.ddd]e±xx
	if e[1] != '.' {                              // one digit: take the closest two-digit decimal
		e = strconv.AppendFloat(buf[:0], v, 'e', 1, 64)
	}
	mant, expPart := e, []byte(nil)
	for i, c := range e {
		if c == 'e' {
			mant, expPart = e[:i], e[i+1:]
			break
		}
	}
	exp, _ := strconv.Atoi(string(expPart)) // AppendFloat wrote a valid exponent
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits, exp
}

// appendPlain lays digits (first digit at 10^exp) out as d.ddd with at
// least one digit after the point.
func appendPlain(out, digits []byte, exp int) []byte {
	if exp < 0 {
		out = append(out, '0', '.')
		for i := -1; i > exp; i-- {
			out = append(out, '0')
		}
		return append(out, digits...)
	}
	for i := 0; i <= exp; i++ {
		if i < len(digits) {
			out = append(out, digits[i])
		} else {
			out = append(out, '0')
		}
	}
	out = append(out, '.')
	if exp+1 < len(digits) {
		return append(out, digits[exp+1:]...)
	}
	return append(out, '0')
}
