// Package jhash reproduces the iteration order of Java's java.util.HashMap,
// HashSet and ConcurrentHashMap (JDK 8–17), so that the name server lists
// topics, brokers and clusters (and the broker its config tables) in the
// order a Java 4.9.8 server does; String is also the tag and index hash.
//
// fastjson serialises a HashMap or HashSet in its iteration order, so every
// JSON body the Java name server writes from one (ClusterInfo, TopicList,
// KVTable, TopicRouteData, kvConfig.json) depends on it. The order is a
// function of the key hashes, the table capacity and, inside one bucket, of
// the insertion order; Map keeps exactly that state.
//
// Mirrors java.util.HashMap (resize, split, putMapEntries, clone) and
// java.util.concurrent.ConcurrentHashMap (transfer). Not mirrored: bins
// that Java turns into red-black trees (a bucket holding more than 8 keys in
// a table of at least 64), which need 9 colliding hashes in one bucket.
//
// Map keeps a key's hash, insertion rank and Java's table capacity instead
// of Java's buckets, and sorts by (bucket, rank) to iterate.
package jhash

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"
	"unicode/utf8"
)

// Java constants of HashMap and ConcurrentHashMap. Part of the order, do
// not change.
const (
	defaultCapacity = 16
	maxCapacity     = 1 << 30
	loadFactor      = 0.75
)

// String returns Java's String.hashCode of s: s is taken as UTF-16 code
// units (a supplementary character counts as its surrogate pair).
func String(s string) int32 { return Continue(0, s) }

// Continue is String over a string that continues one whose hash is h:
// Continue(String(a), b) == String(a + b), without building a + b.
func Continue(h int32, s string) int32 {
	h, i := asciiPrefix(h, s)
	for _, r := range s[i:] {
		h = next(h, r)
	}
	return h
}

// Bytes is String of valid UTF-8 bytes, without converting them to a
// string first (ranging over string(b) does not allocate).
func Bytes(b []byte) int32 {
	h, i := asciiPrefix(0, b)
	for _, r := range string(b[i:]) {
		h = next(h, r)
	}
	return h
}

// Powers of 31, the multiplier of String.hashCode, for four units at once.
const (
	p31x2 = 31 * 31
	p31x3 = 31 * p31x2
	p31x4 = 31 * p31x3
)

// asciiPrefix adds s's leading ASCII bytes (one UTF-16 unit each) to h,
// four per step, and returns the hash and where the first other byte is
// (len(s) when there is none). Keys, tags and topics are almost always
// ASCII, and this runs for each of them on every dispatched message.
func asciiPrefix[T ~string | ~[]byte](h int32, s T) (int32, int) {
	i := 0
	for ; i+4 <= len(s); i += 4 {
		b0, b1, b2, b3 := s[i], s[i+1], s[i+2], s[i+3]
		if b0|b1|b2|b3 >= utf8.RuneSelf {
			break
		}
		h = h*p31x4 + int32(b0)*p31x3 + int32(b1)*p31x2 + int32(b2)*31 + int32(b3)
	}
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
		h = 31*h + int32(s[i])
	}
	return h, i
}

// next adds code point r, as UTF-16 units, to hash h.
func next(h int32, r rune) int32 {
	if r >= 0x10000 {
		r -= 0x10000
		h = 31*h + 0xD800 + r>>10
		return 31*h + 0xDC00 + r&0x3FF
	}
	return 31*h + r
}

// Long returns Java's Long.hashCode of v.
func Long(v int64) int32 { return int32(v ^ int64(uint64(v)>>32)) }

// spread is HashMap.hash: the high half folded into the low half.
func spread(h int32) uint32 {
	u := uint32(h)
	return u ^ u>>16
}

// Bucket is the bucket of a key with hashCode h in a java.util.HashMap
// created with the default capacity after n keys were put into it (the
// table doubles from 16 whenever it is more than three quarters full).
// Java iterates such a map by bucket, and each bucket in insertion order.
func Bucket(h int32, n int) uint32 {
	size := defaultCapacity
	for float64(n) > float64(size)*loadFactor && size < maxCapacity {
		size <<= 1
	}
	return spread(h) & uint32(size-1)
}

// tableSizeFor is HashMap.tableSizeFor: the power of two >= c (at least 1).
func tableSizeFor(c int) int {
	n := 1
	for n < c && n < maxCapacity {
		n <<= 1
	}
	return n
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	hash uint32 // spread hash
	seq  uint64 // insertion order
}

// smallMax is the size up to which a Map finds keys by scanning instead of
// through a Go map, and orders them without caching: most of the name
// server's maps (a topic's brokers, a group's addresses) hold a few keys.
const smallMax = 8

