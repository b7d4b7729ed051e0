package consumequeue

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// Java 4.9.8: DefaultMessageStore.loadConsumeQueue / recoverConsumeQueue /
// recoverTopicQueueTable / cleanExpiredConsumerQueue.
func TestTableLoadAndRecover(t *testing.T) {
	root := t.TempDir()
	tab := NewTable(segment.OS, root, tinyFile, Options{})
	a, err := tab.Find("A", 0)
	require.NoError(t, err)
	putN(t, a, 0, 7)
	b, err := tab.Find("B", 3)
	require.NoError(t, err)
	putN(t, b, 10, 12)
	same, err := tab.Find("A", 0)
	require.NoError(t, err)
	require.Same(t, a, same)
	require.Nil(t, tab.Get("C", 0))
	tab.Close()

	// Names Java skips or reads differently.
	require.NoError(t, os.MkdirAll(filepath.Join(root, "A", "notanumber"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "B", "+07"), 0o755)) // Integer.parseInt: queue 7
	require.NoError(t, os.WriteFile(filepath.Join(root, "stray"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "A", "5"), nil, 0o644))

	tab = NewTable(segment.OS, root, tinyFile, Options{})
	require.NoError(t, tab.Load())
	defer tab.Close()
	var keys []string
	for _, q := range tab.Queues() {
		keys = append(keys, q.Key())
	}
	require.Equal(t, []string{"A-0", "B-3", "B-7"}, keys)
	require.Equal(t, []string{"A", "B"}, tab.Topics())
	maxPhy, err := tab.Recover()
	require.NoError(t, err)
	require.EqualValues(t, 1200, maxPhy)
	require.EqualValues(t, 1200, tab.ReputFrom(0))
	require.EqualValues(t, 5000, tab.ReputFrom(5000))

	next, err := tab.NextOffsets(250)
	require.NoError(t, err)
	require.Equal(t, map[string]int64{"A-0": 7, "B-3": 12, "B-7": 0}, next)
	require.EqualValues(t, 3, tab.Get("A", 0).MinOffset())
	require.EqualValues(t, 10, tab.Get("B", 3).MinOffset())

	require.NoError(t, tab.TruncateAfter(650))
	require.EqualValues(t, 7, tab.Get("A", 0).MaxOffset())
	require.EqualValues(t, 0, tab.Get("B", 3).MaxOffset())

	n, err := tab.Clean(600)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = tab.Clean(600)
	require.NoError(t, err)
	require.Zero(t, n, "the commit log's minimum did not grow")

	removed, err := tab.CleanExpired(800)
	require.NoError(t, err)
	require.Equal(t, []string{"A-0"}, removed)
	require.Nil(t, tab.Get("A", 0))
	require.Equal(t, []string{"B"}, tab.Topics())

	keysB, err := tab.DeleteTopic("B")
	require.NoError(t, err)
	require.Equal(t, []string{"B-3", "B-7"}, keysB)
	require.Empty(t, tab.Queues())
}

func TestTableLoadFailsOnBadFile(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "A", "0")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, segment.FileName(0)), make([]byte, 7), 0o644))
	tab := NewTable(segment.OS, root, tinyFile, Options{})
	require.ErrorIs(t, tab.Load(), segment.ErrSize)
	require.NoError(t, NewTable(segment.OS, filepath.Join(root, "missing"), tinyFile, Options{}).Load())
}
