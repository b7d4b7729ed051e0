package javalang

import "unicode/utf8"

// DecodeUTF8 converts b the way Java's new String(b, UTF_8) does and
// returns the result as (valid) UTF-8. Valid input comes back unchanged;
// each malformed sequence becomes one U+FFFD, where Java's decoder decides
// how many bytes a malformed sequence spans: the longest prefix of a
// well-formed sequence (so "E2 82 41" is U+FFFD "A", Go's []rune(string)
// gives two U+FFFD), an encoded surrogate as a whole ("ED A0 80": one
// U+FFFD, not three), every other bad byte alone.
func DecodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, "\uFFFD"...)
		i += malformedLen(b[i:])
	}
	return string(out)
}

func isCont(c byte) bool { return c&0xC0 == 0x80 }

// malformedLen returns how many bytes Java's UTF-8 decoder replaces with one
// U+FFFD at the start of b, which does not begin a valid sequence.
func malformedLen(b []byte) int {
	switch b1 := b[0]; {
	case b1 >= 0xE0 && b1 <= 0xEF:
		return malformed3(b)
	case b1 >= 0xF0 && b1 <= 0xF4:
		return malformed4(b)
	}
	return 1 // continuation bytes, C0/C1, F5-FF, a C2-DF lead before a non-continuation
}

func malformed3(b []byte) int {
	if len(b) < 2 || b[0] == 0xE0 && b[1]&0xE0 == 0x80 || !isCont(b[1]) {
		return 1
	}
	if len(b) < 3 || !isCont(b[2]) {
		return 2
	}
	return 3 // ED A0..BF xx: an encoded surrogate
}

func malformed4(b []byte) int {
	if len(b) < 2 || !isCont(b[1]) ||
		b[0] == 0xF0 && (b[1] < 0x90 || b[1] > 0xBF) ||
		b[0] == 0xF4 && b[1]&0xF0 != 0x80 {
		return 1
	}
	if len(b) < 3 || !isCont(b[2]) {
		return 2
	}
	return 3
}
