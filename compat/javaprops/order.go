package javaprops

import (
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// JavaOrder lists p's keys in the order java.util.Properties iterates them
// (a ConcurrentHashMap since JDK 9): the order Configuration writes and
// merges config objects in.
func (p *Properties) JavaOrder() []string {
	keys := p.Keys()
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = jhash.String(k)
	}
	out := make([]string, len(keys))
	for i, j := range jhash.CHMOrder(hashes) {
		out[i] = keys[j]
	}
	return out
}

// MergeJava is RocketMQ's Configuration.merge: from's entries, in from's Java
// iteration order, put into p.
func (p *Properties) MergeJava(from *Properties) {
	for _, k := range from.JavaOrder() {
		v, _ := from.Get(k)
		p.Set(k, v)
	}
}

// JavaString is MixAll.properties2String: "key=value\n" per entry, in
// Java's iteration order (what Configuration.getAllConfigsFormatString
// answers and persists).
func (p *Properties) JavaString() string {
	var b strings.Builder
	for _, k := range p.JavaOrder() {
		v, _ := p.Get(k)
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
		b.WriteByte('\n')
	}
	return b.String()
}
