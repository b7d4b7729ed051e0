package segment

import "syscall"

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault the pages
// in, writable, without touching their contents.
const madvPopulateWrite = 23

// populate faults b's pages in ahead of the writer; errors (an older
// kernel) are ignored: the writer then faults them itself.
func populate(b []byte) { _ = syscall.Madvise(b, madvPopulateWrite) }
