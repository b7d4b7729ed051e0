package sqlfilter

import (
	"strconv"
	"unicode/utf16"
)

// The selector's tokens, as 4.9.8's SelectorParser.jj declares them and its
// JavaCC token manager matches them: the longest match wins, a tie goes to
// the earlier declaration (a keyword beats an identifier, an integer beats
// a float); keywords ignore ASCII case; whitespace is " \t\n\r\f"; comments
// are "--" up to and including a line break (without one, "--" is two minus
// signs) and "/* … */". Positions count UTF-16 chars, tabs advance to the
// next multiple of 8 and "\r\n" is one line break, as SimpleCharStream does.
//
//	DECIMAL  "0" | [1-9][0-9]* [lL]?            (so "007" is 0 0 7, "0L" is 0 L)
//	FLOAT    [0-9]+ "." [0-9]* EXP? | "." [0-9]+ EXP? | [0-9]+ EXP
//	EXP      [eE] [+-]? [0-9]+
//	STRING   "'" ( "''" | any char but "'" )* "'"
//	ID       [a-zA-Z_$] [a-zA-Z0-9_$]*           (ASCII only)

// kind is a token kind, numbered as SelectorParserConstants numbers them: the
// numbers order the "Was expecting" lists of parse errors.
type kind int8

const (
	kEOF     kind = 0
	kNot     kind = 8
	kAnd     kind = 9
	kOr      kind = 10
	kBetween kind = 11
	kIn      kind = 12
	kTrue    kind = 13
	kFalse   kind = 14
	kNull    kind = 15
	kIs      kind = 16
	kDecimal kind = 17
	kFloat   kind = 18
	kString  kind = 20
	kID      kind = 21
	kEq      kind = 22
	kNe      kind = 23
	kGt      kind = 24
	kGe      kind = 25
	kLt      kind = 26
	kLe      kind = 27
	kLParen  kind = 28
	kComma   kind = 29
	kRParen  kind = 30
	kPlus    kind = 31
	kMinus   kind = 32
	numKinds      = 33
)

// kindImage is how parse errors name each kind (SelectorParserConstants.tokenImage).
var kindImage = [numKinds]string{
	kEOF: "<EOF>", kNot: `"NOT"`, kAnd: `"AND"`, kOr: `"OR"`, kBetween: `"BETWEEN"`, kIn: `"IN"`,
	kTrue: `"TRUE"`, kFalse: `"FALSE"`, kNull: `"NULL"`, kIs: `"IS"`,
	kDecimal: "<DECIMAL_LITERAL>", kFloat: "<FLOATING_POINT_LITERAL>", kString: "<STRING_LITERAL>", kID: "<ID>",
	kEq: `"="`, kNe: `"<>"`, kGt: `">"`, kGe: `">="`, kLt: `"<"`, kLe: `"<="`,
	kLParen: `"("`, kComma: `","`, kRParen: `")"`, kPlus: `"+"`, kMinus: `"-"`,
}

var keywords = [...]struct {
	word string
	kind kind
}{
	{"NOT", kNot}, {"AND", kAnd}, {"OR", kOr}, {"BETWEEN", kBetween}, {"IN", kIn},
	{"TRUE", kTrue}, {"FALSE", kFalse}, {"NULL", kNull}, {"IS", kIs},
}

// token is one token: its kind and its chars src[start:end].
type token struct {
	kind       kind
	start, end int
}

// lexer hands out tokens one at a time, on demand: like JavaCC's token
// manager it only sees as far as the parser has asked, so text after the
// point where a selector stops parsing is never examined.
type lexer struct {
	src []uint16 // the selector as Java holds it: UTF-16 chars
	i   int
}

// at is the char at i, or -1 past the end.
func (lx *lexer) at(i int) int {
	if i < len(lx.src) {
		return int(lx.src[i])
	}
	return -1
}

func (lx *lexer) image(t token) []uint16 { return lx.src[t.start:t.end] }

// text is a token's chars as a Go string.
func (lx *lexer) text(t token) string { return string(utf16.Decode(lx.image(t))) }

// next returns the next token, skipping whitespace and comments; at the end
// it returns EOF tokens forever.
func (lx *lexer) next() (token, error) {
	for {
		s := lx.i
		switch c := lx.at(s); {
		case c < 0:
			return token{kind: kEOF, start: s, end: s}, nil
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			lx.i++
			continue
		case c == '-' && lx.at(s+1) == '-':
			if end := lx.lineComment(s); end > 0 {
				lx.i = end
				continue
			}
		case c == '/':
			if lx.at(s+1) != '*' {
				return token{}, lx.lexError(s, min(s+1, len(lx.src)-1))
			}
			end := lx.blockComment(s)
			if end < 0 {
				return token{}, lx.lexError(s, len(lx.src)-1)
			}
			lx.i = end
			continue
		}
		t, err := lx.token(s)
		if err != nil {
			return token{}, err
		}
		lx.i = t.end
		return t, nil
	}
}

// lineComment returns the end of a "--" comment at s, or 0 when no line
// break ends it.
func (lx *lexer) lineComment(s int) int {
	for j := s + 2; j < len(lx.src); j++ {
		switch lx.src[j] {
		case '\n':
			return j + 1
		case '\r':
			if lx.at(j+1) == '\n' {
				return j + 2
			}
			return j + 1
		}
	}
	return 0
}

