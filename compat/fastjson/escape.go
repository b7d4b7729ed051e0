package fastjson

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sputnikmq/sputnik/remoting/wire"
)

// AppendString appends s as a quoted JSON string escaped the way fastjson
// 1.2.69's SerializeWriter escapes in the given mode: Compact and Pretty
// escape alike, as the remoting JSON header does
// (wire.AppendFastjsonJavaString); Standard is BrowserCompatible. Each byte
// of s that is not valid UTF-8 is written as U+FFFD, the char a Java String
// holds in its place.
func AppendString(dst []byte, s string, mode Mode) []byte {
	if mode != Standard {
		return wire.AppendFastjsonJavaString(dst, s)
	}
	dst = append(dst, '"')
	dst = appendBrowserCompatible(dst, s)
	return append(dst, '"')
}

const upperHex = "0123456789ABCDEF"

// shortEscape holds BrowserCompatible's two-char escapes.
var shortEscape = [256]byte{'"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

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
