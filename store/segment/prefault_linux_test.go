package segment

import (
	"bytes"
	"encoding/binary"
	"os"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// threadFaults is the calling thread's minor plus major page faults.
func threadFaults(t *testing.T) int64 {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt + ru.Majflt
}

// prefaulted creates a segment of size bytes, appends first bytes and
// waits for the background prefault of window bytes to finish.
func prefaulted(t *testing.T, size, window int64, first int) *Segment {
	t.Helper()
	s, err := Create(OS, t.TempDir(), 0, size)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.AppendBytes(make([]byte, first)); err != nil {
		t.Fatal(err)
	}
	s.Prefault(window)
	waitFor(t, "prefault finished", func() bool { return prefaultDone(s)() && s.prefaulted.Load() > 0 })
	return s
}

// writeFaults writes a byte into every page of b and returns the page
// faults the writing thread took. A few may come from the runtime itself.
func writeFaults(t *testing.T, b []byte) int64 {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadFaults(t)
	for i := 0; i < len(b); i += PageSize {
		b[i] = 1
	}
	return threadFaults(t) - before
}

// Prefault populates the window ahead of a write position that is not on
// a page boundary, as it is after any first record (madvise refuses an
// unaligned start, and the appender then took every fault itself: one
// per page, 1023 here).
func TestPrefaultFromUnalignedPosition(t *testing.T) {
	const window = 8 << 20
	s := prefaulted(t, 32<<20, window, 1145)
	ahead := s.Mapped()[PageSize : window/2]
	if n := writeFaults(t, ahead); n > 16 {
		t.Errorf("writing %d prefaulted pages took %d page faults", len(ahead)/PageSize, n)
	}
}

// resident counts the pages of b the page cache holds (mincore).
func resident(t *testing.T, b []byte) int {
	t.Helper()
	vec := make([]byte, (len(b)+PageSize-1)/PageSize)
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		t.Fatal(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// The prefault faults in its window and nothing past it but the rest of a
// 2 MiB folio: a fault would otherwise read ahead by the device's
// read_ahead_kb (8 MiB on this VM), zeroing megabytes at once in the kernel.
func TestPrefaultDoesNotReadAhead(t *testing.T) {
	const size = 64 << 20
	s := prefaulted(t, size, 4<<20, 100)
	end := s.prefaulted.Load()
	if n := resident(t, s.Mapped()[PageSize:end]); n < int(end/PageSize)-2 {
		t.Errorf("only %d of %d prefaulted pages resident", n, end/PageSize-1)
	}
	// A fault reads in at most the 2 MiB folio around it.
	folioEnd := (end + 2<<20 - 1) &^ (2<<20 - 1)
	if n := resident(t, s.Mapped()[folioEnd:size]); n != 0 {
		t.Errorf("%d pages past the prefaulted end (%d) and its folio were read in", n, end)
	}
}

// Flushing an appended segment syncs just what was written: the pages
// prefaulted past the write position stay mapped writable, so writing them
// takes no faults (an fsync of the whole file cleans and write-protects
// them, and the appender then faults on each again).
func TestFlushKeepsPrefaultedPagesWritable(t *testing.T) {
	const window = 4 << 20
	s := prefaulted(t, 32<<20, window, 3*PageSize+10)
	if _, err := s.Flush(0); err != nil {
		t.Fatal(err)
	}
	ahead := s.Mapped()[8*PageSize : window/2]
	if n := writeFaults(t, ahead); n > 16 {
		t.Errorf("writing %d prefaulted pages after a flush took %d page faults", len(ahead)/PageSize, n)
	}
}

// mappedPages counts the pages of b present in this process's page tables
// (/proc/self/pagemap, bit 63 of each page's entry).
func mappedPages(t *testing.T, b []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skipf("no pagemap: %v", err)
	}
	defer f.Close()
	entries := make([]byte, 8*(len(b)/PageSize))
	if _, err := f.ReadAt(entries, int64(uintptr(unsafe.Pointer(&b[0]))/PageSize*8)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := 0; i < len(entries); i += 8 {
		if binary.LittleEndian.Uint64(entries[i:])>>63 == 1 {
			n++
		}
	}
	return n
}

// A flush takes the whole pages it syncs out of the writer's page tables
// (writeback would otherwise interrupt every CPU once per page still mapped
// writable), keeps the page the writer is in and the prefaulted ones after
// it, and loses nothing: the bytes read back through the mapping.
func TestFlushDropsWrittenPagesFromMapping(t *testing.T) {
	const written = 40*PageSize + 100
	s := prefaulted(t, 8<<20, 1<<20, 0)
	data := bytes.Repeat([]byte("sputnik!"), written/8+1)[:written]
	if _, err := s.AppendBytes(data); err != nil {
		t.Fatal(err)
	}
	m := s.Mapped()
	if n := mappedPages(t, m[:40*PageSize]); n != 40 {
		t.Fatalf("%d of 40 written pages mapped before the flush", n)
	}
	if _, err := s.Flush(0); err != nil {
		t.Fatal(err)
	}
	if n := mappedPages(t, m[:40*PageSize]); n != 0 {
		t.Errorf("%d of 40 flushed pages still mapped", n)
	}
	if n := mappedPages(t, m[40*PageSize:48*PageSize]); n != 8 {
		t.Errorf("%d of 8 pages at and after the write position mapped", n)
	}
	if !bytes.Equal(m[:written], data) {
		t.Error("flushed bytes changed")
	}
}
