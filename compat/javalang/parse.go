package javalang

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// NumberFormatError is Java's NumberFormatException. Error returns the
// exception's message (Throwable.getMessage), which RocketMQ puts in
// remarks: `For input string: "x"` for every parser, and for ParseDouble and
// ParseFloat also "empty String" (nothing left after trimming) and
// "multiple points".
type NumberFormatError struct {
	Msg string
}

func (e *NumberFormatError) Error() string { return e.Msg }

// forInputString is NumberFormatException.forInputString(s, 10).
func forInputString(s string) error {
	return &NumberFormatError{Msg: `For input string: "` + s + `"`}
}

// ParseInt is Integer.parseInt(s): an optional '+' or '-', then one or more
// decimal digits of any script (Character.digit(ch, 10): Unicode category
// Nd, Basic Multilingual Plane only, so U+0661 is 1 and U+FF15 is 5), no
// blanks, and the value must fit an int. Up to nine ASCII digits take an
// allocation-free fast path; an error is the only allocation.
func ParseInt(s string) (int32, error) {
	if n := len(s); n > 0 && n < 10 { // up to 9 ASCII digits cannot overflow
		if v, ok, done := parseShort(s); done {
			return int32(v), checked(ok, s)
		}
	}
	v, ok := parseInteger(s, math.MaxInt32)
	return int32(v), checked(ok, s)
}

// ParseLong is Long.parseLong(s), with the rules of ParseInt for a long.
func ParseLong(s string) (int64, error) {
	if n := len(s); n > 0 && n < 19 { // up to 18 ASCII digits cannot overflow
		if v, ok, done := parseShort(s); done {
			return v, checked(ok, s)
		}
	}
	v, ok := parseInteger(s, math.MaxInt64)
	return v, checked(ok, s)
}

func checked(ok bool, s string) error {
	if ok {
		return nil
	}
	return forInputString(s)
}

// parseShort parses a sign and ASCII digits too few to overflow; done is
// false when s holds another byte, which the general parser must judge.
func parseShort(s string) (v int64, ok, done bool) {
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i = 1
	}
	if i == len(s) {
		return 0, false, true // a sign alone
	}
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false, false
		}
		v = v*10 + int64(c)
	}
	if s[0] == '-' {
		v = -v
	}
	return v, true, true
}

// parseInteger parses s like parseInt/parseLong for a type whose largest
// value is max (the smallest is -max-1).
func parseInteger(s string, max uint64) (int64, bool) {
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
		d := digit(r)
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

// digit is Character.digit(ch, 10) for one char of a Java string: the
// value of a decimal digit of any script (category Nd), else -1.
func digit(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < utf8.RuneSelf || r > 0xFFFF || r == utf8.RuneError || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	// Unicode assigns decimal digits in runs of ten, 0 to 9, and the
	// table's ranges start at a zero (checked by TestDigitTable).
	for _, rg := range unicode.Nd.R16 {
		if uint16(r) >= rg.Lo && uint16(r) <= rg.Hi {
			return int(uint16(r)-rg.Lo) % 10
		}
	}
	return -1
}

// ParseBool is Boolean.parseBoolean(s): "true" in any case is true,
// anything else false; it never fails.
func ParseBool(s string) bool {
	return len(s) == 4 && s[0]|0x20 == 't' && s[1]|0x20 == 'r' && s[2]|0x20 == 'u' && s[3]|0x20 == 'e'
}
