//go:build unix && !linux

package segment

// writePadded writes p at off; without pwritev(2) the zeros are left out
// (they only speed up Linux's page cache, see Segment.Write).
func writePadded(f File, p []byte, _ int, off int64) error {
	_, err := f.WriteAt(p, off)
	return err
}
