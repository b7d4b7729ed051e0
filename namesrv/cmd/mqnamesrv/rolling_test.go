package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRollingFileKeepsFiveArchives(t *testing.T) {
	dir := t.TempDir()
	r, err := openRolling(dir)
	if err != nil {
		t.Fatal(err)
	}
	r.maxSize = 10
	for i := range 8 {
		if _, err := fmt.Fprintf(r, "line %d....\n", i); err != nil { // 12 bytes: every write rolls the next
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	cur, _ := os.ReadFile(filepath.Join(dir, "namesrv.log"))
	if string(cur) != "line 7....\n" {
		t.Errorf("current %q", cur)
	}
	for i := 1; i <= 5; i++ {
		f, err := os.Open(filepath.Join(dir, "otherdays", fmt.Sprintf("namesrv.%d.log.gz", i)))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(zr)
		f.Close()
		if want := fmt.Sprintf("line %d....\n", 7-i); string(data) != want {
			t.Errorf("archive %d = %q, want %q", i, data, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "otherdays", "namesrv.6.log.gz")); err == nil {
		t.Error("a sixth archive exists")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "otherdays")); len(entries) != 5 {
		names := []string{}
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("archives %s", strings.Join(names, " "))
	}
}
