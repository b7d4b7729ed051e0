package sqlfilter

import (
	"strconv"
	"strings"
)

// The compiled tree mirrors the one Java builds (the org.apache.rocketmq.
// filter.expression classes), because its shape is observable: the checks
// Java runs while building it decide which selectors compile, its toString
// appears in their error texts, and NOT BETWEEN, <> and IS NOT NULL evaluate
// as the compositions Java makes of them:
//
//	a <> b               NOT (a == b)
//	a IS NULL            a == NULL (no operand checks)
//	a IS NOT NULL        NOT (a == NULL)
//	a BETWEEN x AND y    (a >= x) AND (a <= y)
//	a NOT BETWEEN x AND y (a < x) OR (a > y)
//	NOT p, p AND q …     a bare property p in a boolean place is cast:
//	                     null stays null, any other value is FALSE
//
// A left-nested chain of ANDs (or ORs) is one node with all the operands;
// Java's nested nodes evaluate and print the same.

// vkind is the Java class of a value.
type vkind uint8

const (
	vNull   vkind = iota
	vBool         // java.lang.Boolean
	vInt          // java.lang.Integer: decimal literals within int range
	vLong         // java.lang.Long: larger decimal literals
	vDouble       // java.lang.Double: floating-point literals
	vString       // java.lang.String: string literals and every property value
)

// value is one Java value; n holds Integer and Long, f Double.
type value struct {
	k vkind
	b bool
	n int64
	f float64
	s string
}

type op uint8

const (
	opConst     op = iota // ConstantExpression: a string or number literal
	opBoolConst           // BooleanConstantExpression: TRUE, FALSE, NULL
	opProp                // PropertyExpression
	opNeg                 // unary minus
	opNot
	opCast // a property used as a boolean
	opAnd
	opOr
	opEq // ==, also behind <>, IS [NOT] NULL
	opGt
	opGe
	opLt
	opLe
	opIn // IN or NOT IN
)

var opSymbol = [...]string{opAnd: "&&", opOr: "||", opEq: "==", opGt: ">", opGe: ">=", opLt: "<", opLe: "<="}

type node struct {
	op    op
	v     value   // opConst, opBoolConst
	name  string  // opProp
	kids  []*node // operands; opIn: the property
	in    *inList // opIn
	depth int
}

// inList is an IN list: Java keeps up to four strings in a list and more in
// a HashSet, which decides the order its toString prints them in.
type inList struct {
	not   bool
	items []string            // in Java's iteration order
	set   map[string]struct{} // nil when short
}

func (n *node) isConstant() bool { return n.op == opConst || n.op == opBoolConst }

// isBoolean reports whether Java's node implements BooleanExpression.
func (n *node) isBoolean() bool { return n.op != opConst && n.op != opProp && n.op != opNeg }

func (v value) isNumber() bool { return v.k == vInt || v.k == vLong || v.k == vDouble }

// mk finishes a node: its depth, bounded by maxDepth.
func mk(n *node) (*node, error) {
	n.depth = 1
	for _, k := range n.kids {
		n.depth = max(n.depth, k.depth+1)
	}
	if n.depth > maxDepth {
		return nil, errStackOverflow()
	}
	return n, nil
}

func constant(v value) *node     { return &node{op: opConst, v: v, depth: 1} }
func boolConstant(v value) *node { return &node{op: opBoolConst, v: v, depth: 1} }

// decimalLiteral is ConstantExpression.createFromDecimal: an l/L suffix is
// dropped, the digits must fit a long, and the value is an Integer when it
// fits an int.
func decimalLiteral(text string) (*node, error) {
	digits := text
	if c := text[len(text)-1]; c == 'l' || c == 'L' {
		digits = text[:len(text)-1]
	}
	n, ok := parseJavaInt(digits, 64)
	if !ok {
		return nil, compileError(nfeText(nfeInput, digits))
	}
	if int64(int32(n)) == n {
		return constant(value{k: vInt, n: n}), nil
	}
	return constant(value{k: vLong, n: n}), nil
}

