package sqlfilter

// Evaluation follows the 4.9.8 expression classes: three-valued logic where
// null is "unknown", and ComparisonExpression's conversions when the two
// sides of a comparison are of different classes (see compareValues).
// Boolean nodes evaluate to a tri (TRUE, FALSE or null), operands to a
// value. Nothing here allocates; a failure is recorded as a failure value and
// only Evaluate turns it into text.

import "cmp"

// failKind says what Java threw while evaluating or comparing.
type failKind uint8

const (
	failNone    failKind = iota
	failNumber           // RuntimeException wrapping a NumberFormatException
	failCast             // ClassCastException: a Boolean compared with a String
	failStrings          // RuntimeException: >, >=, <, <= on two non-numeric strings
)

// failure describes a Java exception without building its text.
type failure struct {
	kind failKind
	nfe  nfe
	a, b string // failNumber: the input; failStrings: both sides
}

// text is the exception's toString(), which is also the message of the
// MQFilterException wrapping it when it happens while compiling.
func (f failure) text() string {
	switch f.kind {
	case failNumber:
		return javaRuntimeException + nfeText(f.nfe, f.a)
	case failCast:
		return "java.lang.ClassCastException: class java.lang.Boolean cannot be cast to class java.lang.String " +
			"(java.lang.Boolean and java.lang.String are in module java.base of loader 'bootstrap')"
	case failStrings:
		return javaRuntimeException + "It's illegal to compare string by '>=', '>', '<', '<='. lv=" + f.a + ", rv=" + f.b
	}
	return ""
}

type evaluator struct {
	props func(name string) (string, bool)
	fail  failure
}

var null = value{}

// tri is a Java Boolean that may be null: what a boolean node evaluates to.
type tri uint8

