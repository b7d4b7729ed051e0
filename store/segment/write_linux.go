package segment

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxParts is how many parts one Write gathers (the zeros are one more).
const maxParts = 7

// writePadded writes parts back to back at off followed by pad zero
// bytes, in one pwritev(2) where it can (see Segment.Write for why the
// zeros).
func writePadded(f File, parts [][]byte, pad int, off int64) error {
	if len(parts) > maxParts {
		return writeEach(f, parts, off)
	}
	var buf [maxParts + 1][]byte
	iov := append(buf[:0], parts...)
	if pad > 0 {
		iov = append(iov, zeroStep[:pad])
	}
	for {
		n, err := unix.Pwritev(int(f.Fd()), iov, off)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return err
		}
		// A short write (a signal, or the disk filling): the rest of the
		// data the ordinary way, which reports why it cannot go on.
		for _, p := range parts {
			if n < len(p) {
				if _, err := f.WriteAt(p[n:], off+int64(n)); err != nil {
					return err
				}
			}
			n -= min(n, len(p))
			off += int64(len(p))
		}
		return nil
	}
}
