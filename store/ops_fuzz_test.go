package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

// FuzzStoreOps drives one store through a fuzz-chosen run of puts, batch
// puts, reads (some held across later steps), key queries, topic deletes
// (some while another goroutine puts), retention, a full disk, clean,
// marked-unclean and killed restarts, and power cuts (only what was
// synced survives, and maybe some pages written since), checking every
// read against what each put was acknowledged with:
//
//   - a message still in the commit log is read back at its queue offset
//     with its body, from the consume queue and from the index;
//   - every message a read returns is the one acknowledged at that offset;
//   - a read held across deletes and restarts still holds its bytes;
//   - queue max offsets survive every kind of restart; after a power cut
//     each queue holds exactly the messages of the commit log recovered,
//     which keeps at least what the store had flushed.
//
// Topics 0 and 1 are never deleted. Topics 2 and 3 may be: a deleted
// topic's offsets start again at 0 and an unclean restart may dispatch its
// old records again (Java does the same), so its reads are only required
// not to fail.
//
// The input's first byte picks the settings (flush type, transient store
// pool, consume-queue ext); then every three bytes are one step.
func FuzzStoreOps(f *testing.F) {
	f.Add([]byte{0, opPut, 0, 0, opPut, 5, 9, opGet, 0, 0, opRestart, 0, 0, opGet, 0, 0})
	f.Add([]byte{1, opBatch, 2, 3, opHold, 2, 0, opDelete, 0, 0, opPut, 2, 1, opKill, 0, 0, opGet, 2, 0, opRelease, 0, 0})
	f.Add([]byte{2, opPut, 0xf8, 0, opPut, 0xf8, 0, opPut, 0xf8, 0, opHold, 0, 0, opClean, 0, 0, opQuery, 0, 1, opGet, 0, 0})
	f.Add([]byte{4, opPut, 1, 7, opBatch, 1, 0xff, opAbortRestart, 0, 0, opQuery, 1, 0, opDelete, 1, 0, opKill, 0, 0})
	big := []byte{3}
	for i := range 40 {
		big = append(big, opPut, byte(0xf0+i%16), byte(i), opBatch, byte(i*5), byte(i*3))
		switch i % 10 {
		case 1:
			big = append(big, opBurst, byte(i), byte(i))
		case 3:
			big = append(big, opHold, byte(i), 0)
		case 5:
			big = append(big, opClean, 0, 0, opGet, byte(i), byte(i))
		case 7:
			big = append(big, opKill, 0, 0, opQuery, byte(i), byte(i))
		case 9:
			big = append(big, opDelete, byte(i), 0, opRestart, 0, 0)
		}
	}
	f.Add(big)
	// Puts to a topic still dispatching as it is deleted (session 28's race).
	f.Add([]byte{0, opPut, 2, 1, opPut, 2, 0, opDelete, 0, 0, opBurst, 3, 0, opBurst, 1, 1, opKill, 0, 0})
	// A full disk while files fill up, new queues appear and restarts follow.
	f.Add([]byte{2, opPut, 0xf8, 0, opDiskFull, 0xf5, 3, opPut, 0xfa, 7, opDiskFull, 9, 0xfe, opKill, 0, 0, opDiskFull, 6, 0xf3, opGet, 0, 0})
	// Power cuts, clean and with pages written back on their own, in both
	// flush modes and with the transient store pool.
	f.Add([]byte{1, opPut, 0xf8, 0, opBatch, 1, 0xfe, opPowerCut, 0, 0, opPut, 0xf9, 1, opPowerCut, 0, 1, opGet, 0, 0})
	f.Add([]byte{0, opPut, 0xf8, 0, opPut, 1, 2, opPowerCut, 0, 3, opQuery, 0, 1, opPut, 0xfa, 5, opPowerCut, 0, 0})
	f.Add([]byte{2, opBatch, 0xf4, 0xff, opPut, 0xfb, 2, opPowerCut, 0, 5, opBatch, 5, 9, opPowerCut, 0, 7, opGet, 4, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 || len(in) > 600 {
			return
		}
		r := newOpsRun(t, in[0])
		defer r.close()
		for steps := in[1:]; len(steps) >= 3; steps = steps[3:] {
			r.step(steps[0], steps[1], steps[2])
		}
		r.settle()
		r.checkAll()
	})
}

