package topics

import (
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
	"github.com/sputnikmq/sputnik/store/config"
)

// Java constants of TopicConfigManager.
const (
	scheduleTopicQueueNums  = 18   // SCHEDULE_TOPIC_QUEUE_NUM
	benchmarkTopicQueueNums = 1024 // the constructor's BenchmarkTest block
)

// Options are the BrokerConfig values the manager reads (4.9.8 defaults
// in brackets) and its surroundings.
type Options struct {
	StorePathRootDir      string // topics.json is config.TopicsPath(StorePathRootDir); required
	BrokerName            string // brokerName [host name]
	ClusterName           string // brokerClusterName [DefaultCluster]
	DefaultTopicQueueNums int32  // defaultTopicQueueNums [8]: TBW102's queues
	AutoCreateTopicEnable bool   // autoCreateTopicEnable [true]; live via SetAutoCreateTopicEnable
	ClusterTopicEnable    bool   // clusterTopicEnable [true]
	BrokerTopicEnable     bool   // brokerTopicEnable [true]
	TraceTopicEnable      bool   // traceTopicEnable [false]
	MsgTraceTopicName     string // msgTraceTopicName [RMQ_SYS_TRACE_TOPIC]
	EnableLmq             bool   // MessageStoreConfig.enableLmq [false]: LmqTopicConfigManager

	Log *logrus.Entry
	// Now is the clock of DataVersion (ms); nil is the wall clock.
	Now func() int64
	// Register is called, outside the table lock, where Java calls
	// brokerController.registerBrokerAll(false, true, true): after a topic
	// is created by a send path and after a unit flag changes. May be nil.
	Register func()
}

// Manager is the broker's topic table. Safe for concurrent use.
type Manager struct {
	opts       Options
	path       string
	autoCreate bool // guarded by mu

	mu     sync.RWMutex
	table  *config.Topics
	system map[string]bool // names the constructor added to the system set

	persistMu sync.Mutex // orders encode+save pairs
}

// New is `new TopicConfigManager(brokerController)`: the table with the
// broker's system topics (see the package doc). Nothing is written.
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
	m := &Manager{opts: opts, path: config.TopicsPath(opts.StorePathRootDir),
		autoCreate: opts.AutoCreateTopicEnable, system: map[string]bool{}}
	m.table = config.NewTopics(opts.Now())
	for _, tc := range m.systemTopics() {
		m.system[tc.TopicName] = true
		m.table.Put(tc.TopicName, tc)
	}
	return m, nil
}

// systemTopics lists the constructor's topics in Java's put order.
func (m *Manager) systemTopics() []config.TopicConfig {
	o := m.opts
	topic := func(name string, queues, perm int32) config.TopicConfig {
		tc := config.NewTopicConfig(name)
		tc.ReadQueueNums, tc.WriteQueueNums, tc.Perm = queues, queues, perm
		return tc
	}
	inherit := func(enabled bool) int32 {
		if enabled {
			return PermInherit | PermRW
		}
		return PermInherit
	}
	out := []config.TopicConfig{topic(SelfTestTopic, 1, PermRW)}
	if o.AutoCreateTopicEnable {
		out = append(out, topic(AutoCreateTopicKey, o.DefaultTopicQueueNums, PermInherit|PermRW))
	}
	out = append(out,
		topic(BenchmarkTopic, benchmarkTopicQueueNums, PermRW),
		topic(o.ClusterName, config.DefaultTopicQueueNums, inherit(o.ClusterTopicEnable)),
		topic(o.BrokerName, 1, inherit(o.BrokerTopicEnable)),
		topic(OffsetMovedEventTopic, 1, PermRW),
		topic(ScheduleTopic, scheduleTopicQueueNums, PermRW))
	if o.TraceTopicEnable {
		out = append(out, topic(o.MsgTraceTopicName, 1, PermRW))
	}
	return append(out, topic(ReplyTopic(o.ClusterName), 1, PermRW))
}

// SystemTopicList is TopicValidator.getSystemTopicSet() in a JVM running
// this broker: the static set, then what the constructor added, in the
// HashSet's iteration order.
func (m *Manager) SystemTopicList() []string {
	set := jhash.NewStringSet()
	for _, t := range []string{AutoCreateTopicKey, ScheduleTopic, BenchmarkTopic, TransHalfTopic, TraceTopic,
		TransOpHalfTopic, TransCheckMaxTimeTopic, SelfTestTopic, OffsetMovedEventTopic} {
		set.Add(t)
	}
	for _, tc := range m.systemTopics() {
		set.Add(tc.TopicName)
	}
	return set.Keys()
}

