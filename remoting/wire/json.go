package wire

import (
	"strconv"
	"unicode/utf8"
)

// JSON header (SerializeType 0). Java writes it with fastjson: fields in
// alphabetical order, nulls omitted, enums by name, extFields as a map of
// strings:
//
//	{"code":10,"extFields":{"k":"v"},"flag":0,"language":"JAVA","opaque":1,
//	 "remark":"r","serializeTypeCurrentRPC":"JSON","version":409}
//
// The encoder writes exactly that shape. The decoder accepts what Java,
// client-go (which also writes "remark":"" and "extFields":{}) and other 4.x
// clients send, and what fastjson itself would parse: keys in any order,
// unknown keys of any type, whitespace, single-quoted strings, unquoted
// keys, numbers written as strings, null for absent, and non-string ext
// values (taken as their JSON text, as fastjson converts them).

// appendJSONHeader mirrors RemotingSerializable.encode(RemotingCommand).
func appendJSONHeader(dst []byte, c *Command) []byte {
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(c.Code), 10)
	if len(c.Ext) > 0 {
		dst = append(dst, `,"extFields":{`...)
		var buf [extOrderInline]int
		order := extOrder(c, false, buf[:0])
		for i := range c.Ext {
			if i > 0 {
				dst = append(dst, ',')
			}
			f := &c.Ext[i]
			if order != nil {
				f = &c.Ext[order[i]]
			}
			dst = AppendFastjsonString(dst, f.Key)
			dst = append(dst, ':')
			dst = AppendFastjsonString(dst, f.Value)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `,"flag":`...)
	dst = strconv.AppendInt(dst, int64(c.Flag), 10)
	if c.Language.Known() {
		dst = append(dst, `,"language":"`...)
		dst = append(dst, languageNames[c.Language]...)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"opaque":`...)
	dst = strconv.AppendInt(dst, int64(c.Opaque), 10)
	if c.Remark != "" {
		dst = append(dst, `,"remark":`...)
		dst = AppendFastjsonString(dst, c.Remark)
	}
	dst = append(dst, `,"serializeTypeCurrentRPC":"JSON","version":`...)
	dst = strconv.AppendInt(dst, int64(c.Version), 10)
	return append(dst, '}')
}

// AppendFastjsonString appends s as a quoted JSON string, escaped the way
// fastjson 1.2.69's SerializeWriter (writeStringWithDoubleQuote) escapes
// without extra serializer features, which is how Java writes the JSON
// header and RemotingSerializable bodies: the short escapes \" \\ \b \f \n
// \r \t, \u00XX (upper-case hex) for the other C0 controls, DEL and the C1
// controls U+0080..U+009F, \u2028 and \u2029 (both invalid in JavaScript
// strings); everything else, '/' included, as raw UTF-8. Bytes that are not
// valid UTF-8 are copied as they are, so a header read off the wire is
// written back unchanged. Pinned byte for byte against Java in
// compat/sputnik_frames_test.go. (fastjson's BrowserCompatible feature
// escapes more; compat/fastjson has that mode.)
func AppendFastjsonString(dst []byte, s string) []byte {
	return appendFastjsonString(dst, s, false)
}

// AppendFastjsonJavaString is AppendFastjsonString for text that stands for
// a Java String, which cannot hold malformed UTF-8: each byte that does not
// start a valid sequence is written as U+FFFD (as ranging over s yields it).
func AppendFastjsonJavaString(dst []byte, s string) []byte {
	return appendFastjsonString(dst, s, true)
}

func appendFastjsonString(dst []byte, s string, replaceInvalid bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		var code uint16 // the \uXXXX to write when there is no short escape
		n := 1          // the bytes of s the escape stands for
		switch {
		case b >= 0x20 && b < 0x7F && b != '"' && b != '\\':
			continue
		case b < utf8.RuneSelf:
			code = uint16(b)
		case b == 0xC2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9F: // C1 control
			code, n = uint16(s[i+1]), 2
		case b == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			code, n = 0x2000|uint16(s[i+2]-0x80), 3 // E2 80 A8 is U+2028, E2 80 A9 U+2029
		case !replaceInvalid:
			continue
		default:
			if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size > 1 {
				i += size - 1 // a valid sequence, written raw
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, string(utf8.RuneError)...)
			start = i + 1
			continue
		}
		dst = append(dst, s[start:i]...)
		if code < utf8.RuneSelf && shortEscape[code] != 0 {
			dst = append(dst, '\\', shortEscape[code])
		} else {
			dst = append(dst, '\\', 'u', hexDigits[code>>12], hexDigits[code>>8&0xF], hexDigits[code>>4&0xF], hexDigits[code&0xF])
		}
		i += n - 1
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789ABCDEF"

// shortEscape holds the two-char escapes SerializeWriter uses (by the char
// after the backslash).
var shortEscape = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// decodeJSONHeader parses a JSON header into c; strings that need no
// unescaping are substrings of one copy of the header.
func decodeJSONHeader(c *Command, header []byte) error {
	p := newJSONParser(header)
	p.objectStart()
	for key, ok := p.nextMember(); ok; key, ok = p.nextMember() {
		switch key {
		case "code":
			c.Code = p.int32Value(key)
		case "flag":
			c.Flag = p.int32Value(key)
		case "opaque":
			c.Opaque = p.int32Value(key)
		case "version":
			c.Version = p.int32Value(key)
		case "language":
			c.Language = p.language()
		case "remark":
			if v, ok := p.scalar(); ok {
				c.Remark = v
			}
		case "extFields":
			p.extFields(c)
		default:
			p.skipValue()
		}
	}
	if p.err == nil {
		p.ws()
		if p.i != len(p.s) {
			p.fail("trailing data after header object")
		}
	}
	return p.err
}
