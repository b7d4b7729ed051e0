package sqlfilter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

// oracleCase is one line of compat/java SqlFilterOracle's input: a selector
// and a message's properties (nil: a message without a properties map).
type oracleCase struct {
	Expr  string            `json:"expr"`
	Props map[string]string `json:"props"`
}

// javaAnswer is SqlFilterOracle's answer (schema in its class comment).
type javaAnswer struct {
	CompileError *string         `json:"compileError"`
	String       *string         `json:"string"`
	StringError  string          `json:"stringError"`
	Type         string          `json:"type"`
	Value        json.RawMessage `json:"value"`
	EvalError    *string         `json:"evalError"`
	Match        bool            `json:"match"`
	OracleError  string          `json:"oracleError"`
}

// askJava runs every case through one SqlFilterOracle JVM.
func askJava(t *testing.T, cases []oracleCase) []javaAnswer {
	t.Helper()
	var in strings.Builder
	enc := json.NewEncoder(&in)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		require.NoError(t, enc.Encode(c))
	}
	out := strings.Split(strings.TrimSuffix(oracle.Run(t, in.String(), nil, "SqlFilterOracle"), "\n"), "\n")
	require.Len(t, out, len(cases))
	answers := make([]javaAnswer, len(out))
	for i, line := range out {
		require.NoError(t, json.Unmarshal([]byte(line), &answers[i]), line)
		require.Empty(t, answers[i].OracleError, "oracle failed on %q", cases[i].Expr)
	}
	return answers
}

func lookup(props map[string]string) func(string) (string, bool) {
	if props == nil {
		return nil
	}
	return func(name string) (string, bool) {
		v, ok := props[name]
		return v, ok
	}
}

// diffJava returns how Go's answer to c differs from Java's, or "".
func diffJava(c oracleCase, java javaAnswer) string {
	e, err := Compile(c.Expr)
	if java.CompileError != nil {
		if err == nil {
			return fmt.Sprintf("compiled (%s), Java: %q", e, *java.CompileError)
		}
		if err.Error() != *java.CompileError {
			return fmt.Sprintf("compile error\n  go:   %q\n  java: %q", err, *java.CompileError)
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("compile error %q, Java compiled %v", err, deref(java.String))
	}
	var diffs []string
	if java.String != nil && e.String() != *java.String {
		diffs = append(diffs, fmt.Sprintf("String()\n  go:   %s\n  java: %s", e, *java.String))
	}
	v, err := e.Evaluate(lookup(c.Props))
	switch {
	case java.EvalError != nil && err == nil:
		diffs = append(diffs, fmt.Sprintf("evaluated to %v, Java threw %q", v, *java.EvalError))
	case java.EvalError != nil && err.Error() != *java.EvalError:
		diffs = append(diffs, fmt.Sprintf("eval error\n  go:   %q\n  java: %q", err, *java.EvalError))
	case java.EvalError == nil && err != nil:
		diffs = append(diffs, fmt.Sprintf("eval error %q, Java gave %s %s", err, java.Type, java.Value))
	case java.EvalError == nil:
		if got := goType(v); got != java.Type || got != "null" && string(java.Value) != fmt.Sprint(v) {
			diffs = append(diffs, fmt.Sprintf("value %s %v, Java %s %s", got, v, java.Type, java.Value))
		}
	}
	if m := e.Match(lookup(c.Props)); m != java.Match {
		diffs = append(diffs, fmt.Sprintf("Match %v, Java %v", m, java.Match))
	}
	return strings.Join(diffs, "; ")
}

func goType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "Boolean"
	}
	return fmt.Sprintf("%T", v)
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// compareWithJava asks Java about every case and fails the test for each
// case where Go answers differently; it returns how many agreed.
func compareWithJava(t *testing.T, cases []oracleCase) int {
	t.Helper()
	answers := askJava(t, cases)
	agreed := 0
	for i, c := range cases {
		if d := diffJava(c, answers[i]); d != "" {
			t.Errorf("%q props %v: %s", c.Expr, c.Props, d)
			continue
		}
		agreed++
	}
	return agreed
}
