package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Paths come back absolute (servers run from their node directories), a
// run directory named is created, and one not named is a new temporary
// directory with the prefix; the Java classpath is read only when needed.
func TestNewLocalLauncher(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cp := filepath.Join(dir, "cp.txt")
	require.NoError(t, os.WriteFile(cp, []byte("a.jar:b.jar\n"), 0o644))

	l, err := NewLocalLauncher(context.Background(), LocalOptions{Bin: "bin", Classpath: "missing.sh", RunDir: "run/x"})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, "bin"), l.SputnikBin)
	require.Equal(t, filepath.Join(dir, "run/x"), l.RunDir)
	require.DirExists(t, l.RunDir)
	require.Empty(t, l.Java.Classpath)
	require.NotNil(t, l.Ports)

	l, err = NewLocalLauncher(context.Background(), LocalOptions{Bin: "bin", Classpath: cp, NeedJava: true, TempPrefix: "soak-test-"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(l.RunDir) })
	require.True(t, strings.HasPrefix(filepath.Base(l.RunDir), "soak-test-"), l.RunDir)
	require.Equal(t, "a.jar:b.jar", l.Java.Classpath)

	_, err = NewLocalLauncher(context.Background(), LocalOptions{Bin: "bin", Classpath: filepath.Join(dir, "none"), NeedJava: true, RunDir: "run/y"})
	require.Error(t, err)
}
