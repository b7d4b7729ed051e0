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

// zeroRange makes bytes [off, off+n) of f read as zeros without writing
// them: FALLOC_FL_ZERO_RANGE keeps the blocks allocated, so writes through
// a mapping cannot later fault for lack of space. ErrUnsupported when the
// file system cannot.
func zeroRange(f File, off, n int64) error {
	const zeroRangeKeepSize = 0x10 | 0x01 // FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE
	for {
		err := syscall.Fallocate(int(f.Fd()), zeroRangeKeepSize, off, n)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return errors.ErrUnsupported
		default:
			return err
		}
	}
}
