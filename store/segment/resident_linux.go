package segment

import (
	"syscall"
	"unsafe"
)

// resident reports whether every page of b, which starts on a page of a
// mapping, is in memory. b is at most ResidentMax long.
func resident(b []byte) bool {
	var vec [ResidentMax / PageSize]byte
	pages := (len(b) + PageSize - 1) / PageSize
	if len(b) == 0 || pages > len(vec) {
		return false
	}
	n, err := residentPages(b, vec[:pages])
	return err == nil && n == pages
}

// residentPages counts the pages of b (starting on a page of a mapping)
// that are in memory, with mincore(2); vec has one byte per page of b.
func residentPages(b, vec []byte) (int, error) {
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		return 0, errno
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n, nil
}
