package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sputnikmq/sputnik/conformance/cluster"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitLog writes files of size bytes each, named by start offset,
// holding pattern bytes, into a new directory.
func commitLog(t *testing.T, size int64, files int, edit func(dir string)) string {
	dir := t.TempDir()
	for f := range files {
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(int64(f)*size + int64(i))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%020d", int64(f)*size)), b, 0o644))
	}
	if edit != nil {
		edit(dir)
	}
	return dir
}

func TestSameCommitLogs(t *testing.T) {
	const size = 3 << 20 // more than one compare chunk per file
	master := commitLog(t, size, 2, nil)
	flip := func(name string, at int64) func(string) {
		return func(dir string) {
			f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR, 0)
			require.NoError(t, err)
			defer f.Close()
			_, err = f.WriteAt([]byte{0xff}, at)
			require.NoError(t, err)
		}
	}
	tests := []struct {
		name  string
		slave string
		end   int64
		err   string
	}{
		{name: "the same", slave: commitLog(t, size, 2, nil), end: 2 * size},
		{name: "the same up to end, then not", slave: commitLog(t, size, 2, flip(fmt.Sprintf("%020d", size), 5)), end: size + 5},
		{name: "a byte apart", slave: commitLog(t, size, 2, flip(fmt.Sprintf("%020d", size), 2<<20+7)), end: 2 * size,
			err: fmt.Sprintf("differ at byte %d of %020d", 2<<20+7, size)},
		{name: "a file missing", slave: commitLog(t, size, 1, nil), end: size + 1, err: "differ in their files"},
		{name: "the missing file past end", slave: commitLog(t, size, 1, nil), end: size},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := sameCommitLogs(master, tc.slave, tc.end)
			if tc.err == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, tc.err)
			}
		})
	}
}

func TestRestartTarget(t *testing.T) {
	o := options{restartWhich: "both"}
	_, role := restartTarget(o, 1)
	assert.Equal(t, "master", role, "no slave")
	o.slaveNode, o.brokerNode = &cluster.Node{}, &cluster.Node{}
	var roles []string
	for i := 1; i <= 4; i++ {
		_, r := restartTarget(o, i)
		roles = append(roles, r)
	}
	assert.Equal(t, []string{"master", "slave", "master", "slave"}, roles)
	o.restartWhich = "slave"
	_, role = restartTarget(o, 1)
	assert.Equal(t, "slave", role)
}
