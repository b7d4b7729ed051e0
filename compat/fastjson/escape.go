package fastjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

const upperHex = "0123456789ABCDEF"

// AppendString appends s as a quoted JSON string escaped the way fastjson
// 1.2.69's SerializeWriter escapes in the given mode (Compact and Pretty
// escape alike; Standard is BrowserCompatible). Invalid UTF-8 is written as
// U+FFFD, the char Java would have decoded it to.
func AppendString(dst []byte, s string, mode Mode) []byte {
	dst = append(dst, '"')
	if mode == Standard {
		dst = appendBrowserCompatible(dst, s)
	} else {
		dst = appendDefaultEscaped(dst, s)
	}
	return append(dst, '"')
}

// shortEscape holds the two-char escapes shared by both modes.
var shortEscape = [256]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// appendDefaultEscaped: \" \\ \b \f \n \r \t, \u00XX for the other C0
// controls, DEL and the C1 controls, \u2028 and \u2029; the rest raw.
func appendDefaultEscaped(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x7F {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		n := 1
		switch {
		case shortEscape[c] != 0:
			dst = append(dst, '\\', shortEscape[c])
		case c < utf8.RuneSelf: // other C0 and DEL
			dst = appendU(dst, uint16(c))
		default:
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				dst = append(dst, "\uFFFD"...)
			case r <= 0x9F || r == 0x2028 || r == 0x2029:
				dst = appendU(dst, uint16(r))
			default:
				dst = append(dst, s[i:i+n]...)
			}
		}
		i += n
		start = i
	}
	return append(dst, s[start:]...)
}

// appendBrowserCompatible: \" \\ \/ \b \f \n \r \t, \u00XX for the other C0
// controls, \uXXXX (surrogate pairs above the BMP) for everything from DEL
// up.
func appendBrowserCompatible(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != '/' && c < 0x7F {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		n := 1
		switch {
		case c == '/':
			dst = append(dst, '\\', '/')
		case shortEscape[c] != 0:
			dst = append(dst, '\\', shortEscape[c])
		case c < utf8.RuneSelf:
			dst = appendU(dst, uint16(c))
		default:
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			dst = appendRuneEscape(dst, r)
		}
		i += n
		start = i
	}
	return append(dst, s[start:]...)
}

func appendRuneEscape(dst []byte, r rune) []byte {
	if r < 0x10000 {
		return appendU(dst, uint16(r))
	}
	hi, lo := utf16.EncodeRune(r)
	return appendU(appendU(dst, uint16(hi)), uint16(lo))
}

func appendU(dst []byte, u uint16) []byte {
	return append(dst, '\\', 'u', upperHex[u>>12], upperHex[u>>8&0xF], upperHex[u>>4&0xF], upperHex[u&0xF])
}
