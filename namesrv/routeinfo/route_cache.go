package routeinfo

import "sync"

// routeCache keeps encoded routes until the next change to the table
// (Table.gen): brokers re-register every 30 s with nothing new, so the
// same bytes can answer the lookups of all clients in between. Entries are
// never modified once stored; callers may send them as they are.
type routeCache struct {
	mu  sync.Mutex
	gen uint64              // the table generation the entries belong to
	m   map[routeKey][]byte // Lock should be held
}

type routeKey struct {
	topic    string
	standard bool
}

func (c *routeCache) get(k routeKey, gen uint64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return nil, false
	}
	b, ok := c.m[k]
	return b, ok
}

// put stores b for generation gen, dropping entries of older generations.
func (c *routeCache) put(k routeKey, gen uint64, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case gen < c.gen:
		return // a newer generation is already cached
	case gen > c.gen || c.m == nil:
		c.gen, c.m = gen, make(map[routeKey][]byte)
	}
	c.m[k] = b
}

// RouteJSON returns the route of topic encoded as PickupTopicRouteData's
// result with AppendJSON (no orderTopicConf), from the cache when the table
// has not changed since it was encoded. The slice must not be modified.
func (t *Table) RouteJSON(topic string, standard bool) ([]byte, bool) {
	k := routeKey{topic, standard}
	t.mu.RLock()
	defer t.mu.RUnlock()
	if b, ok := t.cache.get(k, t.gen); ok {
		return b, true
	}
	rd, ok := t.pickupLocked(topic)
	if !ok {
		return nil, false
	}
	b := rd.AppendJSON(make([]byte, 0, 256), standard)
	t.cache.put(k, t.gen, b)
	return b, true
}
