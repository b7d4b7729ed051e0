package store

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAbortMarker(t *testing.T) {
	root := t.TempDir()
	ok, err := lastExitOK(root)
	require.NoError(t, err)
	require.True(t, ok, "no abort file: clean")
	require.Error(t, syncAbort(root), "nothing to sync before the mark exists")
	require.NoError(t, createAbort(root))
	require.NoError(t, syncAbort(root))
	ok, err = lastExitOK(root)
	require.NoError(t, err)
	require.False(t, ok)
	require.NoError(t, removeAbort(root))
	ok, _ = lastExitOK(root)
	require.True(t, ok)
}

// The lock is a POSIX record lock on byte 0, so it excludes another
// process (record locks do not conflict within one process). flock(1)
// takes a different kind of lock; a child `sh` using fcntl is not at hand,
// so the child is this test binary re-executed.
func TestLockExcludesOtherProcess(t *testing.T) {
	if root := os.Getenv("SPUTNIK_LOCK_CHILD"); root != "" {
		_, err := lockStore(root)
		if err == nil {
			os.Exit(0)
		}
		os.Exit(3)
	}
	root := t.TempDir()
	l, err := lockStore(root)
	require.NoError(t, err)

	child := func() int {
		cmd := exec.Command(os.Args[0], "-test.run=TestLockExcludesOtherProcess")
		cmd.Env = append(os.Environ(), "SPUTNIK_LOCK_CHILD="+root)
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	}
	require.Equal(t, 3, child(), "a second process must not get the lock")
	require.NoError(t, l.release())
	require.Equal(t, 0, child(), "released: the other process gets it")
	// Read only after release: closing any descriptor of the file drops a
	// process's POSIX locks on it, so nothing may open the lock file while
	// the store runs.
	b, _ := os.ReadFile(lockPath(root))
	require.Equal(t, "lock", string(b))
}