// blockComment returns the end of the "/*" comment at s, or -1 when it is
// not closed.
func (lx *lexer) blockComment(s int) int {
	for j := s + 2; j+1 < len(lx.src); j++ {
		if lx.src[j] == '*' && lx.src[j+1] == '/' {
			return j + 2
		}
	}
	return -1
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func isIDStart(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

// token matches the token starting at s (not whitespace or a comment).
func (lx *lexer) token(s int) (token, error) {
	one := func(k kind) (token, error) { return token{k, s, s + 1}, nil }
	two := func(k kind) (token, error) { return token{k, s, s + 2}, nil }
	switch c := lx.at(s); {
	case c == '\'':
		return lx.stringLiteral(s)
	case isDigit(c):
		return lx.number(s), nil
	case c == '.':
		if !isDigit(lx.at(s + 1)) {
			return token{}, lx.lexError(s, min(s+1, len(lx.src)-1))
		}
		j := s + 1
		for isDigit(lx.at(j)) {
			j++
		}
		return token{kFloat, s, lx.exponent(j)}, nil
	case isIDStart(c):
		return lx.word(s), nil
	case c == '=':
		return one(kEq)
	case c == '<':
		switch lx.at(s + 1) {
		case '=':
			return two(kLe)
		case '>':
			return two(kNe)
		}
		return one(kLt)
	case c == '>':
		if lx.at(s+1) == '=' {
			return two(kGe)
		}
		return one(kGt)
	case c == '(':
		return one(kLParen)
	case c == ')':
		return one(kRParen)
	case c == ',':
		return one(kComma)
	case c == '+':
		return one(kPlus)
	case c == '-':
		return one(kMinus)
	}
	return token{}, lx.lexError(s, s)
}

// stringLiteral matches the longest quoted string at s: a quote followed by
// another continues the string as an escaped quote when a closing quote
// comes later, else the first of the two closes it.
func (lx *lexer) stringLiteral(s int) (token, error) {
	end := -1
	for j := s + 1; j < len(lx.src); j++ {
		if lx.src[j] != '\'' {
			continue
		}
		end = j + 1
		if lx.at(j+1) != '\'' {
			break
		}
		j++
	}
	if end < 0 {
		return token{}, lx.lexError(s, len(lx.src)-1)
	}
	return token{kString, s, end}, nil
}

// number matches the longer of a DECIMAL and a FLOAT at s (DECIMAL on a tie).
func (lx *lexer) number(s int) token {
	j := s
	for isDigit(lx.at(j)) {
		j++
	}
	best := token{kDecimal, s, j}
	if lx.src[s] == '0' {
		best.end = s + 1
	} else if c := lx.at(j); c == 'l' || c == 'L' {
		best.end = j + 1
	}
	end := lx.exponent(j) // a float needs a point or an exponent
	if end == j {
		end = 0
	}
	if lx.at(j) == '.' {
		k := j + 1
		for isDigit(lx.at(k)) {
			k++
		}
		end = lx.exponent(k)
	}
	if end > best.end {
		best = token{kFloat, s, end}
	}
	return best
}

// exponent returns the end of an exponent at k, or k when there is none.
func (lx *lexer) exponent(k int) int {
	if c := lx.at(k); c != 'e' && c != 'E' {
		return k
	}
	m := k + 1
	if c := lx.at(m); c == '+' || c == '-' {
		m++
	}
	if !isDigit(lx.at(m)) {
		return k
	}
	for isDigit(lx.at(m)) {
		m++
	}
	return m
}

// word matches an identifier or keyword at s.
func (lx *lexer) word(s int) token {
	j := s + 1
	for c := lx.at(j); isIDStart(c) || isDigit(c); c = lx.at(j) {
		j++
	}
	t := token{kID, s, j}
	for _, kw := range keywords {
		if equalFoldASCII(lx.src[s:j], kw.word) {
			t.kind = kw.kind
			break
		}
	}
	return t
}

func equalFoldASCII(units []uint16, upper string) bool {
	if len(units) != len(upper) {
		return false
	}
	for i, c := range units {
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != uint16(upper[i]) {
			return false
		}
	}
	return true
}

// lexError is the TokenMgrError for a token starting at s that matched
// nothing; last is the last char the matcher read (the one it failed on, or
// the final char when it ran out of input). Java reports the position of
// that char and the chars before it — or, when no input follows, "<EOF>"
// one column further on (line+1, column 0 after a line break) and the chars
// including it. A matcher that read a single char reports no chars before.
func (lx *lexer) lexError(s, last int) error {
	line, col := lx.lineCol(last)
	c := lx.src[last]
	after := lx.src[s:last]
	if last+1 < len(lx.src) {
		msg := "Lexical error at line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) +
			`.  Encountered: "` + javaEscape([]uint16{c}) + `" (` + strconv.Itoa(int(c)) + `), after : "`
		if last == s {
			after = nil
		}
		return compileError(javaTokenMgrError + msg + javaEscape(after) + `"`)
	}
	if c == '\n' || c == '\r' {
		line, col = line+1, 0
	} else {
		col++
	}
	after = lx.src[s : last+1]
	if last == s {
		after = nil
	}
	return compileError(javaTokenMgrError + "Lexical error at line " + strconv.Itoa(line) + ", column " +
		strconv.Itoa(col) + `.  Encountered: <EOF> after : "` + javaEscape(after) + `"`)
}

// lineCol is the line and column of the char at i; for an EOF token, pass
// the index of the last char (-1 for empty input gives Java's 0, 0).
func (lx *lexer) lineCol(i int) (line, col int) {
	if i < 0 {
		return 0, 0
	}
	line = 1
	prevCR, prevLF := false, false
	for _, c := range lx.src[:i+1] {
		col++
		if prevLF {
			prevLF = false
			line, col = line+1, 1
		} else if prevCR {
			prevCR = false
			if c == '\n' {
				prevLF = true
			} else {
				line, col = line+1, 1
			}
		}
		switch c {
		case '\r':
			prevCR = true
		case '\n':
			prevLF = true
		case '\t':
			col--
			col += 8 - col%8
		}
	}
	return line, col
}
