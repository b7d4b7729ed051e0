package groups

import (
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/config"
)

func newManager(t *testing.T, edit func(*Options)) *Manager {
	t.Helper()
	o := testOptions(t.TempDir())
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

// Java 4.9.8: SubscriptionGroupManager.init.
func TestBuiltInGroups(t *testing.T) {
	m := newManager(t, nil)
	var names []string
	for _, g := range m.Groups() {
		require.Equal(t, config.NewSubscriptionGroupConfig(g.GroupName), g)
		names = append(names, g.GroupName)
	}
	require.ElementsMatch(t, builtIn, names)
	require.Zero(t, m.DataVersion().Counter)
}

// Java 4.9.8: SubscriptionGroupManager.findSubscriptionGroupConfig.
func TestFind(t *testing.T) {
	cases := []struct {
		group      string
		autoCreate bool
		lmq        bool
		created    bool // stored and persisted
		found      bool
	}{
		{group: "G", autoCreate: true, created: true, found: true},
		{group: "G", autoCreate: false},
		{group: "CID_RMQ_SYS_X", autoCreate: false, created: true, found: true},
		{group: ToolsConsumerGroup, autoCreate: false, found: true},
		{group: "%LMQ%g", autoCreate: false, lmq: true, found: true},
		{group: "%LMQ%g", autoCreate: false},
	}
	for i, c := range cases {
		t.Run(strconv.Itoa(i)+"-"+c.group, func(t *testing.T) {
			m := newManager(t, func(o *Options) { o.AutoCreateSubscriptionGroup, o.EnableLmq = c.autoCreate, c.lmq })
			g, ok, err := m.Find(c.group)
			require.NoError(t, err)
			require.Equal(t, c.found, ok)
			if ok {
				require.Equal(t, config.NewSubscriptionGroupConfig(c.group), g)
			}
			_, stored := m.Get(c.group)
			require.Equal(t, c.created || (c.found && !c.lmq), stored)
			_, statErr := os.Stat(config.SubscriptionGroupPath(m.opts.StorePathRootDir))
			if c.created {
				require.EqualValues(t, 1, m.DataVersion().Counter)
				require.NoError(t, statErr)
			} else {
				require.Zero(t, m.DataVersion().Counter)
				require.ErrorIs(t, statErr, os.ErrNotExist)
			}
		})
	}
}

func TestSetAutoCreateIsLive(t *testing.T) {
	m := newManager(t, nil)
	m.SetAutoCreate(false)
	_, ok, err := m.Find("G")
	require.NoError(t, err)
	require.False(t, ok)
	m.SetAutoCreate(true)
	_, ok, err = m.Find("G")
	require.NoError(t, err)
	require.True(t, ok)
}

// Java 4.9.8: disableConsume bumps the version but does not persist.
func TestDisableConsumeDoesNotWrite(t *testing.T) {
	m := newManager(t, nil)
	require.NoError(t, m.Update(config.NewSubscriptionGroupConfig("G")))
	path := config.SubscriptionGroupPath(m.opts.StorePathRootDir)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	m.DisableConsume("G")
	m.DisableConsume("missing")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, before, after)
	g, _ := m.Get("G")
	require.False(t, g.ConsumeEnable)
	require.EqualValues(t, 2, m.DataVersion().Counter)
}

func TestUpdateAndDelete(t *testing.T) {
	m := newManager(t, func(o *Options) { o.EnableLmq = true })
	require.ErrorIs(t, m.Update(config.SubscriptionGroupConfig{GroupNameNull: true}), ErrNullGroupName)
	require.NoError(t, m.Update(config.NewSubscriptionGroupConfig("%LMQ%x")))
	require.Zero(t, m.DataVersion().Counter, "LMQ groups are not stored")
	g := config.NewSubscriptionGroupConfig("G")
	g.RetryMaxTimes = 3
	require.NoError(t, m.Update(g))
	got, ok := m.Get("G")
	require.True(t, ok)
	require.Equal(t, g, got)
	ok, err := m.Delete("G")
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = m.Delete("G")
	require.NoError(t, err)
	require.False(t, ok)
	require.EqualValues(t, 2, m.DataVersion().Counter)
}

// Java 4.9.8: decode cannot restore the data version (see the package doc).
func TestLoadResetsDataVersion(t *testing.T) {
	root := t.TempDir()
	m := newManager(t, func(o *Options) { o.StorePathRootDir = root })
	for i := 0; i < 3; i++ {
		require.NoError(t, m.Update(config.NewSubscriptionGroupConfig("G"+strconv.Itoa(i))))
	}
	again := newManager(t, func(o *Options) { o.StorePathRootDir = root; o.Now = func() int64 { return 7 } })
	res, err := again.Load()
	require.NoError(t, err)
	require.True(t, res.Found)
	require.Equal(t, config.DataVersion{Timestamp: 7}, again.DataVersion())
	require.Equal(t, m.Groups(), again.Groups())
}

// Java 4.9.8: SlaveSynchronize.syncSubscriptionGroupConfig clears the
// slave's table, putAll's the master's and takes its data version.
func TestReplaceAll(t *testing.T) {
	m := newManager(t, nil)
	require.NoError(t, m.Update(config.NewSubscriptionGroupConfig("OWN")))
	src, err := config.DecodeSubscriptionGroups([]byte(`{"dataVersion":{"counter":9,"timestamp":5},` +
		`"subscriptionGroupTable":{"M":{"groupName":"M","retryMaxTimes":3}}}`))
	require.NoError(t, err)
	require.NoError(t, m.ReplaceAll(src))
	require.Equal(t, config.DataVersion{Timestamp: 5, Counter: 9}, m.DataVersion())
	require.Equal(t, src.Len(), len(m.Groups()))
	g, ok := m.Get("M")
	require.True(t, ok)
	require.EqualValues(t, 3, g.RetryMaxTimes)
	_, ok = m.Get("OWN")
	require.False(t, ok, "the slave's own groups are cleared")
	again := newManager(t, func(o *Options) { o.StorePathRootDir = m.opts.StorePathRootDir })
	_, err = again.Load()
	require.NoError(t, err)
	_, ok = again.Get("M")
	require.True(t, ok, "subscriptionGroup.json written")
}

func TestConcurrentUse(t *testing.T) {
	m := newManager(t, nil)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				name := "G" + strconv.Itoa(i)
				_, _, err := m.Find(name)
				assert.NoError(t, err)
				m.DisableConsume(name)
				m.Groups()
			}
		}()
	}
	wg.Wait()
	require.Len(t, m.Groups(), len(builtIn)+20)
}
