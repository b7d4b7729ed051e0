//go:build unix && !linux

package segment

import "errors"

// reserve sets the file to size bytes; without fallocate the file stays
// sparse, as Java leaves it.
func reserve(f File, size int64) error {
	if a, ok := f.(allocator); ok {
		if err := a.allocate(); err != nil {
			return err
		}
	}
	return f.Truncate(size)
}

// zeroRange is not available here; callers write the zeros.
func zeroRange(File, int64, int64) error { return errors.ErrUnsupported }
