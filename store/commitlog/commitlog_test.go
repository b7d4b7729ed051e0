package commitlog

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

const testSegment = 4096

var (
	bornHost  = message.Host{Addr: netip.MustParseAddr("10.0.0.1"), Port: 5555}
	storeHost = message.Host{Addr: netip.MustParseAddr("10.0.0.2"), Port: 10911}
)

func record(t testing.TB, topic string, queueID int32, body string) []byte {
	t.Helper()
	r := message.Record{
		QueueID: queueID, BornTimestamp: 1, BornHost: bornHost, StoreHost: storeHost,
		Body: []byte(body), Topic: topic, BodyCRC: message.BodyCRC([]byte(body)),
	}
	b, err := message.AppendRecord(nil, &r)
	require.NoError(t, err)
	return b
}

type clock struct{ ms atomic.Int64 }

func (c *clock) now() int64 { return c.ms.Add(1) }

func openLog(t testing.TB, dir string, mutate ...func(*Config)) *CommitLog {
	t.Helper()
	c := &clock{}
	c.ms.Store(1_700_000_000_000)
	cfg := Config{Dir: dir, SegmentSize: testSegment, Now: c.now}
	for _, m := range mutate {
		m(&cfg)
	}
	cl, err := Open(cfg)
	require.NoError(t, err)
	return cl
}

func put(t testing.TB, cl *CommitLog, topic string, queueID int32, body string) Result {
	t.Helper()
	res, err := cl.Append(&Put{Records: record(t, topic, queueID, body), QueueKey: fmt.Sprintf("%s-%d", topic, queueID), Consumable: true})
	require.NoError(t, err)
	return res
}

func readRecord(t *testing.T, cl *CommitLog, off int64, size int) message.Record {
	t.Helper()
	v, err := cl.Read(off, size)
	require.NoError(t, err)
	defer v.Release()
	r, err := message.DecodeRecord(v.B, true)
	require.NoError(t, err)
	r.Body = append([]byte(nil), r.Body...)
	return r
}

func TestAppendStampsAndRolls(t *testing.T) {
	dir := t.TempDir()
	cl := openLog(t, dir)
	defer cl.Close()
	var last Result
	var offsets []Result
	for i := range 60 {
		res := put(t, cl, "T", int32(i%2), fmt.Sprintf("body-%03d-%s", i, string(make([]byte, 50))))
		require.Equal(t, 1, res.Count)
		if i >= 2 {
			require.EqualValues(t, offsets[i-2].QueueOffset+1, res.QueueOffset, "per-queue counters")
		}
		require.Greater(t, res.StoreTimestamp, last.StoreTimestamp, "store times follow offsets")
		offsets = append(offsets, res)
		last = res
	}
	require.Greater(t, len(cl.Queue().Segments()), 1, "rolled over")
	for i, res := range offsets {
		r := readRecord(t, cl, res.WroteOffset, res.WroteBytes)
		require.Equal(t, res.WroteOffset, r.PhysicalOffset)
		require.Equal(t, res.QueueOffset, r.QueueOffset)
		require.Equal(t, res.StoreTimestamp, r.StoreTimestamp)
		require.Equal(t, int32(i%2), r.QueueID)
		require.Equal(t, res.WroteOffset/testSegment, (res.End()-1)/testSegment, "a record never spans segments")
	}
	// Every full segment ends with a blank at the first free byte.
	for _, s := range cl.Queue().Segments()[:len(cl.Queue().Segments())-1] {
		pos := blankAt(t, s)
		size, magic, ok := message.PeekTotalSize(s.Mapped()[pos:])
		require.True(t, ok)
		require.Equal(t, message.MagicBlank, magic)
		require.EqualValues(t, testSegment-pos, size)
	}
	require.Equal(t, int64(30), cl.QueueOffset("T-0"))
}

func blankAt(t *testing.T, s *segment.Segment) int64 {
	pos := int64(0)
	for {
		size, magic, ok := message.PeekTotalSize(s.Mapped()[pos:])
		require.True(t, ok)
		if magic == message.MagicBlank {
			return pos
		}
		pos += int64(size)
	}
}