// The steps (the low four bits of a step's first byte; the values past
// opCount read).
const (
	opPut = iota
	opBatch
	opGet
	opHold
	opRelease
	opDelete
	opClean
	opQuery
	opRestart
	opAbortRestart
	opKill
	opBurst
	opDiskFull
	opPowerCut
	opCount
)

type opsMsg struct {
	key       string
	body      []byte
	from, end int64 // the commit-log bytes of the put that stored it
}

type opsHeld struct {
	res    *GetResult
	bodies [][]byte
}

type opsRun struct {
	t       *testing.T
	ffs     *segment.FaultFS
	cfg     Config
	s       *Store
	queues  map[string][]opsMsg // by consume-queue key; index = queue offset
	deleted map[string]bool     // topics deleted at least once
	held    []opsHeld
	stored  int64 // the commit-log offset past the last put
	waited  int64 // ... past the last put acknowledged once durable
	n       int
}

func newOpsRun(t *testing.T, settings byte) *opsRun {
	cfg := testConfig(t.TempDir())
	if settings&1 != 0 {
		cfg.FlushDiskType = SyncFlush
	}
	if settings&2 != 0 && runtime.GOOS == "linux" {
		cfg.TransientStorePoolEnable = true
		cfg.TransientStorePoolSize = 4
	}
	cfg.EnableConsumeQueueExt = settings&4 != 0
	cfg.MappedFileSizeConsumeQueueExt = 256 * 1024 // not 48 MiB per queue: every cut and kill copies them
	cfg.FileReservedTime = 0
	cfg.DeleteCommitLogFilesInterval = 0
	cfg.CleanResourceInterval = 3_600_000 // retention runs only as a step
	r := &opsRun{t: t, cfg: cfg, queues: map[string][]opsMsg{}, deleted: map[string]bool{}}
	r.open()
	return r
}

// open opens the store at cfg.StorePathRootDir through a new FaultFS, so
// that the shadows of an earlier root are let go.
func (r *opsRun) open() {
	r.ffs = &segment.FaultFS{FS: segment.OS}
	r.ffs.TrackDurability()
	s, err := Open(r.cfg, Options{Master: true, FS: r.ffs})
	require.NoError(r.t, err)
	require.NoError(r.t, s.Start())
	r.s = s
}

func (r *opsRun) close() {
	for _, h := range r.held {
		h.res.Release()
	}
	require.NoError(r.t, r.s.Close())
}

func opsTopic(b byte) string { return fmt.Sprintf("Topic%d", b%4) }

func (r *opsRun) step(op, a, b byte) {
	topic, queueID := opsTopic(a), int32(a>>2)%2
	switch op % 16 { // room for new steps without changing what old inputs mean
	default:
		r.get(topic, queueID, b).Release()
	case opPut:
		r.put(topic, queueID, a, b)
	case opBatch:
		r.batch(topic, queueID, 1+int(b%4), b)
	case opGet:
		r.get(topic, queueID, b).Release()
	case opHold:
		r.hold(topic, queueID, b)
	case opRelease:
		r.release()
	case opDelete:
		r.deleteTopic(fmt.Sprintf("Topic%d", 2+a%2))
	case opClean:
		r.settle()
		r.s.DeleteFilesManually()
		r.s.cleanOnce(make(chan struct{}))
	case opQuery:
		r.query(topic, queueID, b)
	case opRestart:
		r.restart(false)
	case opAbortRestart:
		r.restart(true)
	case opKill:
		r.kill()
	case opBurst:
		r.burst(opsTopic(a%2), queueID, b)
	case opDiskFull:
		r.diskFull(topic, queueID, b)
	case opPowerCut:
		r.powerCut(b)
	}
}

