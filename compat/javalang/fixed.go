package javalang

import "math"

// FormatFixed is String.format("%.<prec>f", f) in an English locale: the
// digits Double.toString would print, rounded half-up at prec places after
// the point (so 1.005 is "1.01" and 0.125 is "0.13", where a correctly
// rounded binary value would give "1.00" and "0.12"), no grouping, the sign
// kept on a negative value that rounds to zero ("-0.00"), "NaN" and
// "Infinity" as they are. prec below 0 counts as 0.
func FormatFixed(f float64, prec int) string {
	prec = max(prec, 0)
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	var out []byte
	if math.Signbit(f) {
		out = append(out, '-')
		f = -f
	}
	var buf [32]byte
	digits, exp := []byte{'0'}, 0
	if f != 0 {
		digits, exp = shortestDigits(buf[:0], f, 64)
	}
	digits, exp = roundHalfUp(digits, exp, exp+1+prec)
	return string(appendFixed(out, digits, exp, prec))
}

// roundHalfUp keeps the first keep significant digits (the first at
// 10^exp), adding one to the last kept when the next is 5 or more; a carry
// out of the first digit raises exp. Nothing kept rounds to "0" or, when
// the first dropped digit is the one at the cut and is 5 or more, to a
// single 1 at the cut.
func roundHalfUp(digits []byte, exp, keep int) ([]byte, int) {
	switch {
	case keep >= len(digits):
		return digits, exp
	case keep < 0:
		return []byte{'0'}, 0
	case keep == 0:
		if digits[0] >= '5' {
			return []byte{'1'}, exp + 1
		}
		return []byte{'0'}, 0
	}
	up := digits[keep] >= '5'
	digits = digits[:keep]
	for i := keep - 1; up && i >= 0; i-- {
		if digits[i] < '9' {
			digits[i]++
			up = false
		} else {
			digits[i] = '0'
		}
	}
	if up {
		digits = append([]byte{'1'}, digits...)
		exp++
	}
	return digits, exp
}

// appendFixed lays digits (the first at 10^exp) out with prec digits after
// the point, padding with zeros.
func appendFixed(dst, digits []byte, exp, prec int) []byte {
	at := func(pos int) byte { // the digit at 10^pos
		if i := exp - pos; i >= 0 && i < len(digits) {
			return digits[i]
		}
		return '0'
	}
	for pos := max(exp, 0); pos >= 0; pos-- {
		dst = append(dst, at(pos))
	}
	if prec > 0 {
		dst = append(dst, '.')
		for pos := -1; pos >= -prec; pos-- {
			dst = append(dst, at(pos))
		}
	}
	return dst
}
