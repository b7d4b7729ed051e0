package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/ha"
	"github.com/sputnikmq/sputnik/store/message"
)

// haPair opens a master and a slave store that replicate over loopback.
func haPair(t *testing.T, role BrokerRole, tweak ...func(*Config)) (master, slave *Store) {
	t.Helper()
	master = openMaster(t, append(tweak, func(c *Config) { c.BrokerRole = role })...)
	return master, openSlave(t, t.TempDir(), master.HAAddr().String())
}

// openMaster opens a store that serves slaves on a free port.
func openMaster(t *testing.T, tweak ...func(*Config)) *Store {
	t.Helper()
	mc := testConfig(t.TempDir())
	mc.HaListenPort = 0
	for _, f := range tweak {
		f(&mc)
	}
	master, err := Open(mc, Options{Master: true, HA: true})
	require.NoError(t, err)
	require.NoError(t, master.Start())
	t.Cleanup(func() { _ = master.Close() })
	return master
}

func openSlave(t *testing.T, root, masterAddr string) *Store {
	t.Helper()
	sc := testConfig(root)
	sc.BrokerRole = Slave
	sc.HaListenPort = 0
	slave, err := Open(sc, Options{HA: true})
	require.NoError(t, err)
	slave.SetHAMasterAddress(masterAddr)
	require.NoError(t, slave.Start())
	t.Cleanup(func() { _ = slave.Close() })
	return slave
}

// commitLogBytes reads a store's commit-log files back to back.
func commitLogBytes(t *testing.T, s *Store) []byte {
	t.Helper()
	var out []byte
	for _, seg := range s.cl.Queue().Segments() {
		v, err := s.cl.Read(seg.Base(), int(seg.Wrote()))
		require.NoError(t, err)
		out = append(out, v.B...)
		v.Release()
	}
	return out
}

func caughtUp(master, slave *Store) func() bool {
	return func() bool {
		return slave.cl.MaxOffset() == master.cl.MaxOffset() && slave.DispatchBehind() == 0
	}
}

func TestSlaveReplicatesCommitLog(t *testing.T) {
	master, slave := haPair(t, AsyncMaster)
	eventually(t, "the slave to connect", func() bool { return master.HAConnections() == 1 })
	msgs := putN(t, master, 400) // several 64 KiB files
	require.Greater(t, len(master.cl.Queue().Segments()), 2)
	eventually(t, "the slave to catch up", caughtUp(master, slave))
	require.Equal(t, commitLogBytes(t, master), commitLogBytes(t, slave))
	checkAll(t, slave, msgs)
	eventually(t, "the master to see the acknowledgement", func() bool { return master.SlaveFallBehind() == 0 })

	// A restarted slave asks for its own max offset and carries on.
	root := slave.cfg.StorePathRootDir
	require.NoError(t, slave.Close())
	more := putN(t, master, 50)
	slave = openSlave(t, root, master.HAAddr().String())
	eventually(t, "the restarted slave to catch up", caughtUp(master, slave))
	require.Equal(t, commitLogBytes(t, master), commitLogBytes(t, slave))
	checkAll(t, slave, append(msgs, more...))
}

func TestEmptySlaveStartsAtMastersNewestFile(t *testing.T) {
	master := openMaster(t)
	putN(t, master, 150)
	segs := master.cl.Queue().Segments()
	require.Greater(t, len(segs), 1)
	newest := segs[len(segs)-1].Base()

	slave := openSlave(t, t.TempDir(), master.HAAddr().String())
	eventually(t, "the slave to catch up", caughtUp(master, slave))
	require.Equal(t, newest, slave.cl.MinOffset(), "Java's master sends an empty slave its newest file only")
	v, err := master.cl.Read(newest, int(master.cl.MaxOffset()-newest))
	require.NoError(t, err)
	defer v.Release()
	require.Equal(t, v.B, commitLogBytes(t, slave))
}