func TestNonConsumableTakesNoQueueOffset(t *testing.T) {
	cl := openLog(t, t.TempDir())
	defer cl.Close()
	put(t, cl, "T", 0, "a")
	res, err := cl.Append(&Put{Records: record(t, "T", 0, "half"), QueueKey: "T-0"})
	require.NoError(t, err)
	require.EqualValues(t, 0, res.QueueOffset)
	require.EqualValues(t, 1, put(t, cl, "T", 0, "b").QueueOffset)
}

// TestQueueCountersOwnTheirKeys: counters set from recovery go on, a new
// queue starts at 0, and a counter does not depend on the put's key bytes
// (the log keeps a copy of a new queue's key).
func TestQueueCountersOwnTheirKeys(t *testing.T) {
	cl := openLog(t, t.TempDir())
	defer cl.Close()
	cl.SetQueueOffsets(map[string]int64{"T-0": 7, "T-1": 2})
	require.EqualValues(t, 7, put(t, cl, "T", 0, "a").QueueOffset)
	require.EqualValues(t, 2, put(t, cl, "T", 1, "b").QueueOffset)
	key := []byte("N-0")
	res, err := cl.Append(&Put{Records: record(t, "N", 0, "c"), QueueKey: string(key), Consumable: true})
	require.NoError(t, err)
	require.EqualValues(t, 0, res.QueueOffset)
	key[0] = 'X'
	require.EqualValues(t, 8, cl.QueueOffset("T-0"))
	require.EqualValues(t, 3, cl.QueueOffset("T-1"))
	require.EqualValues(t, 1, cl.QueueOffset("N-0"))
	cl.RemoveQueue("N-0")
	require.EqualValues(t, 0, cl.QueueOffset("N-0"))
	require.EqualValues(t, 0, put(t, cl, "N", 0, "d").QueueOffset)
}

// TestRecordPutAllocatesNothing: appending a record encoded from its
// fields (the put path of every single message) allocates nothing.
func TestRecordPutAllocatesNothing(t *testing.T) {
	cl := openLog(t, t.TempDir())
	defer cl.Close()
	rec := message.Record{Topic: "T", Body: []byte("body"), Properties: []byte("TAGS\x01a"), BornHost: bornHost, StoreHost: storeHost}
	append1 := func() {
		if _, err := cl.Append(&Put{Record: &rec, QueueKey: "T-0", Consumable: true}); err != nil {
			t.Fatal(err)
		}
	}
	append1()
	require.Zero(t, testing.AllocsPerRun(100, append1))
	require.EqualValues(t, 102, cl.QueueOffset("T-0")) // AllocsPerRun runs it once more to warm up
}

func TestBatchAppend(t *testing.T) {
	cl := openLog(t, t.TempDir())
	defer cl.Close()
	put(t, cl, "B", 3, "first")
	var recs []byte
	for i := range 5 {
		recs = append(recs, record(t, "B", 3, fmt.Sprint("entry", i))...)
	}
	res, err := cl.Append(&Put{Records: recs, QueueKey: "B-3", Consumable: true})
	require.NoError(t, err)
	require.Equal(t, 5, res.Count)
	require.EqualValues(t, 1, res.QueueOffset)
	off := res.WroteOffset
	for i := range 5 {
		v, err := cl.ReadFrom(off)
		require.NoError(t, err)
		r, err := message.DecodeRecord(v.B, true)
		require.NoError(t, err)
		require.EqualValues(t, 1+i, r.QueueOffset)
		require.Equal(t, off, r.PhysicalOffset)
		require.Equal(t, res.StoreTimestamp, r.StoreTimestamp)
		off += int64(r.TotalSize)
		v.Release()
	}
	require.Equal(t, res.End(), off)
	require.EqualValues(t, 6, cl.QueueOffset("B-3"))
}

func TestTooLarge(t *testing.T) {
	cl := openLog(t, t.TempDir())
	defer cl.Close()
	_, err := cl.Append(&Put{Records: record(t, "T", 0, string(make([]byte, testSegment))), QueueKey: "T-0"})
	require.ErrorIs(t, err, ErrTooLarge)
	require.Empty(t, cl.Queue().Segments(), "no blank written for a put that can never fit")
}

func fill(t *testing.T, cl *CommitLog, n int) []Result {
	var out []Result
	for i := range n {
		out = append(out, put(t, cl, "T", int32(i%3), fmt.Sprintf("message %d %s", i, string(make([]byte, i%200)))))
	}
	return out
}

