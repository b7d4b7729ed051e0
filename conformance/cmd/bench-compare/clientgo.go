package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"time"
)

// sendTPSField is how client-go's benchmark producer logs its rate (a
// logrus field of "Benchmark Producer Snapshot").
var sendTPSField = regexp.MustCompile(`sendTps=(\d+)`)

// parseSendTPS returns the last sendTps the client-go benchmark printed.
func parseSendTPS(out []byte) (float64, error) {
	m := sendTPSField.FindAllSubmatch(out, -1)
	if len(m) == 0 {
		return 0, fmt.Errorf("%w: no sendTps in client-go benchmark output", ErrNoResult)
	}
	v, err := strconv.ParseFloat(string(m[len(m)-1][1]), 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNoResult, err)
	}
	return v, nil
}

// clientGoMaxBody is the largest body client-go v2.1.2's benchmark can
// send: buildMsg slices a 1000-character string (benchmark/message.go) and
// panics on -s above it.
const clientGoMaxBody = 1000

// clientGoSend runs client-go v2.1.2's benchmark producer (its
// benchmark/ directory, built by the Makefile) for run, then stops it with
// SIGINT, on which it prints the rate of its last ten one-second
// snapshots. It runs one instance: its producers ignore -g and all take
// the group DEFAULT_PRODUCER, so in one process only the first of several
// starts and the others spin on "producer not started".
func (c *compare) clientGoSend(ctx context.Context, r *implRun, run time.Duration) (float64, error) {
	path := filepath.Join(c.launcher.RunDir, fmt.Sprintf("clientgo-send-%s-r%d.out", r.Impl, r.Round))
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	cmd := exec.CommandContext(ctx, c.clientGoBench, "producer", "-t", sendTopic, "-n", c.namesrv.Addr(),
		"-g", "bench_clientgo_producer", "-i", "1", "-s", strconv.Itoa(min(c.send.BodySize, clientGoMaxBody)), "-m", "10")
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("client-go benchmark: %w", err)
	}
	sleepCtx(ctx, run)
	_ = cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	return lastSendTPS(path)
}

// lastSendTPS scans the benchmark's output file for its last sendTps.
func lastSendTPS(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var last []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte("sendTps=")) {
			last = append(last[:0], sc.Bytes()...)
		}
	}
	return parseSendTPS(last)
}
