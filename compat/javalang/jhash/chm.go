package jhash

// CHMOrder returns the order in which a `new ConcurrentHashMap<>()` that
// received keys with the given hashes, in this order, iterates them: a
// permutation of the indexes of hashes. Duplicate keys must have been
// removed by the caller (a re-put keeps the first position).
//
// ConcurrentHashMap differs from HashMap in three ways that matter here:
// its spread also clears the sign bit, it resizes once the count reaches
// (not exceeds) three quarters of the table, and its transfer keeps only
// the last run of a bucket in order, prepending the other nodes one by one
// (reversing them). The broker's topicConfigTable is one, and the name
// server adds a registration's topics in its order.
func CHMOrder(hashes []int32) []int {
	n := defaultCapacity
	sizeCtl := n - n>>2
	tab := make([][]int, n)
	h := make([]uint32, len(hashes))
	for i, x := range hashes {
		h[i] = spread(x) & 0x7fffffff
		b := int(h[i]) & (n - 1)
		tab[b] = append(tab[b], i)
		for i+1 >= sizeCtl && n < maxCapacity {
			tab = chmTransfer(tab, h)
			sizeCtl = n<<1 - n>>1
			n <<= 1
		}
	}
	out := make([]int, 0, len(hashes))
	for _, b := range tab {
		out = append(out, b...)
	}
	return out
}

// chmTransfer doubles the table as ConcurrentHashMap.transfer does for
// list bins.
func chmTransfer(tab [][]int, h []uint32) [][]int {
	n := len(tab)
	next := make([][]int, 2*n)
	for i, b := range tab {
		if len(b) == 0 {
			continue
		}
		// lastRun: start of the longest tail whose nodes all go to the
		// same half; that tail is reused as is.
		last := 0
		runBit := h[b[0]] & uint32(n)
		for j := 1; j < len(b); j++ {
			if bit := h[b[j]] & uint32(n); bit != runBit {
				runBit, last = bit, j
			}
		}
		var lo, hi []int
		if runBit == 0 {
			lo = append(lo, b[last:]...)
		} else {
			hi = append(hi, b[last:]...)
		}
		for j := 0; j < last; j++ {
			if h[b[j]]&uint32(n) == 0 {
				lo = append([]int{b[j]}, lo...)
			} else {
				hi = append([]int{b[j]}, hi...)
			}
		}
		next[i], next[i+n] = lo, hi
	}
	return next
}