// opsBody is the n-th body: its sizes cross 64 KiB commit-log files within
// a few puts when the size byte is high.
func opsBody(n int, size byte) []byte {
	l := 1 + int(size)*131%4000
	if size >= 0xf0 {
		l = 20_000 + int(size&0xf)*1000
	}
	b := bytes.Repeat([]byte{byte('a' + n%26)}, l)
	copy(b, fmt.Sprintf("m%d:", n))
	return b
}

// newMsg is the next message: a key and a body of a size picked by size.
func (r *opsRun) newMsg(size byte) opsMsg {
	r.n++
	return opsMsg{key: fmt.Sprintf("k%d", r.n), body: opsBody(r.n, size)}
}

func opsMessage(topic string, queueID int32, tag byte, m opsMsg) *Message {
	return &Message{
		Topic: topic, QueueID: queueID, Body: m.body,
		Properties:    props(message.PropTags, fmt.Sprintf("T%d", tag%3), message.PropKeys, m.key),
		BornTimestamp: 1_700_000_000_000, BornHost: testBorn, StoreHost: testStore,
		WaitStoreMsgOK: true, // as the broker sets it for a client that sends no WAIT
	}
}

func (r *opsRun) put(topic string, queueID int32, a, size byte) {
	m := r.newMsg(size)
	msg := opsMessage(topic, queueID, a, m)
	msg.WaitStoreMsgOK = a&0x80 == 0 // WAIT=false: answered before the flush
	res := r.s.PutMessage(msg)
	require.Equal(r.t, PutOK, res.Status, "%v", res.Err)
	r.acked(topic, queueID, res, msg.WaitStoreMsgOK, m)
}

// burst puts eight messages to a topic never deleted from another
// goroutine while this one deletes a topic, whose last puts may still be
// dispatching.
func (r *opsRun) burst(topic string, queueID int32, b byte) {
	msgs := make([]opsMsg, 8)
	for i := range msgs {
		msgs[i] = r.newMsg(b + byte(i))
	}
	results := make([]PutResult, len(msgs))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i, m := range msgs {
			results[i] = r.s.PutMessage(opsMessage(topic, queueID, b, m))
		}
	}()
	r.deleteTopic(opsTopic(2 + b%2))
	<-done
	for i, res := range results {
		require.Equal(r.t, PutOK, res.Status, "%v", res.Err)
		r.acked(topic, queueID, res, true, msgs[i])
	}
}

func (r *opsRun) batch(topic string, queueID int32, n int, size byte) {
	var body []byte
	var msgs []opsMsg
	for range n {
		m := r.newMsg(size & 0x7f) // a batch fits a file
		var err error
		body, err = message.AppendBatchEntry(body, 0, m.body, props(message.PropKeys, m.key))
		require.NoError(r.t, err)
		msgs = append(msgs, m)
	}
	res := r.s.PutMessages(&Batch{
		Template: message.BatchTemplate{
			Topic: topic, QueueID: queueID, BornTimestamp: int64(1_700_000_000_000 + r.n),
			BornHost: testBorn, StoreHost: testStore,
		},
		Body:           body,
		WaitStoreMsgOK: true,
	})
	require.Equal(r.t, PutOK, res.Status, "%v", res.Err)
	require.Equal(r.t, n, res.Count)
	r.acked(topic, queueID, res, true, msgs...)
}

// diskFull fills the disk for a few puts (creating a file fails as
// ENOSPC does) and frees it again: each put is stored or refused, and
// once space is back the store takes puts again by itself.
func (r *opsRun) diskFull(topic string, queueID int32, b byte) {
	r.ffs.FailAllocate.Store(true)
	for i := range 1 + int(b%4) {
		m := r.newMsg(b + byte(i)*0x40)
		res := r.s.PutMessage(opsMessage(topic, queueID, b, m))
		switch res.Status {
		case PutOK:
			r.acked(topic, queueID, res, true, m)
		case CreateMappedFileFailed, ServiceNotAvailable:
		default:
			r.t.Fatalf("put on a full disk: %v %v", res.Status, res.Err)
		}
	}
	r.ffs.FailAllocate.Store(false)
	// A dispatch that failed on the full disk may surface only now; once
	// dispatch has caught up, puts must be taken.
	r.settle()
	require.True(r.t, r.s.Writable(), "puts taken again once dispatch caught up")
}

