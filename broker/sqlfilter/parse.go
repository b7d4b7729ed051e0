package sqlfilter

import (
	"strconv"
	"strings"
)

// The grammar of 4.9.8's SelectorParser.jj, lowest precedence first:
//
//	selector   = or                                   (no end-of-input check:
//	                                                   parsing stops at the first
//	                                                   token that fits nowhere)
//	or         = and { OR and }
//	and        = equality { AND equality }
//	equality   = comparison { "=" comparison | "<>" comparison
//	                        | IS NULL | IS NOT NULL }
//	comparison = unary { (">" | ">=" | "<" | "<=") unary
//	                   | [NOT] BETWEEN unary AND unary
//	                   | [NOT] IN "(" STRING { "," STRING } ")" }
//	unary      = "+" unary | "-" unary | NOT unary | primary
//	primary    = STRING | DECIMAL | FLOAT | TRUE | FALSE | NULL | ID | "(" or ")"
//
// "+" is taken only when a whole unary expression follows it (JavaCC's
// syntactic lookahead); NOT BETWEEN, NOT IN and IS NULL are recognised by
// their first two tokens. There is no LIKE, no arithmetic, no hex or octal
// literal, and a keyword cannot be a property name.
//
// Syntax errors carry JavaCC's ParseException text, whose "Was expecting"
// list is the set of tokens every decision point taken at the failing token
// tested for. The parser records those decision points (marks) exactly where
// the generated parser does, and tokens are pulled from the lexer only where
// it pulls them, so lexical errors and semantic errors come in Java's order.

// decision is a point where the generated parser tests the next token and,
// finding none of the tokens it wanted, moves on; a syntax error at the same
// token lists what each such decision wanted.
type decision uint8

const (
	decOr        decision = iota // after an and-expression: OR?
	decAnd                       // after an equality: AND?
	decEquality                  // after a comparison: =, <>, IS?
	decEqualOp                   // IS: not = or <>
	decCompare                   // after a unary: NOT, BETWEEN, IN, >, >=, <, <=?
	decInMore                    // IN list: another ","?
	decNotInMore                 // NOT IN list: another ","?
	decCompareOp                 // NOT or IN: not >, >=, <, <=, BETWEEN
	decNotIn                     // NOT not followed by BETWEEN: IN?
	decUnary                     // start of a unary expression
	numDecisions
)

var decisionKinds = [numDecisions][]kind{
	decOr:        {kOr},
	decAnd:       {kAnd},
	decEquality:  {kIs, kEq, kNe},
	decEqualOp:   {kEq, kNe},
	decCompare:   {kNot, kBetween, kIn, kGt, kGe, kLt, kLe},
	decInMore:    {kComma},
	decNotInMore: {kComma},
	decCompareOp: {kBetween, kGt, kGe, kLt, kLe},
	decNotIn:     {kIn},
	decUnary:     {kNot, kTrue, kFalse, kNull, kDecimal, kFloat, kString, kID, kLParen, kMinus},
}

// Limits standing in for the JVM's stack: past them Java's recursive parser
// or evaluator throws StackOverflowError (with a 1 MB thread stack, somewhere
// past 1,000 nested parentheses, 5,000 NOTs or a few thousand chained
// operators; the exact point depends on the JVM).
const (
	maxNesting      = 1024 // nested unary expressions (parentheses, NOT, -, +)
	maxDepth        = 4096 // depth of the compiled tree (AND/OR chains count once)
	noKind     kind = -1
)

type parser struct {
	lx    lexer
	toks  []token // tokens pulled so far
	pos   int     // tokens consumed (JavaCC's jj_gen counts the same)
	marks [numDecisions]int
	depth int
	// scanned remembers where the unary expression starting at a token
	// ends (-1: none does), so that "+ + + … x" is not scanned once per "+".
	scanned map[int]int
}

func newParser(src []uint16) *parser {
	p := &parser{lx: lexer{src: src}}
	for i := range p.marks {
		p.marks[i] = -1
	}
	return p
}

// tok is the token i places after the consumed ones, pulled from the lexer
// if needed.
func (p *parser) tok(i int) (token, error) {
	for len(p.toks) <= p.pos+i {
		t, err := p.lx.next()
		if err != nil {
			return token{}, err
		}
		p.toks = append(p.toks, t)
	}
	return p.toks[p.pos+i], nil
}

func (p *parser) peek() (kind, error) {
	t, err := p.tok(0)
	return t.kind, err
}

func (p *parser) mark(d decision) { p.marks[d] = p.pos }

// expect consumes a token of kind k or fails with a syntax error.
func (p *parser) expect(k kind) error {
	t, err := p.tok(0)
	if err != nil {
		return err
	}
	if t.kind != k {
		return p.syntaxError(k)
	}
	p.pos++
	return nil
}

