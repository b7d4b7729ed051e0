package clients

import (
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// ClientChannelInfo is org.apache.rocketmq.broker.client.ClientChannelInfo:
// one connection of a client as its last heartbeat described it.
type ClientChannelInfo struct {
	Channel    Channel
	ClientID   string
	Language   wire.LanguageCode
	Version    int32
	LastUpdate int64 // ms since the epoch
}

// omap is a map that iterates in insertion order: a re-put keeps the
// position, a removal closes the gap. It stands in for Java's small
// ConcurrentHashMaps where only the set of entries (not Java's random,
// identity-hash order) or the insertion order matters.
type omap[K comparable, V any] struct {
	keys []K
	vals map[K]V
}

func newOmap[K comparable, V any]() *omap[K, V] { return &omap[K, V]{vals: map[K]V{}} }

func (m *omap[K, V]) get(k K) (V, bool) {
	v, ok := m.vals[k]
	return v, ok
}

func (m *omap[K, V]) put(k K, v V) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m *omap[K, V]) remove(k K) (V, bool) {
	v, ok := m.vals[k]
	if !ok {
		return v, false
	}
	delete(m.vals, k)
	for i, x := range m.keys {
		if x == k {
			m.keys = append(m.keys[:i], m.keys[i+1:]...)
			break
		}
	}
	return v, true
}

func (m *omap[K, V]) len() int { return len(m.keys) }

// each calls f for every entry in order; f may remove the current entry.
func (m *omap[K, V]) each(f func(k K, v V)) {
	for _, k := range append([]K(nil), m.keys...) {
		if v, ok := m.vals[k]; ok {
			f(k, v)
		}
	}
}
