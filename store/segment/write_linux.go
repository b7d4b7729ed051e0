package segment

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// writePadded writes p at off followed by pad zero bytes, in one
// pwritev(2) where it can (see Segment.Write for why the zeros).
func writePadded(f File, p []byte, pad int, off int64) error {
	iov := [][]byte{p, zeroStep[:pad]}
	if pad == 0 {
		iov = iov[:1]
	}
	for {
		n, err := unix.Pwritev(int(f.Fd()), iov, off)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return err
		case n < len(p):
			// A short write (a signal, or the disk filling): the rest of
			// the data the ordinary way, which reports why it cannot.
			_, err := f.WriteAt(p[n:], off+int64(n))
			return err
		}
		return nil
	}
}
