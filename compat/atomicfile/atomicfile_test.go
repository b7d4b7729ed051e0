package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteKeepsBakAndLeavesNoTmp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "f.json")
	for _, content := range []string{"one", "two", "three"} {
		if err := Write(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	for file, want := range map[string]string{path: "three", path + ".bak": "two"} {
		if got, err := os.ReadFile(file); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", filepath.Base(file), got, err, want)
		}
	}
	if _, err := os.Stat(path + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".tmp: %v", err)
	}
}

func TestWriteFailsIntoAFile(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(blocker, "f"), []byte("x")); err == nil {
		t.Fatal("wrote below a regular file")
	}
}
