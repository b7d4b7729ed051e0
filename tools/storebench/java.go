package storebench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

// JavaFlags are the JVM flags of every Java run: the broker's test heap
// (-Xmx1g -Xms1g) and the module openings 4.9.8's MappedFile needs on
// JDK 17 to unmap files (without them shutdown and file deletion throw).
var JavaFlags = []string{
	"-Xmx1g", "-Xms1g", "-XX:MaxDirectMemorySize=15g", // runbroker.sh sets the same; transientStorePoolEnable needs it
	"--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
	"--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
}

var (
	javaCPOnce sync.Once
	javaCP     string
	javaCPErr  error
)

// javaClasspath builds compat/java when needed and returns its classpath
// (compat/oracle.Classpath does the same for tests, but wants a
// testing.TB).
func javaClasspath() (string, error) {
	javaCPOnce.Do(func() {
		script := filepath.Join(oracle.Root(), "compat", "java", "classpath.sh")
		var stderr bytes.Buffer
		cmd := exec.Command(script)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			javaCPErr = fmt.Errorf("%w: building the Java oracle (%s): %v\n%s", ErrChild, script, err, stderr.String())
			return
		}
		javaCP = strings.TrimSpace(string(out))
	})
	return javaCP, javaCPErr
}

// javaCommand is the command running j with compat/java's StoreBench on
// the real 4.9.8 DefaultMessageStore.
func javaCommand(ctx context.Context, j *Job) (*exec.Cmd, error) {
	cp, err := javaClasspath()
	if err != nil {
		return nil, err
	}
	args := append([]string{"-cp", cp}, JavaFlags...)
	args = append(args, "io.sputnikmq.compat.StoreBench", j.Kind,
		"storePathRootDir="+j.Dir,
		"size="+strconv.Itoa(j.Size),
		"threads="+strconv.Itoa(j.Threads),
		"queues="+strconv.Itoa(max(j.Queues, 1)),
		"messages="+strconv.FormatInt(j.Messages, 10),
		"progressBytes="+strconv.FormatInt(max(j.ProgressBytes, 1), 10),
		"halt="+strconv.FormatBool(j.Halt),
	)
	if j.SegmentSize > 0 {
		args = append(args, "mappedFileSizeCommitLog="+strconv.Itoa(int(j.SegmentSize)))
	}
	args = append(args, j.Settings...)
	cmd := exec.CommandContext(ctx, "java", args...)
	cmd.Env = append(os.Environ(), "JAVA_TOOL_OPTIONS=")
	return cmd, nil
}

// command is the child command of j for impl.
func command(ctx context.Context, impl string, j *Job) (*exec.Cmd, error) {
	if impl == Java {
		return javaCommand(ctx, j)
	}
	return sputnikCommand(ctx, j)
}
