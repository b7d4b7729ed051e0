// Package benchcli holds what the benchmark commands (tools/cmd/*bench*,
// conformance/cmd/*-compare) share on their command lines: list flags and
// CPU profiles.
package benchcli

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
)

// PositiveInts reads a comma-separated list of positive numbers (spaces
// around each allowed), such as -sizes 128,1024 or -depths 1,8.
func PositiveInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad count %q in %q: want positive numbers, comma-separated", f, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// StartCPUProfile starts a CPU profile written to path; the returned
// function stops it and closes the file.
func StartCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}
