package segment

import (
	"errors"
	"syscall"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault the pages
// in, writable, without touching their contents.
const madvPopulateWrite = 23

// populate faults b's pages in ahead of the writer. A signal (the Go
// runtime's preemption) interrupts the call part way with EINTR, so it is
// repeated: pages already in cost little the second time. Other errors
// (an older kernel) are ignored: the writer then faults the pages itself.
func populate(b []byte) {
	for {
		err := syscall.Madvise(b, madvPopulateWrite)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}
