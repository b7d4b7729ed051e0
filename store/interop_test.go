package store_test

import (
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/compat/storeoracle"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// configFor is the store configuration the Java oracle runs with.
func configFor(t *testing.T, dir string, settings map[string]string) store.Config {
	t.Helper()
	cfg := store.DefaultConfig(dir)
	p := javaprops.New()
	for k, v := range settings {
		p.Set(k, v)
	}
	p.Set("storePathRootDir", dir)
	_, err := javaprops.Bind(p, &cfg)
	require.NoError(t, err)
	return cfg
}

func openSputnik(t *testing.T, cfg store.Config) *store.Store {
	t.Helper()
	s, err := store.Open(cfg, store.Options{Master: true})
	require.NoError(t, err)
	require.NoError(t, s.Start())
	deadline := time.Now().Add(10 * time.Second)
	for s.DispatchBehind() > 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	return s
}

// readsLikeJava checks that Sputnik, opening the directory Java dumped,
// answers every question of the dump identically: queue ranges,
// consume-queue units, the messages getMessage returns (byte for byte),
// the commit-log records and the key index.
func readsLikeJava(t *testing.T, s *store.Store, d *storeoracle.Dump) {
	t.Helper()
	require.Equal(t, d.Store.MinPhyOffset, s.MinPhyOffset(), "min phy offset")
	require.Equal(t, d.Store.MaxPhyOffset, s.MaxPhyOffset(), "max phy offset")
	for _, q := range d.Queues {
		require.Equal(t, q.MinOffset, s.MinOffsetInQueue(q.Topic, q.QueueID), "%s-%d min", q.Topic, q.QueueID)
		require.Equal(t, q.MaxOffset, s.MaxOffsetInQueue(q.Topic, q.QueueID), "%s-%d max", q.Topic, q.QueueID)
	}
	for _, u := range d.Units {
		cq := s.ConsumeQueues().Get(u.Topic, u.QueueID)
		require.NotNil(t, cq, u.Topic)
		got, err := cq.Get(u.Offset)
		require.NoError(t, err)
		require.Equal(t, [3]int64{u.CommitLogOffset, int64(u.Size), u.TagsCode}, [3]int64{got.Phy, int64(got.Size), got.TagsCode}, "%s-%d@%d", u.Topic, u.QueueID, u.Offset)
	}
	for _, m := range d.Messages {
		res, err := s.GetMessage("G", m.Topic, m.QueueID, m.QueueOffset, 1, nil)
		require.NoError(t, err)
		require.Equal(t, store.Found, res.Status, "%s-%d@%d", m.Topic, m.QueueID, m.QueueOffset)
		require.Equal(t, m.Hex, hex.EncodeToString(res.Messages[0].B), "record of %s-%d@%d", m.Topic, m.QueueID, m.QueueOffset)
		res.Release()
	}
	for _, r := range d.Records {
		if r.Kind != storeoracle.KindMessage {
			continue
		}
		v, ok := s.SelectOneMessage(r.Offset)
		require.True(t, ok, "record at %d", r.Offset)
		require.Equal(t, r.Hex, hex.EncodeToString(v.B))
		v.Release()
	}
	for _, q := range d.Queries {
		res := s.QueryMessage(q.Topic, q.Key, 64, 0, 1<<62)
		var got []int64
		for _, v := range res.Messages {
			rec, err := message.DecodeRecord(v.B, false)
			require.NoError(t, err)
			got = append(got, rec.PhysicalOffset)
		}
		res.Release()
		slices.Sort(got)
		require.Equal(t, slices.Compact(slices.Clone(q.Offsets)), slices.Compact(got), "query %s#%s", q.Topic, q.Key)
	}
}

// (a) Java 4.9.8 writes a store; Sputnik opens it and reads everything as
// Java does; after Sputnik closes it, Java's own dump is unchanged.
func TestJavaWritesSputnikReads(t *testing.T) {
	dir := t.TempDir()
	settings := storeoracle.SmallSettings()
	storeoracle.Write(t, dir, settings, storeoracle.Scenario(250), false)
	before := storeoracle.DumpStore(t, dir, settings)
	require.Empty(t, storeoracle.CheckConsistent(before, 65536))

	s := openSputnik(t, configFor(t, dir, settings))
	require.True(t, s.LastExitOK())
	readsLikeJava(t, s, before)
	require.NoError(t, s.Close())

	after := storeoracle.DumpStore(t, dir, settings)
	require.Empty(t, storeoracle.Diff(before, after, storeoracle.DiffOptions{IgnoreCheckpoint: true, IgnoreOpenState: true}))
}

// sputnikOps applies the scenario's put, delay, half, raw and batch ops to
// a Sputnik store the way the broker would (commit/rollback need the
// broker's END_TRANSACTION and are left out); it returns the ops applied.
func sputnikOps(t *testing.T, s *store.Store, ops []storeoracle.Op) []storeoracle.Op {
	t.Helper()
	var applied []storeoracle.Op
	for _, op := range ops {
		var r store.PutResult
		switch op.Op {
		case "commit", "rollback":
			continue
		case "batch":
			r = s.PutMessages(batchOf(t, op))
		default:
			r = s.PutMessage(messageOf(t, op))
		}
		require.Equal(t, store.PutOK, r.Status, "%s: %v", op.Op, r.Err)
		applied = append(applied, op)
	}
	return applied
}

func hostOf(t *testing.T, s, def string) message.Host {
	t.Helper()
	if s == "" {
		s = def
	}
	ap, err := netip.ParseAddrPort(s)
	require.NoError(t, err)
	return message.Host{Addr: ap.Addr().Unmap(), Port: int32(ap.Port())}
}

func joined(pairs [][2]string) string {
	var b strings.Builder
	for i, kv := range pairs {
		if i > 0 {
			b.WriteByte(message.PropertySeparator)
		}
		b.WriteString(kv[0] + string(rune(message.NameValueSeparator)) + kv[1])
	}
	return b.String()
}

// sendProperties is the broker's stored properties string for the op's
// pairs: SendMessageProcessor's CLUSTER put when the op carries one (the
// oracle's ops name it explicitly), else the pairs in HashMap order.
func sendProperties(pairs [][2]string, batch bool) []byte {
	for _, kv := range pairs {
		if kv[0] == message.PropCluster {
			return message.SendProperties(nil, joined(pairs), kv[1], batch)
		}
	}
	p := message.ParsePropertiesString(joined(pairs))
	if !batch {
		p.Delete(message.PropWait)
	}
	return message.AppendProperties(nil, p.HashMapOrder())
}

func messageOf(t *testing.T, op storeoracle.Op) *store.Message {
	pairs := op.Properties
	switch op.Op {
	case "delay":
		pairs = append(slices.Clone(pairs), [2]string{"DELAY", strconv.Itoa(op.Level)})
	case "half":
		pairs = append(slices.Clone(pairs), [2]string{"TRAN_MSG", "true"})
	}
	m := &store.Message{
		Topic: op.Topic, QueueID: op.QueueID, Flag: op.Flag, Body: op.Body, SysFlag: op.SysFlag,
		BornTimestamp: op.BornTimestamp, BornHost: hostOf(t, op.BornHost, ""), StoreHost: hostOf(t, op.StoreHost, "127.0.0.1:10911"),
		ReconsumeTimes: op.ReconsumeTimes, PreparedTransactionOffset: op.PreparedTransactionOffset,
	}
	if op.Raw {
		m.Properties = []byte(joined(pairs))
		return m
	}
	m.Properties = sendProperties(pairs, false)
	for _, kv := range pairs {
		if kv[0] == message.PropWait {
			m.WaitProperty = kv[1]
		}
	}
	if op.Op == "half" {
		p := m.PropertyMap()
		p.Set(message.PropRealTopic, m.Topic)
		p.Set(message.PropRealQueueID, strconv.Itoa(int(m.QueueID)))
		m.Properties = message.AppendProperties(nil, p.HashMapOrder())
		m.Topic, m.QueueID = "RMQ_SYS_TRANS_HALF_TOPIC", 0
		m.SysFlag = message.SetTransactionType(m.SysFlag, message.TransactionNotType)
	}
	return m
}

func batchOf(t *testing.T, op storeoracle.Op) *store.Batch {
	var body []byte
	for _, e := range op.Entries {
		var err error
		// The Java client writes each entry's properties from its HashMap.
		props := message.AppendProperties(nil, message.ParsePropertiesString(joined(e.Properties)).HashMapOrder())
		body, err = message.AppendBatchEntry(body, e.Flag, e.Body, props)
		require.NoError(t, err)
	}
	return &store.Batch{
		Template: message.BatchTemplate{
			Topic: op.Topic, QueueID: op.QueueID, BornTimestamp: op.BornTimestamp,
			BornHost: hostOf(t, op.BornHost, ""), StoreHost: hostOf(t, op.StoreHost, "127.0.0.1:10911"),
			ReconsumeTimes: op.ReconsumeTimes,
			Properties:     sendProperties(op.Properties, true),
		},
		Body: body, SysFlag: op.SysFlag,
	}
}

// (b) and (c): Sputnik writes the scenario; Java's DefaultMessageStore
// opens the directory and its dump equals its dump of the same scenario
// written by Java — every record byte-identical but for store timestamps.
func TestSputnikWritesJavaReads(t *testing.T) {
	_, fromSputnik := writtenLikeJava(t, storeoracle.SmallSettings(), storeoracle.Scenario(250))
	require.Empty(t, storeoracle.CheckConsistent(fromSputnik, 65536))
}

// writtenLikeJava applies ops to a Sputnik store and what they stored to
// Java's DefaultMessageStore, with the same settings, and requires the two
// stores to hold the same bytes (store timestamps, checkpoint, open state
// and file lists aside); it returns both dumps.
func writtenLikeJava(t *testing.T, settings map[string]string, ops []storeoracle.Op) (fromJava, fromSputnik *storeoracle.Dump) {
	t.Helper()
	sdir := t.TempDir()
	s := openSputnik(t, configFor(t, sdir, settings))
	applied := sputnikOps(t, s, ops)
	require.NoError(t, s.Close())
	fromSputnik = storeoracle.DumpStore(t, sdir, settings)

	jdir := t.TempDir()
	storeoracle.Write(t, jdir, settings, applied, false)
	fromJava = storeoracle.DumpStore(t, jdir, settings)
	diff := storeoracle.Diff(fromJava, fromSputnik, storeoracle.DiffOptions{
		IgnoreStoreTimestamps: true, IgnoreCheckpoint: true, IgnoreOpenState: true, IgnoreFiles: true,
	})
	require.Empty(t, diff, strings.Join(diff, "\n"))
	return fromJava, fromSputnik
}

// (d) A Java store killed mid-write (SYNC_FLUSH) recovers in Sputnik with
// every acknowledged message at its offsets.
func TestJavaKilledStoreRecoversInSputnik(t *testing.T) {
	dir := t.TempDir()
	settings := storeoracle.SmallSettings()
	k := storeoracle.StartKill(t, dir, settings)
	require.GreaterOrEqual(t, k.WaitAcks(300, 60*time.Second), 300)
	acks, err := k.Kill()
	require.NoError(t, err)

	s := openSputnik(t, configFor(t, dir, settings))
	defer s.Close()
	require.False(t, s.LastExitOK(), "the abort file of the killed JVM is there")
	for _, a := range acks {
		rec, ok := s.LookMessage(a.WroteOffset)
		require.True(t, ok, "ack %d at %d", a.Seq, a.WroteOffset)
		require.Equal(t, a.QueueOffset, rec.QueueOffset)
		res, err := s.GetMessage("G", rec.Topic, rec.QueueID, a.QueueOffset, 1, nil)
		require.NoError(t, err)
		require.Equal(t, store.Found, res.Status, "ack %d", a.Seq)
		res.Release()
	}
	t.Logf("%d acknowledged messages of a kill -9'd Java store recovered by Sputnik", len(acks))
}

// A multi-path commit log (storePathCommitLog "a,b,c", Java
// MultiPathMappedFileQueue) both ways: Java writes, Sputnik reads it as
// Java does; Sputnik writes, Java reads it as its own; and both put each
// segment in the same directory (sorted paths, round-robin by segment
// number).
func TestMultiPathCommitLogInterop(t *testing.T) {
	settingsFor := func(dir string) map[string]string {
		s := storeoracle.SmallSettings()
		s["storePathCommitLog"] = strings.Join([]string{dir + "/cl-b", dir + "/cl-a", dir + "/cl-c"}, ",")
		return s
	}
	jdir, sdir := t.TempDir(), t.TempDir()
	storeoracle.Write(t, jdir, settingsFor(jdir), storeoracle.Scenario(250), false)
	fromJava := storeoracle.DumpStore(t, jdir, settingsFor(jdir))
	s := openSputnik(t, configFor(t, jdir, settingsFor(jdir)))
	readsLikeJava(t, s, fromJava)
	require.NoError(t, s.Close())

	s = openSputnik(t, configFor(t, sdir, settingsFor(sdir)))
	applied := sputnikOps(t, s, storeoracle.Scenario(250))
	require.NoError(t, s.Close())
	fromSputnik := storeoracle.DumpStore(t, sdir, settingsFor(sdir))
	jdir2 := t.TempDir()
	storeoracle.Write(t, jdir2, settingsFor(jdir2), applied, false)
	diff := storeoracle.Diff(storeoracle.DumpStore(t, jdir2, settingsFor(jdir2)), fromSputnik, storeoracle.DiffOptions{
		IgnoreStoreTimestamps: true, IgnoreCheckpoint: true, IgnoreOpenState: true, IgnoreFiles: true,
	})
	require.Empty(t, diff, strings.Join(diff, "\n"))

	for _, sub := range []string{"cl-a", "cl-b", "cl-c"} {
		java, sput := segmentFiles(t, jdir2+"/"+sub), segmentFiles(t, sdir+"/"+sub)
		require.NotEmpty(t, java, sub)
		require.Equal(t, java, sput, "segments in %s", sub)
	}
}

func segmentFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// Multi-dispatch with enableLmq (MultiDispatch): Sputnik and Java's
// DefaultMessageStore write the same records (INNER_MULTI_QUEUE_OFFSET,
// the rewritten properties) and the same LMQ and plain consume queues.
func TestMultiDispatchInterop(t *testing.T) {
	settings := storeoracle.SmallSettings()
	settings["enableMultiDispatch"], settings["enableLmq"] = "true", "true"
	var ops []storeoracle.Op
	for i, queues := range []string{"%LMQ%a,%LMQ%b", "%LMQ%a", "Other,%LMQ%b,", "%LMQ%c", "", "%LMQ%b,%LMQ%a,%LMQ%c"} {
		props := [][2]string{{"TAGS", fmt.Sprint("t", i%2)}, {"KEYS", fmt.Sprint("k", i)}, {"WAIT", "true"}, {"UNIQ_KEY", fmt.Sprintf("U%04d", i)}}
		if queues != "" {
			props = append(props, [2]string{"INNER_MULTI_DISPATCH", queues})
		}
		ops = append(ops, storeoracle.Op{Op: "put", Topic: "Parent", QueueID: int32(i % 2), Body: []byte(fmt.Sprint("m", i)),
			Properties: props, BornHost: "10.0.0.1:5000", BornTimestamp: int64(1_700_000_000_000 + i)})
	}
	fromJava, _ := writtenLikeJava(t, settings, ops)
	var lmq int
	for _, q := range fromJava.Queues {
		if strings.HasPrefix(q.Topic, "%LMQ%") {
			lmq++
		}
	}
	require.Equal(t, 3, lmq, "the dump holds the LMQ consume queues")
}