func TestRecoverNormallyFindsEnd(t *testing.T) {
	dir := t.TempDir()
	cl := openLog(t, dir)
	res := fill(t, cl, 100)
	require.NoError(t, cl.Close())

	cl = openLog(t, dir)
	defer cl.Close()
	scan, err := cl.RecoverNormally(true)
	require.NoError(t, err)
	end := res[len(res)-1].End()
	require.Equal(t, end, scan.End)
	require.Equal(t, end, cl.MaxOffset())
	require.Equal(t, end, cl.FlushedOffset())
	put(t, cl, "T", 0, "after")
}

// Truncating the newest record at every byte (zeroing its tail, as an
// unwritten page reads) recovers to the record before it.
func TestRecoverTornTailAtEveryByte(t *testing.T) {
	src := t.TempDir()
	cl := openLog(t, src)
	res := fill(t, cl, 20)
	require.NoError(t, cl.Close())
	last := res[len(res)-1]
	seg := filepath.Join(src, segment.FileName(last.WroteOffset-last.WroteOffset%testSegment))
	orig, err := os.ReadFile(seg)
	require.NoError(t, err)
	pos := int(last.WroteOffset % testSegment)
	for cut := pos; cut < pos+last.WroteBytes; cut++ {
		dir := t.TempDir()
		copyDir(t, src, dir)
		torn := append([]byte(nil), orig...)
		clear(torn[cut:])
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(seg)), torn, 0o644))
		cl := openLog(t, dir)
		scan, err := cl.RecoverAbnormally(true, 0, nil)
		require.NoError(t, err)
		want := last.WroteOffset
		if string(torn[cut:pos+last.WroteBytes]) == string(orig[cut:pos+last.WroteBytes]) {
			want = last.End() // only bytes that were zero anyway were lost
		}
		require.Equal(t, want, scan.End, "cut at %d", cut)
		cl.Close()
	}
}

// logWithBadRecord writes ten records to a closed log and flips a bit in
// the body of the eighth, which it returns.
func logWithBadRecord(t *testing.T) (dir string, victim Result) {
	t.Helper()
	dir = t.TempDir()
	cl := openLog(t, dir)
	victim = fill(t, cl, 10)[7]
	require.NoError(t, cl.Close())
	path := filepath.Join(dir, segment.FileName(victim.WroteOffset-victim.WroteOffset%testSegment))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[victim.WroteOffset%testSegment+int64(message.Offsets(0).Body)+2] ^= 0x10
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return dir, victim
}

func TestRecoverStopsAtFlippedBit(t *testing.T) {
	dir, victim := logWithBadRecord(t)
	cl := openLog(t, dir)
	defer cl.Close()
	scan, err := cl.RecoverNormally(true)
	require.NoError(t, err)
	require.Equal(t, victim.WroteOffset, scan.End)
	require.True(t, errors.Is(scan.Stopped, message.ErrCorrupt), "%v", scan.Stopped)
}

// Records past a cut are zeroed. Java leaves them: once new records end
// exactly where an old one began (a producer resending messages of the
// same sizes), the next crash recovery would read on into the old ones.
func TestRecordsCutOffDoNotComeBack(t *testing.T) {
	dir, victim := logWithBadRecord(t)
	cl := openLog(t, dir)
	_, err := cl.RecoverAbnormally(true, 0, nil)
	require.NoError(t, err)
	again := put(t, cl, "T", int32(7%3), fmt.Sprintf("message %d %s", 7, string(make([]byte, 7))))
	require.Equal(t, victim.End(), again.End(), "the resent record ends where record 8 began")
	require.NoError(t, cl.Close())

	cl = openLog(t, dir)
	defer cl.Close()
	scan, err := cl.RecoverAbnormally(true, 0, nil)
	require.NoError(t, err)
	require.Equal(t, again.End(), scan.End, "records 8 and 9 were cut off before")
}