// syntaxError is JavaCC's ParseException at the next token: wanted (if any)
// plus what every decision marked at this token wanted, in kind order. (The
// generated parser also replays its syntactic lookaheads into the list, but
// it only ever adds copies of entries already there, and none of this
// grammar's lookaheads produce one; the oracle tests agree.)
func (p *parser) syntaxError(wanted kind) error {
	var set [numKinds]bool
	if wanted != noKind {
		set[wanted] = true
	}
	for d, at := range p.marks {
		if at == p.pos {
			for _, k := range decisionKinds[d] {
				set[k] = true
			}
		}
	}
	t := p.toks[p.pos]
	var b strings.Builder
	b.WriteString(javaParseException + `Encountered "`)
	at := t.start
	if t.kind == kEOF {
		b.WriteString(kindImage[kEOF])
		at = len(p.lx.src) - 1
	} else {
		b.WriteString(" " + kindImage[t.kind] + ` "` + javaEscape(p.lx.image(t)) + ` "`)
	}
	line, col := p.lx.lineCol(at)
	b.WriteString(`" at line ` + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ".\n")
	var lines []string
	for k, ok := range set {
		if ok {
			lines = append(lines, kindImage[k]+" ...\n    ")
		}
	}
	if len(lines) == 1 {
		b.WriteString("Was expecting:\n    ")
	} else {
		b.WriteString("Was expecting one of:\n    ")
	}
	b.WriteString(strings.Join(lines, ""))
	return compileError(b.String())
}

func (p *parser) enter() error {
	if p.depth++; p.depth > maxNesting {
		return errStackOverflow()
	}
	return nil
}

func (p *parser) selector() (*node, error) {
	left, err := p.or()
	if err != nil {
		return nil, err
	}
	return asBoolean(left)
}

func (p *parser) or() (*node, error) {
	left, err := p.and()
	for err == nil {
		var k kind
		if k, err = p.peek(); err != nil || k != kOr {
			p.mark(decOr)
			break
		}
		p.pos++
		var right *node
		if right, err = p.and(); err == nil {
			left, err = newLogic(opOr, left, right)
		}
	}
	return left, err
}

func (p *parser) and() (*node, error) {
	left, err := p.equality()
	for err == nil {
		var k kind
		if k, err = p.peek(); err != nil || k != kAnd {
			p.mark(decAnd)
			break
		}
		p.pos++
		var right *node
		if right, err = p.equality(); err == nil {
			left, err = newLogic(opAnd, left, right)
		}
	}
	return left, err
}

func (p *parser) equality() (*node, error) {
	left, err := p.comparison()
	for err == nil {
		var k kind
		if k, err = p.peek(); err != nil {
			break
		}
		switch k {
		case kEq, kNe:
			p.pos++
			var right *node
			if right, err = p.comparison(); err == nil {
				left, err = newEqual(left, right, k == kNe)
			}
		case kIs:
			p.mark(decEqualOp)
			left, err = p.isNull(left)
		default:
			p.mark(decEquality)
			return left, nil
		}
	}
	return left, err
}

// isNull parses IS NULL or IS NOT NULL after left.
func (p *parser) isNull(left *node) (*node, error) {
	isNull, err := p.ahead2(kIs, kNull)
	if err != nil {
		return nil, err
	}
	if isNull {
		p.pos += 2
		return newIsNull(left, false)
	}
	for _, k := range []kind{kIs, kNot, kNull} {
		if err := p.expect(k); err != nil {
			return nil, err
		}
	}
	return newIsNull(left, true)
}

// ahead2 reports whether the next two tokens are a and b; like JavaCC's
// LOOKAHEAD(2) it only pulls the second when the first matches.
func (p *parser) ahead2(a, b kind) (bool, error) {
	t, err := p.tok(0)
	if err != nil || t.kind != a {
		return false, err
	}
	t, err = p.tok(1)
	return err == nil && t.kind == b, err
}

func (p *parser) comparison() (*node, error) {
	left, err := p.unary()
	for err == nil {
		var k kind
		if k, err = p.peek(); err != nil {
			break
		}
		switch k {
		case kGt, kGe, kLt, kLe:
			p.pos++
			var right *node
			if right, err = p.unary(); err == nil {
				left, err = newCompare(compareOps[k], left, right)
			}
		case kBetween:
			p.pos++
			left, err = p.between(left, false)
		case kNot, kIn:
			p.mark(decCompareOp)
			left, err = p.notOrIn(left, k)
		default:
			p.mark(decCompare)
			return left, nil
		}
	}
	return left, err
}

var compareOps = map[kind]op{kGt: opGt, kGe: opGe, kLt: opLt, kLe: opLe}

