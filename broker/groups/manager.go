package groups

import (
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/store/config"
)

// Options are the BrokerConfig values the manager reads (4.9.8 defaults
// in brackets) and its surroundings.
type Options struct {
	StorePathRootDir            string // subscriptionGroup.json's root; required
	AutoCreateSubscriptionGroup bool   // autoCreateSubscriptionGroup [true]; live via SetAutoCreate
	EnableLmq                   bool   // MessageStoreConfig.enableLmq [false]

	Log *logrus.Entry
	Now func() int64 // DataVersion clock (ms); nil is the wall clock
}

// Manager is the broker's subscription-group table. Safe for concurrent
// use.
type Manager struct {
	opts Options
	path string

	mu         sync.RWMutex
	table      *config.SubscriptionGroups
	autoCreate bool

	persistMu sync.Mutex // orders encode+save pairs
}

// New is `new SubscriptionGroupManager(brokerController)`: the built-in
// groups, nothing written.
func New(opts Options) (*Manager, error) {
	if opts.StorePathRootDir == "" {
		return nil, ErrNoRoot
	}
	if opts.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		opts.Log = logrus.NewEntry(l)
	}
	if opts.Now == nil {
		opts.Now = func() int64 { return time.Now().UnixMilli() }
	}
	m := &Manager{opts: opts, path: config.SubscriptionGroupPath(opts.StorePathRootDir),
		autoCreate: opts.AutoCreateSubscriptionGroup, table: config.NewSubscriptionGroups(opts.Now())}
	for _, g := range builtIn {
		m.table.Put(g, config.NewSubscriptionGroupConfig(g))
	}
	return m, nil
}

// SetAutoCreate changes autoCreateSubscriptionGroup, as a broker config
// update does.
func (m *Manager) SetAutoCreate(on bool) {
	m.mu.Lock()
	m.autoCreate = on
	m.mu.Unlock()
}

// Get returns group's config without creating it.
func (m *Manager) Get(group string) (config.SubscriptionGroupConfig, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.table.Get(group)
}

// Find is findSubscriptionGroupConfig: a missing group is created with the
// defaults when autoCreateSubscriptionGroup is on or it is a CID_RMQ_SYS_
// group (the version moves on and the file is written); ok is false when
// the group neither existed nor was created. With LMQ on, an LMQ group is
// a default config that is not stored.
func (m *Manager) Find(group string) (g config.SubscriptionGroupConfig, ok bool, err error) {
	if m.opts.EnableLmq && IsLmq(group) {
		return config.NewSubscriptionGroupConfig(group), true, nil
	}
	m.mu.Lock()
	if g, ok := m.table.Get(group); ok {
		m.mu.Unlock()
		return g, true, nil
	}
	if !m.autoCreate && !IsSysConsumerGroup(group) {
		m.mu.Unlock()
		return g, false, nil
	}
	g = config.NewSubscriptionGroupConfig(group)
	m.table.Put(group, g)
	m.table.DataVersion.Next(m.opts.Now())
	m.mu.Unlock()
	m.opts.Log.WithField("group", group).Info("auto create a subscription group")
	return g, true, m.Persist()
}

// FindSubscriptionGroup is Find for callers that only tell found from
// missing (a failed auto-create persist counts as missing).
func (m *Manager) FindSubscriptionGroup(group string) (config.SubscriptionGroupConfig, bool) {
	g, ok, err := m.Find(group)
	return g, ok && err == nil
}

// Groups returns every group's config in the Java table's order.
func (m *Manager) Groups() []config.SubscriptionGroupConfig {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]config.SubscriptionGroupConfig, 0, m.table.Len())
	m.table.Range(func(_ string, g config.SubscriptionGroupConfig) bool {
		out = append(out, g)
		return true
	})
	return out
}

// DataVersion returns the table's data version.
func (m *Manager) DataVersion() config.DataVersion {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.table.DataVersion
}

// Update is updateSubscriptionGroupConfig: g replaces (or adds) its group,
// the version moves on and the file is written. With LMQ on, an LMQ group
// is ignored.
func (m *Manager) Update(g config.SubscriptionGroupConfig) error {
	if g.GroupNameNull {
		return ErrNullGroupName
	}
	if m.opts.EnableLmq && IsLmq(g.GroupName) {
		return nil
	}
	m.mu.Lock()
	_, existed := m.table.Get(g.GroupName)
	m.table.Put(g.GroupName, g)
	m.table.DataVersion.Next(m.opts.Now())
	m.mu.Unlock()
	m.opts.Log.WithField("group", g.GroupName).WithField("existed", existed).Info("update subscription group config")
	return m.Persist()
}

// DisableConsume is disableConsume (the broker's slow-consumer
// protection): consumeEnable goes off and the version moves on, but
// nothing is written until the next change or Persist, as in Java.
func (m *Manager) DisableConsume(group string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.table.Get(group)
	if !ok {
		return
	}
	g.ConsumeEnable = false
	m.table.Put(group, g)
	m.table.DataVersion.Next(m.opts.Now())
}

// Delete is deleteSubscriptionGroupConfig: it reports whether the group
// existed; only then the version moves on and the file is written.
func (m *Manager) Delete(group string) (bool, error) {
	m.mu.Lock()
	_, ok := m.table.Remove(group)
	if ok {
		m.table.DataVersion.Next(m.opts.Now())
	}
	m.mu.Unlock()
	if !ok {
		m.opts.Log.WithField("group", group).Warn("delete subscription group failed: no such group")
		return false, nil
	}
	m.opts.Log.WithField("group", group).Info("delete subscription group")
	return true, m.Persist()
}

// Load is ConfigManager.load of subscriptionGroup.json (or its .bak): the
// file's groups are put over the built-in ones in Java's putAll order and
// the data version becomes a fresh one (see the package doc). A missing
// file changes nothing.
func (m *Manager) Load() (config.LoadResult, error) {
	loaded, res, err := config.LoadDetail(m.path, config.DecodeSubscriptionGroups)
	if err != nil || !res.Found {
		return res, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// Java's decoded manager holds its own built-in groups (defaults, like
	// ours) and then the file's, and its table is putAll into ours: ours
	// grows for that size, the built-in groups keep their places and the
	// file's follow in the decoded table's order.
	size := loaded.Len()
	for _, g := range builtIn {
		if _, ok := loaded.Get(g); !ok {
			size++
		}
	}
	m.table.PutAll(loaded, size)
	m.table.DataVersion = config.NewDataVersion(m.opts.Now())
	m.opts.Log.WithField("groups", loaded.Len()).Info("loaded subscriptionGroup.json")
	return res, nil
}

// ReplaceAll is a slave taking its master's table (Java SlaveSynchronize.
// syncSubscriptionGroupConfig): the data version becomes src's, every
// group is removed and src's are put in their order (clear and putAll),
// and subscriptionGroup.json is written.
func (m *Manager) ReplaceAll(src *config.SubscriptionGroups) error {
	m.mu.Lock()
	m.table.DataVersion = src.DataVersion
	m.table.Clear()
	m.table.PutAll(src, src.Len())
	m.mu.Unlock()
	return m.Persist()
}

// Persist is ConfigManager.persist: subscriptionGroup.json is rewritten
// (the previous content kept in .bak).
func (m *Manager) Persist() error {
	m.persistMu.Lock()
	defer m.persistMu.Unlock()
	m.mu.RLock()
	content := m.table.Encode()
	m.mu.RUnlock()
	if err := config.Save(m.path, content); err != nil {
		m.opts.Log.WithError(err).Error("persist subscriptionGroup.json")
		return fmt.Errorf("groups: persist: %w", err)
	}
	return nil
}