func syncPut(t *testing.T, s *Store) PutResult {
	t.Helper()
	return s.PutMessage(&Message{
		Topic: "SyncTopic", Body: []byte("replicated before the answer"), WaitStoreMsgOK: true,
		Properties: props(message.PropWait, "true"), BornHost: testBorn, StoreHost: testStore,
	})
}

func TestSyncMasterWaitsForSlave(t *testing.T) {
	master, slave := haPair(t, SyncMaster)
	eventually(t, "the slave to connect", func() bool { return master.HAConnections() == 1 })
	eventually(t, "the slave's first report", func() bool { return master.SlaveOK(master.cl.MaxOffset()) })
	for range 20 {
		r := syncPut(t, master)
		require.Equal(t, PutOK, r.Status, "%v", r.Err)
		require.GreaterOrEqual(t, master.ha.master.Load().Acked(), r.End(), "answered before a slave had it")
	}
	require.Equal(t, master.cl.MaxOffset(), slave.cl.MaxOffset())

	require.NoError(t, slave.Close())
	eventually(t, "the master to drop the slave", func() bool { return master.HAConnections() == 0 })
	r := syncPut(t, master)
	require.Equal(t, SlaveNotAvailable, r.Status)
	require.Positive(t, r.WroteBytes, "the message is stored all the same")
}

// With transientStorePoolEnable an append becomes readable only when the
// commit service writes it; the slave still gets it promptly.
func TestSyncMasterWithTransientStorePool(t *testing.T) {
	master, slave := haPair(t, SyncMaster, func(c *Config) { c.TransientStorePoolEnable = true })
	require.True(t, master.cl.Staged())
	eventually(t, "the slave's first report", func() bool { return master.SlaveOK(master.cl.MaxOffset()) })
	begun := time.Now()
	for range 5 {
		r := syncPut(t, master)
		require.Equal(t, PutOK, r.Status, "%v", r.Err)
	}
	require.Less(t, time.Since(begun), 4*time.Second, "each put waited for a heartbeat (5 s)")
	eventually(t, "the slave to catch up", caughtUp(master, slave))
}

// SlaveOK exposes the SYNC_MASTER precondition to tests.
func (s *Store) SlaveOK(end int64) bool {
	m := s.ha.master.Load()
	return m != nil && m.SlaveOK(end)
}

func TestSyncMasterTimesOutOnSilentSlave(t *testing.T) {
	master := openMaster(t, func(c *Config) { c.BrokerRole, c.SlaveTimeout = SyncMaster, 200 })

	// A slave that asks for the log and never confirms anything.
	nc, err := net.Dial("tcp", master.HAAddr().String())
	require.NoError(t, err)
	defer nc.Close()
	var rep [ha.ReportSize]byte
	ha.PutReport(rep[:], 0)
	_, err = nc.Write(rep[:])
	require.NoError(t, err)
	eventually(t, "the connection", func() bool { return master.SlaveOK(1) })

	begun := time.Now()
	r := syncPut(t, master)
	require.Equal(t, FlushSlaveTimeout, r.Status)
	require.GreaterOrEqual(t, time.Since(begun), 200*time.Millisecond)

	// The silent slave did receive the record, in Java's frame.
	var hdr [ha.HeaderSize]byte
	_, err = io.ReadFull(nc, hdr[:])
	require.NoError(t, err)
	h, err := ha.ParseHeader(hdr[:])
	require.NoError(t, err)
	require.Equal(t, r.WroteOffset, h.Offset)
	require.Equal(t, int32(r.WroteBytes), h.Size)
	data := make([]byte, h.Size)
	_, err = io.ReadFull(nc, data)
	require.NoError(t, err)
	require.Equal(t, int32(r.WroteBytes), int32(binary.BigEndian.Uint32(data)))
}