// Map is a hash map that iterates in java.util.HashMap's order. It keeps
// what that order depends on — each key's hash, its insertion rank and
// Java's table capacity — rather than Java's buckets: Java's iteration
// visits buckets in index order and each bucket's keys in insertion order
// (appends go to the tail, removals and resizes keep the relative order),
// so sorting by (hash & (capacity-1), rank) reproduces it. The zero value
// is not usable; call NewMap.
type Map[K comparable, V any] struct {
	hashOf    func(K) int32
	ents      []entry[K, V]
	index     map[K]int32 // position in ents; nil while len(ents) <= smallMax
	capacity  int         // Java's table length, 0 before its first put
	threshold int         // Java's threshold; before the table exists, its initial capacity (0 = default)
	seq       uint64
	// order caches a large map's iteration order; nil when stale. Readers
	// fill it, so maps read under a shared lock (RLock) fill it at once:
	// an atomic pointer makes that safe, and changes (which hold the lock
	// exclusively) clear it.
	order atomic.Pointer[[]int32]
}

// NewMap returns an empty map hashing keys with hashOf (String, Long, …).
// initialCapacity < 0 is Java's `new HashMap<>()`; otherwise
// `new HashMap<>(initialCapacity)`.
func NewMap[K comparable, V any](hashOf func(K) int32, initialCapacity int) *Map[K, V] {
	m := &Map[K, V]{hashOf: hashOf}
	if initialCapacity >= 0 {
		m.threshold = tableSizeFor(initialCapacity)
	}
	return m
}

// Len returns the number of keys.
func (m *Map[K, V]) Len() int { return len(m.ents) }

// Grow makes room for n more keys without reallocating. Only Go's memory
// is affected: Java's table, threshold and so the order are not.
func (m *Map[K, V]) Grow(n int) { m.ents = slices.Grow(m.ents, n) }

func (m *Map[K, V]) find(k K) int {
	if m.index != nil {
		if i, ok := m.index[k]; ok {
			return int(i)
		}
		return -1
	}
	for i := range m.ents {
		if m.ents[i].key == k {
			return i
		}
	}
	return -1
}

// Get returns the value of k.
func (m *Map[K, V]) Get(k K) (V, bool) {
	if i := m.find(k); i >= 0 {
		return m.ents[i].val, true
	}
	var zero V
	return zero, false
}

// Has reports whether k is present.
func (m *Map[K, V]) Has(k K) bool { return m.find(k) >= 0 }

// Put stores v under k and returns the previous value. An existing key
// keeps its place in the order.
func (m *Map[K, V]) Put(k K, v V) (old V, existed bool) {
	if i := m.find(k); i >= 0 {
		old, m.ents[i].val = m.ents[i].val, v
		return old, true
	}
	if m.capacity == 0 {
		m.resize()
	}
	m.seq++
	m.ents = append(m.ents, entry[K, V]{key: k, val: v, hash: spread(m.hashOf(k)), seq: m.seq})
	switch {
	case m.index != nil:
		m.index[k] = int32(len(m.ents) - 1)
	case len(m.ents) > smallMax:
		m.index = make(map[K]int32, len(m.ents))
		for i := range m.ents {
			m.index[m.ents[i].key] = int32(i)
		}
	}
	m.order.Store(nil)
	if len(m.ents) > m.threshold {
		m.resize()
	}
	return old, false
}

// Remove deletes k and returns its value.
func (m *Map[K, V]) Remove(k K) (V, bool) {
	i := m.find(k)
	if i < 0 {
		var zero V
		return zero, false
	}
	v := m.ents[i].val
	last := len(m.ents) - 1
	m.ents[i] = m.ents[last]
	m.ents[last] = entry[K, V]{}
	m.ents = m.ents[:last]
	if m.index != nil {
		delete(m.index, k)
		if i < last {
			m.index[m.ents[i].key] = int32(i)
		}
	}
	m.order.Store(nil)
	return v, true
}

// Range calls f for each entry in Java's iteration order until f returns
// false. f must not modify m.
func (m *Map[K, V]) Range(f func(k K, v V) bool) {
	var small [smallMax]int32
	for _, i := range m.iterOrder(small[:0]) {
		if !f(m.ents[i].key, m.ents[i].val) {
			return
		}
	}
}

// iterOrder returns the positions of ents in iteration order, using buf
// for small maps and the cache for large ones.
func (m *Map[K, V]) iterOrder(buf []int32) []int32 {
	if o := m.order.Load(); o != nil {
		return *o
	}
	n := len(m.ents)
	if n > smallMax {
		buf = make([]int32, 0, n)
	}
	for i := range n {
		buf = append(buf, int32(i))
	}
	if n > 1 {
		mask := uint32(m.capacity - 1)
		slices.SortFunc(buf, func(a, b int32) int {
			ea, eb := &m.ents[a], &m.ents[b]
			if ba, bb := ea.hash&mask, eb.hash&mask; ba != bb {
				return cmp.Compare(ba, bb)
			}
			return cmp.Compare(ea.seq, eb.seq)
		})
	}
	if n > smallMax {
		m.order.Store(&buf)
	}
	return buf
}

