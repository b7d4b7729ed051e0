package offsets

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

// Defaults of the persist timer (BrokerController.initialize).
const (
	DefaultFlushInterval = 5 * time.Second  // BrokerConfig.flushConsumerOffsetInterval
	DefaultFlushDelay    = 10 * time.Second // the schedule's initial delay
)

// Options are the manager's surroundings.
type Options struct {
	StorePathRootDir string // consumerOffset.json's root; required
	// Lmq is MessageStoreConfig.enableLmq: the table is
	// LmqConsumerOffsetManager's, in lmqConsumerOffset.json, and the
	// offsets of LMQ groups (named %LMQ%…) are kept by topic and group
	// alone (their queue is always 0).
	Lmq           bool
	FlushInterval time.Duration // flushConsumerOffsetInterval; 0 is 5 s
	FlushDelay    time.Duration // before Run's first persist; 0 is 10 s
	// MinOffset is the message store's getMinOffsetInQueue (0 for an
	// unknown queue); nil answers 0.
	MinOffset func(topic string, queueID int32) int64
	// Subscribed reports whether a live consumer of group subscribes to
	// topic (consumerManager.findSubscriptionData != null); nil is never.
	Subscribed func(group, topic string) bool
	Log        *logrus.Entry
}

// Manager is the broker's consumer-offset table. Safe for concurrent use.
type Manager struct {
	opts Options
	path string

	mu    sync.RWMutex
	table *config.ConsumerOffsets

	persistMu sync.Mutex // orders encode+save pairs
}

// New is `new ConsumerOffsetManager(brokerController)`: an empty table.
func New(opts Options) (*Manager, error) {
	if opts.StorePathRootDir == "" {
		return nil, ErrNoRoot
	}
	if opts.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		opts.Log = logrus.NewEntry(l)
	}
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = DefaultFlushInterval
	}
	if opts.FlushDelay <= 0 {
		opts.FlushDelay = DefaultFlushDelay
	}
	if opts.MinOffset == nil {
		opts.MinOffset = func(string, int32) int64 { return 0 }
	}
	if opts.Subscribed == nil {
		opts.Subscribed = func(string, string) bool { return false }
	}
	if opts.Lmq {
		return &Manager{opts: opts, path: config.LmqConsumerOffsetPath(opts.StorePathRootDir),
			table: config.NewLmqConsumerOffsets()}, nil
	}
	return &Manager{opts: opts, path: config.ConsumerOffsetPath(opts.StorePathRootDir),
		table: config.NewConsumerOffsets()}, nil
}

// lmqGroup reports whether group's offsets are LmqConsumerOffsetManager's
// own (MixAll.isLmq of the group, with enableLmq).
func (m *Manager) lmqGroup(group string) bool {
	return m.opts.Lmq && strings.HasPrefix(group, message.LmqPrefix)
}

// QueueOffset is one queue's committed offset.
type QueueOffset struct {
	QueueID int32
	Offset  int64
}

// Commit is commitOffset: group's offset of topic's queue becomes offset.
// Going backwards is allowed and logged, as in Java.
func (m *Manager) Commit(clientHost, group, topic string, queueID int32, offset int64) {
	key := config.OffsetKey(topic, group)
	m.mu.Lock()
	if m.lmqGroup(group) {
		m.table.CommitLmq(key, offset)
		m.mu.Unlock()
		return
	}
	prev, existed := m.table.Commit(key, queueID, offset)
	m.mu.Unlock()
	if existed && offset < prev {
		m.opts.Log.WithFields(logrus.Fields{"client": clientHost, "key": key, "queueId": queueID,
			"offset": offset, "stored": prev}).Warn("update consumer offset less than store")
	}
}

// Query is queryOffset(group, topic, queueId): the committed offset, or -1.
func (m *Manager) Query(group, topic string, queueID int32) int64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	key := config.OffsetKey(topic, group)
	if m.lmqGroup(group) {
		if off, ok := m.table.QueryLmq(key); ok {
			return off
		}
		return -1
	}
	if off, ok := m.table.Query(key, queueID); ok {
		return off
	}
	return -1
}