// notOrIn parses NOT BETWEEN, IN or NOT IN after left; next is NOT or IN.
func (p *parser) notOrIn(left *node, next kind) (*node, error) {
	notBetween, err := p.ahead2(kNot, kBetween)
	if err != nil {
		return nil, err
	}
	if notBetween {
		p.pos += 2
		return p.between(left, true)
	}
	if next == kIn {
		p.pos++
		return p.inList(left, false, decInMore)
	}
	p.mark(decNotIn)
	notIn, err := p.ahead2(kNot, kIn)
	if err != nil {
		return nil, err
	}
	if !notIn {
		return nil, p.syntaxError(noKind)
	}
	p.pos += 2
	return p.inList(left, true, decNotInMore)
}

// between parses "low AND high" after [NOT] BETWEEN.
func (p *parser) between(value *node, not bool) (*node, error) {
	low, err := p.unary()
	if err != nil {
		return nil, err
	}
	if err := p.expect(kAnd); err != nil {
		return nil, err
	}
	high, err := p.unary()
	if err != nil {
		return nil, err
	}
	return newBetween(value, low, high, not)
}

// inList parses "( 'a', 'b' … )" after [NOT] IN.
func (p *parser) inList(left *node, not bool, more decision) (*node, error) {
	if err := p.expect(kLParen); err != nil {
		return nil, err
	}
	var items []string
	for {
		t, err := p.tok(0)
		if err != nil {
			return nil, err
		}
		if err := p.expect(kString); err != nil {
			return nil, err
		}
		items = append(items, decodeString(p.lx.image(t)))
		k, err := p.peek()
		if err != nil {
			return nil, err
		}
		if k != kComma {
			p.mark(more)
			break
		}
		p.pos++
	}
	if err := p.expect(kRParen); err != nil {
		return nil, err
	}
	return newIn(left, items, not)
}

func (p *parser) unary() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	plus, err := p.plusAhead()
	if err != nil {
		return nil, err
	}
	if plus {
		p.pos++
		return p.unary()
	}
	k, err := p.peek()
	if err != nil {
		return nil, err
	}
	switch k {
	case kMinus, kNot:
		p.pos++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if k == kMinus {
			return newNegate(x)
		}
		return newNot(x)
	case kTrue, kFalse, kNull, kDecimal, kFloat, kString, kID, kLParen:
		return p.primary()
	}
	p.mark(decUnary)
	return nil, p.syntaxError(noKind)
}

func (p *parser) primary() (*node, error) {
	t, err := p.tok(0)
	if err != nil {
		return nil, err
	}
	if t.kind == kLParen {
		p.pos++
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		return x, p.expect(kRParen)
	}
	p.pos++
	switch t.kind {
	case kID:
		return &node{op: opProp, name: p.lx.text(t), depth: 1}, nil
	case kString:
		return constant(value{k: vString, s: decodeString(p.lx.image(t))}), nil
	case kDecimal:
		return decimalLiteral(p.lx.text(t))
	case kFloat:
		return floatLiteral(p.lx.text(t))
	case kTrue:
		return boolConstant(value{k: vBool, b: true}), nil
	case kFalse:
		return boolConstant(value{k: vBool}), nil
	}
	return boolConstant(value{}), nil // NULL
}

// decodeString is a STRING token's value: quotes off, ” made '.
func decodeString(image []uint16) string {
	var out []uint16
	for i := 1; i < len(image)-1; i++ {
		out = append(out, image[i])
		if image[i] == '\'' {
			i++
		}
	}
	return utf16String(out)
}

// plusAhead reports whether the next token is "+" followed by a complete
// unary expression (which it scans, pulling as many tokens as that takes).
func (p *parser) plusAhead() (bool, error) {
	t, err := p.tok(0)
	if err != nil || t.kind != kPlus {
		return false, err
	}
	_, ok, err := p.scanUnary(1)
	return ok, err
}

// The scan* functions recognise a production from token i on without
// building anything, as JavaCC's lookahead routines do: each alternative is
// tried in grammar order and abandoned at its first mismatch, and a loop
// stops at the first iteration that does not fully match. They return where
// the production ended.

func (p *parser) scanUnary(i int) (int, bool, error) {
	at := p.pos + i
	if end, ok := p.scanned[at]; ok {
		return end - p.pos, end >= 0, nil
	}
	j, ok, err := p.scanUnaryOnce(i)
	if err == nil {
		if p.scanned == nil {
			p.scanned = make(map[int]int)
		}
		p.scanned[at] = -1
		if ok {
			p.scanned[at] = p.pos + j
		}
	}
	return j, ok, err
}

