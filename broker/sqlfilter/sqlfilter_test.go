package sqlfilter

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestErrorsMatchSentinels(t *testing.T) {
	_, err := Compile("a = ")
	require.ErrorIs(t, err, ErrInvalid)
	require.NotErrorIs(t, err, ErrEvaluation)

	e, err := Compile("a > 1")
	require.NoError(t, err)
	_, err = e.Evaluate(lookup(map[string]string{"a": "x"}))
	require.ErrorIs(t, err, ErrEvaluation)
	// Java 4.9.8: ComparisonExpression.__compare wraps Integer.valueOf's exception.
	require.EqualError(t, err, `java.lang.RuntimeException: java.lang.NumberFormatException: For input string: "x"`)
	require.False(t, e.Match(lookup(map[string]string{"a": "x"})))
}

// TestDepthLimits pins the stand-ins for Java's StackOverflowError: nesting
// Java's parser survives compiles, deeper nesting fails with Java's text,
// and long AND/OR chains (which Java parses in a loop) are fine.
func TestDepthLimits(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("(", n) + "a = 1" + strings.Repeat(")", n) }
	e, err := Compile(nested(1000))
	require.NoError(t, err)
	require.True(t, e.Match(lookup(map[string]string{"a": "1"})))

	for _, deep := range []string{
		nested(5000),
		strings.Repeat("NOT ", 100000) + "a",
		strings.Repeat("- ", 100000) + "a IS NULL",
		strings.Repeat("+ ", 100000) + "a",
		"a" + strings.Repeat(" = a", 10000),
		"a" + strings.Repeat(" IS NULL", 10000),
		"+ " + nested(5000),
	} {
		_, err := Compile(deep)
		require.ErrorIs(t, err, ErrInvalid)
		require.EqualError(t, err, "java.lang.StackOverflowError")
	}

	terms := make([]string, 100000)
	for i := range terms {
		terms[i] = "a = 'x'"
	}
	terms[len(terms)-1] = "a = 'y'"
	e, err = Compile(strings.Join(terms, " OR "))
	require.NoError(t, err)
	require.True(t, e.Match(lookup(map[string]string{"a": "y"})))
	require.False(t, e.Match(lookup(map[string]string{"a": "z"})))
}

func TestMatchDoesNotAllocate(t *testing.T) {
	e, err := Compile("a > 5 AND b IN ('x', 'y') AND c IS NOT NULL AND d BETWEEN 1.5 AND 3.0 OR e = 'z'")
	require.NoError(t, err)
	props := benchProps{{"a", "10"}, {"b", "y"}, {"c", "1"}, {"d", "2.5"}}
	lookup := props.lookup
	require.True(t, e.Match(lookup))
	// Java 4.9.8: with an Integer bound the property goes through
	// Integer.valueOf("2.5"), which throws, so the message is not selected.
	e3, err := Compile("d BETWEEN 1.5 AND 3")
	require.NoError(t, err)
	require.False(t, e3.Match(lookup))
	require.Zero(t, testing.AllocsPerRun(100, func() { e.Match(lookup) }))
	bad := benchProps{{"a", "not a number"}}.lookup
	require.False(t, e.Match(bad))
	require.Zero(t, testing.AllocsPerRun(100, func() { e.Match(bad) }))
}

// benchProps is a message's properties as the broker might hold them.
type benchProps [][2]string

func (p benchProps) lookup(name string) (string, bool) {
	for _, kv := range p {
		if kv[0] == name {
			return kv[1], true
		}
	}
	return "", false
}

func BenchmarkMatch(b *testing.B) {
	for _, bc := range []struct {
		name, expr string
		props      benchProps
	}{
		{"tags", "TAGS IN ('TagA', 'TagB', 'TagC')", benchProps{{"KEYS", "k1"}, {"TAGS", "TagB"}, {"WAIT", "true"}}},
		{"numeric", "a > 5 AND b BETWEEN 1.5 AND 3.0", benchProps{{"a", "10"}, {"b", "2.5"}}},
		{"mixed", "a > 5 AND b IN ('x', 'y', 'z', 'w', 'v') AND c IS NOT NULL OR d = 'q'",
			benchProps{{"a", "10"}, {"b", "v"}, {"c", "1"}, {"UNIQ_KEY", "AC11000100002A9F0000000000000000"}}},
		{"throws", "a > 5", benchProps{{"a", "not a number"}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e, err := Compile(bc.expr)
			if err != nil {
				b.Fatal(err)
			}
			lookup := bc.props.lookup
			b.ReportAllocs()
			for b.Loop() {
				e.Match(lookup)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// FuzzCompile checks that no input makes Compile, Evaluate, Match or String
// panic or disagree with each other. Its seeds are the table's selectors.
func FuzzCompile(f *testing.F) {
	for _, e := range tableExprs {
		f.Add(e, "1", "x")
	}
	f.Add(strings.Repeat("(", 3000)+"a", "", "")
	f.Add(strings.Repeat("+ (", 600)+"a", "", "")
	f.Fuzz(func(t *testing.T, expr, a, b string) {
		e, err := Compile(expr)
		if err != nil {
			if !errors.Is(err, ErrInvalid) || err.Error() == "" {
				t.Fatalf("Compile(%q): unexpected error %#v", expr, err)
			}
			return
		}
		_ = e.String()
		props := lookup(map[string]string{"a": a, "b": b, "c": a + b})
		v, err := e.Evaluate(props)
		switch {
		case err != nil && !errors.Is(err, ErrEvaluation):
			t.Fatalf("Evaluate(%q): unexpected error %#v", expr, err)
		case err == nil && v != nil && v != true && v != false:
			t.Fatalf("Evaluate(%q) = %#v, want null or a Boolean", expr, v)
		}
		if m := e.Match(props); m != (err == nil && v == true) {
			t.Fatalf("Match(%q) = %v, Evaluate = %v, %v", expr, m, v, err)
		}
	})
}
