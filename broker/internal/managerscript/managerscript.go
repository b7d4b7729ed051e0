// Package managerscript runs the broker managers' scripted comparison with
// Java: a testdata/*.script is run by the real 4.9.7-broker managers
// (compat/java BrokerManagers) and by the Go manager under test; the
// transcripts must be the same bytes, file dumps included, with DataVersion
// timestamps blanked (Java reads the wall clock). testdata/*.golden keeps
// Java's transcript for review.
package managerscript

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

var timestampRE = regexp.MustCompile(`"timestamp":-?\d+`)

func normalize(s string) string { return timestampRE.ReplaceAllString(s, `"timestamp":0`) }

// scriptLines returns the script's commands (blank and # lines dropped).
func scriptLines(t testing.TB, path string) [][]string {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out [][]string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, strings.Fields(line))
	}
	return out
}

// Unescape is BrokerManagers.unescape: -empty- is "", \s a space, \t a
// tab, \uXXXX a UTF-16 unit.
func Unescape(s string) string {
	if s == "-empty-" {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 's':
			b.WriteByte(' ')
		case 't':
			b.WriteByte('\t')
		case 'u':
			v, _ := strconv.ParseUint(s[i+1:i+5], 16, 16) // the scripts are ours
			b.WriteRune(rune(v))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// CompareWithJava runs testdata/<script>.script through Java's
// BrokerManagers and through run (which returns Go's transcript for a
// store root) and compares them; update rewrites testdata/<script>.golden.
func CompareWithJava(t *testing.T, script string, update bool, run func(t *testing.T, root string, cmds [][]string) string) {
	path := filepath.Join("testdata", script+".script")
	javaOut := normalize(oracle.Run(t, "", nil, "BrokerManagers", path, t.TempDir()))
	golden := filepath.Join("testdata", script+".golden")
	if update {
		require.NoError(t, os.WriteFile(golden, []byte(javaOut), 0o644))
	}
	goOut := normalize(run(t, t.TempDir(), scriptLines(t, path)))
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), javaOut, "Java's transcript changed; rerun with -update and review")
	if goOut != javaOut {
		t.Errorf("Go and Java differ:\n%s", firstDiff(javaOut, goOut))
	}
}

// firstDiff shows where two transcripts part ways.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			from := max(0, i-8)
			return fmt.Sprintf("line %d\n--- java (from line %d)\n%s\n--- go\n%s", i+1, from+1,
				strings.Join(w[from:min(len(w), i+4)], "\n"), strings.Join(g[from:min(len(g), i+4)], "\n"))
		}
	}
	return "(same)"
}

// FileOrMissing is the `X.file` command.
func FileOrMissing(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "<missing>"
	}
	return string(data)
}
