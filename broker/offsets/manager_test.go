package offsets

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/config"
)

func newManager(t *testing.T, edit func(*Options)) *Manager {
	t.Helper()
	o := Options{StorePathRootDir: t.TempDir()}
	if edit != nil {
		edit(&o)
	}
	m, err := New(o)
	require.NoError(t, err)
	return m
}

func TestNewNeedsRoot(t *testing.T) {
	_, err := New(Options{})
	require.ErrorIs(t, err, ErrNoRoot)
}

// A group's first commits arriving together (a Java consumer's shutdown
// sends one oneway per queue, handled on several threads) all stay. Java
// 4.9.x creates the topic@group map without a lock and keeps only the
// last thread's queue.
func TestConcurrentFirstCommits(t *testing.T) {
	m := newManager(t, nil)
	const queues = 8
	for round := range 50 {
		group := "G" + strconv.Itoa(round)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for q := range int32(queues) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				m.Commit("client", group, "T", q, int64(q)+1)
			}()
		}
		close(start)
		wg.Wait()
		for q := range int32(queues) {
			require.Equal(t, int64(q)+1, m.Query(group, "T", q), "round %d queue %d", round, q)
		}
	}
}

// Java 4.9.8: ConsumerOffsetManager.commitOffset / queryOffset.
func TestCommitQuery(t *testing.T) {
	m := newManager(t, nil)
	cases := []struct {
		group, topic string
		queue        int32
		commit       int64 // < -1: no commit before the query
		want         int64
	}{
		{"G", "T", 0, 10, 10},
		{"G", "T", 0, 5, 5}, // backwards is allowed
		{"G", "T", 1, -2, -1},
		{"H", "T", 0, -2, -1},
		{"G", "U", 0, -1, -1}, // a stored -1 reads as -1 too
	}
	for _, c := range cases {
		if c.commit > -2 {
			m.Commit("client", c.group, c.topic, c.queue, c.commit)
		}
		require.Equal(t, c.want, m.Query(c.group, c.topic, c.queue), "%+v", c)
	}
	q, ok := m.QueryAll("G", "T")
	require.True(t, ok)
	require.Equal(t, []QueueOffset{{0, 5}}, q)
	_, err := os.Stat(config.ConsumerOffsetPath(m.opts.StorePathRootDir))
	require.ErrorIs(t, err, os.ErrNotExist, "commits alone write nothing")
}

func TestTopicsAndGroupsOf(t *testing.T) {
	m := newManager(t, nil)
	for _, k := range [][2]string{{"G1", "A"}, {"G1", "B"}, {"G2", "A"}, {"G@x", "A"}} {
		m.Commit("", k[0], k[1], 0, 1)
	}
	require.ElementsMatch(t, []string{"A", "B"}, m.TopicsOf("G1"))
	require.ElementsMatch(t, []string{"G1", "G2"}, m.GroupsOf("A"), "A@G@x does not split in two")
	require.Empty(t, m.TopicsOf("x"))
}

// Java 4.9.8: scanUnsubscribedTopic keeps subscribed groups and offsets
// still ahead of the store's minimum.
func TestScanUnsubscribed(t *testing.T) {
	m := newManager(t, func(o *Options) {
		o.MinOffset = func(topic string, q int32) int64 { return 10 }
		o.Subscribed = func(group, topic string) bool { return group == "Live" }
	})
	m.Commit("", "Live", "T", 0, 1)  // subscribed
	m.Commit("", "Gone", "T", 0, 10) // behind: removed
	m.Commit("", "Gone", "T", 1, 9)
	m.Commit("", "Ahead", "T", 0, 11) // not behind
	m.Commit("", "Mixed", "T", 0, 3)
	m.Commit("", "Mixed", "T", 1, 30)
	require.Equal(t, []string{"T@Gone"}, m.ScanUnsubscribed())
	for _, g := range []string{"Live", "Ahead", "Mixed"} {
		require.NotEqual(t, int64(-1), m.Query(g, "T", 0), g)
	}
}

// Java 4.9.8: queryMinOffsetInAllGroup, except that the filter groups'
// keys are skipped, not removed.
func TestMinOffsetInAllGroups(t *testing.T) {
	m := newManager(t, func(o *Options) { o.MinOffset = func(string, int32) int64 { return 5 } })
	m.Commit("", "A", "T", 0, 7)
	m.Commit("", "B", "T", 0, 6)
	m.Commit("", "B", "T", 1, 4) // below the store minimum: ignored
	m.Commit("", "C", "T", 1, 9)
	m.Commit("", "B", "U", 0, 1)
	require.ElementsMatch(t, []QueueOffset{{0, 6}, {1, 9}}, m.MinOffsetInAllGroups("T", " "))
	require.ElementsMatch(t, []QueueOffset{{0, 7}, {1, 9}}, m.MinOffsetInAllGroups("T", "B,Z"))
	require.Equal(t, int64(1), m.Query("B", "U", 0), "Java would drop every key of a filter group")
	require.Equal(t, int64(6), m.Query("B", "T", 0))
}

