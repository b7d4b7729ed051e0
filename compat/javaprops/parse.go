package javaprops

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sputnikmq/sputnik/compat/javalang"
)

// ErrMalformedEscape is returned for a \u escape without four hex digits
// inside its key or value. Its text is that of the IllegalArgumentException
// thrown by java.util.Properties.load; Java discards the whole load (the
// broker does not start, string2Properties returns null and the update
// handlers answer SYSTEM_ERROR "string2Properties error").
var ErrMalformedEscape = errors.New(`Malformed \uxxxx encoding.`)

// Parse reads r as java.util.Properties.load(InputStream) does: each byte is
// one char (ISO-8859-1), so UTF-8 text comes out as mojibake (see the package
// doc). It mirrors how NamesrvStartup and BrokerStartup read the -c file.
func Parse(r io.Reader) (*Properties, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return parseChars(latin1Chars(data))
}

// ParseString mirrors MixAll.string2Properties(s): the UTF-8 bytes of s are
// loaded one byte per char, exactly as Parse does.
func ParseString(s string) (*Properties, error) {
	return parseChars(latin1Chars([]byte(s)))
}

// ParseBody mirrors the UPDATE_NAMESRV_CONFIG / UPDATE_BROKER_CONFIG
// handlers: new String(body, "UTF-8") (javalang.DecodeUTF8: malformed
// sequences become U+FFFD) followed by MixAll.string2Properties.
func ParseBody(body []byte) (*Properties, error) {
	return ParseString(javalang.DecodeUTF8(body))
}

// ParseUTF8 reads r as Properties.load(Reader) over a UTF-8 reader: text is
// decoded as UTF-8 (malformed sequences become U+FFFD, see
// javalang.DecodeUTF8) and the same line, escape and separator rules apply.
// No 4.9.8 server path reads properties this way.
func ParseUTF8(r io.Reader) (*Properties, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return parseChars(utf16.Encode([]rune(javalang.DecodeUTF8(data))))
}

func latin1Chars(data []byte) []uint16 {
	cs := make([]uint16, len(data))
	for i, b := range data {
		cs[i] = uint16(b)
	}
	return cs
}

func parseChars(in []uint16) (*Properties, error) {
	p := New()
	lr := lineReader{in: in}
	var kbuf, vbuf []uint16
	for {
		line, ok := lr.next()
		if !ok {
			return p, nil
		}
		k, v := splitLine(line)
		var err error
		if kbuf, err = unescape(kbuf[:0], k); err != nil {
			return nil, fmt.Errorf("javaprops: line %d: %w", lr.lineNo, err)
		}
		if vbuf, err = unescape(vbuf[:0], v); err != nil {
			return nil, fmt.Errorf("javaprops: line %d: %w", lr.lineNo, err)
		}
		p.Set(charsToString(kbuf), charsToString(vbuf))
	}
}

func isBlank(c uint16) bool { return c == ' ' || c == '\t' || c == '\f' }

// lineReader splits input into logical lines like Properties.LineReader:
// leading blanks of every physical line are dropped; blank lines and comment
// lines (first non-blank char '#' or '!' while nothing is buffered) are
// skipped; a line ending in an odd number of backslashes continues on the
// next physical line (the backslash itself is dropped). \n, \r and \r\n end
// a line.
type lineReader struct {
	in     []uint16
	pos    int
	line   []uint16
	lineNo int // physical line (1-based) where the last logical line started
	ends   int // line terminators consumed so far (\r\n counts once)
}

// lineState is the LineReader state that lives across the chars of one
// logical line.
type lineState struct {
	skipBlank    bool // dropping leading blanks (and, between lines, newlines)
	continuation bool // just after a continuation: a newline ends the line
	comment      bool
	backslash    bool // the line so far ends in an odd run of backslashes
	skipLF       bool // the previous char was a \r that continued the line
}

func (lr *lineReader) next() ([]uint16, bool) {
	lr.line = lr.line[:0]
	st := lineState{skipBlank: true}
	for lr.pos < len(lr.in) {
		c := lr.in[lr.pos]
		lr.pos++
		done := lr.step(&st, c)
		if c == '\r' || (c == '\n' && (lr.pos < 2 || lr.in[lr.pos-2] != '\r')) {
			lr.ends++
		}
		if done {
			return lr.line, true
		}
	}
	if len(lr.line) == 0 || st.comment {
		return nil, false
	}
	if st.backslash {
		lr.line = lr.line[:len(lr.line)-1]
	}
	return lr.line, true
}

