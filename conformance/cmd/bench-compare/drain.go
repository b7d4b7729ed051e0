package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sputnikmq/sputnik/tools/brokerbench"
)

// clientGoDrain times the client-go push consumer draining the consume
// topic. With -brokerbench it runs `brokerbench drain` in a process of its
// own, as the Java consumer runs in its own JVM, so that the consumer does
// not share this process's heap, goroutines and scheduler with the
// harness; without it the consumer runs in this process.
//
// cpu is the consumer process's CPU time, 0 when it ran in this process.
func (c *compare) clientGoDrain(ctx context.Context, r *implRun, group string) (res brokerbench.DrainResult, cpu time.Duration, err error) {
	timeout := 120 * time.Second
	if c.brokerbenchBin == "" {
		res, err = brokerbench.Drain(ctx, c.namesrv.Addr(), consumeTopic, group, c.prefill, timeout)
		return res, 0, err
	}
	cmd := exec.CommandContext(ctx, c.brokerbenchBin, "-namesrv", c.namesrv.Addr(), "-topic", consumeTopic,
		"-consumer-group", group, "-count", strconv.FormatInt(c.prefill, 10), "-timeout", timeout.String(), "drain")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	logName := fmt.Sprintf("clientgo-drain-%s-r%d.out", r.Impl, r.Round)
	_ = os.WriteFile(filepath.Join(c.launcher.RunDir, logName), append(out, stderr.Bytes()...), 0o644)
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		return res, 0, fmt.Errorf("brokerbench drain: %v (output: %s)", jerr, tail(string(out)+stderr.String(), 300))
	}
	if err != nil {
		return res, 0, fmt.Errorf("brokerbench drain: %w: %s", err, tail(stderr.String(), 300))
	}
	return res, processCPU(cmd), nil
}
