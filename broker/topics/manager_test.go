package topics

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/config"
)

func newManager(t *testing.T, edit func(*Options)) *Manager {
	t.Helper()
	o := defaultOptions(t.TempDir())
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

// Java 4.9.8: the TopicConfigManager constructor.
func TestSystemTopics(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(*Options)
		want    map[string][2]int32 // topic -> {queues, perm}
		missing []string
	}{
		{name: "defaults", want: map[string][2]int32{SelfTestTopic: {1, 6}, AutoCreateTopicKey: {8, 7},
			BenchmarkTopic: {1024, 6}, "DefaultCluster": {16, 7}, "broker-a": {1, 7}, OffsetMovedEventTopic: {1, 6},
			ScheduleTopic: {18, 6}, "DefaultCluster_REPLY_TOPIC": {1, 6}}, missing: []string{TraceTopic}},
		{name: "all off", edit: func(o *Options) {
			o.AutoCreateTopicEnable, o.ClusterTopicEnable, o.BrokerTopicEnable = false, false, false
		}, want: map[string][2]int32{"DefaultCluster": {16, 1}, "broker-a": {1, 1}}, missing: []string{AutoCreateTopicKey}},
		{name: "trace and queue nums", edit: func(o *Options) {
			o.TraceTopicEnable, o.MsgTraceTopicName, o.DefaultTopicQueueNums = true, "MyTrace", 3
		}, want: map[string][2]int32{"MyTrace": {1, 6}, AutoCreateTopicKey: {3, 7}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newManager(t, c.edit)
			for name, w := range c.want {
				tc, ok := m.Select(name)
				require.True(t, ok, name)
				require.Equal(t, w, [2]int32{tc.WriteQueueNums, tc.Perm}, name)
				require.Equal(t, tc.ReadQueueNums, tc.WriteQueueNums, name)
				require.True(t, m.IsSystemTopic(name), name)
			}
			for _, name := range c.missing {
				_, ok := m.Select(name)
				require.False(t, ok, name)
			}
			require.Zero(t, m.DataVersion().Counter)
			_, err := os.Stat(config.TopicsPath(m.opts.StorePathRootDir))
			require.ErrorIs(t, err, os.ErrNotExist, "the constructor writes nothing")
		})
	}
}

// Java 4.9.8: TopicConfigManager.createTopicInSendMessageMethod.
func TestCreateInSendMessage(t *testing.T) {
	cases := []struct {
		name, defaultTopic string
		queues, sysFlag    int32
		autoCreateOff      bool
		want               *config.TopicConfig // nil: not created
	}{
		{name: "fewer than default", defaultTopic: AutoCreateTopicKey, queues: 4,
			want: &config.TopicConfig{ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
		{name: "capped by default", defaultTopic: AutoCreateTopicKey, queues: 100,
			want: &config.TopicConfig{ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}},
		{name: "negative", defaultTopic: AutoCreateTopicKey, queues: -1, sysFlag: 3,
			want: &config.TopicConfig{Perm: 6, TopicSysFlag: 3}},
		{name: "cluster topic", defaultTopic: "DefaultCluster", queues: 20,
			want: &config.TopicConfig{ReadQueueNums: 16, WriteQueueNums: 16, Perm: 6}},
		{name: "not inheritable", defaultTopic: SelfTestTopic, queues: 4},
		{name: "no default", defaultTopic: "Nope", queues: 4},
		{name: "auto-create switched off", defaultTopic: AutoCreateTopicKey, queues: 4, autoCreateOff: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var registered atomic.Int32
			m := newManager(t, func(o *Options) { o.Register = func() { registered.Add(1) } })
			if c.autoCreateOff {
				m.SetAutoCreateTopicEnable(false)
			}
			tc, ok, err := m.CreateInSendMessage("New", c.defaultTopic, "1.2.3.4:5", c.queues, c.sysFlag)
			require.NoError(t, err)
			_, statErr := os.Stat(config.TopicsPath(m.opts.StorePathRootDir))
			if c.want == nil {
				require.False(t, ok)
				require.Zero(t, registered.Load())
				require.Zero(t, m.DataVersion().Counter)
				require.ErrorIs(t, statErr, os.ErrNotExist)
				return
			}
			want := *c.want
			want.TopicName, want.TopicFilterType = "New", config.SingleTag
			require.True(t, ok)
			require.Equal(t, want, tc)
			require.EqualValues(t, 1, registered.Load())
			require.EqualValues(t, 1, m.DataVersion().Counter)
			require.NoError(t, statErr)
			again, ok, err := m.CreateInSendMessage("New", c.defaultTopic, "", 1, 0)
			require.NoError(t, err)
			require.True(t, ok)
			require.Equal(t, want, again)
			require.EqualValues(t, 1, registered.Load(), "an existing topic is not registered again")
		})
	}
}

func TestAutoCreateOffResetsTBW102InMemory(t *testing.T) {
	m := newManager(t, nil)
	m.SetAutoCreateTopicEnable(false)
	_, ok, err := m.CreateInSendMessage("New", AutoCreateTopicKey, "", 4, 0)
	require.NoError(t, err)
	require.False(t, ok)
	tc, _ := m.Select(AutoCreateTopicKey)
	require.Equal(t, PermRW, tc.Perm, "Java resets TBW102's permission")
	require.Zero(t, m.DataVersion().Counter, "without a version bump")
}

func TestDataVersionUsesClock(t *testing.T) {
	m := newManager(t, func(o *Options) { o.Now = func() int64 { return 42 } })
	require.NoError(t, m.Update(config.NewTopicConfig("T")))
	require.Equal(t, config.DataVersion{Timestamp: 42, Counter: 1}, m.DataVersion())
	loaded, err := config.DecodeTopics(mustRead(t, config.TopicsPath(m.opts.StorePathRootDir)))
	require.NoError(t, err)
	require.Equal(t, m.DataVersion(), loaded.DataVersion)
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

func TestUpdateRefusesNullName(t *testing.T) {
	m := newManager(t, nil)
	require.ErrorIs(t, m.Update(config.TopicConfig{TopicNameNull: true}), ErrNullTopicName)
}

// Java 4.9.8: LmqTopicConfigManager.
func TestLmq(t *testing.T) {
	m := newManager(t, func(o *Options) { o.EnableLmq = true })
	tc, ok := m.Select("%LMQ%q1")
	require.True(t, ok)
	require.Equal(t, config.TopicConfig{TopicName: "%LMQ%q1", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6,
		TopicFilterType: config.SingleTag}, tc)
	require.NoError(t, m.Update(config.NewTopicConfig("%LMQ%q2")))
	require.Zero(t, m.DataVersion().Counter)
	plain := newManager(t, nil)
	_, ok = plain.Select("%LMQ%q1")
	require.False(t, ok)
}

// A failed save is returned; the change stays in the table, as in Java.
func TestPersistFailureKeepsChange(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "config"), nil, 0o644)) // not a directory
	m := newManager(t, func(o *Options) { o.StorePathRootDir = root })
	err := m.Update(config.NewTopicConfig("T"))
	require.Error(t, err)
	_, ok := m.Select("T")
	require.True(t, ok)
}

