package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Role is what a node is.
type Role string

// The roles of a node.
const (
	RoleNamesrv Role = "namesrv"
	RoleBroker  Role = "broker"
)

// Boot lines printed on stdout once a server is up (4.9.8 NamesrvStartup
// and BrokerStartup; Sputnik prints the same).
var (
	namesrvBoot = regexp.MustCompile(`^The Name Server boot success\. serializeType=`)
	brokerBoot  = regexp.MustCompile(`^The broker\[.*\] boot success\. serializeType=`)
)

// ErrExited reports a node whose process ended before it was ready.
var ErrExited = errors.New("exited before boot")

// Node is one running (or stopped) server process. Its directory holds the
// properties file, ROCKETMQ_HOME, the store and the logs: stdout.log and
// stderr.log collect the output of every start of the process, and
// logs/<role>.log the Java servers' own logging.
type Node struct {
	Role Role
	Impl Impl
	// Name is the name server's directory name, or a broker's brokerName
	// (the same for a master and its slaves).
	Name string
	// BrokerID is a broker's brokerId: 0 for a master.
	BrokerID int
	Dir      string
	Config   string // the properties file passed with -c
	Port     int

	newCmd func() *exec.Cmd
	// base is the implementation the node was started as; other is the
	// command of the other one on the same configuration file, ports and
	// store (nil when it cannot run here, otherErr says why), for
	// SwitchImpl.
	base         Impl
	other        func() *exec.Cmd
	otherErr     error
	boot         *regexp.Regexp
	readyTimeout time.Duration
	// serialize is the serialize type the node runs with (SerializeEnv),
	// "" for the default, JSON; its boot line must name it.
	serialize string

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{} // closed when the current process has been reaped
	err    error         // its exit status
	starts int
	tail   *tailBuffer
	// launched is when the current process's exec returned to us, booted
	// when its boot line reached us.
	launched, booted time.Time
	bootLine         string
}

// Addr is the node's client-facing address, 127.0.0.1:listenPort.
func (n *Node) Addr() string { return fmt.Sprintf("127.0.0.1:%d", n.Port) }

// String names the node in messages: "broker-a (java, 127.0.0.1:20911)",
// "broker-a#1 (java, 127.0.0.1:24571)" for a slave.
func (n *Node) String() string {
	name := n.Name
	if n.BrokerID != 0 {
		name = fmt.Sprintf("%s#%d", n.Name, n.BrokerID)
	}
	return fmt.Sprintf("%s (%s, %s)", name, n.Impl, n.Addr())
}

// Home is the node's ROCKETMQ_HOME (conf/logback_*.xml and, for a broker
// with ACL, conf/plain_acl.yml).
func (n *Node) Home() string { return filepath.Join(n.Dir, "home") }

// StdoutPath and StderrPath are the captured output files.
func (n *Node) StdoutPath() string { return filepath.Join(n.Dir, "stdout.log") }

// StderrPath is where the process's stderr goes.
func (n *Node) StderrPath() string { return filepath.Join(n.Dir, "stderr.log") }

// Running reports whether the process is alive.
func (n *Node) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.runningLocked()
}

// runningLocked is Running with n.mu held.
func (n *Node) runningLocked() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// Pid is the current process id, 0 when not running.
func (n *Node) Pid() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd == nil || n.cmd.Process == nil {
		return 0
	}
	return n.cmd.Process.Pid
}

// Launched is when the current process's exec returned and Booted when
// its boot line was read (zero before).
func (n *Node) Launched() (launched, booted time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.launched, n.booted
}

// start launches the process and waits until it printed its boot line and
// accepts TCP connections on its port.
func (n *Node) start(ctx context.Context) error {
	n.mu.Lock()
	if n.runningLocked() {
		n.mu.Unlock()
		return fmt.Errorf("%s: already running", n)
	}
	n.starts++
	starts := n.starts
	cmd := n.newCmd()
	n.mu.Unlock()

	stdout, err := os.OpenFile(n.StdoutPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	stderr, err := os.OpenFile(n.StderrPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		stdout.Close()
		return err
	}
	banner := fmt.Sprintf("=== start #%d at %s: %s\n", starts, time.Now().Format(time.RFC3339Nano), strings.Join(cmd.Args, " "))
	stdout.WriteString(banner)
	stderr.WriteString(banner)

	tail := &tailBuffer{max: 4096}
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = io.MultiWriter(stderr, tail)
	cmd.Dir = n.Dir
	// Own process group, so Stop/Kill reach whatever the server spawns;
	// SIGKILL if the runner's thread dies without cleaning up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		stdout.Close()
		stderr.Close()
		return fmt.Errorf("%s: %w", n, err)
	}
	done := make(chan struct{})
	n.mu.Lock()
	n.cmd, n.done, n.err, n.tail = cmd, done, nil, tail
	n.launched, n.booted = time.Now(), time.Time{}
	n.mu.Unlock()
	track(n)

	booted := make(chan struct{})
	go func() {
		n.scanStdout(pr, io.MultiWriter(stdout, tail), booted)
		stdout.Close() // the pipe drained: the process and its output are gone
	}()
	go func() {
		err := cmd.Wait()
		pw.Close()
		stderr.Close()
		n.mu.Lock()
		n.err = err
		n.mu.Unlock()
		close(done)
	}()

	return n.waitReady(ctx, booted, done)
}