func TestRecoverAbnormallyDispatchesFromCheckpoint(t *testing.T) {
	dir := t.TempDir()
	cl := openLog(t, dir)
	res := fill(t, cl, 120)
	require.NoError(t, cl.Close())
	segs := 1 + res[len(res)-1].WroteOffset/testSegment
	require.GreaterOrEqual(t, segs, int64(3))

	cl = openLog(t, dir)
	defer cl.Close()
	// A checkpoint inside the second-last segment: recovery starts there.
	v, err := cl.ReadFrom((segs - 2) * testSegment)
	require.NoError(t, err)
	safe, ok := message.PeekStoreTimestamp(v.B)
	v.Release()
	require.True(t, ok)
	var seen []int64
	scan, err := cl.RecoverAbnormally(true, safe, func(r *message.Record) error {
		seen = append(seen, r.PhysicalOffset)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, (segs-2)*testSegment, scan.FromFile)
	require.Equal(t, seen[0], (segs-2)*testSegment)
	require.Equal(t, res[len(res)-1].WroteOffset, seen[len(seen)-1])
	require.Equal(t, res[len(res)-1].End(), scan.End)
}

func TestSyncFlushReleasesWaiters(t *testing.T) {
	cl := openLog(t, t.TempDir(), func(c *Config) { c.SyncFlush = true })
	cl.Start()
	defer cl.Close()
	res := put(t, cl, "T", 0, "durable")
	require.NoError(t, cl.WaitFlushed(res.End()))
	require.GreaterOrEqual(t, cl.FlushedOffset(), res.End())
}

func TestFlushFailureIsStickyAndFailsWaiters(t *testing.T) {
	ffs := &segment.FaultFS{FS: segment.OS}
	cl := openLog(t, t.TempDir(), func(c *Config) {
		c.SyncFlush = true
		c.FS = ffs
		c.SyncFlushTimeout = 2 * time.Second
	})
	cl.Start()
	defer cl.Close()
	require.NoError(t, cl.WaitFlushed(put(t, cl, "T", 0, "durable").End()))
	ffs.FailSync.Store(true)
	res := put(t, cl, "T", 0, "lost?")
	err := cl.WaitFlushed(res.End())
	require.ErrorIs(t, err, segment.ErrInjectedSync)
	_, err = cl.Append(&Put{Records: record(t, "T", 0, "more"), QueueKey: "T-0", Consumable: true})
	require.ErrorIs(t, err, segment.ErrInjectedSync, "the segment refuses appends after a failed fsync")
}

func TestFullDiskFailsCreateCleanly(t *testing.T) {
	ffs := &segment.FaultFS{FS: segment.OS}
	cl := openLog(t, t.TempDir(), func(c *Config) { c.FS = ffs })
	defer cl.Close()
	ffs.FailAllocate.Store(true)
	_, err := cl.Append(&Put{Records: record(t, "T", 0, "x"), QueueKey: "T-0", Consumable: true})
	require.ErrorIs(t, err, ErrCreateSegment)
	ffs.FailAllocate.Store(false)
	put(t, cl, "T", 0, "space is back")
}

func TestCheckpointRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "checkpoint")
	cp, err := OpenCheckpoint(segment.OS, path)
	require.NoError(t, err)
	cp.SetPhysic(10_000)
	cp.SetLogics(9_000)
	cp.SetIndex(5_000)
	require.NoError(t, cp.Close())
	st, _ := os.Stat(path)
	require.EqualValues(t, CheckpointFileSize, st.Size())
	cp, err = OpenCheckpoint(segment.OS, path)
	require.NoError(t, err)
	defer cp.Close()
	require.EqualValues(t, 10_000, cp.Physic())
	require.EqualValues(t, 6_000, cp.MinTimestamp())
	require.EqualValues(t, 5_000, cp.MinTimestampIndex())
}

func copyDir(t *testing.T, from, to string) {
	entries, err := os.ReadDir(from)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(to, e.Name()), b, 0o644))
	}
}

