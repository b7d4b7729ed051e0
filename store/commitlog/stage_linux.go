package commitlog

import (
	"errors"
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// memRing is size bytes of a memfd mapped twice in a row, so that
// at(off, n) is contiguous even when it wraps.
type memRing struct {
	b []byte // 2*size bytes
	n int64
}

func mapRing(size int64) (ring, error) {
	fd, err := unix.MemfdCreate("sputnik-commitlog-stage", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %w", err)
	}
	defer syscall.Close(fd) // the mappings keep the memory
	if err := syscall.Ftruncate(fd, size); err != nil {
		return nil, fmt.Errorf("size memfd: %w", err)
	}
	// Reserve 2*size of address space, then map the file over each half.
	b, err := syscall.Mmap(-1, 0, int(2*size), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("reserve: %w", err)
	}
	base := uintptr(unsafe.Pointer(&b[0]))
	for half := range uintptr(2) {
		if err := mapFixed(base+half*uintptr(size), size, fd); err != nil {
			return nil, errors.Join(err, syscall.Munmap(b))
		}
	}
	return &memRing{b: b, n: size}, nil
}

func mapFixed(addr uintptr, size int64, fd int) error {
	r, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr, uintptr(size),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_FIXED, uintptr(fd), 0)
	if errno != 0 {
		return fmt.Errorf("map ring half: %w", errno)
	}
	if r != addr {
		return fmt.Errorf("map ring half: got %#x, want %#x", r, addr)
	}
	return nil
}

func (r *memRing) at(off int64, n int) []byte {
	p := off % r.n
	return r.b[p : p+int64(n) : p+int64(n)]
}

func (r *memRing) size() int64 { return r.n }

func (r *memRing) close() error { return syscall.Munmap(r.b) }