func TestClone(t *testing.T) {
	m := newManager(t, nil)
	m.Commit("", "S", "T", 0, 1)
	m.Commit("", "S", "T", 1, 2)
	m.Commit("", "D", "T", 5, 9)
	m.Clone("S", "D", "T")
	q, _ := m.QueryAll("D", "T")
	require.Equal(t, []QueueOffset{{0, 1}, {1, 2}}, q, "the copy replaces the destination")
	m.Clone("none", "E", "T")
	_, ok := m.QueryAll("E", "T")
	require.False(t, ok)
	m.Commit("", "S", "T", 0, 100)
	require.Equal(t, int64(1), m.Query("D", "T", 0), "a copy, not shared")
}

// Java 4.9.8: SlaveSynchronize.syncConsumerOffset putAll's the master's
// table into the slave's: the master's keys take its queues, the slave's
// other keys stay.
func TestPutAll(t *testing.T) {
	m := newManager(t, nil)
	m.Commit("", "A", "T", 0, 1)
	m.Commit("", "B", "T", 0, 1)
	m.Commit("", "B", "T", 7, 1)
	m.Commit("", "OWN", "T", 0, 5)
	src, err := config.DecodeConsumerOffsets([]byte(`{"offsetTable":{"T@A":{0:10,1:11},"T@B":{0:20},"T@NEW":{2:30}}}`))
	require.NoError(t, err)
	m.PutAll(src)
	for _, c := range []struct {
		group string
		want  []QueueOffset
	}{
		{"A", []QueueOffset{{0, 10}, {1, 11}}},
		{"B", []QueueOffset{{0, 20}}}, // queue 7 is gone: the key takes the master's map
		{"NEW", []QueueOffset{{2, 30}}},
		{"OWN", []QueueOffset{{0, 5}}},
	} {
		got, ok := m.QueryAll(c.group, "T")
		require.True(t, ok, c.group)
		require.Equal(t, c.want, got, c.group)
	}
	_, err = os.Stat(config.ConsumerOffsetPath(m.opts.StorePathRootDir))
	require.ErrorIs(t, err, os.ErrNotExist, "PutAll writes nothing")
}

func TestRunPersistsPeriodicallyAndAtShutdown(t *testing.T) {
	m := newManager(t, func(o *Options) { o.FlushDelay, o.FlushInterval = time.Millisecond, 5*time.Millisecond })
	path := config.ConsumerOffsetPath(m.opts.StorePathRootDir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	m.Commit("", "G", "T", 0, 1)
	require.Eventually(t, func() bool {
		c, err := config.DecodeConsumerOffsets(readOrNil(path))
		return err == nil && c.Len() == 1
	}, 5*time.Second, time.Millisecond)
	m.Commit("", "G", "T", 0, 2)
	cancel()
	require.NoError(t, <-done)
	c, err := config.DecodeConsumerOffsets(readOrNil(path))
	require.NoError(t, err)
	off, _ := c.Query(config.OffsetKey("T", "G"), 0)
	require.Equal(t, int64(2), off, "shutdown persists the last commit")
}

func readOrNil(path string) []byte {
	data, _ := os.ReadFile(path)
	return data
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	m := newManager(t, func(o *Options) { o.StorePathRootDir = root })
	res, err := m.Load()
	require.NoError(t, err)
	require.False(t, res.Found)
	m.Commit("", "G", "T", 3, 33)
	require.NoError(t, m.Persist())
	again := newManager(t, func(o *Options) { o.StorePathRootDir = root })
	again.Commit("", "X", "Y", 0, 1) // replaced by the file's table, as in Java
	res, err = again.Load()
	require.NoError(t, err)
	require.True(t, res.Found)
	require.Equal(t, int64(33), again.Query("G", "T", 3))
	require.Equal(t, int64(-1), again.Query("X", "Y", 0))
}

func TestConcurrentUse(t *testing.T) {
	m := newManager(t, nil)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				m.Commit("", "G"+strconv.Itoa(w), "T", int32(i%8), int64(i))
				m.Query("G0", "T", 0)
				m.TopicsOf("G1")
				if i%50 == 0 {
					_ = m.Persist()
					m.ScanUnsubscribed()
				}
			}
		}()
	}
	wg.Wait()
	require.ElementsMatch(t, []string{"G0", "G1", "G2", "G3"}, m.GroupsOf("T"))
}