func (n *Node) scanStdout(r io.Reader, w io.Writer, booted chan struct{}) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	seen := false
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		if !seen && n.boot.MatchString(line) {
			seen = true
			n.mu.Lock()
			n.booted, n.bootLine = time.Now(), line
			n.mu.Unlock()
			close(booted)
		}
	}
	io.Copy(io.Discard, r)
}

func (n *Node) waitReady(ctx context.Context, booted, done chan struct{}) error {
	timeout := n.readyTimeout
	if timeout <= 0 {
		timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case <-booted:
		if err := n.checkBootSerialize(); err != nil {
			n.Kill()
			return err
		}
	case <-done:
		return n.exitError()
	case <-ctx.Done():
		n.Kill()
		if errors.Is(ctx.Err(), context.Canceled) {
			return fmt.Errorf("%s: start interrupted: %w", n, ctx.Err())
		}
		return fmt.Errorf("%s: no boot line within %s (%w); output: %s", n, timeout, ctx.Err(), n.tailText())
	}
	for {
		c, err := net.DialTimeout("tcp", n.Addr(), time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-done:
			return n.exitError()
		case <-ctx.Done():
			n.Kill()
			return fmt.Errorf("%s: printed its boot line but %s refuses connections: %v", n, n.Addr(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// bootSerialize finds the serialize type in a boot line.
var bootSerialize = regexp.MustCompile(`serializeType=(\w+)`)

// checkBootSerialize fails when the boot line names another serialize type
// than the node was started with: both implementations print the type
// their remoting layer was configured with.
func (n *Node) checkBootSerialize() error {
	want := n.serialize
	if want == "" {
		want = "JSON"
	}
	n.mu.Lock()
	line := n.bootLine
	n.mu.Unlock()
	if m := bootSerialize.FindStringSubmatch(line); m == nil || m[1] != want {
		return fmt.Errorf("%s: boot line %q, want serializeType=%s", n, line, want)
	}
	return nil
}

func (n *Node) exitError() error {
	n.mu.Lock()
	err := n.err
	n.mu.Unlock()
	status := "exit status 0"
	if err != nil {
		status = err.Error()
	}
	return fmt.Errorf("%s: %s %w (%s); output: %s", n, n.Impl.Program(n.Role), ErrExited, status, n.tailText())
}

func (n *Node) tailText() string {
	n.mu.Lock()
	t := n.tail
	n.mu.Unlock()
	if t == nil {
		return ""
	}
	s := strings.TrimSpace(t.String())
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " | ")), " ")
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}

// Stop sends SIGTERM (a graceful shutdown: the Java broker unregisters from
// the name server and removes its abort file) and waits up to timeout, then
// kills. Stopping a stopped node is a no-op.
func (n *Node) Stop(timeout time.Duration) error {
	return n.signalAndWait(syscall.SIGTERM, timeout)
}

// Kill sends SIGKILL to the node's process group and waits for it.
func (n *Node) Kill() error {
	return n.signalAndWait(syscall.SIGKILL, 10*time.Second)
}

func (n *Node) signalAndWait(sig syscall.Signal, timeout time.Duration) error {
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	default:
	}
	pid := cmd.Process.Pid
	syscall.Kill(-pid, sig)
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
	}
	if sig == syscall.SIGKILL {
		return fmt.Errorf("%s: pid %d survived SIGKILL for %s", n, pid, timeout)
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	select {
	case <-done:
		return fmt.Errorf("%s: did not stop within %s of SIGTERM; killed", n, timeout)
	case <-time.After(10 * time.Second):
		return fmt.Errorf("%s: pid %d survived SIGKILL", n, pid)
	}
}

// Restart stops the node (gracefully) if it runs, then starts it again with
// the same directory, configuration and ports.
func (n *Node) Restart(ctx context.Context) error {
	if err := n.Stop(30 * time.Second); err != nil {
		return err
	}
	return n.start(ctx)
}

// Start starts a stopped or killed node again.
func (n *Node) Start(ctx context.Context) error { return n.start(ctx) }

// SwitchImpl makes a stopped node start next time as the other
// implementation (Java for Sputnik and the reverse) on the same
// configuration file, ports and store directory: an operator replacing
// one broker with the other in place.
func (n *Node) SwitchImpl() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.runningLocked() {
		return fmt.Errorf("%s: stop it before switching its implementation", n)
	}
	if n.other == nil {
		why := n.otherErr
		if why == nil {
			why = errors.New("only brokers switch")
		}
		return fmt.Errorf("%s: cannot switch implementation: %w", n, why)
	}
	n.newCmd, n.other = n.other, n.newCmd
	n.Impl = n.Impl.Other()
	return nil
}

// Switched reports whether the node now runs as the other implementation
// than it was started as.
func (n *Node) Switched() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.Impl != n.base
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// All nodes ever started by this process, for KillAll.
var (
	trackedMu sync.Mutex
	tracked   = map[*Node]bool{}
)

func track(n *Node) {
	trackedMu.Lock()
	tracked[n] = true
	trackedMu.Unlock()
}

// KillAll kills every node this process started that still runs. The runner
// calls it on exit, on SIGINT/SIGTERM and on panic.
func KillAll() {
	trackedMu.Lock()
	nodes := make([]*Node, 0, len(tracked))
	for n := range tracked {
		nodes = append(nodes, n)
	}
	trackedMu.Unlock()
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Kill()
		}()
	}
	wg.Wait()
}
