// Package javaclient drives the official Apache RocketMQ 4.9.8 Java client
// and tools from Go: it runs io.sputnikmq.conformance.Driver (see
// conformance/java) as a child process and exchanges one JSON line per
// request with it. One Driver serves a whole run; if it dies or a call times
// out, the next call starts a new one.
package javaclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config says how to start the driver.
type Config struct {
	// Java is the java executable ("java" when empty).
	Java string
	// Classpath is conformance/java's classpath.
	Classpath string
	// ClientClasspathScript is conformance/java/client-classpath.sh, for
	// RunWithClient (clients.go).
	ClientClasspathScript string
	// Home is the ROCKETMQ_HOME for mqadmin (conf/logback_tools.xml).
	Home string
	// Dir is the driver's user.home; LogFile its log; Stderr receives its
	// stderr (nil: appended to LogFile's directory as driver.stderr).
	Dir, LogFile string
	Stderr       io.Writer
}

// Driver is a running Java driver process.
type Driver struct {
	cfg Config

	mu      sync.Mutex // one call at a time
	toolsMu sync.Mutex // one MQAdminAs (its conf/tools.yml) at a time
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string
	done    chan struct{}
	nextID  int64

	clientsMu sync.Mutex        // guards clients
	clients   map[string]string // "client 4.7.1", "tools 4.3.2" → classpath
}

// Error is a failure reported by the Java side: an exception, with the
// RocketMQ response code it carried (0 when none).
type Error struct {
	Message string
	Code    int
}

func (e *Error) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("java: code %d: %s", e.Code, e.Message)
	}
	return "java: " + e.Message
}

// CodeOf returns the response code of a *Error in err's chain, or 0.
func CodeOf(err error) int {
	var je *Error
	if errors.As(err, &je) {
		return je.Code
	}
	return 0
}

// New returns a driver that starts its process on first use.
func New(cfg Config) *Driver { return &Driver{cfg: cfg} }

