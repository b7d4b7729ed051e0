// Package distribution holds the bin scripts and sample configuration that
// replace Apache RocketMQ 4.9.8's distribution; this test checks that each
// script finds the Go binary where its header says, in that order.
package distribution

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeBinary writes an executable shell script at path that prints who it
// is, ROCKETMQ_HOME and its arguments, so a test sees which candidate the
// wrapper ran.
func fakeBinary(t *testing.T, path, who string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	script := "#!/bin/sh\necho \"" + who + " home=$ROCKETMQ_HOME args=$*\"\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
}

// install copies the wrapper script name into home/bin.
func install(t *testing.T, home, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("bin", name))
	require.NoError(t, err)
	dst := filepath.Join(home, "bin", name)
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	require.NoError(t, os.WriteFile(dst, src, 0o755))
	return dst
}

func runWrapper(t *testing.T, script string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func TestWrappersFindTheBinary(t *testing.T) {
	for _, name := range []string{"mqnamesrv", "mqbroker", "mqshutdown"} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			script := install(t, home, name)
			env := []string{"ROCKETMQ_HOME="}

			_, err := runWrapper(t, script, env)
			require.Error(t, err, "no binary anywhere must fail")

			// A source tree: <home>/bin/../../bin/<name>.
			fakeBinary(t, filepath.Join(filepath.Dir(home), "bin", name), "tree")
			t.Cleanup(func() { _ = os.RemoveAll(filepath.Join(filepath.Dir(home), "bin")) })
			out, err := runWrapper(t, script, env, "broker")
			require.NoError(t, err)
			require.Equal(t, "tree home="+home+" args=broker", out)

			fakeBinary(t, filepath.Join(home, "lib", name), "lib")
			out, err = runWrapper(t, script, env, "-n", "127.0.0.1:9876")
			require.NoError(t, err)
			require.Equal(t, "lib home="+home+" args=-n 127.0.0.1:9876", out)

			fakeBinary(t, filepath.Join(home, "bin", "sputnik-"+name), "installed")
			out, err = runWrapper(t, script, env)
			require.NoError(t, err)
			require.Equal(t, "installed home="+home+" args=", out)

			// An explicit ROCKETMQ_HOME is kept and passed on.
			other := t.TempDir()
			out, err = runWrapper(t, script, []string{"ROCKETMQ_HOME=" + other})
			require.NoError(t, err)
			require.Equal(t, "installed home="+other+" args=", out)
		})
	}
}
