package wire

import (
	"strconv"
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
		for i, f := range c.Ext {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, f.Key)
			dst = append(dst, ':')
			dst = appendJSONString(dst, f.Value)
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
		dst = appendJSONString(dst, c.Remark)
	}
	dst = append(dst, `,"serializeTypeCurrentRPC":"JSON","version":`...)
	dst = strconv.AppendInt(dst, int64(c.Version), 10)
	return append(dst, '}')
}

const hexDigits = "0123456789ABCDEF"

// appendJSONString quotes s the way fastjson's SerializeWriter does without
// extra features: short escapes for \b \t \n \f \r " \, \uXXXX for the other
// C0 controls, DEL, the C1 controls and U+2028/U+2029; everything else as
// UTF-8. Pinned against Java in compat/sputnik_frames_test.go.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		var esc string
		var code rune = -1
		switch {
		case b == '"':
			esc = `\"`
		case b == '\\':
			esc = `\\`
		case b == '\b':
			esc = `\b`
		case b == '\t':
			esc = `\t`
		case b == '\n':
			esc = `\n`
		case b == '\f':
			esc = `\f`
		case b == '\r':
			esc = `\r`
		case b < 0x20 || b == 0x7F:
			code = rune(b)
		case b == 0xC2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9F:
			code = rune(s[i+1])
		case b == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			esc = `\u2028`
			if s[i+2] == 0xA9 {
				esc = `\u2029`
			}
			i += 2
			dst = append(dst, s[start:i-2]...)
			dst = append(dst, esc...)
			start = i + 1
			continue
		default:
			continue
		}
		dst = append(dst, s[start:i]...)
		if code >= 0 {
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[code>>4], hexDigits[code&0xF])
			if code >= 0x80 {
				i++
			}
		} else {
			dst = append(dst, esc...)
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

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