// acked records msgs as stored by res at consecutive queue offsets; wait
// says the put asked to be answered once durable (WaitStoreMsgOK).
func (r *opsRun) acked(topic string, queueID int32, res PutResult, wait bool, msgs ...opsMsg) {
	k := consumequeue.QueueKey(topic, queueID)
	if !r.deleted[topic] {
		require.Equal(r.t, int64(len(r.queues[k])), res.QueueOffset, "queue offset of a put to %s", k)
	}
	r.stored = res.End()
	if wait && r.cfg.FlushDiskType == SyncFlush {
		r.waited = res.End()
	}
	from := res.WroteOffset
	for i, m := range msgs {
		m.from, m.end = from, res.End()
		if i < len(msgs)-1 { // a batch: a cut may keep a part of it
			m.end = from + r.recordSize(from)
		}
		r.queues[k] = append(r.queues[k], m)
		from = m.end
	}
}

// recordSize reads the size of the commit-log record at off.
func (r *opsRun) recordSize(off int64) int64 {
	r.settle()
	v, err := r.s.cl.Read(off, message.OffMagic+4)
	require.NoError(r.t, err)
	defer v.Release()
	size, magic, ok := message.PeekTotalSize(v.B)
	require.True(r.t, ok && magic == message.MagicMessage, "record at %d", off)
	return int64(size)
}

// settle waits until every put is readable: committed (transient store
// pool) and dispatched.
func (r *opsRun) settle() {
	eventually(r.t, "commit and dispatch", func() bool {
		return r.s.MaxPhyOffset() >= r.stored && r.s.DispatchBehind() == 0
	})
}

// present says m's commit-log file is still there.
func (r *opsRun) present(m opsMsg) bool { return m.from >= r.s.MinPhyOffset() }

// opsOffset picks a queue offset around the queue's messages.
func opsOffset(b byte, count int) int64 {
	if b >= 0xfc {
		return int64(count) + int64(b-0xfc) // at and past the end
	}
	return int64(b) % int64(count+1)
}

// get reads from a queue offset and checks the answer; the caller releases.
func (r *opsRun) get(topic string, queueID int32, b byte) *GetResult {
	r.settle()
	k := consumequeue.QueueKey(topic, queueID)
	msgs := r.queues[k]
	off := opsOffset(b, len(msgs))
	res, err := r.s.GetMessage("G", topic, queueID, off, 1+int(b%8), nil)
	require.NoError(r.t, err)
	if r.deleted[topic] {
		for _, v := range res.Messages {
			_, err := message.DecodeRecord(v.B, true)
			require.NoError(r.t, err)
		}
		return res
	}
	require.Equal(r.t, int64(len(msgs)), r.s.MaxOffsetInQueue(topic, queueID), "max offset of %s", k)
	r.checkMessages(k, off, res)
	switch {
	case len(msgs) == 0:
		require.Equal(r.t, NoMessageInQueue, res.Status, "%s@%d", k, off)
	case off < int64(len(msgs)) && r.present(msgs[off]):
		require.Equal(r.t, Found, res.Status, "%s@%d", k, off)
		require.Equal(r.t, off, res.QueueOffsets[0], "%s@%d", k, off)
	case off == int64(len(msgs)):
		require.Equal(r.t, OffsetOverflowOne, res.Status, "%s@%d", k, off)
	case off > int64(len(msgs)):
		require.Equal(r.t, OffsetOverflowBadly, res.Status, "%s@%d", k, off)
	}
	return res
}

