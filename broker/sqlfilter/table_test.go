package sqlfilter

import (
	"strings"
	"testing"
	"unicode"
)

// Property maps every selector in tableExprs is evaluated against.
var tableProps = []map[string]string{
	nil,
	{},
	{"a": "1"},
	{"a": "1.5", "b": "1.5"},
	{"a": "x", "b": "y"},
	{"a": "true", "b": "TRUE"},
	{"a": "", "b": ""},
	{"a": "2", "b": "10"},
	{"a": "-2147483648", "b": "2147483648"},
	{"a": " 7 ", "b": "7", "c": "NaN"},
	{"a": "abc", "c": "-0"},
	{"b": "1"},
}

// tableExprs covers the grammar and Java's semantics; each is compiled by
// both sides and evaluated against every tableProps map.
var tableExprs = []string{
	// Properties, comparisons, equality.
	"a = 1", "a = 1.0", "a = '1'", "a <> 1", "a <> '1'", "a = b", "a <> b", "b = a",
	"a > 1", "a >= 1", "a < 1", "a <= 1", "a > 1.5", "a >= 1.5", "a < 1.5", "a <= 1.5",
	"a > b", "a >= b", "a < b", "a <= b", "a > -1", "a > - 1.5", "a > +1", "a < 2147483648",
	"a = 2147483648", "a = 9223372036854775807", "a = -2147483648", "a = 0", "a = 007",
	"1 = a", "1.5 = a", "'1' = a", "1 < a", "1.0 < a", "-1 < a",
	"a = TRUE", "a = FALSE", "TRUE = a", "FALSE = a", "a <> TRUE", "b = TRUE",
	"c > 0.5", "c = 1.5", "c < 1e300", "c <> 1",
	// Constant comparisons.
	"1 = 1", "1 = 1.0", "1 = 2", "1 = 1L", "2147483648 = 2147483648.0", "1 <> 2", "1 < 2", "2.5 > 1",
	"'a' = 'a'", "'a' = 'b'", "'a' <> 'b'", "'1' = 1", "1 = '1'", "1 = 'x'", "'x' = 1", "'1.0' = 1.0",
	"'true' = TRUE", "'TRUE' = TRUE", "'yes' = TRUE", "1 = TRUE", "TRUE = TRUE", "TRUE = FALSE",
	"TRUE <> FALSE", "1.5 = 1.5", "- 1 = -1", "-(-1) = 1", "- - 1 = 1",
	"-a = 1", "-a IS NULL", "-'x' IS NULL", "-TRUE IS NULL", "-1.5 < 0.5", "-9223372036854775807 < 1",
	"(a > 1) = TRUE", "(a > 1) = (b > 1)", "(a > 1) = 1", "1 = (a > 1)", "(a = 1) = 'true'",
	// Null handling and three-valued logic.
	"a IS NULL", "a IS NOT NULL", "b IS NULL", "c IS NOT NULL", "NULL IS NULL", "NULL IS NOT NULL",
	"TRUE IS NULL", "1 IS NULL", "'x' IS NOT NULL", "(a = 1) IS NULL", "(a = 1) IS NOT NULL",
	"a IS NULL IS NULL", "a IS NULL = TRUE", "a = 1 IS NULL",
	"a AND b", "a OR b", "NOT a", "NOT b", "NOT NOT a", "a AND TRUE", "a OR TRUE", "a OR FALSE",
	"TRUE", "FALSE", "NULL", "NOT NULL", "NOT TRUE", "TRUE AND NULL", "FALSE AND NULL", "TRUE OR NULL",
	"FALSE OR NULL", "NULL AND NULL", "NULL OR NULL", "NULL OR TRUE", "NULL AND FALSE",
	"a = 1 AND b = 1", "a = 1 OR b = 1", "a = 1 AND b = 1 OR c = 1", "a = 1 OR b = 1 AND c = 1",
	"(a = 1 OR b = 1) AND c IS NULL", "NOT a = 1", "NOT (a = 1)", "NOT a > 1", "NOT a IS NULL",
	"a = 1 AND b > 'x'", "a > 'x'", "a = 1 AND (b > 1 OR b = 1)", "a > 1 AND a < 3 OR a = 'x'",
	"a = 'x' OR a > 1", "a > 1 OR a = 'x'", "b > 5 AND a > 1", "a > 1 AND b > 5",
	"a = 1 OR a = 2 OR a = 3 OR a = 4 OR a = 5", "a = 1 AND a = 1 AND a = 1 AND b IS NULL",
	"a = b = c", "a = a = a", "a <> b <> c",
	// BETWEEN and IN.
	"a BETWEEN 1 AND 2", "a BETWEEN 1 AND 1", "a BETWEEN 1.5 AND 3", "a NOT BETWEEN 1 AND 2",
	"a BETWEEN -1 AND 2", "a BETWEEN 2 AND -1", "a NOT BETWEEN 2 AND 1", "a BETWEEN b AND c",
	"a BETWEEN 1 AND b", "b BETWEEN 1 AND 10", "a BETWEEN 1 AND 2147483648", "a BETWEEN 1.0 AND 1",
	"a BETWEEN 'x' AND 'y'", "a BETWEEN 'y' AND 'x'", "a BETWEEN 1 AND 'x'", "a BETWEEN 1 AND '5'",
	"a BETWEEN 'x' AND TRUE", "a BETWEEN TRUE AND FALSE", "a BETWEEN FALSE AND TRUE",
	"a BETWEEN TRUE AND 1", "a BETWEEN 1 AND TRUE", "a BETWEEN NULL AND 1", "a BETWEEN 1 AND NULL",
	"a NOT BETWEEN NULL AND 1", "a NOT BETWEEN 1 AND 'x'", "a BETWEEN 1 AND 2 AND b = 1",
	"a BETWEEN 1 AND 2 = TRUE", "(a BETWEEN 1 AND 2) BETWEEN 1 AND 2", "NOT a BETWEEN 1 AND 2",
	"a IN ('1')", "a IN ('1', 'x', 'true')", "a NOT IN ('1')", "a NOT IN ('1', 'x')", "b IN ('y', '')",
	"a IN ('a', 'b', 'c', 'd', 'e', 'f')", "a IN ('x', 'x', 'x', 'x', 'x')", "a IN ('1','2','3','4')",
	"a NOT IN ('Aa', 'BB', 'C#', 'x', 'yy', 'zzz', 'x')", "a IN ('')", "(a) IN ('1')",
	"1 IN ('1')", "'1' IN ('1')", "a IN ('x') IN ('y')", "a IN ('x') = TRUE", "a IN ('x') > 1",
	"a IN ('a', 'b', 'c', 'd', 'e', 'f') > 1", "NOT a IN ('x')", "a IN ('x') AND b IN ('y')",
	// Keywords, identifiers, literals, comments, whitespace.
	"a Is NoT nUlL", "nOt a", "a between 1 and 2", "a in ('1')", "true", "False", "null IS NULL",
	"A = 1", "_x = 1", "$ = 1", "a$_1 = 1", "a1 = 1", "IS = 1", "AND = 1", "a = 1L", "a = 1l", "a = 0L",
	"a = 1.", "a = .5", "a = 1e0", "a = 1E+0", "a = 10e-1", "a = 0.1e1", "a = 00.5", "a = 1.5e", "a = 1e",
	"a > 4.9E-324", "a > 1.7976931348623157E308", "a = 0.0", "a = 0.", "a = 1e-400", "a = 1e400",
	"a = 2e-324", "a = 1.7976931348623159E308", "a = 9223372036854775808", "a = 9223372036854775808L",
	"a = 99999999999999999999", "a > 0x10", "a > 1e3", "a < 12345678.9", "a > 0.001", "a > 0.0001",
	"a > 1234567.0", "a > 10000000.0", "a > 123456789012345678901234567890.0",
	"a = 'it''s'", "a = ''''", "a = ''", "a = 'a''''b'", "a = '\"'", "a = '\\'", "a = 'é✓😀'",
	"a = 'x' -- comment\n", "a = 'x' --\r\nAND b = 1", "a /* c */ = 1", "/* c */ a = 1", "a = 1 --x",
	"a = --1", "a = - -1", "a\t=\t1", "\ta = 1", "a\r\n= 1", "a\f= 1", "\n\n  a = 1  \n",
	"a = 1 b", "a = 1 )", "a = 1 1", "a = 1 'x'", "a = 1 IS", "a = 1 NOT", "a = 1 IN", "a b c",
	"(a = 1)", "((a = 1))", "(((a)))", "(a) = (1)", "+a = 1", "+ + 1 = 1", "+(a) = 1", "- (a = 1)",
	"+ (a = 1)", "+ a", "+ 'x' = 'x'", "+TRUE",
	// Syntax errors.
	"", " ", "\t\n", "a", "a =", "= 1", "a = = 1", "a == 1", "a != 1", "a ! 1", "a = 1 AND", "a = 1 OR",
	"AND a = 1", "a = 1 AND OR b = 1", "(a = 1", "a = 1)", "()", "(", ")", "a IS", "a IS 5", "a IS NOT",
	"a IS NOT 5", "a IS NULL NULL", "a NOT", "a NOT 5", "a NOT LIKE 'x'", "a LIKE 'x'", "a BETWEEN",
	"a BETWEEN 1", "a BETWEEN 1 2", "a BETWEEN 1 OR 2", "a IN", "a IN 'x'", "a IN ()", "a IN ('x'",
	"a IN ('x',)", "a IN ('x' 'y')", "a IN (1)", "a IN (a)", "a NOT IN", "a NOT IN ('x'", "a NOT IN (1)",
	"a NOT IN ('x' 'y')", "+", "-", "+ )", "a = +", "a = + )", "a = - )", "NOT", "NOT NOT", "a > ",
	"a >= )", "a < <", "a <= ,", "a <>", "a = 1,", "a = 1 AND (b = 2", "a = (1", "a = ((1)", "1 = 1 = ",
	"a = 1 AND b", "a = 1 AND b = ", "a = 1 OR NOT", "a IS NOT NULL AND", "a + 1 = 2", "a * 2 = 4",
	"a = 1 ; b", "a.b = 1", "a = 1.5.5", "a = .", "a = 'x", "a = 'x''", "'", "a = 1 #", "a = 1 #x",
	"#", "a = 1 /", "a = 1 / 2", "a = 1 /* x", "a = 1 /*", "/* x */", "-- x\n", "a = \"x\"", "a = `x`",
	"é = 1", "a = 1 é", "a = 1 éx", "a = 1 😀", "a = 1 😀x", "a\n= 1 #x", "a\r= 1 #", "\ta = 1 #x",
	"a = 'x\n", "a = 1 /*\n", "a = 1 /\n", "a = 1\n#", "a = 'é😀' AND b IS 5", "K = 1", "xı = 1",
	"a\x00 = 1", "a = 1 \x00x", "a = 1 \x01",
	// Semantic compile errors.
	"1", "1.5", "'x'", "-a", "- 1", "NOT 1", "NOT 'x'", "NOT -a", "1 AND a", "a AND 1", "a OR 'x'",
	"'x' OR a", "1 OR 2", "a = NULL", "NULL = a", "a <> NULL", "NULL = NULL", "TRUE = 1", "TRUE = 'x'",
	"FALSE <> 1.5", "TRUE = a", "a > 'x'", "'x' < a", "a > TRUE", "TRUE > a", "a > NULL", "NULL < a",
	"(a > 1) > 1", "1 < (a > 1)", "(a IS NULL) < 1", "NOT a > 1", "(NOT a) < 1", "a > (b = 1)",
	"(a = 1 OR b = 1) > 1", "a BETWEEN 1 AND 2 BETWEEN 1 AND 2", "a NOT BETWEEN 1 AND 2 > 1",
	"(a = 1) IN ('x')", "-a IN ('x')", "a = 1 AND 2", "1 AND 2", "'x' AND 'y'",
}