func (p *parser) scanUnaryOnce(i int) (int, bool, error) {
	if err := p.enter(); err != nil {
		return 0, false, err
	}
	defer func() { p.depth-- }()
	t, err := p.tok(i)
	if err != nil {
		return 0, false, err
	}
	switch t.kind {
	case kPlus, kMinus, kNot:
		return p.scanUnary(i + 1)
	case kString, kDecimal, kFloat, kTrue, kFalse, kNull, kID:
		return i + 1, true, nil
	case kLParen:
		j, ok, err := p.scanOr(i + 1)
		if !ok || err != nil {
			return 0, false, err
		}
		return p.scanKinds(j, kRParen)
	}
	return 0, false, nil
}

// scanKinds matches the tokens ks from i on.
func (p *parser) scanKinds(i int, ks ...kind) (int, bool, error) {
	for _, k := range ks {
		t, err := p.tok(i)
		if err != nil || t.kind != k {
			return 0, false, err
		}
		i++
	}
	return i, true, nil
}

// scanChain matches item { sep item }.
func (p *parser) scanChain(i int, sep kind, item func(int) (int, bool, error)) (int, bool, error) {
	j, ok, err := item(i)
	for ok && err == nil {
		var k int
		var more bool
		if k, more, err = p.scanKinds(j, sep); !more || err != nil {
			break
		}
		if k, more, err = item(k); !more || err != nil {
			break
		}
		j = k
	}
	return j, ok && err == nil, err
}

func (p *parser) scanOr(i int) (int, bool, error) { return p.scanChain(i, kOr, p.scanAnd) }

func (p *parser) scanAnd(i int) (int, bool, error) { return p.scanChain(i, kAnd, p.scanEquality) }

func (p *parser) scanEquality(i int) (int, bool, error) {
	j, ok, err := p.scanComparison(i)
	for ok && err == nil {
		k, more, err2 := p.scanFirst(j,
			func(j int) (int, bool, error) { return p.scanThen(j, kEq, p.scanComparison) },
			func(j int) (int, bool, error) { return p.scanThen(j, kNe, p.scanComparison) },
			func(j int) (int, bool, error) { return p.scanKinds(j, kIs, kNull) },
			func(j int) (int, bool, error) { return p.scanKinds(j, kIs, kNot, kNull) })
		if err = err2; !more {
			break
		}
		j = k
	}
	return j, ok && err == nil, err
}

func (p *parser) scanComparison(i int) (int, bool, error) {
	j, ok, err := p.scanUnary(i)
	for ok && err == nil {
		k, more, err2 := p.scanFirst(j,
			func(j int) (int, bool, error) { return p.scanThen(j, kGt, p.scanUnary) },
			func(j int) (int, bool, error) { return p.scanThen(j, kGe, p.scanUnary) },
			func(j int) (int, bool, error) { return p.scanThen(j, kLt, p.scanUnary) },
			func(j int) (int, bool, error) { return p.scanThen(j, kLe, p.scanUnary) },
			func(j int) (int, bool, error) { return p.scanBetween(j, kBetween) },
			func(j int) (int, bool, error) { return p.scanBetween(j, kNot, kBetween) },
			func(j int) (int, bool, error) { return p.scanIn(j, kIn) },
			func(j int) (int, bool, error) { return p.scanIn(j, kNot, kIn) })
		if err = err2; !more {
			break
		}
		j = k
	}
	return j, ok && err == nil, err
}

// scanFirst tries the alternatives in order and returns the first match.
func (p *parser) scanFirst(i int, alts ...func(int) (int, bool, error)) (int, bool, error) {
	for _, alt := range alts {
		if j, ok, err := alt(i); ok || err != nil {
			return j, ok, err
		}
	}
	return 0, false, nil
}

// scanThen matches k then next.
func (p *parser) scanThen(i int, k kind, next func(int) (int, bool, error)) (int, bool, error) {
	j, ok, err := p.scanKinds(i, k)
	if !ok || err != nil {
		return 0, false, err
	}
	return next(j)
}

func (p *parser) scanBetween(i int, ks ...kind) (int, bool, error) {
	j, ok, err := p.scanKinds(i, ks...)
	if ok && err == nil {
		j, ok, err = p.scanUnary(j)
	}
	if ok && err == nil {
		j, ok, err = p.scanKinds(j, kAnd)
	}
	if ok && err == nil {
		j, ok, err = p.scanUnary(j)
	}
	return j, ok && err == nil, err
}

func (p *parser) scanIn(i int, ks ...kind) (int, bool, error) {
	j, ok, err := p.scanKinds(i, append(ks, kLParen)...)
	if !ok || err != nil {
		return 0, false, err
	}
	j, ok, err = p.scanChain(j, kComma, func(j int) (int, bool, error) { return p.scanKinds(j, kString) })
	if !ok || err != nil {
		return 0, false, err
	}
	return p.scanKinds(j, kRParen)
}