// QueryAll is queryOffset(group, topic): every queue's offset in the Java
// map's order; ok is false when the key is unknown (Java null).
func (m *Manager) QueryAll(group, topic string) (offsets []QueueOffset, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	key := config.OffsetKey(topic, group)
	if m.lmqGroup(group) { // never null in Java: empty when unknown
		if off, ok := m.table.QueryLmq(key); ok {
			return []QueueOffset{{QueueID: 0, Offset: off}}, true
		}
		return nil, true
	}
	q, ok := m.table.Queues(key)
	if !ok {
		return nil, false
	}
	return queuesOf(q), true
}

func queuesOf(q *config.QueueOffsets) []QueueOffset {
	out := make([]QueueOffset, 0, q.Len())
	q.Range(func(id int32, off int64) bool {
		out = append(out, QueueOffset{QueueID: id, Offset: off})
		return true
	})
	return out
}

// TopicsOf is whichTopicByConsumer: the topics group has offsets of, in
// the order of Java's HashSet.
func (m *Manager) TopicsOf(group string) []string {
	return m.collect(func(topic, g string) (string, bool) { return topic, g == group })
}

// GroupsOf is whichGroupByTopic: the groups with offsets of topic, in the
// order of Java's HashSet.
func (m *Manager) GroupsOf(topic string) []string {
	return m.collect(func(t, group string) (string, bool) { return group, t == topic })
}

func (m *Manager) collect(pick func(topic, group string) (string, bool)) []string {
	set := jhash.NewStringSet()
	m.mu.RLock()
	m.table.Range(func(key string, _ *config.QueueOffsets) bool {
		if t, g, ok := config.SplitOffsetKey(key); ok {
			if s, ok := pick(t, g); ok {
				set.Add(s)
			}
		}
		return true
	})
	m.mu.RUnlock()
	return set.Keys()
}

// Clone is cloneOffset: dstGroup's key of topic takes a copy of srcGroup's
// queue map (nothing happens when srcGroup has none). The copy is Java's
// `new ConcurrentHashMap<>(map)`, so its queues iterate as Java's, and a
// key the table has keeps its place.
func (m *Manager) Clone(srcGroup, dstGroup, topic string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if src, ok := m.table.Queues(config.OffsetKey(topic, srcGroup)); ok {
		m.table.Put(config.OffsetKey(topic, dstGroup), src.Copy())
	}
}

// PutAll is a slave taking its master's offsets (Java SlaveSynchronize.
// syncConsumerOffset, offsetTable.putAll): the table grows first for src's
// size as Java's does, then each of src's keys takes src's queue map
// itself, in src's order; a key the table has keeps its place, keys src
// lacks are kept. src must not be used after. Nothing is written
// (Persist).
func (m *Manager) PutAll(src *config.ConsumerOffsets) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.table.PutAll(src)
}

// RemoveGroup is removeOffset: every key of group is deleted.
func (m *Manager) RemoveGroup(group string) {
	m.removeIf(func(key string, _ *config.QueueOffsets) bool {
		_, g, ok := config.SplitOffsetKey(key)
		return ok && g == group
	})
}

// removeIf deletes the keys for which drop is true, in table order, and
// returns them.
func (m *Manager) removeIf(drop func(key string, q *config.QueueOffsets) bool) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var gone []string
	m.table.Range(func(key string, q *config.QueueOffsets) bool {
		if drop(key, q) {
			gone = append(gone, key)
		}
		return true
	})
	for _, key := range gone {
		m.table.Remove(key)
	}
	if len(gone) > 0 {
		m.opts.Log.WithField("keys", gone).Warn("remove consumer offsets")
	}
	return gone
}

// ScanUnsubscribed is scanUnsubscribedTopic: a key whose group no longer
// subscribes to its topic is deleted once every offset in it is at or
// below the queue's minimum offset in the store (its messages are gone).
func (m *Manager) ScanUnsubscribed() []string {
	return m.removeIf(func(key string, q *config.QueueOffsets) bool {
		topic, group, ok := config.SplitOffsetKey(key)
		return ok && !m.opts.Subscribed(group, topic) && m.behindStore(topic, q)
	})
}

// behindStore is offsetBehindMuchThanData.
func (m *Manager) behindStore(topic string, q *config.QueueOffsets) bool {
	result := q.Len() > 0
	q.Range(func(id int32, off int64) bool {
		result = off <= m.opts.MinOffset(topic, id)
		return result
	})
	return result
}