const (
	unknown tri = iota // null
	no
	yes
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// test evaluates a boolean node; after a failure the result is meaningless
// and ev.fail says what Java threw.
func (ev *evaluator) test(n *node) tri {
	switch n.op {
	case opBoolConst:
		if n.v.k == vBool {
			return triOf(n.v.b)
		}
		return unknown
	case opNot:
		switch ev.test(n.kids[0]) {
		case yes:
			return no
		case no:
			return yes
		}
		return unknown
	case opCast:
		x := ev.value(n.kids[0])
		switch x.k {
		case vNull:
			return unknown
		case vBool:
			return triOf(x.b)
		}
		return no
	case opAnd, opOr:
		return ev.logic(n)
	case opEq:
		return ev.equal(n)
	case opIn:
		x := ev.value(n.kids[0])
		if x.k != vString {
			return unknown
		}
		return triOf(n.in.contains(x.s) != n.in.not)
	}
	return ev.compare(n)
}

// value evaluates any node to a Java value.
func (ev *evaluator) value(n *node) value {
	switch n.op {
	case opConst, opBoolConst:
		return n.v
	case opProp:
		if ev.props == nil {
			return null
		}
		if s, ok := ev.props(n.name); ok {
			return value{k: vString, s: s}
		}
		return null
	case opNeg:
		return negate(ev.value(n.kids[0]))
	}
	switch ev.test(n) {
	case yes:
		return value{k: vBool, b: true}
	case no:
		return value{k: vBool}
	}
	return null
}

// negate is UnaryExpression.negate; anything but a number negates to null.
func negate(x value) value {
	switch x.k {
	case vInt:
		x.n = int64(-int32(x.n))
	case vLong:
		x.n = -x.n
	case vDouble:
		x.f = -x.f
	default:
		return null
	}
	return x
}

// logic evaluates a chain of ANDs (ORs) left to right: a FALSE (TRUE)
// operand decides and stops the evaluation; otherwise any null makes the
// result null.
func (ev *evaluator) logic(n *node) tri {
	decisive := triOf(n.op == opOr)
	acc := ev.test(n.kids[0])
	for _, k := range n.kids[1:] {
		if ev.fail.kind != failNone || acc == decisive {
			break
		}
		switch r := ev.test(k); {
		case r == decisive:
			acc = r
		case r == unknown:
			acc = unknown
		}
	}
	return acc
}

// equal is the == of ComparisonExpression.doCreateEqual. Both sides are
// evaluated first. A null left with a non-null right gives null, a null right
// with a non-null left FALSE, two nulls TRUE (so "a = b" holds when neither
// property is set).
func (ev *evaluator) equal(n *node) tri {
	l := ev.value(n.kids[0])
	if ev.fail.kind != failNone {
		return unknown
	}
	r := ev.value(n.kids[1])
	switch {
	case ev.fail.kind != failNone:
		return unknown
	case l.k == vNull && r.k == vNull:
		return yes
	case l.k == vNull:
		return unknown
	case r.k == vNull:
		return no
	}
	c := compareValues(&l, &r, &ev.fail)
	if ev.fail.kind != failNone {
		return unknown
	}
	return triOf(c == 0)
}

// compare is ComparisonExpression.evaluate for >, >=, <, <=: null on either
// side gives null (the right side is not evaluated when the left is null);
// two strings are compared as Double.valueOf of each.
func (ev *evaluator) compare(n *node) tri {
	l := ev.value(n.kids[0])
	if ev.fail.kind != failNone || l.k == vNull {
		return unknown
	}
	r := ev.value(n.kids[1])
	if ev.fail.kind != failNone || r.k == vNull {
		return unknown
	}
	var c int
	if l.k == vString && r.k == vString {
		lf, lwhy, _ := parseJavaDouble(l.s)
		rf, rwhy, _ := parseJavaDouble(r.s)
		if lwhy != nfeNone || rwhy != nfeNone {
			ev.fail = failure{kind: failStrings, a: l.s, b: r.s}
			return unknown
		}
		c = javaDoubleCompare(lf, rf)
	} else if c = compareValues(&l, &r, &ev.fail); ev.fail.kind != failNone {
		return unknown
	}
	switch n.op {
	case opGt:
		return triOf(c > 0)
	case opGe:
		return triOf(c >= 0)
	case opLt:
		return triOf(c < 0)
	}
	return triOf(c <= 0)
}

func (l *inList) contains(s string) bool {
	if l.set != nil {
		_, ok := l.set[s]
		return ok
	}
	for _, item := range l.items {
		if item == s {
			return true
		}
	}
	return false
}

// compareValues is ComparisonExpression.__compare with string conversion on
// (always, for selectors compiled by SelectorParser) for two non-null values,
// recording a failure in f. Values of one class compare naturally; otherwise
// one side is converted to the other's class:
//
//	Integer ~ Long          both as long
//	Integer/Long ~ Double   both as double
//	number ~ String         the String parsed by the number's class: Integer.valueOf,
//	                        Long.valueOf or Double.valueOf (a failure throws)
//	String ~ Boolean        Boolean.valueOf(string) ("true" in any case is true)
//	Boolean ~ String        ClassCastException (Java casts the Boolean, a bug)
//	anything else           -1, i.e. "less", whichever side is which
func compareValues(l, r *value, f *failure) int {
	if l.k == r.k {
		return sameClassCompare(l, r)
	}
	switch l.k {
	case vBool:
		if r.k == vString {
			*f = failure{kind: failCast}
			return 0
		}
	case vInt, vLong:
		switch r.k {
		case vInt, vLong:
			return cmp.Compare(l.n, r.n)
		case vDouble:
			return javaDoubleCompare(float64(l.n), r.f)
		case vString:
			return cmp.Compare(l.n, parseIntOf(r.s, l.k, f))
		}
	case vDouble:
		switch r.k {
		case vInt, vLong:
			return javaDoubleCompare(l.f, float64(r.n))
		case vString:
			return javaDoubleCompare(l.f, parseDoubleOf(r.s, f))
		}
	case vString:
		switch r.k {
		case vBool:
			return compareBool(isJavaTrue(l.s), r.b)
		case vInt, vLong:
			return cmp.Compare(parseIntOf(l.s, r.k, f), r.n)
		case vDouble:
			return javaDoubleCompare(parseDoubleOf(l.s, f), r.f)
		}
	}
	return -1
}

func sameClassCompare(l, r *value) int {
	switch l.k {
	case vBool:
		return compareBool(l.b, r.b)
	case vInt, vLong:
		return cmp.Compare(l.n, r.n)
	case vDouble:
		return javaDoubleCompare(l.f, r.f)
	case vString:
		if l.s == r.s {
			return 0
		}
		return javaStringCompare(l.s, r.s)
	}
	return 0
}

// parseIntOf parses s as Integer.valueOf (k is vInt) or Long.valueOf,
// recording a failure in f.
func parseIntOf(s string, k vkind, f *failure) int64 {
	bits := uint(64)
	if k == vInt {
		bits = 32
	}
	n, ok := parseJavaInt(s, bits)
	if !ok {
		*f = failure{kind: failNumber, nfe: nfeInput, a: s}
	}
	return n
}

// parseDoubleOf parses s as Double.valueOf, recording a failure in f.
func parseDoubleOf(s string, f *failure) float64 {
	d, why, trimmed := parseJavaDouble(s)
	if why != nfeNone {
		*f = failure{kind: failNumber, nfe: why, a: trimmed}
	}
	return d
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// isJavaTrue is Boolean.valueOf(String): "true", ignoring ASCII case.
func isJavaTrue(s string) bool {
	return len(s) == 4 && (s[0]|0x20) == 't' && (s[1]|0x20) == 'r' && (s[2]|0x20) == 'u' && (s[3]|0x20) == 'e'
}
