package storeoracle

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sputnikmq/sputnik/compat/oracle"
)

// JVMFlags are needed on JDK 9+: the 4.9.8 MappedFile.clean reflects into DirectByteBuffer and
// jdk.internal.ref.Cleaner when it unmaps a file, and throws InaccessibleObjectException without
// them (AllocateMappedFileService.shutdown and IndexService.load both unmap).
var JVMFlags = []string{
	"--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
	"--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
}

// SmallSettings are the MessageStoreConfig values the tests use: 64 KiB commit-log files and
// 30-unit consume-queue files so that a few hundred messages roll both over, a tiny index
// (8,440-byte files), and SYNC_FLUSH.
func SmallSettings() map[string]string {
	return map[string]string{
		"mappedFileSizeCommitLog":    "65536",
		"mappedFileSizeConsumeQueue": "600",
		"maxHashSlotNum":             "100",
		"maxIndexNum":                "400",
		"flushDiskType":              "SYNC_FLUSH",
	}
}

// Op is one write operation (one JSON line on StoreOracle write's stdin). See README.md.
type Op struct {
	Op                        string      `json:"op"` // put, delay, half, batch, commit, rollback
	Topic                     string      `json:"topic,omitempty"`
	QueueID                   int32       `json:"queueId"`
	Flag                      int32       `json:"flag,omitempty"`
	Body                      HexBytes    `json:"body,omitempty"`
	Properties                [][2]string `json:"properties,omitempty"`
	Raw                       bool        `json:"raw,omitempty"` // store-level put: string = pairs in order
	SysFlag                   int32       `json:"sysFlag,omitempty"`
	BornHost                  string      `json:"bornHost,omitempty"`  // "ip:port" or "[ipv6]:port"
	StoreHost                 string      `json:"storeHost,omitempty"` // default 127.0.0.1:10911
	BornTimestamp             int64       `json:"bornTimestamp"`
	ReconsumeTimes            int32       `json:"reconsumeTimes,omitempty"`
	PreparedTransactionOffset int64       `json:"preparedTransactionOffset,omitempty"`
	Level                     int         `json:"level,omitempty"`   // delay
	Entries                   []Entry     `json:"entries,omitempty"` // batch
	HalfOp                    *int        `json:"halfOp,omitempty"`  // commit/rollback: index of the half op
	HalfOffset                int64       `json:"halfOffset,omitempty"`
}

// Entry is one message of a batch op.
type Entry struct {
	Flag       int32       `json:"flag,omitempty"`
	Body       HexBytes    `json:"body,omitempty"`
	Properties [][2]string `json:"properties,omitempty"`
}

// HexBytes marshals as a lowercase hex string.
type HexBytes []byte

// MarshalJSON implements json.Marshaler.
func (h HexBytes) MarshalJSON() ([]byte, error) { return json.Marshal(hex.EncodeToString(h)) }

// PutResult is one result line of StoreOracle write (PutMessageResult + AppendMessageResult).
// A commit op yields two (the final message, then the op message), rollback one ("op").
type PutResult struct {
	Op             string `json:"op"`
	Status         string `json:"status"`
	AppendStatus   string `json:"appendStatus"`
	WroteOffset    int64  `json:"wroteOffset"`
	WroteBytes     int32  `json:"wroteBytes"`
	MsgID          string `json:"msgId"`
	LogicsOffset   int64  `json:"logicsOffset"`
	StoreTimestamp int64  `json:"storeTimestamp"`
	MsgNum         int32  `json:"msgNum"`
}