// MinOffsetInAllGroups is queryMinOffsetInAllGroup: for each queue of
// topic, the smallest offset any group committed that is still at or
// above the store's minimum, in the order of Java's HashMap.
//
// filterGroups is a comma-separated list of groups to leave out. Java
// leaves them out by deleting every offset key of those groups, of any
// topic, from the live table; here they are only skipped (see the package
// doc).
func (m *Manager) MinOffsetInAllGroups(topic, filterGroups string) []QueueOffset {
	var skip []string
	if !isBlank(filterGroups) {
		skip = strings.Split(filterGroups, ",")
	}
	result := jhash.NewMap[int32, int64](func(k int32) int32 { return k }, -1)
	m.mu.RLock()
	m.table.Range(func(key string, q *config.QueueOffsets) bool {
		parts := javaSplit(key)
		if len(parts) == 0 || parts[0] != topic || len(parts) > 1 && slices.Contains(skip, parts[1]) {
			return true
		}
		q.Range(func(id int32, off int64) bool {
			if off < m.opts.MinOffset(topic, id) {
				return true
			}
			if cur, ok := result.Get(id); !ok || off < cur {
				result.Put(id, off)
			}
			return true
		})
		return true
	})
	m.mu.RUnlock()
	out := make([]QueueOffset, 0, result.Len())
	result.Range(func(id int32, off int64) bool {
		out = append(out, QueueOffset{QueueID: id, Offset: off})
		return true
	})
	return out
}

// javaSplit is String.split("@"): trailing empty parts are dropped.
func javaSplit(key string) []string {
	parts := strings.Split(key, config.OffsetKeySeparator)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// isBlank is UtilAll.isBlank: every UTF-16 unit is Character.isWhitespace
// (the same test as topics.Validate's).
func isBlank(s string) bool {
	for _, r := range s {
		if !javaWhitespace(r) {
			return false
		}
	}
	return true
}

// javaWhitespace is Character.isWhitespace.
func javaWhitespace(r rune) bool {
	switch r {
	case '\u00a0', '\u2007', '\u202f':
		return false
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// Load is ConfigManager.load of consumerOffset.json (or its .bak): the
// file's table replaces the manager's. A missing file changes nothing.
func (m *Manager) Load() (config.LoadResult, error) {
	decode := config.DecodeConsumerOffsets
	if m.opts.Lmq {
		decode = config.DecodeLmqConsumerOffsets
	}
	loaded, res, err := config.LoadDetail(m.path, decode)
	if err != nil || !res.Found {
		return res, err
	}
	m.mu.Lock()
	m.table = loaded
	m.mu.Unlock()
	m.opts.Log.WithFields(logrus.Fields{"keys": loaded.Len(), "path": m.path}).Info("loaded consumer offsets")
	return res, nil
}

// Encode is the table as consumerOffset.json holds it (Java encode(true)).
func (m *Manager) Encode() []byte {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.table.Encode()
}

// Persist is ConfigManager.persist: consumerOffset.json is rewritten (the
// previous content kept in .bak).
func (m *Manager) Persist() error {
	m.persistMu.Lock()
	defer m.persistMu.Unlock()
	m.mu.RLock()
	content := m.table.Encode()
	m.mu.RUnlock()
	if err := config.Save(m.path, content); err != nil {
		m.opts.Log.WithError(err).Error("persist consumerOffset.json")
		return fmt.Errorf("offsets: persist: %w", err)
	}
	return nil
}

// Run persists the table every FlushInterval, the first time after
// FlushDelay (BrokerController's scheduleAtFixedRate), until ctx is done,
// and then once more (BrokerController.shutdown). It returns the last
// persist's error; a failed periodic persist is logged and retried at the
// next tick, as in Java.
func (m *Manager) Run(ctx context.Context) error {
	delay := time.NewTimer(m.opts.FlushDelay)
	defer delay.Stop()
	select {
	case <-ctx.Done():
		return m.Persist()
	case <-delay.C:
	}
	tick := time.NewTicker(m.opts.FlushInterval) // fixed rate, as scheduleAtFixedRate
	defer tick.Stop()
	for {
		_ = m.Persist() // a failure is logged by Persist
		select {
		case <-ctx.Done():
			return m.Persist()
		case <-tick.C:
		}
	}
}