// step consumes one char and reports whether it ended a logical line.
func (lr *lineReader) step(st *lineState, c uint16) bool {
	if st.skipLF {
		st.skipLF = false
		if c == '\n' {
			return false
		}
	}
	eol := c == '\n' || c == '\r'
	if st.skipBlank {
		if isBlank(c) || (eol && !st.continuation) {
			return false
		}
		st.skipBlank, st.continuation = false, false
	}
	if len(lr.line) == 0 && !st.comment {
		// Java 9+ tests for a comment whenever nothing is buffered, so a
		// '#' after a continuation of an empty line starts a comment too.
		lr.lineNo = lr.ends + 1
		if c == '#' || c == '!' {
			st.comment = true
			return false
		}
	}
	if !eol {
		if !st.comment {
			lr.line = append(lr.line, c)
			st.backslash = c == '\\' && !st.backslash
		}
		return false
	}
	return lr.endOfLine(st, c)
}

// endOfLine handles a \r or \n and reports whether the logical line is done.
func (lr *lineReader) endOfLine(st *lineState, c uint16) bool {
	if st.comment || len(lr.line) == 0 {
		*st = lineState{skipBlank: true}
		lr.line = lr.line[:0]
		return false
	}
	if !st.backslash {
		return true // a \n after this \r is skipped as a blank line next time
	}
	lr.line = lr.line[:len(lr.line)-1]
	if lr.pos == len(lr.in) {
		// Java's LineReader returns at once when the line break is the last
		// char of the input, even if dropping the backslash left nothing:
		// a file ending in "\\\n" yields the entry ""="".
		return true
	}
	st.skipBlank, st.continuation, st.backslash = true, true, false
	st.skipLF = c == '\r'
	return false
}

// splitLine separates key and value like Properties.load0: the key ends at
// the first unescaped '=', ':' or blank; blanks around the separator and at
// most one '=' or ':' after blanks are dropped.
func splitLine(line []uint16) (key, value []uint16) {
	keyLen, valueStart := 0, len(line)
	hasSep, backslash := false, false
	for ; keyLen < len(line); keyLen++ {
		c := line[keyLen]
		if (c == '=' || c == ':') && !backslash {
			valueStart, hasSep = keyLen+1, true
			break
		}
		if isBlank(c) && !backslash {
			valueStart = keyLen + 1
			break
		}
		backslash = c == '\\' && !backslash
	}
	for ; valueStart < len(line); valueStart++ {
		c := line[valueStart]
		if isBlank(c) {
			continue
		}
		if hasSep || (c != '=' && c != ':') {
			break
		}
		hasSep = true
	}
	return line[:keyLen], line[valueStart:]
}

// unescape appends the chars of seg to dst with Java's loadConvert rules:
// \uXXXX (exactly four hex digits, within seg), \t \n \r \f, and a
// backslash before any other char yields that char.
func unescape(dst, seg []uint16) ([]uint16, error) {
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c != '\\' || i+1 >= len(seg) {
			dst = append(dst, c)
			continue
		}
		i++
		c = seg[i]
		switch c {
		case 'u':
			v, ok := hex4(seg[i+1:])
			if !ok {
				return dst, ErrMalformedEscape
			}
			dst = append(dst, v)
			i += 4
			continue
		case 't':
			c = '\t'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 'f':
			c = '\f'
		}
		dst = append(dst, c)
	}
	return dst, nil
}

func hex4(s []uint16) (uint16, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var v uint16
	for _, c := range s[:4] {
		var d uint16
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// charsToString converts Java chars to a Go string; an unpaired surrogate
// becomes U+FFFD.
func charsToString(cs []uint16) string {
	ascii := true
	for _, c := range cs {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		return string(utf16.Decode(cs))
	}
	b := make([]byte, len(cs))
	for i, c := range cs {
		b[i] = byte(c)
	}
	return string(b)
}