type response struct {
	ID     int64           `json:"id"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Out    string          `json:"out"`
	Err    string          `json:"err"`
	Error  string          `json:"error"`
	Code   *int            `json:"code"`
}

func (d *Driver) aliveLocked() bool {
	if d.cmd == nil {
		return false
	}
	select {
	case <-d.done:
		return false
	default:
		return true
	}
}

func (d *Driver) startLocked(ctx context.Context) error {
	java := d.cfg.Java
	if java == "" {
		java = "java"
	}
	cmd := exec.Command(java, "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-Duser.home="+d.cfg.Dir,
		"-Drocketmq.home.dir="+d.cfg.Home,
		"-Dconformance.logFile="+d.cfg.LogFile,
		"-Drocketmq.client.logUseSlf4j=true",
		"-cp", d.cfg.Classpath, "io.sputnikmq.conformance.Driver")
	cmd.Dir = d.cfg.Dir
	cmd.Env = append(os.Environ(), "ROCKETMQ_HOME="+d.cfg.Home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr := d.cfg.Stderr
	if stderr == nil {
		f, err := os.OpenFile(d.cfg.LogFile+".stderr", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		stderr = f
	}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("javaclient: start driver: %w", err)
	}
	lines := make(chan string, 16)
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		cmd.Wait()
		close(done)
	}()
	d.cmd, d.stdin, d.lines, d.done = cmd, stdin, lines, done
	// The driver says {"id":0,...,"result":"ready"} once it reads requests.
	if _, err := d.readLocked(ctx, 0, 60*time.Second); err != nil {
		d.killLocked()
		return fmt.Errorf("javaclient: driver did not start: %w", err)
	}
	return nil
}

func (d *Driver) readLocked(ctx context.Context, id int64, timeout time.Duration) (*response, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case line := <-d.lines:
			var r response
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				return nil, fmt.Errorf("javaclient: bad driver line %q: %w", truncate(line, 200), err)
			}
			if r.ID == id {
				return &r, nil
			}
		case <-d.done:
			return nil, errors.New("javaclient: driver exited")
		case <-t.C:
			return nil, fmt.Errorf("javaclient: no answer within %s", timeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (d *Driver) killLocked() {
	if d.cmd != nil && d.cmd.Process != nil {
		syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		<-d.done
	}
	d.cmd = nil
}

// call sends one request and waits for its answer. A timeout kills the
// driver: its state is unknown.
func (d *Driver) call(ctx context.Context, req map[string]any, timeout time.Duration) (*response, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.aliveLocked() {
		if err := d.startLocked(ctx); err != nil {
			return nil, err
		}
	}
	d.nextID++
	req["id"] = d.nextID
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := d.stdin.Write(append(b, '\n')); err != nil {
		d.killLocked()
		return nil, fmt.Errorf("javaclient: write: %w", err)
	}
	r, err := d.readLocked(ctx, d.nextID, timeout)
	if err != nil {
		d.killLocked()
		return nil, fmt.Errorf("%s: %w", req["op"], err)
	}
	if !r.OK {
		e := &Error{Message: r.Error}
		if r.Code != nil {
			e.Code = *r.Code
		}
		return r, e
	}
	return r, nil
}

// Close stops the driver process.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.aliveLocked() {
		return nil
	}
	d.stdin.Write([]byte(`{"id":-1,"op":"exit"}` + "\n"))
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		d.killLocked()
	}
	d.cmd = nil
	return nil
}

// Ping checks that the driver answers.
func (d *Driver) Ping(ctx context.Context) error {
	_, err := d.call(ctx, map[string]any{"op": "ping"}, 60*time.Second)
	return err
}

// Reset shuts down the cached DefaultMQAdminExt clients.
func (d *Driver) Reset(ctx context.Context) error {
	_, err := d.call(ctx, map[string]any{"op": "reset"}, 30*time.Second)
	return err
}

// MQAdmin runs one mqadmin command line (MQAdminStartup) and returns what
// it printed. mqadmin reports failure only in its output: callers must
// check out/errOut; err is about the driver itself.
func (d *Driver) MQAdmin(ctx context.Context, args ...string) (out, errOut string, err error) {
	r, err := d.call(ctx, map[string]any{"op": "mqadmin", "args": args}, 60*time.Second)
	if err != nil {
		return "", "", err
	}
	return r.Out, r.Err, nil
}

// MQAdminAs runs one mqadmin command line as MQAdmin does, its requests
// signed as account c. mqadmin (MQAdminStartup) reads its credentials from
// $ROCKETMQ_HOME/conf/tools.yml at every command (AclUtils.getAclRPCHook;
// without that file its requests go unsigned); the driver's home is
// Config.Home (rocketmq.home.dir), so the file is written there for this
// command only and removed afterwards. An MQAdmin call running at the same
// time would sign its requests too.
func (d *Driver) MQAdminAs(ctx context.Context, c Credentials, args ...string) (out, errOut string, err error) {
	d.toolsMu.Lock()
	defer d.toolsMu.Unlock()
	path := filepath.Join(d.cfg.Home, "conf", "tools.yml")
	yml := fmt.Sprintf("accessKey: %q\nsecretKey: %q\n", c.AccessKey, c.SecretKey)
	if err := os.WriteFile(path, []byte(yml), 0o600); err != nil {
		return "", "", fmt.Errorf("javaclient: mqadmin credentials: %w", err)
	}
	defer os.Remove(path)
	return d.MQAdmin(ctx, args...)
}

// Admin calls one DefaultMQAdminExt method through the driver (see
// AdminOps.java for the methods) and decodes its result into result
// (which may be nil).
func (d *Driver) Admin(ctx context.Context, ns, method string, result any, args ...string) error {
	if args == nil {
		args = []string{}
	}
	r, err := d.call(ctx, map[string]any{"op": "admin", "ns": ns, "method": method, "args": args}, 60*time.Second)
	if err != nil {
		return err
	}
	if result == nil || len(r.Result) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Result, result); err != nil {
		return fmt.Errorf("javaclient: %s result %s: %w", method, truncate(string(r.Result), 200), err)
	}
	return nil
}

// Queue is a message queue as the Java client reports it.
type Queue struct {
	Topic      string `json:"topic"`
	BrokerName string `json:"brokerName"`
	QueueID    int    `json:"queueId"`
}

// PublishQueues is DefaultMQProducer.fetchPublishMessageQueues(topic) from a
// fresh producer: the writable queues, sorted by broker then queue id.
func (d *Driver) PublishQueues(ctx context.Context, ns, topic string) ([]Queue, error) {
	r, err := d.call(ctx, map[string]any{"op": "route", "ns": ns, "topic": topic}, 60*time.Second)
	if err != nil {
		return nil, err
	}
	var qs []Queue
	if err := json.Unmarshal(r.Result, &qs); err != nil {
		return nil, err
	}
	return qs, nil
}

// Sent is one message DefaultMQProducer.send stored: its body, send status
// and queue.
type Sent struct {
	Body       string `json:"body"`
	Status     string `json:"status"`
	BrokerName string `json:"brokerName"`
	QueueID    int    `json:"queueId"`
	MsgID      string `json:"msgId"`
}

// Produce sends n messages to topic from a fresh DefaultMQProducer of group,
// synchronously, with bodies prefix-0 … prefix-(n-1). A failed send is an
// error.
func (d *Driver) Produce(ctx context.Context, ns, topic, group, prefix string, n int) ([]Sent, error) {
	r, err := d.call(ctx, map[string]any{"op": "produce", "ns": ns, "topic": topic, "group": group,
		"prefix": prefix, "count": n}, 60*time.Second+time.Duration(n)*5*time.Second)
	if err != nil {
		return nil, err
	}
	var sent []Sent
	if err := json.Unmarshal(r.Result, &sent); err != nil {
		return nil, err
	}
	return sent, nil
}

// Received is one message a push consumer got.
type Received struct {
	Body        string `json:"body"`
	BrokerName  string `json:"brokerName"`
	QueueID     int    `json:"queueId"`
	QueueOffset int64  `json:"queueOffset"`
	MsgID       string `json:"msgId"`
}

// Consume runs a fresh DefaultMQPushConsumer of group (clustering,
// CONSUME_FROM_FIRST_OFFSET) on topic until it received n distinct bodies
// starting with prefix+"-" or wait passed, then shuts it down. It returns
// what arrived, sorted by broker, queue and offset; complete is false when
// wait ran out first.
func (d *Driver) Consume(ctx context.Context, ns, topic, group, prefix string, n int, wait time.Duration) (msgs []Received, complete bool, err error) {
	r, err := d.call(ctx, map[string]any{"op": "consume", "ns": ns, "topic": topic, "group": group,
		"prefix": prefix, "count": n, "timeoutMs": wait.Milliseconds()}, wait+60*time.Second)
	if err != nil {
		return nil, false, err
	}
	var res struct {
		Complete bool       `json:"complete"`
		Messages []Received `json:"messages"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		return nil, false, err
	}
	return res.Messages, res.Complete, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// MQAdminFailed reports whether mqadmin output shows a failed sub command
