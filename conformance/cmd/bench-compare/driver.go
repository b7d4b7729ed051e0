package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNoResult reports Java driver output without a valid RESULT line.
var ErrNoResult = errors.New("bench-compare: no RESULT line")

// benchDriverMain is the Java client driver (conformance/java).
const benchDriverMain = "io.sputnikmq.conformance.BenchDriver"

// parseResult reads the last "RESULT k=v k=v" line of out into a map of
// numbers; a malformed pair or no such line is ErrNoResult.
func parseResult(out []byte) (map[string]float64, error) {
	var line []byte
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); bytes.HasPrefix(l, []byte("RESULT ")) {
			line = append(line[:0], l...)
		}
	}
	if line == nil {
		return nil, ErrNoResult
	}
	res := make(map[string]float64)
	for _, f := range strings.Fields(string(line[len("RESULT "):])) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%w: bad pair %q", ErrNoResult, f)
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrNoResult, f, err)
		}
		res[k] = n
	}
	return res, nil
}

// javaDriver runs BenchDriver with args and parses its result; its log
// goes to logName under the run directory. cpu is the CPU time the JVM
// used (user + system), 0 when it did not run to the end.
func (c *compare) javaDriver(ctx context.Context, logName string, args ...string) (res map[string]float64, cpu time.Duration, err error) {
	logFile := filepath.Join(c.launcher.RunDir, logName+".log")
	argv := []string{"-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-Drocketmq.client.logUseSlf4j=true",
		"-Dconformance.logFile=" + logFile, "-Duser.home=" + c.launcher.RunDir, "-cp", c.launcher.Java.Classpath, benchDriverMain}
	cmd := exec.CommandContext(ctx, "java", append(argv, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	_ = os.WriteFile(filepath.Join(c.launcher.RunDir, logName+".out"), append(out, stderr.Bytes()...), 0o644)
	if err != nil {
		return nil, 0, fmt.Errorf("BenchDriver %s: %w: %s", args[0], err, tail(stderr.String(), 300))
	}
	res, err = parseResult(out)
	return res, processCPU(cmd), err
}

// processCPU is the CPU time (user + system) a finished command used.
func processCPU(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