func TestLoadMissingFileKeepsSystemTopics(t *testing.T) {
	m := newManager(t, nil)
	n := m.Len()
	res, err := m.Load()
	require.NoError(t, err)
	require.False(t, res.Found)
	require.Equal(t, n, m.Len())
}

func TestLoadCorruptFails(t *testing.T) {
	m := newManager(t, nil)
	path := config.TopicsPath(m.opts.StorePathRootDir)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(`{"topicConfigTable":`), 0o644))
	_, err := m.Load()
	require.ErrorIs(t, err, config.ErrCorrupt)
}

// Java 4.9.8: SlaveSynchronize.syncTopicConfig takes the master's data
// version, clears the slave's table and putAll's the master's.
func TestReplaceAll(t *testing.T) {
	m := newManager(t, nil)
	src, err := config.DecodeTopics([]byte(`{"dataVersion":{"counter":4,"timestamp":3},` +
		`"topicConfigTable":{"M":{"topicName":"M","readQueueNums":2,"writeQueueNums":2,"perm":6}}}`))
	require.NoError(t, err)
	require.NoError(t, m.ReplaceAll(src))
	require.Equal(t, config.DataVersion{Timestamp: 3, Counter: 4}, m.DataVersion())
	require.Equal(t, 1, m.Len(), "the slave's own topics, system ones too, are cleared")
	tc, ok := m.Select("M")
	require.True(t, ok)
	require.EqualValues(t, 2, tc.WriteQueueNums)
	onDisk, err := config.DecodeTopics(mustRead(t, config.TopicsPath(m.opts.StorePathRootDir)))
	require.NoError(t, err)
	require.Equal(t, src.DataVersion, onDisk.DataVersion)
	require.Equal(t, 1, onDisk.Len())
}

func TestConcurrentUse(t *testing.T) {
	m := newManager(t, nil)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				name := "T" + strconv.Itoa(g) + "_" + strconv.Itoa(i)
				_, _, err := m.CreateInSendMessage(name, AutoCreateTopicKey, "", 4, 0)
				assert.NoError(t, err)
				m.Select(name)
				m.IsOrderTopic(name)
				m.Wrapper()
				if i%5 == 0 {
					_, err = m.Delete(name)
					assert.NoError(t, err)
				}
			}
		}()
	}
	wg.Wait()
	require.EqualValues(t, 4*25+4*5, m.DataVersion().Counter)
	loaded, err := config.DecodeTopics(mustRead(t, config.TopicsPath(m.opts.StorePathRootDir)))
	require.NoError(t, err)
	require.Equal(t, m.Len(), loaded.Len(), "the last save has the final table")
}
