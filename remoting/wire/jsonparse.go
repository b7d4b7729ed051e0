package wire

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// jsonParser is a small, non-recursive JSON reader for the remoting header
// with a sticky error: after the first error every method is a no-op, so
// no input can make it index out of range or recurse without bound.
type jsonParser struct {
	s       string
	i       int
	err     error
	first   bool   // no member read yet in the current object
	scratch []byte // unescaped strings; see unescape
}

// newJSONParser copies header once. When it has escapes, the copy is made
// twice as long: the second half receives unescaped strings, which are
// never longer than their escaped form, so it never has to grow.
func newJSONParser(header []byte) jsonParser {
	if len(header) == 0 {
		return jsonParser{}
	}
	size := len(header)
	hasEscapes := bytes.IndexByte(header, '\\') >= 0
	if hasEscapes {
		size *= 2
	}
	buf := make([]byte, len(header), size)
	copy(buf, header)
	p := jsonParser{s: unsafe.String(&buf[0], len(header))}
	if hasEscapes {
		p.scratch = buf[len(header):len(header)]
	}
	return p
}

func (p *jsonParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = malformed("json header at byte %d: "+format, append([]any{p.i}, args...)...)
	}
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r', '\f', '\b':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) peek() byte {
	p.ws()
	if p.i >= len(p.s) {
		p.fail("unexpected end")
		return 0
	}
	return p.s[p.i]
}

func (p *jsonParser) expect(b byte) {
	if p.peek() != b {
		p.fail("expected %q", b)
		return
	}
	p.i++
}

// objectStart consumes '{'; iterate members with nextMember. An
// iterator rather than a callback keeps the parser on the stack.
func (p *jsonParser) objectStart() {
	p.expect('{')
	p.first = true
}

// nextMember returns the next key, having consumed it and its ':', or false
// at the closing '}' (consumed) or on error. The caller consumes the value.
func (p *jsonParser) nextMember() (string, bool) {
	if p.err != nil {
		return "", false
	}
	switch c := p.peek(); {
	case c == '}':
		p.i++
		return "", false
	case !p.first && c == ',':
		p.i++
		if p.peek() == '}' { // fastjson tolerates a trailing comma
			p.i++
			return "", false
		}
	case !p.first:
		p.fail("expected ',' or '}'")
		return "", false
	}
	p.first = false
	key := p.key()
	p.expect(':')
	return key, p.err == nil
}

// key reads a quoted key or, as fastjson allows, a bare identifier.
func (p *jsonParser) key() string {
	switch c := p.peek(); c {
	case '"', '\'':
		return p.quoted()
	default:
		start := p.i
		for p.i < len(p.s) && isIdentByte(p.s[p.i]) {
			p.i++
		}
		if p.i == start {
			p.fail("expected a key")
		}
		return p.s[start:p.i]
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// quoted reads a string in double or single quotes and unescapes it.
func (p *jsonParser) quoted() string {
	q := p.s[p.i]
	p.i++
	start := p.i
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case q:
			v := p.s[start:p.i]
			p.i++
			return v
		case '\\':
			return p.unescape(q, start)
		}
		p.i++
	}
	p.fail("unterminated string")
	return ""
}

// unescape continues quoted() once a backslash is found. The unescaped
// bytes go to p.scratch, which newJSONParser sized so that it never grows;
// each string is made from scratch bytes that are final and never written
// again, so all strings of a header share one allocation.
func (p *jsonParser) unescape(q byte, start int) string {
	from := len(p.scratch)
	p.scratch = append(p.scratch, p.s[start:p.i]...)
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == q {
			p.i++
			return p.scratchString(from)
		}
		if c != '\\' {
			p.scratch = append(p.scratch, c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			break
		}
		p.escape()
		if p.err != nil {
			return ""
		}
	}
	p.fail("unterminated string")
	return ""
}

