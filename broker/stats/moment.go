package stats

import (
	"strings"
	"sync"
)

// FallKey is a GROUP_GET_FALL_SIZE key's parts (the moment set of how far
// consumers read behind the commit log's end): buildStatsKey(queueId,
// topic, group), "queueId@topic@group".
type FallKey struct {
	QueueID      int32
	Topic, Group string
}

// fallSizes is MomentStatsItemSet: the last value set per key.
type fallSizes struct {
	mu     sync.Mutex
	values map[FallKey]int64
}

// RecordFallBehind is recordDiskFallBehindSize: after a pull read its
// queue, bytes of the commit log lay past the last unit it looked at
// (LMQ names folded as the other group statistics).
func (m *Manager) RecordFallBehind(group, topic string, queueID int32, bytes int64) {
	if m == nil {
		return
	}
	k := FallKey{QueueID: queueID, Topic: m.fold(topic), Group: m.fold(group)}
	m.falls.mu.Lock()
	if m.falls.values == nil {
		m.falls.values = map[FallKey]int64{}
	}
	m.falls.values[k] = bytes
	m.falls.mu.Unlock()
}

// FallBehind calls f with every GROUP_GET_FALL_SIZE value.
func (m *Manager) FallBehind(f func(k FallKey, bytes int64)) {
	if m == nil {
		return
	}
	m.falls.mu.Lock()
	all := make(map[FallKey]int64, len(m.falls.values))
	for k, v := range m.falls.values {
		all[k] = v
	}
	m.falls.mu.Unlock()
	for k, v := range all {
		f(k, v)
	}
}

// OnTopicDeleted is BrokerStatsManager.onTopicDeleted (with
// autoDeleteUnusedStats): the topic's put items, and its group items
// ("topic@…"), send-backs and fall-behind values go.
func (m *Manager) OnTopicDeleted(topic string) {
	if m == nil {
		return
	}
	m.sets[TopicPutNums].drop(func(k string) bool { return k == topic })
	m.sets[TopicPutSize].drop(func(k string) bool { return k == topic })
	prefix := topic + "@"
	for _, n := range []string{GroupGetNums, GroupGetSize, SndbckPutNums} {
		m.sets[n].drop(func(k string) bool { return strings.HasPrefix(k, prefix) })
	}
	m.dropPairs(func(k pairKey) bool { return k.topic == topic })
	m.dropFalls(func(k FallKey) bool { return k.Topic == topic })
}

// OnGroupDeleted is BrokerStatsManager.onGroupDeleted (with
// autoDeleteUnusedStats): the items keyed "…@group" and the group's
// fall-behind values go.
func (m *Manager) OnGroupDeleted(group string) {
	if m == nil {
		return
	}
	suffix := "@" + group
	for _, n := range []string{GroupGetNums, GroupGetSize, SndbckPutNums} {
		m.sets[n].drop(func(k string) bool { return strings.HasSuffix(k, suffix) })
	}
	m.dropPairs(func(k pairKey) bool { return k.group == group })
	m.dropFalls(func(k FallKey) bool { return k.Group == group })
}

func (s *set) drop(match func(key string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.items {
		if match(k) {
			delete(s.items, k)
		}
	}
}

func (m *Manager) dropPairs(match func(pairKey) bool) {
	m.pairsMu.Lock()
	defer m.pairsMu.Unlock()
	for k := range m.pairs {
		if match(k) {
			delete(m.pairs, k)
		}
	}
}

func (m *Manager) dropFalls(match func(FallKey) bool) {
	m.falls.mu.Lock()
	defer m.falls.mu.Unlock()
	for k := range m.falls.values {
		if match(k) {
			delete(m.falls.values, k)
		}
	}
}
