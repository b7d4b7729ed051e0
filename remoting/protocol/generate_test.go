package protocol

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sputnikmq/sputnik/remoting/protocol/internal/spec"
)

// TestGeneratedFilesCurrent runs the generator on spec.txt into a temporary
// directory and compares the result byte for byte with the committed
// zz_*.go files: edit spec.txt, then run `go generate ./remoting/protocol`.
func TestGeneratedFilesCurrent(t *testing.T) {
	files, err := spec.GenerateFile("spec.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f.Name)
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./remoting/protocol)", f.Name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./remoting/protocol", f.Name)
		}
		if !bytes.HasPrefix(got, []byte(spec.Generated)) {
			t.Errorf("%s lacks the generated-code line", f.Name)
		}
	}
	// No generated file is left over from an older generator.
	old, err := filepath.Glob("zz_*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != len(files) {
		t.Errorf("zz_*.go files %v, generator writes %d", old, len(files))
	}
}