// escape appends the character of the escape sequence at p.i.
func (p *jsonParser) escape() {
	e := p.s[p.i]
	p.i++
	switch e {
	case 'b':
		p.scratch = append(p.scratch, '\b')
	case 'f':
		p.scratch = append(p.scratch, '\f')
	case 'n':
		p.scratch = append(p.scratch, '\n')
	case 'r':
		p.scratch = append(p.scratch, '\r')
	case 't':
		p.scratch = append(p.scratch, '\t')
	case 'u':
		p.scratch = utf8.AppendRune(p.scratch, p.unicodeEscape())
	case 'x': // fastjson accepts \xHH
		p.scratch = append(p.scratch, byte(p.hex(2)))
	default: // \" \\ \/ \' and anything else stand for themselves
		p.scratch = append(p.scratch, e)
	}
}

// scratchString returns scratch[from:] as a string without copying; those
// bytes are never modified afterwards (later appends go past them).
func (p *jsonParser) scratchString(from int) string {
	n := len(p.scratch) - from
	if n == 0 {
		return ""
	}
	return unsafe.String(&p.scratch[from], n)
}

func (p *jsonParser) hex(n int) rune {
	if len(p.s)-p.i < n {
		p.fail("short hex escape")
		return 0
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
	if err != nil {
		p.fail("bad hex escape %q", p.s[p.i:p.i+n])
		return 0
	}
	p.i += n
	return rune(v)
}

// unicodeEscape reads XXXX after \u, joining a surrogate pair.
func (p *jsonParser) unicodeEscape() rune {
	r := p.hex(4)
	if !utf16.IsSurrogate(r) {
		return r
	}
	if len(p.s)-p.i >= 6 && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
		save := p.i
		p.i += 2
		if r2 := p.hex(4); utf16.DecodeRune(r, r2) != utf8.RuneError {
			return utf16.DecodeRune(r, r2)
		}
		p.i = save
	}
	return utf8.RuneError
}

// scalar reads a string, number, true/false or null and returns its text;
// null reports false. Objects and arrays are returned as raw JSON text.
func (p *jsonParser) scalar() (string, bool) {
	switch c := p.peek(); {
	case p.err != nil:
		return "", false
	case c == '"' || c == '\'':
		return p.quoted(), true
	case c == '{' || c == '[':
		start := p.i
		p.skipValue()
		return p.s[start:p.i], true
	default:
		start := p.i
		for p.i < len(p.s) && isScalarByte(p.s[p.i]) {
			p.i++
		}
		v := p.s[start:p.i]
		if v == "" {
			p.fail("expected a value")
		}
		return v, v != "null"
	}
}

func isScalarByte(b byte) bool {
	return b == '-' || b == '+' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// skipValue skips one value of any type without recursion.
func (p *jsonParser) skipValue() {
	depth := 0
	for p.err == nil {
		switch c := p.peek(); c {
		case '{', '[':
			depth++
			p.i++
			continue
		case '}', ']':
			depth--
			p.i++
		case ',', ':':
			p.i++
			continue
		case '"', '\'':
			p.quoted()
		default:
			if p.err == nil {
				p.scalar()
			}
		}
		if depth <= 0 {
			if depth < 0 {
				p.fail("unbalanced brackets")
			}
			return
		}
	}
}

// int32Value reads an int field; fastjson also takes a quoted number, and
// null leaves the Java default 0.
func (p *jsonParser) int32Value(key string) int32 {
	v, ok := p.scalar()
	if !ok || p.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		p.fail("field %s: %q is not an int", key, v)
	}
	return int32(n)
}

// language reads the enum name, or a numeric code as fastjson allows.
func (p *jsonParser) language() LanguageCode {
	v, ok := p.scalar()
	if !ok {
		return LanguageUnknown
	}
	if v == "" || v[0] < '0' || v[0] > '9' {
		return ParseLanguage(v)
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < len(languageNames) {
			return LanguageCode(n)
		}
		return LanguageUnknown
	}
	return ParseLanguage(v)
}

// extFields reads the ext map; null values are absent, as in Java.
func (p *jsonParser) extFields(c *Command) {
	if p.peek() == 'n' {
		p.scalar()
		return
	}
	p.objectStart()
	for key, ok := p.nextMember(); ok; key, ok = p.nextMember() {
		if v, ok := p.scalar(); ok {
			c.SetExt(key, v) // HashMap.put: the last duplicate wins
		}
	}
	p.first = false // back in the enclosing object, past a member
}
