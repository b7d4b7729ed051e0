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

// adviseNoReadahead limits what a fault on b reads in to one 2 MiB folio
// (MADV_RANDOM plus MADV_HUGEPAGE). By default a fault on a page the page
// cache does not hold reads ahead by the device's read_ahead_kb (8 MiB on
// some VMs): for the unwritten end of a segment, zeroing megabytes of
// fresh pages in one non-preemptible stretch that stalled other threads
// for ~20 ms every 8 MiB written. Without readahead at all the page cache
// gets 4 KiB folios and populating runs at a seventh of the speed, hence
// the huge-page advice. Errors are ignored (an older kernel, THP off):
// readahead is then merely bursty.
func adviseNoReadahead(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_RANDOM)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}

// adviseNormal restores the default readahead for b.
func adviseNormal(b []byte) { _ = syscall.Madvise(b, syscall.MADV_NORMAL) }

// dropMapping takes b's pages out of this process's page tables
// (MADV_DONTNEED, one TLB flush for the range): a shared file mapping keeps
// their contents, dirty or not, in the page cache, and the next access
// maps them again.
func dropMapping(b []byte) {
	if len(b) > 0 {
		_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
	}
}
