// Package oracle runs the programs of compat/java — small tools built on
// the real Apache RocketMQ 4.9.8 jars from Maven Central — so that Go tests
// can compare Sputnik's bytes with Java's. See compat/java/README.md.
package oracle

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	cpOnce sync.Once
	cp     string
	cpErr  error
)

// Root is the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Classpath builds compat/java when needed (Maven, cached in ~/.m2) and
// returns its classpath. A machine without Java or Maven fails the test:
// the oracle is part of the proof, not an optional extra.
func Classpath(t testing.TB) string {
	t.Helper()
	cpOnce.Do(func() {
		script := filepath.Join(Root(), "compat", "java", "classpath.sh")
		var stderr bytes.Buffer
		cmd := exec.Command(script)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			cpErr = fmt.Errorf("building the Java 4.9.8 oracle (%s): %v\n%s", script, err, stderr.String())
			return
		}
		cp = strings.TrimSpace(string(out))
	})
	if cpErr != nil {
		t.Fatal(cpErr)
	}
	return cp
}

// Command returns an exec.Cmd running the oracle program class with args.
func Command(ctx context.Context, t testing.TB, jvmProps []string, class string, args ...string) *exec.Cmd {
	t.Helper()
	full := append([]string{"-cp", Classpath(t)}, jvmProps...)
	full = append(full, "io.sputnikmq.compat."+class)
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "java", full...)
	cmd.Env = append(os.Environ(), "JAVA_TOOL_OPTIONS=")
	return cmd
}

// Run runs an oracle program with stdin and returns its stdout; a non-zero
// exit fails the test with stderr.
func Run(t testing.TB, stdin string, jvmProps []string, class string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := Command(ctx, t, jvmProps, class, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("java %s %v: %v\nstdout:\n%s\nstderr:\n%s", class, args, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
