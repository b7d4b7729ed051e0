//go:build unix && !linux

package segment

// writePadded writes parts back to back at off; without pwritev(2) the
// zeros are left out (they only speed up Linux's page cache, see
// Segment.Write).
func writePadded(f File, parts [][]byte, _ int, off int64) error {
	return writeEach(f, parts, off)
}
