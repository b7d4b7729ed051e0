package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/sputnikmq/sputnik/tools/procfs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/cluster"
)

// startTimes is how long a name server took to come up, from the moment
// the launcher started its process (the banner it writes to stdout.log
// just before exec).
type startTimes struct {
	// Listening: until the port accepted a TCP connection (probed every
	// millisecond).
	Listening time.Duration `json:"listeningNanos"`
	// BootLine: until stdout.log held "The Name Server boot success."
	BootLine time.Duration `json:"bootLineNanos"`
	// Launcher: the whole StartNamesrv call (files, exec, readiness).
	Launcher time.Duration `json:"launcherNanos"`
}

// server is one running name server under test.
type server struct {
	node  *cluster.Node
	rss   *procfs.Sampler
	start startTimes
}

var bootLine = []byte("The Name Server boot success.")

// probeInterval is how often the start probe dials and reads stdout.log.
const probeInterval = time.Millisecond

// startServer starts a name server of impl in a fresh node directory
// (name plus a sequence number, so that the probe knows its stdout.log in
// advance), measuring its start, and begins sampling its procfs.Memory.
func (c *compare) startServer(ctx context.Context, impl cluster.Impl, name string) (*server, error) {
	c.starts++
	name = fmt.Sprintf("%s-%d", name, c.starts)
	port, err := c.launcher.Ports.Namesrv()
	if err != nil {
		return nil, err
	}
	stdout := filepath.Join(c.launcher.RunDir, name+"-"+string(impl), "stdout.log")
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	probe := make(chan probeResult, 1)
	go probeStart(pctx, fmt.Sprintf("127.0.0.1:%d", port), stdout, probe)

	if impl == cluster.Sputnik && c.sputnikProcs > 0 {
		// The launcher passes our environment on when it builds the command.
		os.Setenv("GOMAXPROCS", strconv.Itoa(c.sputnikProcs))
		defer os.Unsetenv("GOMAXPROCS")
	}
	t0 := time.Now()
	n, err := c.launcher.StartNamesrv(ctx, impl, cluster.NamesrvOptions{Name: name, Port: port})
	launch := time.Since(t0)
	if err != nil {
		return nil, err
	}
	var pr probeResult
	select {
	case pr = <-probe:
	case <-time.After(5 * time.Second):
		cancel()
		pr = <-probe
	}
	s := &server{node: n, rss: procfs.StartSampler(n.Pid(), c.rssEvery), start: startTimes{Launcher: launch}}
	if n.StdoutPath() != stdout {
		// Someone else's directory was in the way: the probe read the
		// wrong file, so only the launcher's time is known.
		return s, nil
	}
	started := bannerTime(stdout, t0)
	if !pr.listening.IsZero() {
		s.start.Listening = pr.listening.Sub(started)
	}
	if !pr.booted.IsZero() {
		s.start.BootLine = pr.booted.Sub(started)
	}
	return s, nil
}

// stop stops the server (SIGTERM) and returns its last procfs.Memory reading.
func (s *server) stop() procfs.Memory {
	m := s.rss.Close()
	if err := s.node.Stop(30 * time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "nsbench-compare:", err)
	}
	return m
}

type probeResult struct {
	listening, booted time.Time
}

// probeStart dials addr and reads stdoutPath every probeInterval until it
// has seen both the port accept and the boot line, or ctx ends.
func probeStart(ctx context.Context, addr, stdoutPath string, out chan<- probeResult) {
	var r probeResult
	defer func() { out <- r }()
	t := time.NewTicker(probeInterval)
	defer t.Stop()
	for r.listening.IsZero() || r.booted.IsZero() {
		if r.listening.IsZero() {
			if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
				r.listening = time.Now()
				c.Close()
			}
		}
		if r.booted.IsZero() {
			if b, err := os.ReadFile(stdoutPath); err == nil && bytes.Contains(b, bootLine) {
				r.booted = time.Now()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// bannerTime reads the launcher's banner, "=== start #1 at <RFC3339Nano>:
// <command>", the last thing written before the process is started;
// fallback when it cannot be read.
func bannerTime(stdoutPath string, fallback time.Time) time.Time {
	f, err := os.Open(stdoutPath)
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() {
		return fallback
	}
	_, rest, ok := strings.Cut(sc.Text(), " at ")
	if !ok {
		return fallback
	}
	stamp, _, ok := strings.Cut(rest, ": ")
	if !ok {
		return fallback
	}
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return fallback
	}
	return t
}
