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

// adviseNoReadahead turns off fault readahead for b (MADV_RANDOM). A fault
// on a page the page cache does not hold reads ahead by the device's
// read_ahead_kb (8 MiB on some VMs); for the unwritten end of a segment
// that means zeroing megabytes of fresh pages in one non-preemptible
// stretch, which stalled other threads for ~20 ms every 8 MiB written.
// Errors are ignored: readahead is then merely wasteful.
func adviseNoReadahead(b []byte) { _ = syscall.Madvise(b, syscall.MADV_RANDOM) }

// adviseNormal restores the default readahead for b.
func adviseNormal(b []byte) { _ = syscall.Madvise(b, syscall.MADV_NORMAL) }
