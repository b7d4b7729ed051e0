// Package sqlfilter is RocketMQ 4.9.8's SQL92 message selector (expression
// type "SQL92"): the language of SelectorParser.jj in the filter module,
// compiled and evaluated exactly as FilterFactory.get("SQL92").compile and
// the broker's ExpressionMessageFilter.isMatchedByCommitLog do.
//
// A selector is a boolean expression over the message's properties, which
// are all strings; a property the message lacks is null:
//
//	a > 5 AND b IN ('x', 'y') AND c IS NOT NULL AND NOT (d BETWEEN 1.5 AND 3)
//
// Some of Java's rules are not what SQL would suggest; this package keeps
// every one (compat tests compare it with the Java classes):
//
//   - A property meeting a number is parsed as that number's class:
//     Integer.valueOf for a literal that fits an int, Long.valueOf for a
//     larger one, Double.valueOf for a literal with a point or exponent. A
//     property that does not parse makes the evaluation throw, and the
//     message does not match ("a = 1" with a = "1.0" or "x" throws; "a = 1.0"
//     with a = " 1 " holds, as Double.valueOf trims).
//   - Two properties compared by >, >=, <, <= are both parsed as doubles;
//     by = they are compared as strings.
//   - "a = b" is TRUE when both are absent, null when only a is, FALSE when
//     only b is.
//   - A bare property in a boolean place ("a AND b", "NOT a") is FALSE when
//     set, whatever its value, and null when absent.
//   - Parsing stops at the first token that fits nowhere: "a = 1 b" is "a = 1".
//   - Literals: 0.0 and float literals below 4.9E-324 or above
//     1.7976931348623157E308 are rejected, as are decimals beyond a long;
//     "007" is three tokens 0 0 7, so "a = 007" is "a = 0".
//
// Compile errors carry the text Java's MQFilterException gives (the remark of
// a SUBSCRIPTION_PARSE_FAILED response), evaluation errors the Java
// exception's toString.
package sqlfilter

import (
	"errors"
	"unicode/utf16"
)

// Errors, each matched with errors.Is; the error's text is Java's.
var (
	// ErrInvalid is matched by every error Compile returns: a lexical or
	// syntax error, or an expression Java refuses while building it.
	ErrInvalid = errors.New("sqlfilter: invalid selector")
	// ErrEvaluation is matched by every error Evaluate returns: Java threw
	// while evaluating (a property that does not parse as a number, …).
	ErrEvaluation = errors.New("sqlfilter: evaluation failed")
)

// Java class names prefixing exception texts.
const (
	javaParseException   = "org.apache.rocketmq.filter.parser.ParseException: "
	javaTokenMgrError    = "org.apache.rocketmq.filter.parser.TokenMgrError: "
	javaRuntimeException = "java.lang.RuntimeException: "
	javaStackOverflow    = "java.lang.StackOverflowError"
)

// javaError is an error whose text is a Java exception's.
type javaError struct {
	sentinel error
	text     string
}

func (e *javaError) Error() string        { return e.text }
func (e *javaError) Is(target error) bool { return target == e.sentinel }

func compileError(text string) error { return &javaError{ErrInvalid, text} }

// errStackOverflow stands in for the StackOverflowError Java's recursive
// parser runs into on deeply nested input.
func errStackOverflow() error { return compileError(javaStackOverflow) }

// Expr is a compiled selector. It is immutable and safe for concurrent use.
type Expr struct {
	root *node
}

// Compile parses a selector as FilterFactory.INSTANCE.get("SQL92").compile
// does. The error's text is MQFilterException.getMessage(): the Java
// exception that stopped the parser, e.g. "org.apache.rocketmq.filter.
// parser.ParseException: Encountered "<EOF>" at line 1, column 3.\n…". An
// empty or blank selector is such a ParseException. Malformed UTF-8 in
// expression reads as U+FFFD.
func Compile(expression string) (*Expr, error) {
	p := newParser(utf16.Encode([]rune(expression)))
	root, err := p.selector()
	if err != nil {
		return nil, err
	}
	return &Expr{root: root}, nil
}

// Match reports whether a message whose properties props looks up is
// selected: the result must be Java's Boolean TRUE; null, FALSE and an
// exception all mean no (ExpressionMessageFilter.isMatchedByCommitLog).
// props reports a property's value and whether the message has it; nil
// means a message without properties. Values are compared as Java Strings,
// so they should be valid UTF-8 (Java's broker decodes properties as UTF-8,
// replacing malformed bytes). Match does not allocate.
func (e *Expr) Match(props func(name string) (string, bool)) bool {
	ev := evaluator{props: props}
	return ev.test(e.root) == yes && ev.fail.kind == failNone
}

// Evaluate returns what Java's evaluate returns: nil (null), a bool, an
// int64 (Integer or Long), a float64 (Double) or a string — for a compiled
// selector always nil or a bool — or an error matching ErrEvaluation whose
// text is the Java exception's toString().
func (e *Expr) Evaluate(props func(name string) (string, bool)) (any, error) {
	ev := evaluator{props: props}
	v := ev.value(e.root)
	if ev.fail.kind != failNone {
		return nil, &javaError{ErrEvaluation, ev.fail.text()}
	}
	switch v.k {
	case vBool:
		return v.b, nil
	case vInt, vLong:
		return v.n, nil
	case vDouble:
		return v.f, nil
	case vString:
		return v.s, nil
	}
	return nil, nil
}

// String is the compiled expression as Java's toString prints it: fully
// parenthesised, = as ==, AND as &&, OR as ||, BETWEEN and <> expanded.
func (e *Expr) String() string { return e.root.String() }

func utf16String(units []uint16) string { return string(utf16.Decode(units)) }
