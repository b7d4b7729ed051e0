package javaprops

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrNumberFormat is the Go side of Java's NumberFormatException.
var ErrNumberFormat = errors.New("javaprops: NumberFormatException")

// ParseJavaInt parses s like Integer.parseInt (bits 32) or Long.parseLong
// (bits 64): an optional '+' or '-', then one or more decimal digits, nothing
// else (no blanks). Like Java's Character.digit, any Unicode decimal digit of
// the Basic Multilingual Plane counts (U+0661 is 1, U+FF15 is 5).
func ParseJavaInt(s string, bits int) (int64, error) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, ErrNumberFormat
	}
	limit := uint64(1) << (bits - 1) // |min|; max is limit-1
	var n uint64
	for _, r := range s {
		d := javaDigit(r)
		if d < 0 {
			return 0, ErrNumberFormat
		}
		if n > (limit-uint64(d))/10 {
			return 0, ErrNumberFormat
		}
		n = n*10 + uint64(d)
	}
	if neg {
		return -int64(n), nil // n == 2^63 wraps to MinInt64, which is right
	}
	if n == limit {
		return 0, ErrNumberFormat
	}
	return int64(n), nil
}

// javaDigit returns Character.digit(r, 10): 0-9 for a decimal digit of the
// BMP (Unicode Nd ranges start at a zero and run in tens), else -1.
func javaDigit(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < utf8.RuneSelf || r > 0xFFFF || r == utf8.RuneError || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	zero := r
	for zero > 0 && unicode.Is(unicode.Nd, zero-1) {
		zero--
	}
	return int(r-zero) % 10
}

// ParseJavaBool is Boolean.parseBoolean: true only for "true" in any case.
func ParseJavaBool(s string) bool {
	return len(s) == 4 && strings.EqualFold(s, "true")
}

// ParseJavaDouble parses s like Double.parseDouble (bits 64) or
// Float.parseFloat (bits 32): the text is first trimmed of chars <= ' ' (as
// String.trim), then must be an optionally signed "NaN", "Infinity", decimal
// literal (digits with an optional '.', at least one digit, optional
// exponent) or hex literal with a binary exponent ("0x1.8p1"), optionally
// followed by one of f F d D. Out-of-range values become ±Infinity or zero,
// as in Java.
func ParseJavaDouble(s string, bits int) (float64, error) {
	s = javaTrim(s)
	body, neg := s, false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg, body = body[0] == '-', body[1:]
	}
	switch body {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		if neg {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	if n := len(body); n > 0 && strings.IndexByte("fFdD", body[n-1]) >= 0 {
		body, s = body[:n-1], s[:len(s)-1]
	}
	if !isJavaDecimal(body) && !isJavaHexFloat(body) {
		return 0, ErrNumberFormat
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, ErrNumberFormat
	}
	return f, nil
}

func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

// span returns the length of the prefix of s whose bytes satisfy ok.
func span(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && ok(s[n]) {
		n++
	}
	return n
}

// isJavaDecimal reports whether s is digits[.digits][(e|E)[sign]digits]
// with at least one mantissa digit.
func isJavaDecimal(s string) bool {
	ip := span(s, isDigit)
	s = s[ip:]
	fp := 0
	if s != "" && s[0] == '.' {
		fp = span(s[1:], isDigit)
		s = s[1+fp:]
	}
	if ip+fp == 0 {
		return false
	}
	return isExponent(s, 'e')
}

// isExponent reports whether s is empty (when marker is 'e') or
// marker[sign]digits.
func isExponent(s string, marker byte) bool {
	if s == "" {
		return marker == 'e'
	}
	if s[0]|0x20 != marker {
		return false
	}
	s = s[1:]
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && span(s, isDigit) == len(s)
}

// isJavaHexFloat reports whether s is 0x hexdigits[.hexdigits] p[sign]digits.
func isJavaHexFloat(s string) bool {
	if len(s) < 2 || s[0] != '0' || s[1]|0x20 != 'x' {
		return false
	}
	s = s[2:]
	ip := span(s, isHexDigit)
	s = s[ip:]
	fp := 0
	if s != "" && s[0] == '.' {
		fp = span(s[1:], isHexDigit)
		s = s[1+fp:]
	}
	return ip+fp > 0 && isExponent(s, 'p')
}

// FormatJavaDouble renders f in the layout of Java's Double.toString (bits
// 64) or Float.toString (bits 32): "NaN", "Infinity", "-0.0", plain decimal
// with at least one fraction digit for 1e-3 <= |f| < 1e7, otherwise
// d.ddddE±n with at least two significant digits. The digits are those of
// fastjson 1.2.69's RyuDouble / RyuFloat, which it matches exactly (checked
// on 200,000 random doubles and floats, subnormals included): the shortest
// that round-trip. Java 17's own Double.toString sometimes prints more
// (about 1% of random doubles, e.g. 9.999999999999999E22 for 1e23;
// JDK-4511638, fixed in JDK 19); no 4.9.8 config field is a double or float.
func FormatJavaDouble(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	return string(AppendJavaDouble(nil, f, bits))
}

// AppendJavaDouble appends FormatJavaDouble(f, bits) for finite non-zero f.
func AppendJavaDouble(dst []byte, f float64, bits int) []byte {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, FormatJavaDouble(f, bits)...)
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, bits) // d[.ddd]e±xx
	mant, exp := splitExp(e)
	digits := string(mant[:1]) + string(trimDot(mant[1:]))
	if exp >= -3 && exp < 7 {
		return appendPlain(dst, digits, exp)
	}
	if len(digits) == 1 {
		digits, exp = twoDigits(f, bits)
	}
	dst = append(dst, digits[0], '.')
	dst = append(dst, digits[1:]...)
	dst = append(dst, 'E')
	return strconv.AppendInt(dst, int64(exp), 10)
}

