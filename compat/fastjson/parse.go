package fastjson

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// MaxDepth is the deepest nesting of arrays and objects (object keys
// included) that Parse accepts.
const MaxDepth = 512

// Errors returned by Parse, wrapped in a *SyntaxError carrying the offset.
var (
	ErrSyntax = errors.New("fastjson: syntax error")
	ErrDepth  = fmt.Errorf("fastjson: nesting deeper than %d", MaxDepth)
)

// SyntaxError is a Parse failure at byte Offset of the input.
type SyntaxError struct {
	Offset int
	Msg    string
	err    error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("fastjson: %s at offset %d", e.Msg, e.Offset)
}

func (e *SyntaxError) Unwrap() error { return e.err }

// Parse reads one JSON value as fastjson's DefaultJSONParser accepts it (see
// the package doc); only blanks and comments may follow it. Strings without
// escapes share one copy of data, so holding any of them keeps that copy
// alive.
func Parse(data []byte) (Value, error) {
	p := parser{src: string(data)} // one copy: plain strings become substrings
	p.skipSpace()
	if p.pos == len(p.src) {
		p.fail("empty input")
		return Value{}, p.err
	}
	v := p.value(0)
	p.skipSpace()
	if p.err == nil && p.pos < len(p.src) {
		p.fail("data after the value")
	}
	if p.err != nil {
		return Value{}, p.err
	}
	return v, nil
}

type parser struct {
	src   string
	pos   int
	err   error
	stack []Value // children of the containers being parsed
	buf   []byte  // scratch for unescaping
}

func (p *parser) fail(msg string) {
	if p.err == nil {
		p.err = &SyntaxError{Offset: p.pos, Msg: msg, err: ErrSyntax}
	}
}

func (p *parser) failf(format string, args ...any) { p.fail(fmt.Sprintf(format, args...)) }

// skipSpace skips fastjson's blanks (space \t \n \r \f \b) and comments.
func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\b':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			end := strings.Index(p.src[p.pos+2:], "*/")
			if end < 0 {
				p.fail("unclosed comment")
				p.pos = len(p.src)
				return
			}
			p.pos += 2 + end + 2
		default:
			return
		}
	}
}

// value parses the value at p.pos; depth counts the enclosing containers.
func (p *parser) value(depth int) Value {
	if p.err != nil {
		return Value{}
	}
	if p.pos >= len(p.src) {
		p.fail("unexpected end of input")
		return Value{}
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container(depth, Object)
	case c == '[':
		return p.container(depth, Array)
	case c == '"' || c == '\'':
		return p.str()
	case c == '-' || isDigit(c):
		return p.number()
	default:
		return p.word()
	}
}

// word parses true, false, null and fastjson's NaN / undefined (null).
func (p *parser) word() Value {
	for _, w := range [...]struct {
		text string
		v    Value
	}{{"true", MakeBool(true)}, {"false", MakeBool(false)}, {"null", MakeNull()}, {"NaN", MakeNull()}, {"undefined", MakeNull()}} {
		if hasPrefixAt(p.src, p.pos, w.text) && !isIdentPart(p.src, p.pos+len(w.text)) {
			p.pos += len(w.text)
			return w.v
		}
	}
	p.failf("unexpected %q", p.src[p.pos])
	return Value{}
}

