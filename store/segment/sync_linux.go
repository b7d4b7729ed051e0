package segment

import (
	"errors"
	"syscall"
	"unsafe"
)

// syncRange writes back b, a page-aligned part of a shared mapping of f,
// and waits for it: msync(MS_SYNC) runs the file system's fsync over just
// that range, journal commit included. An empty range costs nothing.
func syncRange(_ File, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	for {
		_, _, errno := syscall.Syscall(syscall.SYS_MSYNC, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), syscall.MS_SYNC)
		if errno == 0 {
			return nil
		}
		if !errors.Is(errno, syscall.EINTR) {
			return errno
		}
	}
}
