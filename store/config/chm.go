package config

import "github.com/sputnikmq/sputnik/compat/javalang/jhash"

// Constants of java.util.concurrent.ConcurrentHashMap (JDK 8–17). Part of
// the iteration order, do not change.
const (
	chmDefaultCapacity = 16      // DEFAULT_CAPACITY
	chmMaxCapacity     = 1 << 30 // MAXIMUM_CAPACITY
)

// Initial capacities the 4.9.8 managers pass to `new ConcurrentHashMap<>(n)`.
// Part of the file order, do not change.
const (
	capTopics       = 1024 // TopicConfigManager.topicConfigTable
	capGroups       = 1024 // SubscriptionGroupManager.subscriptionGroupTable
	capOffsets      = 512  // ConsumerOffsetManager.offsetTable
	capOffsetQueues = 32   // ConsumerOffsetManager.commitOffset: a group's queue map
	capDelay        = 32   // ScheduleMessageService.offsetTable
	capFilterTopics = 256  // ConsumerFilterManager.filterDataByTopic
	capDefaultCHM   = -1   // `new ConcurrentHashMap<>()`: FilterDataMapByTopic, and every map fastjson creates
)

// chm models a java.util.concurrent.ConcurrentHashMap closely enough to
// iterate in its order: a Java table of bins, each bin a list of keys in
// the order Java links them. put appends to a bin's tail (an existing key
// keeps its place), remove unlinks, a resize runs Java's transfer (which
// keeps the last run of a bin in order and reverses the rest), and putAll
// presizes first (tryPresize). Iteration visits bins in index order.
//
// Not mirrored: tree bins (Java converts a bin of 8 or more keys into a
// red-black tree once the table has 64 bins), which need 8 keys with equal
// spread hash bits in one bin.
type chm[K comparable, V any] struct {
	hashOf  func(K) int32
	bins    [][]K // nil until the first put, as Java's lazily created table
	vals    map[K]V
	hashes  map[K]uint32
	sizeCtl int // before the table exists: its length (0 = default); then the resize threshold
}

// newCHM is `new ConcurrentHashMap<>(initialCapacity)`, or
// `new ConcurrentHashMap<>()` when initialCapacity < 0.
func newCHM[K comparable, V any](hashOf func(K) int32, initialCapacity int) *chm[K, V] {
	m := &chm[K, V]{hashOf: hashOf, vals: map[K]V{}, hashes: map[K]uint32{}}
	if initialCapacity >= 0 {
		m.sizeCtl = chmInitialTable(initialCapacity)
	}
	return m
}

// newCHMCopy is `new ConcurrentHashMap<>(from)`: DEFAULT_CAPACITY bins
// before putAll presizes the table for from's entries.
func newCHMCopy[K comparable, V any](from *chm[K, V]) *chm[K, V] {
	m := &chm[K, V]{hashOf: from.hashOf, vals: map[K]V{}, hashes: map[K]uint32{}, sizeCtl: chmDefaultCapacity}
	m.PutAll(from)
	return m
}

// chmInitialTable is the table length of `new ConcurrentHashMap<>(c)`:
// JDK 11+ computes tableSizeFor(1 + c/0.75), JDK 8 tableSizeFor(c + c/2 + 1);
// they agree for every capacity the managers use (32, 256, 512, 1024).
func chmInitialTable(c int) int {
	return tableSizeFor(int(1.0 + float64(c)/0.75))
}

// tableSizeFor is the power of two >= c (at least 1, at most the maximum).
func tableSizeFor(c int) int {
	n := 1
	for n < c && n < chmMaxCapacity {
		n <<= 1
	}
	return n
}

// chmSpread is ConcurrentHashMap.spread: high half folded in, sign cleared.
func chmSpread(h int32) uint32 {
	u := uint32(h)
	return (u ^ u>>16) & 0x7fffffff
}

func stringHash(s string) int32 { return jhash.String(s) }
func intHash(v int32) int32     { return v } // Integer.hashCode

func (m *chm[K, V]) Len() int { return len(m.vals) }

func (m *chm[K, V]) Get(k K) (V, bool) {
	v, ok := m.vals[k]
	return v, ok
}

func (m *chm[K, V]) initTable(n int) {
	m.bins = make([][]K, n)
	m.sizeCtl = n - n>>2
}

