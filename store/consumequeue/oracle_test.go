package consumequeue

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

// javaOpens lets MappedFile.destroy unmap through DirectByteBuffer
// internals on JDK 17.
var javaOpens = []string{"--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"}

// javaScript runs the script through the real 4.9.8 ConsumeQueue.
func javaScript(t *testing.T, root string, args []string, script string) string {
	t.Helper()
	return oracle.Run(t, script, javaOpens, "ConsumeQueueOracle", append([]string{root}, args...)...)
}

// queueFiles maps the path (under root) of every consume-queue and ext file
// to its bytes.
func queueFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, sub := range []string{"consumequeue", "consumequeue_ext"} {
		dir := filepath.Join(root, sub)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			rel, _ := filepath.Rel(root, path)
			files[rel] = b
			return err
		}))
	}
	return files
}

// TestJavaOracle runs every script under testdata/scripts through Java
// 4.9.8's ConsumeQueue and through this package: the outputs must match
// line for line and the files byte for byte. Then each side reads the
// other's files after a restart and must see the same queue.
//
// Java 4.9.8: ConsumeQueue.putMessagePositionInfo, recover,
// truncateDirtyLogicFiles, correctMinOffset, deleteExpiredFile,
// getOffsetInQueueByTime, ConsumeQueueExt.
func TestJavaOracle(t *testing.T) {
	scripts, err := filepath.Glob("testdata/scripts/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	for _, path := range scripts {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			script := string(b)
			args := scriptArgs(t, script)
			javaRoot, goRoot := t.TempDir(), t.TempDir()
			want := javaScript(t, javaRoot, args, script)
			got := goScript(t, goRoot, args, script)
			if strings.Contains(script, "# java-differs") {
				checkJavaDiffers(t, want, got)
				return
			}
			require.Equal(t, want, got, "script output")
			wantFiles, gotFiles := queueFiles(t, javaRoot), queueFiles(t, goRoot)
			require.Equal(t, keys(wantFiles), keys(gotFiles), "file names")
			truncates := strings.Contains(script, "\ntruncate ")
			for name, w := range wantFiles {
				if truncates {
					requireZeroedTail(t, name, w, gotFiles[name])
					continue
				}
				require.True(t, bytes.Equal(w, gotFiles[name]), "%s differs from Java's", name)
			}

			const reread = "open\nrecover\nstate\nunits\n"
			fromJava := goScript(t, javaRoot, args, reread)
			fromGo := javaScript(t, goRoot, args, reread)
			require.Contains(t, fromJava, "unit ")
			if truncates {
				// Java reads Sputnik's files as Sputnik does, and Sputnik
				// reads Java's as Java does (cut-off units back included).
				require.Equal(t, goScript(t, goRoot, args, reread), fromGo, "Java reading Sputnik's files")
				require.Equal(t, javaScript(t, javaRoot, args, reread), fromJava, "Sputnik reading Java's files")
				return
			}
			require.Equal(t, fromGo, fromJava, "each side reading the other's files")
		})
	}
}

// requireZeroedTail checks a file after a truncation: Sputnik zeroes the
// units it cut off (Queue.TruncateAfter), Java only moves its write
// position past them. So the files agree up to a unit boundary and
// Sputnik's is zero after it.
func requireZeroedTail(t *testing.T, name string, java, sputnik []byte) {
	t.Helper()
	require.Len(t, sputnik, len(java), name)
	i := 0
	for i < len(java) && java[i] == sputnik[i] {
		i++
	}
	i -= i % UnitSize
	require.Equal(t, java[:i], sputnik[:i], name)
	require.Equal(t, make([]byte, len(sputnik)-i), sputnik[i:], "%s: Sputnik's file past the cut at %d", name, i)
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// checkJavaDiffers pins emptylast.txt: Java keeps a zero unit and the dirty
// units, Sputnik cuts the queue at the commit log's end.
func checkJavaDiffers(t *testing.T, java, got string) {
	t.Helper()
	require.Contains(t, java, "unit 5 0 0 0", "Java 4.9.8 still keeps the zero unit")
	require.Contains(t, java, "unit 4 400 100 5", "Java 4.9.8 still keeps the dirty unit")
	require.NotContains(t, got, "unit 5 ")
	require.Contains(t, got, "state min 0 max 3 maxphy 300")
	require.NotContains(t, got, "unit 3 ")
}
