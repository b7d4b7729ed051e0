package javalang

import (
	"errors"
	"math"
	"strconv"
)

// ParseDouble is Double.parseDouble(s) (FloatingDecimal.
// readJavaFormatString): chars <= ' ' are trimmed from both ends (as
// String.trim); then an optional sign and "NaN", "Infinity", a decimal
// number (ASCII digits with at most one '.', at least one digit, an
// optional exponent e/E with an optional sign and at least one digit) or a
// hexadecimal one (0x/0X, hex digits with at most one '.', a mandatory p/P
// binary exponent), the numbers optionally followed by one of f, F, d, D.
// The result is correctly rounded; overflow gives ±Infinity, underflow ±0.
//
// The error's message is Java's: "empty String" when nothing is left after
// trimming, "multiple points" for a second '.' in a decimal mantissa, else
// `For input string: "t"` with t the trimmed text.
func ParseDouble(s string) (float64, error) {
	return parseFloating(s, 64)
}

// ParseFloat is Float.parseFloat(s): the syntax and messages of
// ParseDouble, the value rounded once, straight to the nearest float.
func ParseFloat(s string) (float32, error) {
	f, err := parseFloating(s, 32)
	return float32(f), err
}

func parseFloating(s string, bits int) (float64, error) {
	t := trim(s)
	if t == "" {
		return 0, &NumberFormatError{Msg: "empty String"}
	}
	body := t
	if t[0] == '+' || t[0] == '-' {
		body = t[1:]
	}
	switch {
	case body == "NaN":
		return math.NaN(), nil
	case body == "Infinity":
		if t[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case len(body) > 1 && body[0] == '0' && body[1]|0x20 == 'x':
		if !isHexFloat(body[2:]) {
			return 0, forInputString(t)
		}
	default:
		if msg := checkDecimal(body); msg != "" {
			if msg == msgMultiplePoints {
				return 0, &NumberFormatError{Msg: msg}
			}
			return 0, forInputString(t)
		}
	}
	if c := t[len(t)-1]; c|0x20 == 'f' || c|0x20 == 'd' {
		t = t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, forInputString(t) // cannot happen for a string that passed the checks
	}
	return v, nil
}

// trim is String.trim: it drops chars <= ' ' at both ends.
func trim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

const (
	msgMultiplePoints = "multiple points"
	msgBad            = "bad"
)

// checkDecimal checks an unsigned decimal number with an optional f/F/d/D
// suffix in the order Java reads it: "" when valid, msgMultiplePoints for a
// second '.' among the mantissa digits (Java throws at once), msgBad
// otherwise.
func checkDecimal(s string) string {
	digits, points, i := 0, 0, 0
mantissa:
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
		case c == '.':
			if points++; points > 1 {
				return msgMultiplePoints
			}
		default:
			break mantissa
		}
	}
	if digits == 0 {
		return msgBad
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		n, ok := exponent(s[i+1:])
		if !ok {
			return msgBad
		}
		i += 1 + n
	}
	if !suffixOnly(s[i:]) {
		return msgBad
	}
	return ""
}

// isHexFloat checks the part after "0x" of a hexadecimal number: hex
// digits with at most one '.', at least one digit, p/P and an exponent.
func isHexFloat(s string) bool {
	digits, points, i := 0, 0, 0
	for ; i < len(s); i++ {
		c := s[i]
		if isHexDigit(c) {
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
	n, ok := exponent(s[i+1:])
	return ok && suffixOnly(s[i+1+n:])
}

// exponent reads an optionally signed run of decimal digits at the start
// of s and returns its length; ok is false when there is no digit.
func exponent(s string) (n int, ok bool) {
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		n++
	}
	start := n
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n, n > start
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// suffixOnly accepts "" or one float type suffix (f, F, d, D).
func suffixOnly(s string) bool {
	return s == "" || len(s) == 1 && (s[0]|0x20 == 'f' || s[0]|0x20 == 'd')
}