// tablePairs are cases that need one particular set of properties.
var tablePairs = []oracleCase{
	{"a = 1", map[string]string{"a": "+1"}},
	{"a = 1", map[string]string{"a": "01"}},
	{"a = 1", map[string]string{"a": "1 "}},
	{"a = 1", map[string]string{"a": "-"}},
	{"a = 1", map[string]string{"a": "+"}},
	{"a = -1", map[string]string{"a": "-1"}},
	{"a = 1", map[string]string{"a": "١"}},
	{"a = 3", map[string]string{"a": "٣"}},
	{"a = 12", map[string]string{"a": "１２"}},
	{"a = 1", map[string]string{"a": "𝟏"}},
	{"a = 2147483647", map[string]string{"a": "2147483647"}},
	{"a = 2147483647", map[string]string{"a": "2147483648"}},
	{"a = -2147483648", map[string]string{"a": "-2147483648"}},
	{"a = 2147483648", map[string]string{"a": "-9223372036854775808"}},
	{"a = 2147483648", map[string]string{"a": "9223372036854775808"}},
	{"a > 2147483648", map[string]string{"a": "-9223372036854775809"}},
	{"a = 1.5", map[string]string{"a": "1.5f"}},
	{"a = 1.5", map[string]string{"a": "1.5D"}},
	{"a = 1.5", map[string]string{"a": "1.5fd"}},
	{"a = 1.5", map[string]string{"a": "+1.5"}},
	{"a = 1.5", map[string]string{"a": "\t1.5\n"}},
	{"a = 1.5", map[string]string{"a": "0x1.8p0"}},
	{"a = 1.5", map[string]string{"a": "0X1.8P0d"}},
	{"a = 1.5", map[string]string{"a": "0x1.8"}},
	{"a = 1.5", map[string]string{"a": "0x.18p4"}},
	{"a = 1.5", map[string]string{"a": "1.5e"}},
	{"a = 1.5", map[string]string{"a": "1.5e+"}},
	{"a = 1.5", map[string]string{"a": "15e-1"}},
	{"a = 1.5", map[string]string{"a": ".15E1"}},
	{"a = 1.5", map[string]string{"a": "1.2.3"}},
	{"a = 1.5", map[string]string{"a": "1..5"}},
	{"a = 1.5", map[string]string{"a": "."}},
	{"a = 1.5", map[string]string{"a": "e5"}},
	{"a = 1.5", map[string]string{"a": "1_5"}},
	{"a = 1.5", map[string]string{"a": "  "}},
	{"a = 1.5", map[string]string{"a": "NaN"}},
	{"a > 1.5", map[string]string{"a": "NaN"}},
	{"a > 1.5", map[string]string{"a": "-NaN"}},
	{"a > 1.5", map[string]string{"a": "nan"}},
	{"a > 1.5", map[string]string{"a": "Infinity"}},
	{"a < 1.5", map[string]string{"a": "-Infinity"}},
	{"a < 1.5", map[string]string{"a": "+Infinityx"}},
	{"a < 1.5", map[string]string{"a": "1e99999999999"}},
	{"a < 1.5", map[string]string{"a": "1e-99999999999"}},
	{"a < 1.5", map[string]string{"a": "0x1p99999999999"}},
	{"a = b", map[string]string{"a": "1", "b": "1.0"}},
	{"a >= b", map[string]string{"a": "1", "b": "1.0"}},
	{"a > b", map[string]string{"a": "NaN", "b": "Infinity"}},
	{"a < b", map[string]string{"a": "-0", "b": "0"}},
	{"a <= b", map[string]string{"a": "-0.0", "b": "0.0"}},
	{"a = -b", map[string]string{"a": "1", "b": "1"}},
	{"a > b", map[string]string{"a": " 2 ", "b": "1"}},
	{"a > b", map[string]string{"a": "2", "b": "x"}},
	{"a > b", map[string]string{"a": "x", "b": "2"}},
	{"a > 1", map[string]string{"a": "1.5"}},
	{"a > 1.0", map[string]string{"a": "1"}},
	{"a = TRUE", map[string]string{"a": "tRuE"}},
	{"a = TRUE", map[string]string{"a": "1"}},
	{"a = FALSE", map[string]string{"a": "no"}},
	{"a <> FALSE", map[string]string{"a": "no"}},
	{"a = 'é✓😀'", map[string]string{"a": "é✓😀"}},
	{"a IN ('é', '😀')", map[string]string{"a": "😀"}},
	{"a = '\"'", map[string]string{"a": `"`}},
	{"a = b", map[string]string{"a": "😀", "b": "\uffff"}},
	{"a$_1 = 1", map[string]string{"a$_1": "1"}},
	{"A = 1", map[string]string{"a": "1"}},
	{"A = 1", map[string]string{"A": "1"}},
	{"a = 1 b", map[string]string{"a": "1"}},
	{"a AND b", map[string]string{"a": "true", "b": "true"}},
	{"a OR b", map[string]string{"a": "true"}},
	{"a OR b", map[string]string{"b": "false"}},
	{"NOT a", map[string]string{"a": "false"}},
	{"a = 1 OR b > 'x'", map[string]string{"a": "1"}},
	{"a = 1 OR b > 1", map[string]string{"a": "1", "b": "x"}},
	{"a = 1 OR b > 1", map[string]string{"a": "2", "b": "x"}},
	{"a = 1 AND b > 1", map[string]string{"a": "2", "b": "x"}},
	{"a = 1 AND b > 1", map[string]string{"b": "x"}},
	{"a > 1 AND b = 1", map[string]string{"a": "x", "b": "x"}},
	{"a = b", map[string]string{"a": "x"}},
	{"a <> b", map[string]string{"b": "x"}},
}

