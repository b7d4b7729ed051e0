package store

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/message"
)

// crashChild is the writer process of TestKill9SyncFlush: it appends
// SYNC_FLUSH messages forever and prints "ack SEQ QUEUEOFFSET PHYOFFSET"
// after each acknowledged one, until it is killed.
func crashChild(root string) {
	cfg := testConfig(root)
	cfg.FlushDiskType = SyncFlush
	s, err := Open(cfg, Options{Master: true})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	if err := s.Start(); err != nil {
		fmt.Println("start:", err)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	for seq := 0; ; seq++ {
		r := s.PutMessage(&Message{
			Topic: "Crash", QueueID: int32(seq % 2), Body: []byte(crashBody(seq)),
			Properties: props(message.PropKeys, "seq"+strconv.Itoa(seq)), BornHost: testBorn, StoreHost: testStore,
			WaitStoreMsgOK: true,
		})
		if r.Status != PutOK {
			fmt.Fprintln(w, "fail", seq, r.Status, r.Err)
			w.Flush()
			os.Exit(3)
		}
		fmt.Fprintln(w, "ack", seq, r.QueueOffset, r.WroteOffset)
		w.Flush()
	}
}

// crashBody is mostly short; every fifth body is 33-40 KiB, a put the
// commit log writes with pwritev (and 64 KiB segments then end with
// blanks of 32 KiB and more, written the same way).
func crashBody(seq int) string {
	if seq%5 == 2 {
		return fmt.Sprintf("message %d %s", seq, strings.Repeat("y", 33<<10+seq*97%(7<<10)))
	}
	return fmt.Sprintf("message %d %s", seq, strings.Repeat("x", seq%500))
}

type ack struct {
	seq, queueOffset, phy int64
}

// TestKill9SyncFlush kills a SYNC_FLUSH writer at random moments, 20
// times on one store, and checks after each crash that every acknowledged
// message is back at its offsets with its body, large ones included.
func TestKill9SyncFlush(t *testing.T) {
	if root := os.Getenv("SPUTNIK_CRASH_CHILD"); root != "" {
		crashChild(root)
		return
	}
	root := t.TempDir()
	acked := map[int64]ack{}
	for round := range 20 {
		acks := runAndKill(t, root, time.Duration(50+rand.IntN(250))*time.Millisecond)
		for _, a := range acks {
			acked[a.phy] = a
		}
		verifyAcked(t, root, acked, round, len(acks) > 0)
	}
	require.NotEmpty(t, acked)
	t.Logf("%d acknowledged messages checked after 20 kills", len(acked))
}

func runAndKill(t *testing.T, root string, after time.Duration) []ack {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9SyncFlush$")
	cmd.Env = append(os.Environ(), "SPUTNIK_CRASH_CHILD="+root)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	timer := time.AfterFunc(after, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
	defer timer.Stop()
	var acks []ack
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		require.Equal(t, "ack", f[0], sc.Text())
		var a ack
		a.seq, _ = strconv.ParseInt(f[1], 10, 64)
		a.queueOffset, _ = strconv.ParseInt(f[2], 10, 64)
		a.phy, _ = strconv.ParseInt(f[3], 10, 64)
		acks = append(acks, a)
	}
	_ = cmd.Wait()
	return acks
}

func verifyAcked(t *testing.T, root string, acked map[int64]ack, round int, started bool) {
	t.Helper()
	s := openStore(t, testConfig(root))
	defer s.Close()
	if started {
		require.False(t, s.LastExitOK(), "round %d: a killed store recovers abnormally", round)
	}
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	// The commit-log segment made ahead of need (segment.Queue.CreateAhead)
	// when the writer was killed is gone: recovery removes files past the
	// end of the log, as Java's does with its pre-allocated ones. A segment
	// that starts exactly at the end stays, as in Java's truncateDirtyFiles:
	// the writer had filled the one before and taken it as its current one.
	cfg := testConfig(root)
	files, err := os.ReadDir(cfg.CommitLogPaths()[0])
	require.NoError(t, err)
	size := int64(cfg.MappedFileSizeCommitLog)
	require.LessOrEqual(t, int64(len(files)), s.MaxPhyOffset()/size+1, "round %d: commit-log files past the end", round)
	for _, a := range acked {
		res, err := s.GetMessage("G", "Crash", int32(a.seq%2), a.queueOffset, 1, nil)
		require.NoError(t, err)
		require.Equal(t, Found, res.Status, "round %d: acked seq %d lost", round, a.seq)
		rec, err := message.DecodeRecord(res.Messages[0].B, true)
		require.NoError(t, err)
		require.Equal(t, a.phy, rec.PhysicalOffset, "round %d seq %d", round, a.seq)
		require.Equal(t, crashBody(int(a.seq)), string(rec.Body))
		res.Release()
	}
}
