package store

import (
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

func TestManualDeleteRemovesExpiredFilesAndQueues(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.FileReservedTime = 1
	cfg.DeleteWhen = "99" // never the hour: only the manual trigger deletes
	cfg.DeleteCommitLogFilesInterval = 0
	s := openStore(t, cfg)
	defer s.Close()
	msgs := putN(t, s, 400)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	segs := s.CommitLog().Queue().Segments()
	require.Greater(t, len(segs), 3)
	old := time.Now().Add(-2 * time.Hour)
	for _, seg := range segs[:2] {
		require.NoError(t, os.Chtimes(seg.Path(), old, old))
	}
	s.cleanOnce(nil)
	require.Len(t, s.CommitLog().Queue().Segments(), len(segs), "not the hour, not full, not asked")

	s.DeleteFilesManually()
	s.cleanOnce(nil)
	require.Len(t, s.CommitLog().Queue().Segments(), len(segs)-2, "the two expired files, oldest first")
	min := s.MinPhyOffset()
	require.Equal(t, segs[2].Base(), min)
	for _, m := range msgs {
		res, err := s.GetMessage("G", m.topic, m.queueID, m.res.QueueOffset, 1, nil)
		require.NoError(t, err)
		if m.res.WroteOffset < min {
			require.NotEqual(t, Found, res.Status, "deleted message %d", m.res.WroteOffset)
			require.Less(t, m.res.QueueOffset, s.MinOffsetInQueue(m.topic, m.queueID)+50, "queue min moved up")
		} else {
			require.Equal(t, Found, res.Status)
		}
		res.Release()
	}
}

func TestDiskFullRefusesPutsAndRecovers(t *testing.T) {
	var usage atomic.Value
	usage.Store(0.5)
	cfg := testConfig(t.TempDir())
	s, err := Open(cfg, Options{Master: true, DiskUsage: func(string) float64 { return usage.Load().(float64) }})
	require.NoError(t, err)
	require.NoError(t, s.Start())
	defer s.Close()
	putN(t, s, 1)

	usage.Store(0.95)
	s.cleanOnce(nil)
	r := s.PutMessage(&Message{Topic: "T", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, ServiceNotAvailable, r.Status)

	usage.Store(0.5)
	s.cleanOnce(nil)
	r = s.PutMessage(&Message{Topic: "T", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, r.Status, "space is back: puts resume by themselves")
}

func TestDeleteHour(t *testing.T) {
	s := &Store{cfg: Config{DeleteWhen: "04;13"}}
	require.True(t, s.isDeleteHour(time.Date(2026, 1, 1, 13, 5, 0, 0, time.Local)))
	require.True(t, s.isDeleteHour(time.Date(2026, 1, 1, 4, 59, 0, 0, time.Local)))
	require.False(t, s.isDeleteHour(time.Date(2026, 1, 1, 5, 0, 0, 0, time.Local)))
}

// TestCleanExpiredConsumeQueues (mqadmin cleanExpiredCQ) drops a queue
// whose messages all went with the deleted commit-log files, and its
// counter, and keeps the queues with live messages.
func TestCleanExpiredConsumeQueues(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.FileReservedTime = 1
	cfg.DeleteWhen = "99"
	cfg.DeleteCommitLogFilesInterval = 0
	s := openStore(t, cfg)
	defer s.Close()
	early := s.PutMessage(&Message{Topic: "Early", QueueID: 0, Body: []byte("gone soon"),
		BornTimestamp: 1_700_000_000_000, BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, early.Status)
	putN(t, s, 400)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	n, err := s.CleanExpiredConsumeQueues()
	require.NoError(t, err)
	require.Zero(t, n, "nothing expired yet")

	segs := s.CommitLog().Queue().Segments()
	old := time.Now().Add(-2 * time.Hour)
	for _, seg := range segs[:2] {
		require.NoError(t, os.Chtimes(seg.Path(), old, old))
	}
	s.DeleteFilesManually()
	s.cleanOnce(nil)
	require.Greater(t, s.MinPhyOffset(), early.WroteOffset)

	n, err = s.CleanExpiredConsumeQueues()
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Nil(t, s.ConsumeQueues().Get("Early", 0))
	require.NotNil(t, s.ConsumeQueues().Get("Topic0", 0))
	again := s.PutMessage(&Message{Topic: "Early", QueueID: 0, Body: []byte("back"),
		BornTimestamp: 1_700_000_000_001, BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, again.Status)
	require.Equal(t, int64(0), again.QueueOffset, "the queue's counter went with it")
}

// A full disk that fails a new consume-queue file stops dispatch and
// refuses puts only while it lasts: once space is back, dispatch catches
// up and puts resume by themselves (Java retries the unit for 30 s and
// then refuses puts until restarted).
func TestDiskFullDuringDispatchRecovers(t *testing.T) {
	ffs := &segment.FaultFS{FS: segment.OS}
	cfg := testConfig(t.TempDir())
	s, err := Open(cfg, Options{Master: true, FS: ffs})
	require.NoError(t, err)
	require.NoError(t, s.Start())
	defer s.Close()
	putN(t, s, 1)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })

	ffs.FailAllocate.Store(true)
	r := s.PutMessage(&Message{Topic: "New", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, r.Status, "the commit log has room")
	eventually(t, "refusal", func() bool { return !s.Writable() })
	r = s.PutMessage(&Message{Topic: "T", Body: []byte("x"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, ServiceNotAvailable, r.Status)

	ffs.FailAllocate.Store(false)
	eventually(t, "dispatch after space came back", func() bool { return s.DispatchBehind() == 0 && s.Writable() })
	r = s.PutMessage(&Message{Topic: "T", Body: []byte("y"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, r.Status, "space is back: puts resume by themselves")
	eventually(t, "dispatch", func() bool { return s.MaxOffsetInQueue("New", 0) == 1 })
}
