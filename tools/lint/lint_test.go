package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/sputnikmq/sputnik/"

// forbidden maps a package prefix to the prefixes of ours it must not
// import (a trailing "$" bans that exact package only, leaf bans every
// package of ours): packages show the architecture and imports point one
// way. The most specific prefix's rule applies.
var forbidden = map[string][]string{
	"remoting/wire":     {"remoting$", "remoting/protocol", "store", "broker", "namesrv", "compat", "conformance", "tools"},
	"remoting/protocol": {"remoting$", "store", "broker", "namesrv", "compat", "conformance", "tools"},
	"remoting":          {"store", "broker", "namesrv", "compat", "conformance", "tools"},
	"store":             {"remoting", "broker", "namesrv", "conformance", "tools"},
	"namesrv":           {"broker", "store", "conformance"},
	"broker":            {"namesrv", "conformance"},
	"compat":            {"broker", "namesrv", "store", "conformance", "tools"},
	"compat/javalang":   {leaf},
}

// leaf, as a rule's only ban, keeps a package free of imports of ours, so
// that any layer may depend on it.
const leaf = "*"

// allowed maps a rule's prefix to the exact packages of ours it may import
// although one of its bans covers them.
var allowed = map[string][]string{
	// The header codecs parse fields as Integer.parseInt & co do; that
	// java.lang semantics lives once, in a leaf shared with compat.
	"remoting/protocol": {"compat/javalang", "compat/javalang/jhash"},
	// The wire encoders write ext fields in java.util.HashMap's order
	// (remoting/wire/extorder.go); that order lives once, in a leaf.
	"remoting/wire": {"compat/javalang/jhash"},
}

// globalLogrus are logrus package-level functions that use the global
// logger; library code takes an injected *logrus.Entry instead.
var globalLogrus = map[string]bool{
	"StandardLogger": true, "SetLevel": true, "SetOutput": true, "SetFormatter": true,
	"WithField": true, "WithFields": true, "WithError": true, "WithContext": true,
	"Debug": true, "Debugf": true, "Info": true, "Infof": true, "Print": true, "Printf": true,
	"Warn": true, "Warnf": true, "Warning": true, "Error": true, "Errorf": true,
	"Fatal": true, "Fatalf": true, "Panic": true, "Panicf": true,
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

type goFile struct {
	rel  string // path relative to the repository root
	dir  string // package directory relative to the root
	ast  *ast.File
	test bool
}

func parseAll(t *testing.T) []goFile {
	root := repoRoot(t)
	var files []goFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if name == "testdata" || name == "target" || name == "bin" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if !strings.HasSuffix(path, "_test.go") {
			// Re-parse fully for the logger rule.
			if f, err = parser.ParseFile(fset, path, nil, 0); err != nil {
				return err
			}
		}
		rel, _ := filepath.Rel(root, path)
		files = append(files, goFile{rel: rel, dir: filepath.ToSlash(filepath.Dir(rel)), ast: f, test: strings.HasSuffix(path, "_test.go")})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found")
	}
	return files
}

func within(dir, prefix string) bool {
	return dir == prefix || strings.HasPrefix(dir, prefix+"/")
}

// rulesFor returns the forbidden prefixes of the most specific rule.
func rulesFor(dir string) (string, []string) {
	best := ""
	for p := range forbidden {
		if within(dir, p) && len(p) > len(best) {
			best = p
		}
	}
	return best, forbidden[best]
}

// importViolation says why a package in dir must not import target (both
// relative to the module), or returns "".
func importViolation(dir, target string) string {
	rule, bans := rulesFor(dir)
	if within(target, rule) || slices.Contains(allowed[rule], target) {
		return ""
	}
	for _, ban := range bans {
		switch exact, isExact := strings.CutSuffix(ban, "$"); {
		case ban == leaf:
			return rule + " is a leaf: it must not import any package of ours"
		case isExact && target == exact, !isExact && within(target, ban):
			msg := rule + " must not depend on " + exact
			if ok := allowed[rule]; len(ok) > 0 {
				msg += " (allowed: " + strings.Join(ok, ", ") + ")"
			}
			return msg
		}
	}
	return ""
}

func TestImportDirection(t *testing.T) {
	for _, f := range parseAll(t) {
		if f.test {
			continue // tests may reach across (e.g. compat tests drive servers)
		}
		for _, imp := range f.ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			target, ours := strings.CutPrefix(path, module)
			if !ours {
				continue
			}
			if why := importViolation(f.dir, target); why != "" {
				t.Errorf("%s imports %s: %s", f.rel, path, why)
			}
		}
	}
}

// TestImportRules pins the rules themselves, exceptions included.
func TestImportRules(t *testing.T) {
	tests := []struct {
		dir, target string
		ok          bool
	}{
		{"remoting/protocol", "compat/javalang", true},
		{"remoting/protocol/internal/spec", "compat/javalang", true},
		{"remoting/protocol", "compat/javaprops", false},
		{"remoting/protocol", "compat", false},
		{"remoting/protocol", "remoting/wire", true},
		{"remoting/protocol", "remoting", false},
		{"remoting/wire", "compat/javalang", false},
		{"remoting/wire", "compat/javalang/jhash", true},
		{"remoting", "compat/javalang", false},
		{"compat/javalang", "remoting/wire", false},
		{"compat/javalang", "compat/javaprops", false},
		{"compat/fastjson", "compat/javalang", true},
		{"compat/fastjson", "remoting/wire", true},
		{"compat/fastjson", "namesrv", false},
		{"namesrv", "compat/javalang", true},
		{"store/commitlog", "remoting/wire", false},
	}
	for _, tt := range tests {
		if why := importViolation(tt.dir, tt.target); (why == "") != tt.ok {
			t.Errorf("%s importing %s: allowed %v, want %v (%s)", tt.dir, tt.target, why == "", tt.ok, why)
		}
	}
}

func TestNoGlobalLoggerInLibraries(t *testing.T) {
	for _, f := range parseAll(t) {
		if f.test || f.ast.Name.Name == "main" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "logrus" && globalLogrus[sel.Sel.Name] {
				t.Errorf("%s uses logrus.%s: library code logs through an injected *logrus.Entry", f.rel, sel.Sel.Name)
			}
			return true
		})
	}
}

func TestRulesCoverTopLevel(t *testing.T) {
	root := repoRoot(t)
	for _, dir := range []string{"remoting", "store", "broker", "namesrv", "compat"} {
		if _, err := os.Stat(filepath.Join(root, dir)); err != nil {
			t.Errorf("top-level package %s missing: %v", dir, err)
		}
		if _, ok := forbidden[dir]; !ok {
			t.Errorf("no import rule for %s", dir)
		}
	}
}
