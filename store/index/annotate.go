package index

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// Annotate writes a readable dump of an index file's bytes: the header,
// then every slot and entry as hex with its decoded fields, runs of
// all-zero slots or entries folded into one line. Every byte of data is
// accounted for, so two files with the same dump are identical. It is for
// golden tests and debugging; data must be FileSize(slots, entries) bytes.
func Annotate(w io.Writer, data []byte, slots, entries int32) error {
	if !validSize(slots, entries) || int64(len(data)) != FileSize(slots, entries) {
		return fmt.Errorf("%w: %d bytes for %d slots, %d entries", ErrConfig, len(data), slots, entries)
	}
	var b strings.Builder
	h := decodeHeader(data)
	fmt.Fprintf(&b, "header @0 %s\n", hex.EncodeToString(data[:HeaderSize]))
	fmt.Fprintf(&b, "  beginTimestamp=%d endTimestamp=%d beginPhyOffset=%d endPhyOffset=%d hashSlotCount=%d indexCount(raw)=%d\n",
		h.BeginTimestamp, h.EndTimestamp, h.BeginPhyOffset, h.EndPhyOffset, h.HashSlotCount, getInt32(data, hdrIndexCountPos))
	annotateRuns(&b, "slot", int(slots), SlotSize, func(i int) []byte {
		p := slotPos(int32(i))
		return data[p : p+SlotSize]
	}, func(v []byte) string { return fmt.Sprintf("-> entry %d", getInt32(v, 0)) })
	annotateRuns(&b, "entry", int(entries), EntrySize, func(i int) []byte {
		p := entryPos(slots, int32(i))
		return data[p : p+EntrySize]
	}, func(v []byte) string {
		e := decodeEntry(v)
		return fmt.Sprintf("keyHash=%d slot=%d phyOffset=%d timeDiff=%d prev=%d",
			e.KeyHash, e.KeyHash%slots, e.PhyOffset, e.TimeDiff, e.PrevIndex)
	})
	_, err := io.WriteString(w, b.String())
	return err
}

func annotateRuns(b *strings.Builder, what string, n, size int, at func(int) []byte, describe func([]byte) string) {
	for i := 0; i < n; {
		v := at(i)
		if !allZero(v) {
			fmt.Fprintf(b, "%s %d %s %s\n", what, i, hex.EncodeToString(v), describe(v))
			i++
			continue
		}
		j := i + 1
		for j < n && allZero(at(j)) {
			j++
		}
		fmt.Fprintf(b, "%s %d..%d zero (%d bytes)\n", what, i, j-1, (j-i)*size)
		i = j
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