func hasPrefixAt(s string, at int, prefix string) bool {
	return len(s)-at >= len(prefix) && s[at:at+len(prefix)] == prefix
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// container parses an object or array; members go through p.stack and are
// copied into one exactly sized slice at the end.
func (p *parser) container(depth int, kind Kind) Value {
	if depth >= MaxDepth {
		if p.err == nil {
			p.err = &SyntaxError{Offset: p.pos, Msg: ErrDepth.Error(), err: ErrDepth}
		}
		return Value{}
	}
	p.pos++ // '{' or '['
	base := len(p.stack)
	if kind == Object {
		p.members(depth + 1)
	} else {
		p.elements(depth + 1)
	}
	if p.err != nil {
		p.stack = p.stack[:base]
		return Value{}
	}
	kids := make([]Value, len(p.stack)-base)
	copy(kids, p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return Value{kind: kind, kids: kids}
}

// members parses "key:value" pairs up to and including the closing '}'.
// Extra commas are skipped (fastjson's AllowArbitraryCommas).
func (p *parser) members(depth int) {
	for p.err == nil {
		p.skipCommas()
		if p.pos >= len(p.src) {
			p.fail("unclosed object")
			return
		}
		if p.src[p.pos] == '}' {
			p.pos++
			return
		}
		key := p.key(depth)
		p.skipSpace()
		if p.err == nil && (p.pos >= len(p.src) || p.src[p.pos] != ':') {
			p.fail("expected ':'")
		}
		p.pos++
		p.skipSpace()
		val := p.value(depth)
		p.stack = append(p.stack, key, val)
		p.endOfItem('}')
	}
}

// elements parses array elements up to and including the closing ']'.
func (p *parser) elements(depth int) {
	for p.err == nil {
		p.skipCommas()
		if p.pos >= len(p.src) {
			p.fail("unclosed array")
			return
		}
		if p.src[p.pos] == ']' {
			p.pos++
			return
		}
		p.stack = append(p.stack, p.value(depth))
		p.endOfItem(']')
	}
}

func (p *parser) skipCommas() {
	p.skipSpace()
	for p.pos < len(p.src) && p.src[p.pos] == ',' {
		p.pos++
		p.skipSpace()
	}
}

// endOfItem checks that an item is followed by ',' or the closing char
// (left for the loop to consume).
func (p *parser) endOfItem(closing byte) {
	p.skipSpace()
	if p.err != nil {
		return
	}
	if p.pos >= len(p.src) || (p.src[p.pos] != ',' && p.src[p.pos] != closing) {
		p.failf("expected ',' or '%c'", closing)
	}
}

// key parses an object key: a string, number, object, array or an unquoted
// identifier (fastjson's AllowUnQuotedFieldNames).
func (p *parser) key(depth int) Value {
	c := p.src[p.pos]
	switch {
	case c == '"' || c == '\'' || c == '{' || c == '[' || c == '-' || isDigit(c):
		return p.value(depth)
	}
	start := p.pos
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	if !(r == '_' || r == '$' || isLetter(r) || r >= 0x100) {
		p.failf("illegal identifier %q", r)
		return Value{}
	}
	p.pos += n
	for isIdentPart(p.src, p.pos) {
		_, n := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += n
	}
	id := p.src[start:p.pos]
	if id == "null" {
		return MakeNull()
	}
	return MakeString(validUTF8(id))
}

func isLetter(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }

// isIdentPart reports whether s[i] starts a char fastjson allows after the
// first one of an unquoted key: letters, digits, '_' and any char >= U+0100.
func isIdentPart(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || isDigit(c) || isLetter(rune(c))
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r >= 0x100 // an invalid byte is U+FFFD to Java, which qualifies
}

// validUTF8 replaces malformed UTF-8 with U+FFFD as Java's decoding of the
// body does (javalang.DecodeUTF8). Malformed sequences never include an
// ASCII byte, so decoding a string or key on its own gives what decoding
// the whole body first would.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return javalang.DecodeUTF8([]byte(s))
}

// number parses -?digits[.digits*][(e|E)[+-]digits] with an optional
// fastjson type suffix (L S B F D), which is dropped from the literal.
func (p *parser) number() Value {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	if p.digits() == 0 {
		p.fail("malformed number")
		return Value{}
	}
	dot := -1
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			dot = p.pos - 1 // "1." : fastjson reads 1; keep the literal valid JSON
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			p.fail("malformed exponent")
			return Value{}
		}
	}
	lit := p.src[start:p.pos]
	if dot >= 0 {
		lit = p.src[start:dot] + p.src[dot+1:p.pos]
	}
	if p.pos < len(p.src) {
		switch p.src[p.pos] {
		case 'L', 'S', 'B', 'F', 'D':
			p.pos++
		}
	}
	return MakeNumber(lit)
}

func (p *parser) digits() int {
	n := 0
	for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
		p.pos++
		n++
	}
	return n
}

// str parses a '"' or '\” quoted string.
func (p *parser) str() Value {
	quote := p.src[p.pos]
	p.pos++
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == quote {
			s := p.src[start:p.pos]
			p.pos++
			return MakeString(validUTF8(s))
		}
		if c == '\\' {
			return p.escapedStr(quote, start)
		}
		p.pos++
	}
	p.fail("unclosed string")
	return Value{}
}

// escapedStr finishes a string that has escapes, unescaping from start.
func (p *parser) escapedStr(quote byte, start int) Value {
	b := append(p.buf[:0], p.src[start:p.pos]...)
	var units []uint16 // pending \u escapes, combined into pairs
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == quote {
			p.pos++
			b = appendUnits(b, units)
			p.buf = b
			return MakeString(validUTF8(string(b)))
		}
		if c != '\\' {
			b = appendUnits(b, units)
			units = units[:0]
			b = append(b, c)
			p.pos++
			continue
		}
		u, ok := p.escape()
		if !ok {
			return Value{}
		}
		if u >= 0x80 {
			units = append(units, u)
			continue
		}
		b = appendUnits(b, units)
		units = units[:0]
		b = append(b, byte(u))
	}
	p.fail("unclosed string")
	return Value{}
}

// escape decodes the escape at p.pos (a backslash) into one UTF-16 unit.
func (p *parser) escape() (uint16, bool) {
	if p.pos+1 >= len(p.src) {
		p.fail("unclosed string")
		return 0, false
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\'', '\\', '/':
		return uint16(c), true
	case 'b':
		return '\b', true
	case 'f', 'F':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		return uint16(c - '0'), true
	case 'x':
		return p.hexUnit(2)
	case 'u':
		return p.hexUnit(4)
	}
	p.pos -= 2
	p.failf("bad escape \\%c", c)
	return 0, false
}

func (p *parser) hexUnit(n int) (uint16, bool) {
	if p.pos+n > len(p.src) {
		p.fail("short hex escape")
		return 0, false
	}
	var v uint16
	for i := 0; i < n; i++ {
		d, ok := hexValue(p.src[p.pos+i])
		if !ok {
			p.fail("bad hex escape")
			return 0, false
		}
		v = v<<4 | d
	}
	p.pos += n
	return v, true
}

func hexValue(c byte) (uint16, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint16(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint16(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint16(c-'A') + 10, true
	}
	return 0, false
}

// appendUnits appends UTF-16 units as UTF-8; unpaired surrogates become
// U+FFFD.
func appendUnits(b []byte, units []uint16) []byte {
	if len(units) == 0 {
		return b
	}
	for _, r := range utf16.Decode(units) {
		b = utf8.AppendRune(b, r)
	}
	return b
}