// TestLockHeld: while an append holds the lock, LockHeld counts from the
// time it took it and PageCacheBusy reports holds over the limit (but not
// a clock that jumped 10,000,000 ms); an append leaves the lock unmarked.
func TestLockHeld(t *testing.T) {
	var ms atomic.Int64
	ms.Store(1_700_000_000_000)
	cl := openLog(t, t.TempDir(), func(c *Config) { c.Now = ms.Load })
	defer cl.Close()
	now := func() int64 { return ms.Load() }
	require.Zero(t, cl.LockHeld(now()))
	require.False(t, cl.PageCacheBusy(now, 1000))

	put(t, cl, "T", 0, "a")
	require.Zero(t, cl.lockedSince.Load(), "an append unmarks the lock")

	// An append stalled inside the lock, as Append marks it.
	cl.mu.Lock()
	cl.lockedSince.Store(ms.Load())
	ms.Add(1000)
	require.EqualValues(t, 1000, cl.LockHeld(now()))
	require.False(t, cl.PageCacheBusy(now, 1000), "at the limit")
	ms.Add(1)
	require.True(t, cl.PageCacheBusy(now, 1000))
	require.False(t, cl.PageCacheBusy(now, 2000))
	ms.Add(10_000_000)
	require.False(t, cl.PageCacheBusy(now, 1000), "a clock that jumped")
	require.Zero(t, cl.LockHeld(cl.lockedSince.Load()-5), "never negative")

	rec := record(t, "T", 0, "b")
	done := make(chan Result)
	go func() {
		res, _ := cl.Append(&Put{Records: rec, QueueKey: "T-0", Consumable: true})
		done <- res
	}()
	cl.unlock()
	res := <-done
	require.EqualValues(t, 1, res.QueueOffset)
	require.Zero(t, cl.lockedSince.Load())
	require.Equal(t, ms.Load(), res.StoreTimestamp, "stamped with the time the lock was taken")
}

// Puts of writeMin bytes or more go to the file with pwrite(2), smaller
// ones through the mapping; mixed, with rolls between them, every record
// reads back byte for byte as encoded and stamped, before and after a
// reopen, and the bytes past the end of each full segment's blank and of
// the log are zeros.
func TestLargePutsAreWrittenLikeSmallOnes(t *testing.T) {
	dir := t.TempDir()
	const segSize = 512 << 10
	seg := func(c *Config) { c.SegmentSize = segSize }
	cl := openLog(t, dir, seg)
	type placed struct {
		res  Result
		want []byte
	}
	var all []placed
	for i := range 80 {
		if i == 40 {
			// The next large put will not fit: it leaves a blank of
			// writeMin bytes or more (written with pwrite too).
			for cl.Queue().Last().Remaining() > writeMin+40*997+600 {
				all = append(all, placed{put(t, cl, "M", 0, "filler"), record(t, "M", 0, "filler")})
			}
		}
		var recs []byte
		switch i % 4 {
		case 0, 2: // small
			recs = record(t, "M", 0, fmt.Sprintf("small %d", i))
		case 1: // one large record, through Put.Record
			body := bytes.Repeat([]byte{byte(i)}, writeMin+i*997)
			rec := message.Record{Topic: "M", Body: body, BodyCRC: message.BodyCRC(body), BornHost: bornHost, StoreHost: storeHost}
			res, err := cl.Append(&Put{Record: &rec, QueueKey: "M-0", Consumable: true})
			require.NoError(t, err)
			want, err := message.AppendRecord(nil, &rec)
			require.NoError(t, err)
			all = append(all, placed{res, want})
			continue
		case 3: // a large batch
			for j := range 3 {
				recs = append(recs, record(t, "M", 0, strings.Repeat(fmt.Sprint(j), writeMin/3+100))...)
			}
		}
		want := append([]byte(nil), recs...)
		res, err := cl.Append(&Put{Records: recs, QueueKey: "M-0", Consumable: true})
		require.NoError(t, err)
		all = append(all, placed{res, want})
	}
	for i := range all {
		stamp(all[i].want, all[i].res, true)
	}
	require.Greater(t, len(cl.Queue().Segments()), 3, "rolled over")
	check := func(when string) {
		for i, p := range all {
			v, err := cl.Read(p.res.WroteOffset, p.res.WroteBytes)
			require.NoError(t, err, when)
			require.Equal(t, p.want, v.B, "%s: put %d", when, i)
			v.Release()
		}
		largeBlanks := 0
		for _, s := range cl.Queue().Segments() {
			end := s.Wrote()
			if s.Full() {
				end = blankAt(t, s) + message.BlankSize
				if s.Size()-end+message.BlankSize >= writeMin {
					largeBlanks++
				}
			}
			require.Equal(t, make([]byte, s.Size()-end), s.Mapped()[end:], "%s: past the data of %s", when, s.Path())
		}
		require.NotZero(t, largeBlanks, "a blank of writeMin bytes or more")
	}
	check("written")
	require.NoError(t, cl.Close())
	cl = openLog(t, dir, seg)
	defer cl.Close()
	_, err := cl.RecoverNormally(true)
	require.NoError(t, err)
	check("reopened")
}
