package benchcli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestPositiveInts(t *testing.T) {
	for in, want := range map[string][]int{"128, 1024,65536": {128, 1024, 65536}, "1, 8": {1, 8}} {
		if got, err := PositiveInts(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "1,,2", "0", "x", "1,x", "-2"} {
		if _, err := PositiveInts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestStartCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	stop, err := StartCPUProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("profile %s: %v %v", path, st, err)
	}
	if _, err := StartCPUProfile(filepath.Join(t.TempDir(), "no", "such", "dir")); err == nil {
		t.Error("profile into a missing directory started")
	}
}