// floatLiteral is ConstantExpression.createFloat: the literal (never
// negative; minus is an operator) must be finite and not below
// Double.MIN_VALUE — so 0.0 itself is rejected.
func floatLiteral(text string) (*node, error) {
	f, why, _ := parseJavaDouble(text)
	switch {
	case why != nfeNone: // the lexer only makes valid literals
		return nil, compileError(nfeText(why, text))
	case f > 1.7976931348623157e308:
		return nil, compileError(javaRuntimeException + text + " is greater than 1.7976931348623157E308")
	case f < 4.9e-324:
		return nil, compileError(javaRuntimeException + text + " is less than 4.9E-324")
	}
	return constant(value{k: vDouble, f: f}), nil
}

// asBoolean is SelectorParser.asBooleanExpression.
func asBoolean(n *node) (*node, error) {
	switch {
	case n.isBoolean():
		return n, nil
	case n.op == opProp:
		return mk(&node{op: opCast, kids: []*node{n}})
	}
	return nil, compileError(javaParseException + "Expression will not result in a boolean value: " + n.String())
}

// newLogic is LogicExpression.createAND/createOR over both operands as
// booleans.
func newLogic(o op, left, right *node) (*node, error) {
	l, err := asBoolean(left)
	if err != nil {
		return nil, err
	}
	r, err := asBoolean(right)
	if err != nil {
		return nil, err
	}
	if l.op == o { // the tree is built left to right: l is ours to extend
		l.kids = append(l.kids, r)
		if l.depth = max(l.depth, r.depth+1); l.depth > maxDepth {
			return nil, errStackOverflow()
		}
		return l, nil
	}
	return mk(&node{op: o, kids: []*node{l, r}})
}

func newNot(x *node) (*node, error) {
	b, err := asBoolean(x)
	if err != nil {
		return nil, err
	}
	return mk(&node{op: opNot, kids: []*node{b}})
}

func newNegate(x *node) (*node, error) { return mk(&node{op: opNeg, kids: []*node{x}}) }

// newEqual is ComparisonExpression.createEqual (createNotEqual when not):
// neither side may be the NULL literal, and a TRUE/FALSE literal on the left
// may only meet another boolean literal when the right is a literal too.
func newEqual(left, right *node, not bool) (*node, error) {
	for _, n := range []*node{left, right} {
		if n.isConstant() && n.v.k == vNull {
			return nil, compileError(javaRuntimeException + "'" + n.String() + "' cannot be compared.")
		}
	}
	if left.isConstant() && right.isConstant() && left.op == opBoolConst && right.op != opBoolConst {
		return nil, compileError(javaRuntimeException + "'" + left.String() + "' cannot be compared with '" +
			right.String() + "'")
	}
	eq, err := mk(&node{op: opEq, kids: []*node{left, right}})
	if err != nil || !not {
		return eq, err
	}
	return newNot(eq)
}

// newIsNull is createIsNull / createIsNotNull: x == NULL without checks.
func newIsNull(x *node, not bool) (*node, error) {
	eq, err := mk(&node{op: opEq, kids: []*node{x, boolConstant(value{})}})
	if err != nil || !not {
		return eq, err
	}
	return newNot(eq)
}

// newCompare is createGreaterThan & co: a literal operand must be a number
// and no operand may be a boolean expression.
func newCompare(o op, left, right *node) (*node, error) {
	for _, n := range []*node{left, right} {
		if n.isConstant() && !n.v.isNumber() || !n.isConstant() && n.isBoolean() {
			return nil, compileError(javaRuntimeException + "Value '" + n.String() + "' cannot be compared.")
		}
	}
	return mk(&node{op: o, kids: []*node{left, right}})
}