// checkMessages: every message res holds is the one acknowledged at its
// queue offset, in order, none before off, and what it skipped is gone.
func (r *opsRun) checkMessages(k string, off int64, res *GetResult) {
	msgs := r.queues[k]
	require.Len(r.t, res.QueueOffsets, len(res.Messages))
	prev := off - 1
	for i, v := range res.Messages {
		qo := res.QueueOffsets[i]
		require.Greater(r.t, qo, prev, "%s: offsets in order from %d", k, off)
		for skipped := prev + 1; skipped < qo; skipped++ {
			require.False(r.t, r.present(msgs[skipped]), "%s@%d skipped but stored", k, skipped)
		}
		prev = qo
		require.Less(r.t, qo, int64(len(msgs)), "%s: offset %d never acknowledged", k, qo)
		rec, err := message.DecodeRecord(v.B, true)
		require.NoError(r.t, err)
		want := msgs[qo]
		require.Equal(r.t, k, consumequeue.QueueKey(rec.Topic, rec.QueueID))
		require.Equal(r.t, qo, rec.QueueOffset)
		require.True(r.t, rec.PhysicalOffset >= want.from && rec.PhysicalOffset < want.end,
			"%s@%d at %d, put wrote [%d, %d)", k, qo, rec.PhysicalOffset, want.from, want.end)
		require.Equal(r.t, want.body, rec.Body, "%s@%d", k, qo)
	}
	if len(res.Messages) > 0 {
		require.Greater(r.t, res.NextBeginOffset, prev)
	}
}

// hold keeps a read's views across the steps that follow.
func (r *opsRun) hold(topic string, queueID int32, b byte) {
	res := r.get(topic, queueID, b)
	h := opsHeld{res: res}
	for _, v := range res.Messages {
		h.bodies = append(h.bodies, bytes.Clone(r.body(v.B)))
	}
	r.held = append(r.held, h)
}

func (r *opsRun) body(rec []byte) []byte {
	m, err := message.DecodeRecord(rec, true)
	require.NoError(r.t, err)
	return m.Body
}

// release checks and gives back the oldest held read.
func (r *opsRun) release() {
	if len(r.held) == 0 {
		return
	}
	r.checkHeld()
	r.held[0].res.Release()
	r.held = r.held[1:]
}

// checkHeld: held views keep their bytes whatever happened to their files.
func (r *opsRun) checkHeld() {
	for _, h := range r.held {
		for i, v := range h.res.Messages {
			require.Equal(r.t, h.bodies[i], r.body(v.B), "a held read changed")
		}
	}
}

func (r *opsRun) deleteTopic(topic string) {
	_, err := r.s.CleanUnusedTopics(func(t string) bool { return t != topic })
	require.NoError(r.t, err)
	r.deleted[topic] = true
	for q := range int32(2) {
		delete(r.queues, consumequeue.QueueKey(topic, q))
	}
}

// query looks a stored message up by its key through the index.
func (r *opsRun) query(topic string, queueID int32, b byte) {
	msgs := r.queues[consumequeue.QueueKey(topic, queueID)]
	if r.deleted[topic] || len(msgs) == 0 {
		return
	}
	m := msgs[int(b)%len(msgs)]
	if !r.present(m) {
		return
	}
	r.settle()
	q := r.s.QueryMessage(topic, m.key, 32, 0, 1<<62)
	defer q.Release()
	for _, v := range q.Messages {
		if bytes.Equal(r.body(v.B), m.body) {
			return
		}
	}
	r.t.Fatalf("key %s of %s-%d not found among %d", m.key, topic, queueID, len(q.Messages))
}

// restart closes the store and opens it again; marked, the abort file is
// put back first, so the store recovers as after a crash.
func (r *opsRun) restart(marked bool) {
	r.settle()
	require.NoError(r.t, r.s.Close())
	if marked {
		require.NoError(r.t, os.WriteFile(abortPath(r.cfg.StorePathRootDir), nil, 0o644))
	}
	r.open()
	r.afterRestart()
}

