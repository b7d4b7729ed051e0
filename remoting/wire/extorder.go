package wire

// The order of a command's ext fields on the wire (Java 4.9.8
// RemotingCommand.makeCustomHeaderToNet and fastEncodeHeader,
// RemotingSerializable.encode, RocketMQSerializable.rocketMQProtocolEncode).
//
// Java keeps ext fields in a java.util.HashMap created with the default
// capacity and writes them in its iteration order: by bucket (the key's
// String.hashCode, spread and masked by the table size, which doubles from
// 16 as the map fills), and inside a bucket in insertion order. Fields
// added directly (addExtField) are inserted as they are added; a typed
// header's fields are inserted when the command is encoded, after all of
// those, in the order of RemotingCommand.getClazzFields (a HashSet of the
// class's fields). So, for a command carrying a header:
//
//	JSON:                 one map: direct fields, then header fields
//	ROCKETMQ, plain header:  the same map
//	ROCKETMQ, FastCodesHeader (send and pull headers): the header's own
//	                      encode() writes its fields first, in declaration
//	                      order; the map holds the direct fields only
//
// Only commands made here (NewRequest, NewResponse) are reordered. A
// decoded command keeps its wire order (Java would reorder a relayed one).

import "github.com/sputnikmq/sputnik/compat/javalang/jhash"

// headerMark records which ext entries a typed header wrote.
type headerMark struct {
	from, to int      // Ext[from:to]; to == 0: none
	fast     bool     // a FastCodesHeader
	putOrder []string // its keys in getClazzFields order
}

// MarkHeader records that Ext[from:] was just written by a typed header
// (the generated EncodeTo methods call it): fast for a FastCodesHeader,
// whose binary form writes these entries first and in this order;
// putOrder lists the header's keys in the order Java's
// makeCustomHeaderToNet puts them into the map.
func (c *Command) MarkHeader(from int, fast bool, putOrder []string) {
	c.hdr = headerMark{from: from, to: len(c.Ext), fast: fast, putOrder: putOrder}
}

// extOrderInline covers the ext counts of ordinary commands without
// allocating.
const extOrderInline = 16

// extOrder returns the positions of c.Ext in the order Java writes them
// for the binary (true) or JSON form, appended to buf; nil means wire
// order.
func extOrder(c *Command, binary bool, buf []int) []int {
	n := len(c.Ext)
	if !c.made || n < 2 {
		return nil
	}
	h := c.hdr
	if h.to == 0 || h.to > n || h.from > h.to {
		h = headerMark{}
	}
	if binary && h.fast && h.from == 0 && h.to == n {
		return nil // the header's own encode alone: Ext order
	}
	order := buf[:0]
	for i := range n {
		if i < h.from || i >= h.to {
			order = append(order, i)
		}
	}
	if binary && h.fast {
		// The header's own encode first, then the map of direct fields.
		d, block := len(order), h.to-h.from
		hashMapOrder(c.Ext, order, headerMark{})
		for range block {
			order = append(order, 0)
		}
		copy(order[block:], order[:d])
		for i := range block {
			order[i] = h.from + i
		}
		return order
	}
	for i := h.from; i < h.to; i++ {
		order = append(order, i)
	}
	hashMapOrder(c.Ext, order, h)
	return order
}

// hashMapOrder sorts positions, given in insertion order but with h's
// header entries in Ext order, into the iteration order of a
// default-capacity java.util.HashMap holding those keys: a stable sort by
// bucket, except that header entries sharing a bucket go in h.putOrder's
// order, the order Java inserted them in.
func hashMapOrder(ext []ExtField, order []int, h headerMark) {
	var inline [extOrderInline]uint32
	buckets := inline[:0]
	if len(order) > extOrderInline {
		buckets = make([]uint32, 0, len(order))
	}
	for _, i := range order {
		buckets = append(buckets, jhash.Bucket(jhash.String(ext[i].Key), len(order)))
	}
	for i := 1; i < len(order); i++ { // insertion sort: stable, and n is small
		for j := i; j > 0 && after(ext, h, buckets[j-1], buckets[j], order[j-1], order[j]); j-- {
			buckets[j], buckets[j-1] = buckets[j-1], buckets[j]
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// after reports whether position a (bucket ba) goes after position b
// (bucket bb), a having been inserted first unless both are header entries.
func after(ext []ExtField, h headerMark, ba, bb uint32, a, b int) bool {
	if ba != bb {
		return ba > bb
	}
	inHeader := func(i int) bool { return i >= h.from && i < h.to }
	return inHeader(a) && inHeader(b) && putRank(h, ext[a].Key) > putRank(h, ext[b].Key)
}

// putRank is key's position in h.putOrder (past its end if absent).
func putRank(h headerMark, key string) int {
	for i, k := range h.putOrder {
		if k == key {
			return i
		}
	}
	return len(h.putOrder)
}