// SetAutoCreateTopicEnable changes autoCreateTopicEnable as a broker config
// update does; CreateInSendMessage reads it live.
func (m *Manager) SetAutoCreateTopicEnable(on bool) {
	m.mu.Lock()
	m.autoCreate = on
	m.mu.Unlock()
}

// IsSystemTopic is TopicValidator.isSystemTopic in a JVM running this
// broker: the fixed set, the rmq_sys_ prefix and the names the
// constructor added (cluster, broker, reply and trace topics).
func (m *Manager) IsSystemTopic(topic string) bool {
	return IsSystemTopic(topic) || m.system[topic]
}

// Select is selectTopicConfig. With LMQ on, an LMQ topic is a 1/1 RW
// topic that is not in the table.
func (m *Manager) Select(topic string) (config.TopicConfig, bool) {
	if m.opts.EnableLmq && IsLmq(topic) {
		tc := config.NewTopicConfig(topic)
		tc.ReadQueueNums, tc.WriteQueueNums, tc.Perm = 1, 1, PermRW
		return tc, true
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.table.Get(topic)
}

// IsOrderTopic is isOrderTopic.
func (m *Manager) IsOrderTopic(topic string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	tc, ok := m.table.Get(topic)
	return ok && tc.Order
}

// Len returns the number of topics.
func (m *Manager) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.table.Len()
}

// DataVersion returns the table's data version.
func (m *Manager) DataVersion() config.DataVersion {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.table.DataVersion
}

// Wrapper is a TopicConfigSerializeWrapper: what the broker registers
// with the name servers.
type Wrapper struct {
	DataVersion config.DataVersion
	Topics      []config.TopicConfig // in the Java table's iteration order
}

// Wrapper is buildTopicConfigSerializeWrapper, as a copy.
func (m *Manager) Wrapper() Wrapper {
	m.mu.RLock()
	defer m.mu.RUnlock()
	w := Wrapper{DataVersion: m.table.DataVersion, Topics: make([]config.TopicConfig, 0, m.table.Len())}
	m.table.Range(func(_ string, tc config.TopicConfig) bool {
		w.Topics = append(w.Topics, tc)
		return true
	})
	return w
}

// NextDataVersion bumps the table's data version (Java
// getDataVersion().nextVersion(), done when brokerPermission changes so the
// name servers take the new registration).
func (m *Manager) NextDataVersion() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changedLocked()
}

// changedLocked bumps the data version (DataVersion.nextVersion).
// Lock should be held.
func (m *Manager) changedLocked() { m.table.DataVersion.Next(m.opts.Now()) }

// Load is ConfigManager.load of topics.json (or its .bak): the file's
// topics are put over the system topics, in Java's putAll order, and its
// data version replaces the table's. A missing file changes nothing.
func (m *Manager) Load() (config.LoadResult, error) {
	loaded, res, err := config.LoadDetail(m.path, config.DecodeTopics)
	if err != nil || !res.Found {
		return res, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.table.PutAll(loaded)
	m.table.DataVersion = loaded.DataVersion
	m.opts.Log.WithField("topics", loaded.Len()).Info("loaded topics.json")
	return res, nil
}

// ReplaceAll is a slave taking its master's table (Java SlaveSynchronize.
// syncTopicConfig): the data version becomes src's, every topic is
// removed and src's are put in their order (clear and putAll), and
// topics.json is written.
func (m *Manager) ReplaceAll(src *config.Topics) error {
	m.mu.Lock()
	m.table.DataVersion = src.DataVersion
	m.table.Clear()
	m.table.PutAll(src)
	m.mu.Unlock()
	return m.Persist()
}

// Persist is ConfigManager.persist: topics.json is rewritten (the previous
// content kept in topics.json.bak).
func (m *Manager) Persist() error {
	m.persistMu.Lock()
	defer m.persistMu.Unlock()
	m.mu.RLock()
	content := m.table.Encode()
	m.mu.RUnlock()
	if err := config.Save(m.path, content); err != nil {
		m.opts.Log.WithError(err).Error("persist topics.json")
		return fmt.Errorf("topics: persist: %w", err)
	}
	return nil
}