// unicodeDigitCases checks Integer.valueOf's acceptance of every BMP run of
// Nd digits (Character.digit), one property per run.
func unicodeDigitCases() []oracleCase {
	var cases []oracleCase
	for _, r := range unicode.Nd.R16 {
		for lo := rune(r.Lo); lo+9 <= rune(r.Hi); lo += 10 {
			var b strings.Builder
			for _, d := range []rune{1, 9, 0, 5} {
				b.WriteRune(lo + d)
			}
			cases = append(cases,
				oracleCase{"a = 1905", map[string]string{"a": b.String()}},
				oracleCase{"a = 1905.0", map[string]string{"a": b.String()}})
		}
	}
	return cases
}

func tableCases() []oracleCase {
	var cases []oracleCase
	for _, e := range tableExprs {
		for _, p := range tableProps {
			cases = append(cases, oracleCase{e, p})
		}
	}
	cases = append(cases, tablePairs...)
	return append(cases, unicodeDigitCases()...)
}

// TestAgainstJava runs the table through the real 4.9.8 classes (compat/java
// SqlFilterOracle) and compares compile errors, toString, evaluation result
// or exception, and isMatchedByCommitLog.
func TestAgainstJava(t *testing.T) {
	cases := tableCases()
	agreed := compareWithJava(t, cases)
	t.Logf("%d selectors, %d cases: %d agree with Java", len(tableExprs)+len(tablePairs), len(cases), agreed)
}
