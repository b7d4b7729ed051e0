package segment

import (
	"runtime"
	"syscall"
	"testing"
	"time"
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

// Prefault populates the window ahead of a write position that is not on
// a page boundary, as it is after any first record (madvise refuses an
// unaligned start, and the appender then took every fault itself).
func TestPrefaultFromUnalignedPosition(t *testing.T) {
	const size, window = 32 << 20, 8 << 20
	s, err := Create(OS, t.TempDir(), 0, size)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AppendBytes(make([]byte, 1145)); err != nil {
		t.Fatal(err)
	}
	ahead := s.Mapped()[PageSize : window/2]
	s.Prefault(window)
	deadline := time.Now().Add(10 * time.Second)
	for s.prefaulting.Load() || s.prefaulted.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("prefault did not finish")
		}
		time.Sleep(time.Millisecond)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadFaults(t)
	for i := 0; i < len(ahead); i += PageSize {
		ahead[i] = 1
	}
	// A few faults may come from the runtime itself; the appender's share
	// was one per page (1023 here) before the fix.
	if n := threadFaults(t) - before; n > 16 {
		t.Errorf("writing %d prefaulted pages took %d page faults", len(ahead)/PageSize, n)
	}
}
