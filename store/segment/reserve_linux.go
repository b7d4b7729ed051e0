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
	if err := fallocate(f, 0, 0, size); !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// zeroRange makes bytes [off, off+n) of f read as zeros without writing
// them: FALLOC_FL_ZERO_RANGE keeps the blocks allocated, so writes through
// a mapping cannot later fault for lack of space. ErrUnsupported when the
// file system cannot.
func zeroRange(f File, off, n int64) error {
	const zeroRangeKeepSize = 0x10 | 0x01 // FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE
	return fallocate(f, zeroRangeKeepSize, off, n)
}

// fallocate is fallocate(2) retried on EINTR; ErrUnsupported when the file
// system has no such mode.
func fallocate(f File, mode uint32, off, n int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), mode, off, n)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return errors.ErrUnsupported
		default:
			return err
		}
	}
}
