package commitlog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/message"
	"github.com/sputnikmq/sputnik/store/segment"
)

// writeLog writes n records to a new log, closes it, and returns its
// directory and the records' results.
func writeLog(t *testing.T, n int) (string, []Result) {
	t.Helper()
	dir := t.TempDir()
	cl := openLog(t, dir)
	res := fill(t, cl, n)
	require.NoError(t, cl.Close())
	return dir, res
}

// recoverAll runs an abnormal recovery of dir from its first segment,
// collecting what reaches dispatch; fail, when set, makes dispatch fail at
// that offset.
func recoverAll(t *testing.T, dir string, fail int64) (Scan, []message.Record, error) {
	t.Helper()
	cl := openLog(t, dir)
	defer cl.Close()
	var seen []message.Record
	scan, err := cl.RecoverAbnormally(true, 0, func(r *message.Record) error {
		if r.PhysicalOffset == fail {
			return errors.New("queue full")
		}
		c := *r
		c.Body = append([]byte(nil), r.Body...)
		seen = append(seen, c)
		return nil
	})
	return scan, seen, err
}

// Every record reaches dispatch once, in log order, with its own fields,
// across many hand-overs between the scan and the dispatching goroutine
// and across segments.
func TestRecoveryDispatchesEveryRecordInOrder(t *testing.T) {
	n := pipeBatch*(pipeDepth+3) + 17
	dir, res := writeLog(t, n)
	require.Greater(t, res[n-1].WroteOffset/testSegment, int64(1), "several segments")

	scan, seen, err := recoverAll(t, dir, -1)
	require.NoError(t, err)
	require.Equal(t, res[n-1].End(), scan.End)
	require.Equal(t, n, scan.Records)
	require.Len(t, seen, n)
	for i, r := range seen {
		require.Equal(t, res[i].WroteOffset, r.PhysicalOffset, "record %d", i)
		require.Equal(t, res[i].QueueOffset, r.QueueOffset, "record %d", i)
		require.Equal(t, int32(i%3), r.QueueID, "record %d", i)
		require.Equal(t, message.BodyCRC(r.Body), r.BodyCRC, "record %d carries its own body", i)
	}
}

// A corrupt record in the middle of a long log ends it there: everything
// before it is dispatched and nothing after, although the scan had run
// batches ahead of the dispatcher.
func TestRecoveryDispatchStopsAtCorruptRecord(t *testing.T) {
	n := pipeBatch * (pipeDepth + 2)
	dir, res := writeLog(t, n)
	bad := n/2 + 3
	victim := res[bad]
	path := filepath.Join(dir, segment.FileName(victim.WroteOffset-victim.WroteOffset%testSegment))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[victim.WroteOffset%testSegment+int64(message.Offsets(0).Body)+1] ^= 0x01
	require.NoError(t, os.WriteFile(path, b, 0o644))

	scan, seen, err := recoverAll(t, dir, -1)
	require.NoError(t, err)
	require.Equal(t, victim.WroteOffset, scan.End)
	require.ErrorIs(t, scan.Stopped, message.ErrCorrupt)
	require.Len(t, seen, bad)
	require.Equal(t, res[bad-1].WroteOffset, seen[bad-1].PhysicalOffset)
}

// A failing dispatch fails the recovery with its error, and no record after
// the failing one is dispatched.
func TestRecoveryDispatchErrorStopsIt(t *testing.T) {
	n := pipeBatch * (pipeDepth + 2)
	dir, res := writeLog(t, n)
	at := pipeBatch + 5

	_, seen, err := recoverAll(t, dir, res[at].WroteOffset)
	require.Error(t, err)
	require.Contains(t, err.Error(), "queue full")
	require.Len(t, seen, at)
	scan, seen, err := recoverAll(t, dir, -1)
	require.NoError(t, err)
	require.Equal(t, res[n-1].End(), scan.End, "the failed recovery cut nothing")
	require.Len(t, seen, n)
}