func splitExp(e []byte) ([]byte, int) {
	i := len(e) - 1
	for e[i] != 'e' {
		i--
	}
	exp, _ := strconv.Atoi(string(e[i+1:])) // AppendFloat wrote it: always valid
	return e[:i], exp
}

func trimDot(b []byte) []byte {
	if len(b) > 0 && b[0] == '.' {
		return b[1:]
	}
	return b
}

// appendPlain writes digits (d1 d2 ... with value d1.d2...×10^exp) without
// an exponent, keeping at least one digit after the point.
func appendPlain(dst []byte, digits string, exp int) []byte {
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := -1; i > exp; i-- {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	intLen := exp + 1
	for len(digits) < intLen {
		digits += "0"
	}
	dst = append(dst, digits[:intLen]...)
	dst = append(dst, '.')
	if frac := digits[intLen:]; frac != "" {
		return append(dst, frac...)
	}
	return append(dst, '0')
}

// twoDigits returns the two significant digits Java and fastjson's Ryu print
// in E notation when one digit would round-trip. Both stop shortening at two
// digits counted from the decimal exponent of the rounding interval's upper
// bound dp = f + ulp/2, and round f half-up at that scale. For normal
// numbers that is the shortest digit plus "0"; subnormals differ: 4.9E-324
// (not 5.0E-324), 1.0E-323 for 2×MIN_VALUE (not 9.9E-324).
func twoDigits(f float64, bits int) (string, int) {
	next := math.Nextafter(f, math.Inf(1))
	if bits == 32 {
		next = float64(math.Nextafter32(float32(f), float32(math.Inf(1))))
	}
	v := new(big.Rat).SetFloat64(f)
	half := new(big.Rat).SetFloat64(next - f) // exact: adjacent floats
	half.Quo(half, big.NewRat(2, 1))
	dp := new(big.Rat).Add(v, half)
	x := int(math.Floor(math.Log10(f)))
	for pow10Rat(x).Cmp(dp) > 0 {
		x--
	}
	for pow10Rat(x+1).Cmp(dp) <= 0 {
		x++
	}
	q := new(big.Rat).Quo(v, pow10Rat(x-1))
	q.Add(q, big.NewRat(1, 2))
	n := new(big.Int).Quo(q.Num(), q.Denom()) // floor(f/10^(x-1) + 1/2)
	return n.String(), x
}

func pow10Rat(n int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(n))), nil)
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