// args renders settings as sorted key=value arguments with storePathRootDir=dir.
func args(dir string, settings map[string]string) []string {
	out := []string{"storePathRootDir=" + dir}
	for k, v := range settings {
		if k != "storePathRootDir" {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out[1:])
	return out
}

// Write applies ops to a Java DefaultMessageStore rooted at dir (created when absent) and
// returns the result lines. With halt the JVM halts right after the last put (abort file left,
// dispatch possibly behind); otherwise it waits for dispatch and shuts down cleanly.
func Write(t testing.TB, dir string, settings map[string]string, ops []Op, halt bool) []PutResult {
	t.Helper()
	var in strings.Builder
	for i := range ops {
		b, err := json.Marshal(&ops[i])
		if err != nil {
			t.Fatalf("storeoracle: encoding op %d: %v", i, err)
		}
		in.Write(b)
		in.WriteByte('\n')
	}
	a := append([]string{"write"}, args(dir, settings)...)
	if halt {
		a = append(a, "--halt")
	}
	out := oracle.Run(t, in.String(), JVMFlags, "StoreOracle", a...)
	var res []PutResult
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var r PutResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("storeoracle: result line %q: %v", line, err)
		}
		res = append(res, r)
	}
	return res
}

// DumpStore opens dir with Java (recovery included), prints the canonical dump and parses it.
func DumpStore(t testing.TB, dir string, settings map[string]string) *Dump {
	t.Helper()
	out := oracle.Run(t, "", JVMFlags, "StoreOracle", append([]string{"dump"}, args(dir, settings)...)...)
	d, err := ParseDump(strings.NewReader(out))
	if err != nil {
		t.Fatalf("storeoracle: parsing Java dump of %s: %v", dir, err)
	}
	return d
}

// Ack is one "ack SEQ WROTEOFFSET QUEUEOFFSET" line of StoreOracle kill.
type Ack struct {
	Seq, WroteOffset, QueueOffset int64
}

// KillProcess is a running StoreOracle kill loop.
type KillProcess struct {
	cancel context.CancelFunc
	wait   func() error
	mu     sync.Mutex
	acks   []Ack
	done   chan struct{}
	perr   error
}

// StartKill starts the Java kill loop on dir; settings may set topic, queues and bodySize
// besides MessageStoreConfig keys. The process is killed at test cleanup at the latest.
func StartKill(t testing.TB, dir string, settings map[string]string) *KillProcess {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := oracle.Command(ctx, t, JVMFlags, "StoreOracle", append([]string{"kill"}, args(dir, settings)...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGKILL) }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatalf("storeoracle: kill stdout: %v", err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("storeoracle: starting kill loop: %v", err)
	}
	k := &KillProcess{cancel: cancel, wait: cmd.Wait, done: make(chan struct{})}
	go k.read(stdout)
	t.Cleanup(func() { k.Kill() })
	return k
}

func (k *KillProcess) read(r io.Reader) {
	defer close(k.done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		a, err := parseAck(sc.Text())
		k.mu.Lock()
		if err != nil && k.perr == nil {
			k.perr = err
		} else if err == nil {
			k.acks = append(k.acks, a)
		}
		k.mu.Unlock()
	}
}

func parseAck(line string) (Ack, error) {
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != "ack" {
		return Ack{}, fmt.Errorf("storeoracle: bad kill line %q", line)
	}
	var v [3]int64
	for i := range v {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return Ack{}, fmt.Errorf("storeoracle: bad kill line %q: %w", line, err)
		}
		v[i] = n
	}
	return Ack{Seq: v[0], WroteOffset: v[1], QueueOffset: v[2]}, nil
}

// WaitAcks waits until at least n acks arrived or timeout passed and returns how many there are.
func (k *KillProcess) WaitAcks(n int, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	for {
		k.mu.Lock()
		got := len(k.acks)
		k.mu.Unlock()
		if got >= n || time.Now().After(deadline) {
			return got
		}
		select {
		case <-k.done:
			return got
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Kill sends SIGKILL, waits for the process and returns every ack it printed. A malformed
// output line is returned as an error. Kill may be called more than once.
func (k *KillProcess) Kill() ([]Ack, error) {
	k.cancel()
	<-k.done
	_ = k.wait() // "signal: killed" is the expected outcome
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]Ack(nil), k.acks...), k.perr
}