// kill copies the running store's files as a kill -9 leaves them (the
// page cache holds every write; abort and lock are there) and goes on
// with the copy.
func (r *opsRun) kill() {
	r.settle()
	root := r.t.TempDir()
	require.NoError(r.t, snapshot(r.cfg.StorePathRootDir, root))
	require.NoError(r.t, r.s.Close())
	r.cfg.StorePathRootDir = root
	r.open()
	require.False(r.t, r.s.LastExitOK())
	r.afterRestart()
}

// powerCut goes on with a copy of the store as a power cut would leave
// it: only synced bytes are sure to be there; with b odd, some pages
// written since their last sync are there too. Everything the store had
// flushed must come back (with SYNC_FLUSH, every acknowledged put), and
// each queue must hold exactly the messages of the commit log recovered.
func (r *opsRun) powerCut(b byte) {
	r.settle()
	var rng *rand.Rand
	if b&1 != 0 {
		rng = rand.New(rand.NewPCG(uint64(b), uint64(r.n)))
	}
	durable := r.s.CommitLog().FlushedOffset()
	require.GreaterOrEqual(r.t, durable, r.waited, "SYNC_FLUSH acknowledged a put before it was durable")
	root := r.t.TempDir()
	require.NoError(r.t, r.ffs.PowerCut(r.cfg.StorePathRootDir, root, rng))
	require.NoError(r.t, r.s.Close())
	r.cfg.StorePathRootDir = root
	r.open()
	require.False(r.t, r.s.LastExitOK())
	end := r.s.MaxPhyOffset()
	require.GreaterOrEqual(r.t, end, min(durable, r.stored), "flushed commit log lost in a power cut")
	for k, msgs := range r.queues {
		n := len(msgs)
		for n > 0 && msgs[n-1].end > end {
			n--
		}
		if n > 0 && !r.present(msgs[n-1]) {
			// Retention deleted the files of the newest messages that are
			// left: their units were only in the consume queue, and a cut
			// may take those that were not flushed.
			topic, queueID := splitQueueKey(r.t, k)
			n = min(n, int(max(r.s.MaxOffsetInQueue(topic, queueID), 0)))
		}
		r.queues[k] = msgs[:n]
	}
	r.stored, r.waited = min(r.stored, end), min(r.waited, end)
	r.afterRestart()
}

func (r *opsRun) afterRestart() {
	r.settle()
	r.checkHeld()
	for k, msgs := range r.queues {
		topic, queueID := splitQueueKey(r.t, k)
		if !r.deleted[topic] {
			require.Equal(r.t, int64(len(msgs)), r.s.MaxOffsetInQueue(topic, queueID), "max offset of %s after restart", k)
		}
	}
}

func splitQueueKey(t *testing.T, k string) (string, int32) {
	i := bytes.LastIndexByte([]byte(k), '-')
	require.Positive(t, i, k)
	var q int32
	_, err := fmt.Sscan(k[i+1:], &q)
	require.NoError(t, err)
	return k[:i], q
}

// checkAll reads every acknowledged message of the topics never deleted.
func (r *opsRun) checkAll() {
	r.checkHeld()
	for k, msgs := range r.queues {
		topic, queueID := splitQueueKey(r.t, k)
		if r.deleted[topic] {
			continue
		}
		for off := range msgs {
			if !r.present(msgs[off]) {
				continue
			}
			res, err := r.s.GetMessage("G", topic, queueID, int64(off), 1, nil)
			require.NoError(r.t, err)
			require.Equal(r.t, Found, res.Status, "%s@%d", k, off)
			r.checkMessages(k, int64(off), res)
			res.Release()
		}
	}
}

// snapshot copies the store directory src to dst. A commit-log file
// created ahead is renamed into place from a temporary name, which can
// vanish under the copy; the copy is then taken again.
func snapshot(src, dst string) error {
	for {
		err := os.CopyFS(dst, os.DirFS(src))
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
	}
}