// (it prints the exception, usually a SubCommandException, and exits 0).
func MQAdminFailed(out, errOut string) bool {
	for _, s := range []string{out, errOut} {
		if strings.Contains(s, "Exception") || strings.Contains(s, " Failed") || strings.Contains(s, "command failed") {
			return true
		}
	}
	return false
}

// Credentials are an account of a broker with ACL (Java 4.9.8's plain ACL).
// A BrokerOp whose params carry them (AddTo) builds its producers and
// consumers with AclClientRPCHook(new SessionCredentials(AccessKey,
// SecretKey)), which signs every request they send.
type Credentials struct {
	AccessKey, SecretKey string
}

// AddTo sets params' "accessKey" and "secretKey" and returns params; the
// zero Credentials leave params alone (clients without the hook).
func (c Credentials) AddTo(params map[string]any) map[string]any {
	if c != (Credentials{}) {
		params["accessKey"], params["secretKey"] = c.AccessKey, c.SecretKey
	}
	return params
}

// SerializeTypeParam is the BrokerOp parameter that starts the op's JVM
// with -Drocketmq.serialize.type set to its value (JSON or ROCKETMQ): the
// serialize type of every request its clients send.
const SerializeTypeParam = "serializeType"

// BrokerOp runs one operation of io.sputnikmq.conformance.BrokerOps (see
// conformance/java: produce, consume, rebalance, litePull, pull,
// mqadminLive; Credentials.AddTo signs their requests) in a JVM of its own, started with this driver's
// configuration (and SerializeTypeParam's), and decodes its result into
// result (which may be nil).
// Each call is independent: several may run at once, and clients of one
// call never share state with another's. The JVM is killed when ctx ends
// or timeout passes.
func (d *Driver) BrokerOp(ctx context.Context, params map[string]any, result any, timeout time.Duration) error {
	req, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("javaclient: broker op request: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var jvm []string
	if st, ok := params[SerializeTypeParam].(string); ok && st != "" {
		jvm = append(jvm, "-Drocketmq.serialize.type="+st)
	}
	out, err := d.runBrokerOps(ctx, req, jvm...)
	if err != nil {
		return fmt.Errorf("javaclient: broker op %v: %w", params["op"], err)
	}
	var r response
	line := strings.TrimSpace(out)
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		return fmt.Errorf("javaclient: broker op %v: bad answer %q: %w", params["op"], truncate(out, 300), err)
	}
	if !r.OK {
		e := &Error{Message: r.Error}
		if r.Code != nil {
			e.Code = *r.Code
		}
		return fmt.Errorf("broker op %v: %w", params["op"], e)
	}
	if result == nil || len(r.Result) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Result, result); err != nil {
		return fmt.Errorf("javaclient: broker op %v result %s: %w", params["op"], truncate(string(r.Result), 300), err)
	}
	return nil
}

// oneShotJVM is a JVM of the configured java with args, run in the
// driver's directory and a process group of its own, killed with the
// group when ctx ends.
func (d *Driver) oneShotJVM(ctx context.Context, args ...string) *exec.Cmd {
	java := d.cfg.Java
	if java == "" {
		java = "java"
	}
	cmd := exec.CommandContext(ctx, java, args...)
	cmd.Dir = d.cfg.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runBrokerOps starts BrokerOps with the extra JVM arguments, feeds it req
// and returns its stdout.
func (d *Driver) runBrokerOps(ctx context.Context, req []byte, jvm ...string) (string, error) {
	logFile := d.cfg.LogFile + ".brokerops"
	args := append([]string{"-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-Duser.home=" + d.cfg.Dir,
		"-Drocketmq.home.dir=" + d.cfg.Home,
		"-Dconformance.logFile=" + logFile,
		"-Drocketmq.client.logUseSlf4j=true"}, jvm...)
	cmd := d.oneShotJVM(ctx, append(args, "-cp", d.cfg.Classpath, "io.sputnikmq.conformance.BrokerOps")...)
	cmd.Env = append(os.Environ(), "ROCKETMQ_HOME="+d.cfg.Home)
	cmd.Stdin = strings.NewReader(string(req))
	stderr, err := os.OpenFile(logFile+".stderr", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", err
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("run BrokerOps: %w", err)
	}
	return string(out), nil
}