// newBetween is createBetween (or createNotBetween, which checks nothing
// itself). When both bounds are literals they must not be NULL and the low
// one must not compare above the high one.
func newBetween(x, low, high *node, not bool) (*node, error) {
	if not {
		lt, err := newCompare(opLt, x, low)
		if err != nil {
			return nil, err
		}
		gt, err := newCompare(opGt, x, high)
		if err != nil {
			return nil, err
		}
		return newLogic(opOr, lt, gt)
	}
	if low.isConstant() && high.isConstant() {
		lv, hv := low.v, high.v
		if lv.k == vNull || hv.k == vNull {
			return nil, compileError(javaRuntimeException + "Illegal values of between, values can not be null!")
		}
		var f failure
		if c := compareValues(&hv, &lv, &f); f.kind != failNone {
			return nil, compileError(f.text())
		} else if c < 0 {
			return nil, compileError(javaRuntimeException + "Illegal values of between, left value(" +
				javaValueString(lv) + ") must less than or equal to right value(" + javaValueString(hv) + ")")
		}
	}
	ge, err := newCompare(opGe, x, low)
	if err != nil {
		return nil, err
	}
	le, err := newCompare(opLe, x, high)
	if err != nil {
		return nil, err
	}
	return newLogic(opAnd, ge, le)
}

// newIn is createInFilter / createNotInFilter: the left side must be a
// property.
func newIn(left *node, items []string, not bool) (*node, error) {
	if left.op != opProp {
		return nil, compileError(javaRuntimeException + "Expected a property for In expression, got: " + left.String())
	}
	l := &inList{not: not, items: items}
	if len(items) >= 5 {
		l.items = javaHashSetOrder(items)
		l.set = make(map[string]struct{}, len(l.items))
		for _, s := range l.items {
			l.set[s] = struct{}{}
		}
	}
	return mk(&node{op: opIn, kids: []*node{left}, in: l})
}

// javaValueString is String.valueOf of a non-null value.
func javaValueString(v value) string {
	switch v.k {
	case vBool:
		return strconv.FormatBool(v.b)
	case vString:
		return v.s
	}
	return string(appendValue(nil, v))
}

// appendValue appends a number as Integer/Long/Double.toString does.
func appendValue(b []byte, v value) []byte {
	if v.k == vDouble {
		return appendJavaDouble(b, v.f)
	}
	return strconv.AppendInt(b, v.n, 10)
}

// String is Java's toString of the node.
func (n *node) String() string { return string(n.appendTo(nil)) }

func (n *node) appendTo(b []byte) []byte {
	switch n.op {
	case opConst, opBoolConst:
		switch n.v.k {
		case vNull:
			return append(b, "NULL"...)
		case vBool:
			if n.v.b {
				return append(b, "TRUE"...)
			}
			return append(b, "FALSE"...)
		case vString:
			b = append(b, '\'')
			b = append(b, strings.ReplaceAll(n.v.s, "'", "''")...)
			return append(b, '\'')
		}
		return appendValue(b, n.v)
	case opProp:
		return append(b, n.name...)
	case opCast:
		return n.kids[0].appendTo(b)
	case opNeg, opNot:
		b = append(b, "(- "...)
		if n.op == opNot {
			b = append(b[:len(b)-2], "NOT "...)
		}
		b = n.kids[0].appendTo(b)
		return append(b, ')')
	case opIn:
		b = n.kids[0].appendTo(b)
		if n.in.not {
			b = append(b, " NOT IN ( "...)
		} else {
			b = append(b, " IN ( "...)
		}
		b = append(b, strings.Join(n.in.items, ", ")...)
		return append(b, " )"...)
	}
	for range len(n.kids) - 1 {
		b = append(b, '(')
	}
	b = n.kids[0].appendTo(b)
	for _, k := range n.kids[1:] {
		b = append(b, ' ')
		b = append(b, opSymbol[n.op]...)
		b = append(b, ' ')
		b = k.appendTo(b)
		b = append(b, ')')
	}
	return b
}
