package acl

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// splitJava is commons-lang StringUtils.split(s, sep) for a one-character
// separator: runs of separators count as one and empty tokens are dropped.
func splitJava(s string, sep byte) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == rune(sep) })
}

// trimJava is String.trim: it strips every character up to ' ' from both ends.
func trimJava(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// isBlankJava is StringUtils.isBlank for a non-null string.
func isBlankJava(s string) bool {
	return strings.TrimFunc(s, isJavaWhitespace) == ""
}

// isJavaWhitespace approximates Character.isWhitespace for the characters
// that can appear in a configuration value.
func isJavaWhitespace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	}
	return false
}

// parseIntJava is Integer.parseInt(s, base) for ASCII digits: an optional
// sign, at least one digit, the value within int32.
func parseIntJava(s string, base int) (int, error) {
	v, err := strconv.ParseInt(s, base, 32)
	if err != nil {
		return 0, err
	}
	return int(v), nil
}

// javaLen is String.length: the number of UTF-16 code units.
func javaLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// compareJava orders strings as String.compareTo does, by UTF-16 code units.
func compareJava(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