func TestSlaveRefusesPutsAndKeepsPartialTail(t *testing.T) {
	master, slave := haPair(t, AsyncMaster)
	r := slave.PutMessage(&Message{Topic: "T", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, ServiceNotAvailable, r.Status)

	// Half a record on the slave waits for its rest without dispatch errors.
	putN(t, master, 1)
	eventually(t, "the slave to catch up", caughtUp(master, slave))
	full := commitLogBytes(t, master)
	require.NoError(t, slave.Close())

	root := t.TempDir()
	cfg := testConfig(root)
	cfg.BrokerRole = Slave
	require.NoError(t, os.MkdirAll(filepath.Join(root, "commitlog"), 0o755))
	s2, err := Open(cfg, Options{})
	require.NoError(t, err)
	require.NoError(t, s2.Start())
	defer s2.Close()
	require.NoError(t, replicaSink{s2}.AppendAt(0, full[:len(full)/2]))
	time.Sleep(50 * time.Millisecond) // let dispatch try the partial record
	require.Equal(t, int64(len(full)-len(full)/2), s2.DispatchBehind())
	require.NoError(t, replicaSink{s2}.AppendAt(int64(len(full)/2), full[len(full)/2:]))
	eventually(t, "dispatch of the completed record", func() bool { return s2.DispatchBehind() == 0 })
	require.True(t, bytes.Equal(full, commitLogBytes(t, s2)))
	require.ErrorContains(t, replicaSink{s2}.AppendAt(5, []byte("x")), "does not continue the log")
}

// slaveChild is the slave process of TestKill9Slave: it follows the
// master at addr until it is killed.
func slaveChild(root, addr string) {
	cfg := testConfig(root)
	cfg.BrokerRole = Slave
	cfg.HaListenPort = 0
	s, err := Open(cfg, Options{HA: true})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	s.SetHAMasterAddress(addr)
	if err := s.Start(); err != nil {
		fmt.Println("start:", err)
		os.Exit(2)
	}
	fmt.Println("following", addr)
	select {}
}

// TestKill9Slave kills a replicating slave at random moments, 10 times,
// while the master keeps writing. Each restart recovers the slave's log
// (cutting a record that arrived in part) and asks the master from there;
// at the end the slave's log is the master's, byte for byte, and every
// message reads back from it.
func TestKill9Slave(t *testing.T) {
	if env := os.Getenv("SPUTNIK_SLAVE_CHILD"); env != "" {
		root, addr, _ := strings.Cut(env, ",")
		slaveChild(root, addr)
		return
	}
	master := openMaster(t)

	stop := make(chan struct{})
	var mu sync.Mutex
	var msgs []sent
	var writer sync.WaitGroup
	write := func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m := sent{topic: "HAKill", queueID: int32(i % 3), body: crashBody(i)}
			m.res = master.PutMessage(&Message{Topic: m.topic, QueueID: m.queueID, Body: []byte(m.body),
				BornHost: testBorn, StoreHost: testStore})
			if m.res.Status != PutOK {
				return
			}
			mu.Lock()
			msgs = append(msgs, m)
			mu.Unlock()
			time.Sleep(200 * time.Microsecond) // keep the log within a few files
		}
	}

	root := t.TempDir()
	for round := range 10 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKill9Slave$")
		cmd.Env = append(os.Environ(), "SPUTNIK_SLAVE_CHILD="+root+","+master.HAAddr().String())
		require.NoError(t, cmd.Start())
		if round == 0 { // the slave has the log from its first byte
			eventually(t, "the first slave", func() bool { return master.HAConnections() == 1 })
			writer.Add(1)
			go func() { defer writer.Done(); write() }()
		}
		time.Sleep(time.Duration(50+rand.IntN(250)) * time.Millisecond) // replicating when killed
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
	}
	close(stop)
	writer.Wait()

	slave := openSlave(t, root, master.HAAddr().String())
	require.False(t, slave.LastExitOK(), "a killed slave recovers abnormally")
	eventually(t, "the slave to catch up", caughtUp(master, slave))
	require.Equal(t, commitLogBytes(t, master), commitLogBytes(t, slave))
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, msgs)
	checkAll(t, slave, msgs)
	t.Logf("%d messages, %d bytes replicated across 10 kills", len(msgs), master.cl.MaxOffset())
}