// Keys returns the keys in Java's iteration order.
func (m *Map[K, V]) Keys() []K {
	out := make([]K, 0, len(m.ents))
	m.Range(func(k K, _ V) bool {
		out = append(out, k)
		return true
	})
	return out
}

// Values returns the values in Java's iteration order.
func (m *Map[K, V]) Values() []V {
	out := make([]V, 0, len(m.ents))
	m.Range(func(_ K, v V) bool {
		out = append(out, v)
		return true
	})
	return out
}

// First returns the first entry in iteration order.
func (m *Map[K, V]) First() (k K, v V, ok bool) {
	m.Range(func(k2 K, v2 V) bool {
		k, v, ok = k2, v2, true
		return false
	})
	return k, v, ok
}

// PutAll copies every entry of from, in from's order, as HashMap.putAll
// (putMapEntries) does, pre-sizing an unallocated table.
func (m *Map[K, V]) PutAll(from *Map[K, V]) {
	s := from.Len()
	if s == 0 {
		return
	}
	if m.capacity == 0 {
		ft := float32(s)/loadFactor + 1
		t := maxCapacity
		if ft < maxCapacity {
			t = int(ft)
		}
		if t > m.threshold {
			m.threshold = tableSizeFor(t)
		}
	} else {
		for s > m.threshold && m.capacity < maxCapacity {
			m.resize()
		}
	}
	from.Range(func(k K, v V) bool {
		m.Put(k, v)
		return true
	})
}

// Clone returns a copy as HashMap.clone makes it: a fresh table sized for
// the current number of keys, filled in m's order.
func (m *Map[K, V]) Clone() *Map[K, V] {
	c := &Map[K, V]{hashOf: m.hashOf}
	c.PutAll(m)
	return c
}

// resize is HashMap.resize's capacity arithmetic: allocate, or double.
// (Doubling splits every bucket keeping relative order, which the
// (bucket, rank) sort reproduces.)
func (m *Map[K, V]) resize() {
	oldCap, oldThr := m.capacity, m.threshold
	newCap, newThr := 0, 0
	switch {
	case oldCap > 0:
		if oldCap >= maxCapacity {
			m.threshold = math.MaxInt32
			return
		}
		newCap = oldCap << 1
		if newCap < maxCapacity && oldCap >= defaultCapacity {
			newThr = oldThr << 1
		}
	case oldThr > 0:
		newCap = oldThr
	default:
		newCap, newThr = defaultCapacity, int(defaultCapacity*loadFactor)
	}
	if newThr == 0 {
		ft := float32(newCap) * loadFactor
		newThr = math.MaxInt32
		if newCap < maxCapacity && ft < maxCapacity {
			newThr = int(ft)
		}
	}
	m.capacity, m.threshold = newCap, newThr
	m.order.Store(nil)
}

// Set is a java.util.HashSet: a Map without values.
type Set[K comparable] struct{ m *Map[K, struct{}] }

// NewSet returns an empty set; initialCapacity as in NewMap.
func NewSet[K comparable](hashOf func(K) int32, initialCapacity int) Set[K] {
	return Set[K]{m: NewMap[K, struct{}](hashOf, initialCapacity)}
}

// NewStringSet is `new HashSet<String>()`.
func NewStringSet() Set[string] { return NewSet(String, -1) }

// Add inserts k and reports whether it was new.
func (s Set[K]) Add(k K) bool {
	_, existed := s.m.Put(k, struct{}{})
	return !existed
}

// Remove deletes k and reports whether it was present.
func (s Set[K]) Remove(k K) bool {
	_, ok := s.m.Remove(k)
	return ok
}

// Has reports whether k is present.
func (s Set[K]) Has(k K) bool { return s.m.Has(k) }

// Len returns the number of keys.
func (s Set[K]) Len() int { return s.m.Len() }

// Keys returns the keys in Java's iteration order.
func (s Set[K]) Keys() []K { return s.m.Keys() }

// Range calls f for each key in order until f returns false.
func (s Set[K]) Range(f func(k K) bool) {
	s.m.Range(func(k K, _ struct{}) bool { return f(k) })
}

// Copy returns a copy with the same capacity and ranks, hence the same
// iteration order now and after further changes (unlike Clone, which
// re-sizes as Java's clone does).
func (m *Map[K, V]) Copy() *Map[K, V] {
	return MapValues(m, func(v V) V { return v })
}

// MapValues returns a copy of m with the same capacity and ranks whose
// values are f of m's values.
func MapValues[K comparable, V, W any](m *Map[K, V], f func(V) W) *Map[K, W] {
	c := &Map[K, W]{hashOf: m.hashOf, capacity: m.capacity, threshold: m.threshold, seq: m.seq,
		ents: make([]entry[K, W], len(m.ents))}
	for i, e := range m.ents {
		c.ents[i] = entry[K, W]{key: e.key, val: f(e.val), hash: e.hash, seq: e.seq}
	}
	if m.index != nil {
		c.index = make(map[K]int32, len(m.index))
		for k, i := range m.index {
			c.index[k] = i
		}
	}
	return c
}
