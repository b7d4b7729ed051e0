package segment

import (
	"errors"
	"syscall"
)

// reserve sets the file to size bytes and allocates its blocks, so that
// writes through the mapping cannot later fault for lack of space. File
// systems without fallocate get a plain (sparse) truncate, Java's way.
func reserve(f File, size int64) error {
	if a, ok := f.(allocator); ok {
		if err := a.allocate(); err != nil {
			return err
		}
	}
	if err := f.Truncate(size); err != nil {
		return err
	}
	for {
		err := syscall.Fallocate(int(f.Fd()), 0, 0, size)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return nil
		default:
			return err
		}
	}
}