// Put stores v under k; a new key goes to the tail of its bin and may
// trigger a resize (once the count reaches sizeCtl, as addCount does).
func (m *chm[K, V]) Put(k K, v V) {
	if _, ok := m.vals[k]; ok {
		m.vals[k] = v
		return
	}
	if m.bins == nil {
		n := m.sizeCtl
		if n <= 0 {
			n = chmDefaultCapacity
		}
		m.initTable(n)
	}
	h := chmSpread(m.hashOf(k))
	m.hashes[k], m.vals[k] = h, v
	b := int(h) & (len(m.bins) - 1)
	m.bins[b] = append(m.bins[b], k)
	for len(m.vals) >= m.sizeCtl && len(m.bins) < chmMaxCapacity {
		m.transfer()
	}
}

// Remove unlinks k; the other keys keep their order.
func (m *chm[K, V]) Remove(k K) (V, bool) {
	v, ok := m.vals[k]
	if !ok {
		return v, false
	}
	b := int(m.hashes[k]) & (len(m.bins) - 1)
	bin := m.bins[b]
	for i, x := range bin {
		if x == k {
			m.bins[b] = append(bin[:i:i], bin[i+1:]...)
			break
		}
	}
	delete(m.vals, k)
	delete(m.hashes, k)
	return v, true
}

// PutAll is ConcurrentHashMap.putAll: tryPresize(from.Len()), then a put
// of every entry of from in from's order.
func (m *chm[K, V]) PutAll(from *chm[K, V]) { m.putAllSized(from, from.Len()) }

// putAllSized is PutAll from a Java map of size entries whose entries
// beyond from's m holds already (putting them again changes nothing).
func (m *chm[K, V]) putAllSized(from *chm[K, V], size int) {
	m.tryPresize(size)
	from.Range(func(k K, v V) bool {
		m.Put(k, v)
		return true
	})
}

// Clear is ConcurrentHashMap.clear: every key removed; the table keeps its
// length and resize threshold.
func (m *chm[K, V]) Clear() {
	clear(m.bins)
	clear(m.vals)
	clear(m.hashes)
}

func (m *chm[K, V]) tryPresize(size int) {
	c := chmMaxCapacity
	if size < chmMaxCapacity>>1 {
		c = tableSizeFor(size + size>>1 + 1)
	}
	if m.bins == nil {
		m.initTable(max(m.sizeCtl, c))
	}
	// Java compares the wanted table length with the resize threshold, so a
	// presize overshoots: 58 entries into a new 64 table end in 256 bins.
	for c > m.sizeCtl && len(m.bins) < chmMaxCapacity {
		m.transfer()
	}
}

// transfer doubles the table as ConcurrentHashMap.transfer does for list
// bins: the longest tail of a bin whose keys all go to the same half is
// kept as is, the keys before it are prepended one by one to their half.
func (m *chm[K, V]) transfer() {
	n := len(m.bins)
	next := make([][]K, 2*n)
	for i, bin := range m.bins {
		if len(bin) == 0 {
			continue
		}
		last, runBit := 0, m.hashes[bin[0]]&uint32(n)
		for j := 1; j < len(bin); j++ {
			if bit := m.hashes[bin[j]] & uint32(n); bit != runBit {
				runBit, last = bit, j
			}
		}
		var lo, hi []K
		for j := last - 1; j >= 0; j-- { // prepending in order = appending in reverse
			if m.hashes[bin[j]]&uint32(n) == 0 {
				lo = append(lo, bin[j])
			} else {
				hi = append(hi, bin[j])
			}
		}
		if runBit == 0 {
			lo = append(lo, bin[last:]...)
		} else {
			hi = append(hi, bin[last:]...)
		}
		next[i], next[i+n] = lo, hi
	}
	m.bins = next
	m.sizeCtl = 2*n - n>>1
}

// Range calls f for each entry in Java's iteration order until f returns
// false. f must not modify m.
func (m *chm[K, V]) Range(f func(k K, v V) bool) {
	for _, bin := range m.bins {
		for _, k := range bin {
			if !f(k, m.vals[k]) {
				return
			}
		}
	}
}

// Keys returns the keys in Java's iteration order.
func (m *chm[K, V]) Keys() []K {
	out := make([]K, 0, m.Len())
	m.Range(func(k K, _ V) bool {
		out = append(out, k)
		return true
	})
	return out
}
