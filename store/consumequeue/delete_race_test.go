package consumequeue

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// A topic deleted (DELETE_TOPIC_IN_BROKER, CLEAN_UNUSED_TOPIC) while the
// dispatcher writes to one of its queues: the puts neither fail (a failed
// put stops dispatch for the whole store) nor touch a mapping that is
// gone, and no file of the deleted queue is left behind.
func TestDeleteTopicWhilePutting(t *testing.T) {
	root := t.TempDir()
	tab := NewTable(segment.OS, root, 100*UnitSize, Options{})
	defer tab.Close()
	for round := 0; round < 100; round++ {
		q, err := tab.Find("A", 0)
		require.NoError(t, err)
		var wg sync.WaitGroup
		wg.Add(1)
		var putErr error
		go func() {
			defer wg.Done()
			for i := int64(0); i < 1000 && putErr == nil; i++ {
				putErr = q.Put(unitN(i), i)
			}
		}()
		_, err = tab.DeleteTopic("A")
		require.NoError(t, err)
		wg.Wait()
		require.NoError(t, putErr, "round %d", round)
		_, err = os.Stat(filepath.Join(root, "A", "0"))
		require.ErrorIs(t, err, os.ErrNotExist, "round %d: a put recreated the deleted queue", round)
	}
}

// Dispatch of messages sent before a delete goes on after it: finding no
// queue, it opens a new one in the same directory. The delete must finish
// cleanly and every put must succeed (a failed put stops dispatch for the
// whole store); the new queue must not load the old one's files.
func TestDeleteTopicWhileReopening(t *testing.T) {
	root := t.TempDir()
	tab := NewTable(segment.OS, root, 4*UnitSize, Options{})
	defer tab.Close()
	for round := 0; round < 200; round++ {
		q, err := tab.Find("A", 0)
		require.NoError(t, err)
		for i := int64(0); i < 6; i++ {
			require.NoError(t, q.Put(unitN(i), i))
		}
		var wg sync.WaitGroup
		wg.Add(1)
		var putErr error
		go func() {
			defer wg.Done()
			for i := int64(6); i < 40 && putErr == nil; i++ {
				var q *Queue
				if q, putErr = tab.Find("A", 0); putErr == nil {
					putErr = q.Put(unitN(i), i)
				}
			}
		}()
		_, err = tab.DeleteTopic("A")
		require.NoError(t, err, "round %d", round)
		wg.Wait()
		require.NoError(t, putErr, "round %d", round)
		if q := tab.Get("A", 0); q != nil {
			for i := q.MinOffset(); i < 6; i++ {
				u, err := q.Get(i)
				require.True(t, err != nil || u != unitN(i), "round %d: the new queue holds the deleted one's unit %d", round, i)
			}
		}
		_, err = tab.DeleteTopic("A")
		require.NoError(t, err, "round %d", round)
	}
}
