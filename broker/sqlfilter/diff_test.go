package sqlfilter

import (
	"flag"
	"math/rand/v2"
	"strings"
	"testing"
)

var (
	diffSeed  = flag.Uint64("sqlfilter.seed", 1, "seed of TestRandomAgainstJava's selectors")
	diffCount = flag.Int("sqlfilter.n", 5000, "how many random selectors TestRandomAgainstJava compares")
)

// Pools the random selectors and messages draw from: the edges of Java's
// literal rules and of its String-to-number conversions.
var (
	genProps    = []string{"a", "b", "c", "A", "_x", "$"}
	genLiterals = []string{
		"0", "1", "2", "10", "007", "1L", "2147483647", "2147483648", "9223372036854775807",
		"9223372036854775808", "1.5", "1.", ".5", "1e3", "1E-3", "0.0", "1e400", "1e-400", "2.5e1",
		"'x'", "'1'", "'1.5'", "'true'", "'it''s'", "''", "'a'", "'b'", "TRUE", "FALSE", "NULL", "true", "null",
	}
	genValues = []string{
		"1", "0", "-1", "+1", "01", "1.0", "1.5", " 1", "1 ", "2", "10", "2147483647", "2147483648",
		"-2147483649", "9223372036854775807", "9223372036854775808", "1e3", "1E-3", ".5", "5.", "1f", "1d",
		"0x10", "0x1p4", "NaN", "-NaN", "Infinity", "-Infinity", "-0", "-0.0", "true", "TRUE", "false",
		"x", "abc", "", " ", "١٢", "1.2.3", "é", "😀", "'", "it's", "a", "b",
	}
	genCompare = []string{"=", "<>", ">", ">=", "<", "<="}
	genJunk    = []string{
		"(", ")", ",", "=", "<>", "IS", "NOT", "IN", "AND", "OR", "BETWEEN", "NULL", "+", "-", "#", "!", "/",
		".", "'", "--", "/*", "*/", "\n", "\t", "é", "😀", "LIKE", "'x", "1", "a",
	}
	genSeparators = []string{" ", " ", " ", " ", "  ", "\t", "\n", "\r\n", "/*c*/", ""}
)

type selectorGen struct{ r *rand.Rand }

func (g *selectorGen) pick(s []string) string { return s[g.r.IntN(len(s))] }

// boolean emits a random boolean-ish selector as tokens.
func (g *selectorGen) boolean(depth int) []string {
	if depth <= 0 {
		return g.predicate(0)
	}
	switch g.r.IntN(6) {
	case 0, 1:
		return join(g.boolean(depth-1), []string{g.pick([]string{"AND", "OR", "and", "Or"})}, g.boolean(depth-1))
	case 2:
		return join([]string{"NOT"}, g.boolean(depth-1))
	case 3:
		return join([]string{"("}, g.boolean(depth-1), []string{")"})
	}
	return g.predicate(depth - 1)
}

func (g *selectorGen) predicate(depth int) []string {
	x := g.operand(depth)
	switch g.r.IntN(9) {
	case 0, 1, 2:
		return join(x, []string{g.pick(genCompare)}, g.operand(depth))
	case 3:
		return join(x, g.maybe("NOT"), []string{"BETWEEN"}, g.operand(depth), []string{"AND"}, g.operand(depth))
	case 4:
		list := []string{"("}
		for i := range 1 + g.r.IntN(6) {
			if i > 0 {
				list = append(list, ",")
			}
			list = append(list, "'"+strings.ReplaceAll(g.pick(genValues), "'", "''")+"'")
		}
		return join(x, g.maybe("NOT"), []string{"IN"}, list, []string{")"})
	case 5:
		return join(x, []string{"IS"}, g.maybe("NOT"), []string{"NULL"})
	case 6:
		return join(x, []string{g.pick(genCompare)}, g.operand(depth), []string{g.pick(genCompare)}, g.operand(depth))
	}
	return x
}

func (g *selectorGen) operand(depth int) []string {
	switch g.r.IntN(10) {
	case 0, 1, 2, 3:
		return []string{g.pick(genProps)}
	case 4, 5, 6:
		return []string{g.pick(genLiterals)}
	case 7:
		return join([]string{g.pick([]string{"-", "+", "NOT"})}, g.operand(depth))
	}
	if depth > 0 {
		return join([]string{"("}, g.boolean(depth-1), []string{")"})
	}
	return []string{g.pick(genProps)}
}

func (g *selectorGen) maybe(tok string) []string {
	if g.r.IntN(2) == 0 {
		return nil
	}
	return []string{tok}
}

func join(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// mutate breaks a selector now and then: a token dropped, doubled, swapped
// or junk inserted.
func (g *selectorGen) mutate(toks []string) []string {
	for g.r.IntN(4) == 0 && len(toks) > 0 {
		i := g.r.IntN(len(toks))
		switch g.r.IntN(4) {
		case 0:
			toks = append(toks[:i:i], toks[i+1:]...)
		case 1:
			toks = append(toks[:i+1:i+1], toks[i:]...)
		case 2:
			j := g.r.IntN(len(toks))
			toks[i], toks[j] = toks[j], toks[i]
		default:
			toks = append(toks[:i:i], append([]string{g.pick(genJunk)}, toks[i:]...)...)
		}
	}
	return toks
}

// genAtoms are the pieces noise selectors are strung from.
var genAtoms = []string{
	"a", "b", "x", "1", "0", "9", ".", "e", "E", "L", "'", "''", "(", ")", ",", "=", "<", ">", "-", "+", "/",
	"*", " ", " ", " ", "\n", "\r", "\t", "#", "é", "😀", "NOT ", "AND ", "OR ", "IS ", "IN ", "NULL ",
	"BETWEEN ", "TRUE ", "FALSE ", "_", "$",
}

// noise strings atoms together, mostly producing lexical and syntax errors.
func (g *selectorGen) noise() string {
	var b strings.Builder
	for range 1 + g.r.IntN(12) {
		b.WriteString(g.pick(genAtoms))
	}
	return b.String()
}

func (g *selectorGen) selector() string {
	if g.r.IntN(5) == 0 {
		return g.noise()
	}
	toks := g.mutate(g.boolean(g.r.IntN(4)))
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteString(g.pick(genSeparators))
		}
		b.WriteString(t)
	}
	return b.String()
}

func (g *selectorGen) message() map[string]string {
	if g.r.IntN(10) == 0 {
		return nil
	}
	props := map[string]string{}
	for _, name := range genProps[:3] {
		if g.r.IntN(3) > 0 {
			props[name] = g.pick(genValues)
		}
	}
	return props
}

// TestRandomAgainstJava compares random selectors (valid and broken) on
// random messages with the real 4.9.8 classes, all in one JVM run.
func TestRandomAgainstJava(t *testing.T) {
	g := selectorGen{rand.New(rand.NewPCG(*diffSeed, 0x5ec1))}
	cases := make([]oracleCase, *diffCount)
	compiled := 0
	for i := range cases {
		cases[i] = oracleCase{g.selector(), g.message()}
		if _, err := Compile(cases[i].Expr); err == nil {
			compiled++
		}
	}
	agreed := compareWithJava(t, cases)
	t.Logf("seed %d: %d random cases (%d compile), %d agree with Java", *diffSeed, len(cases), compiled, agreed)
}
