package javalang

import (
	"math"
	"math/big"
	"strconv"
)

// FormatDouble is Double.toString(f) with the digits fastjson 1.2.69's
// RyuDouble prints (JSON.toJSONString of a double, matched on 200,000
// random doubles, subnormals included): "NaN", "Infinity", "-Infinity",
// "0.0", "-0.0"; plain notation with at least one fraction digit for
// 1e-3 <= |f| < 1e7 ("1.0", "0.5", "123.456", "0.001"); otherwise
// computerized scientific notation with at least two significant digits
// ("1.0E7", "1.234E-5"). The digits are the shortest that round-trip; where
// that is a single digit d, scientific notation shows two: "d.0" for a
// normal number, and for a subnormal the two digits at the scale of the
// rounding interval's upper bound (Double.MIN_VALUE is "4.9E-324",
// 2×MIN_VALUE "1.0E-323").
//
// Java versions differ. OpenJDK 17, which the tests run, agrees except that
// for about 1% of random doubles it prints a digit or two more than the
// shortest (JDK-4511638: 1e23 is "9.999999999999999E22" there, "1.0E23"
// here); JDK 19 and later print the shortest digits as here, but pick the
// closest two-digit decimal for a one-digit subnormal ("9.9E-324" for
// 2×MIN_VALUE). We follow fastjson because it is what reaches the wire and
// the JSON files; no 4.9.8 header or config field is a double.
func FormatDouble(f float64) string {
	var buf [32]byte
	return string(AppendDouble(buf[:0], f))
}

// AppendDouble appends FormatDouble(f) to dst.
func AppendDouble(dst []byte, f float64) []byte { return appendFloating(dst, f, 64) }

// FormatFloat is Float.toString(f) with fastjson 1.2.69's RyuFloat digits,
// laid out as FormatDouble. Java 17 prints more digits for some floats
// (2147483648f is "2.14748365E9" there, "2.1474836E9" here) and other
// two-digit subnormals (7×MIN_VALUE: "9.8E-45" there, "1.0E-44" here).
func FormatFloat(f float32) string {
	var buf [32]byte
	return string(AppendFloat(buf[:0], f))
}

// AppendFloat appends FormatFloat(f) to dst.
func AppendFloat(dst []byte, f float32) []byte { return appendFloating(dst, float64(f), 32) }

// appendFloating appends f, a float64 or (bits 32) a float32, as Java does.
func appendFloating(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0 && math.Signbit(f):
		return append(dst, "-0.0"...)
	case f == 0:
		return append(dst, "0.0"...)
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var buf [32]byte
	digits, exp := shortestDigits(buf[:0], f, bits)
	if exp >= -3 && exp < 7 {
		return appendPlain(dst, digits, exp)
	}
	if len(digits) == 1 {
		digits, exp = twoDigits(digits, exp, f, bits)
	}
	dst = append(dst, digits[0], '.')
	dst = append(dst, digits[1:]...)
	dst = append(dst, 'E')
	return strconv.AppendInt(dst, int64(exp), 10)
}

// shortestDigits returns the shortest significant digits that round-trip
// positive f (no point, no trailing zeros) and the decimal exponent of the
// first one; buf is their storage.
func shortestDigits(buf []byte, f float64, bits int) ([]byte, int) {
	e := strconv.AppendFloat(buf, f, 'e', -1, bits) // d[.ddd]e±xx
	i := len(e) - 1
	for e[i] != 'e' {
		i--
	}
	exp := 0
	for _, c := range e[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[i+1] == '-' {
		exp = -exp
	}
	digits := e[:i]
	if len(digits) > 1 { // drop the point: d.ddd -> dddd
		digits = append(digits[:1], digits[2:]...)
	}
	return digits, exp
}

// appendPlain lays digits (the first at 10^exp) out as d.ddd with at least
// one digit after the point.
func appendPlain(dst, digits []byte, exp int) []byte {
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := -1; i > exp; i-- {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	for i := 0; i <= exp; i++ {
		if i < len(digits) {
			dst = append(dst, digits[i])
		} else {
			dst = append(dst, '0')
		}
	}
	dst = append(dst, '.')
	if exp+1 < len(digits) {
		return append(dst, digits[exp+1:]...)
	}
	return append(dst, '0')
}

// twoDigits returns the two significant digits Java and fastjson's Ryu
// print in E notation when the single digit d (at 10^exp) would round-trip.
// Both stop shortening at two digits counted from the decimal exponent of
// the rounding interval's upper bound dp = f + ulp/2, and round f half-up
// at that scale. For a normal number that is d followed by "0"; subnormals
// differ: 4.9E-324 (not 5.0E-324), 1.0E-323 for 2×MIN_VALUE (not
// 9.9E-324).
func twoDigits(d []byte, exp int, f float64, bits int) ([]byte, int) {
	next := math.Nextafter(f, math.Inf(1))
	minNormal := 0x1p-1022
	if bits == 32 {
		next = float64(math.Nextafter32(float32(f), float32(math.Inf(1))))
		minNormal = 0x1p-126
	}
	if f >= minNormal {
		return append(d, '0'), exp
	}
	v := new(big.Rat).SetFloat64(f)
	half := new(big.Rat).SetFloat64(next - f) // exact: adjacent floats
	half.Quo(half, big.NewRat(2, 1))
	dp := new(big.Rat).Add(v, half)
	x := exp
	for pow10(x).Cmp(dp) > 0 {
		x--
	}
	for pow10(x+1).Cmp(dp) <= 0 {
		x++
	}
	q := new(big.Rat).Quo(v, pow10(x-1))
	q.Add(q, big.NewRat(1, 2))
	n := new(big.Int).Quo(q.Num(), q.Denom()) // floor(f/10^(x-1) + 1/2)
	return n.Append(d[:0], 10), x
}

func pow10(n int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, -n))), nil)
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}
