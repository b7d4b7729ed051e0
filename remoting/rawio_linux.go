//go:build linux

package remoting

import (
	"io"
	"net"
	"runtime"
	"syscall"
	"unsafe"
)

// rawSock reads and writes a TCP socket with raw system calls on the
// runtime's poller, instead of the net package's syscall.Syscall path.
//
// Why: every syscall.Syscall goes through the runtime's entersyscall, which
// wakes sysmon when it is parked. A broker answering a consumer's pulls
// goes idle between two requests, so sysmon parks and is woken again for
// every request, then polls at 20 µs until the broker is idle again: 10–12%
// of the broker's CPU in a drain (perf, session 12). The socket is
// non-blocking, so read and writev never sleep in the kernel and need no
// hand-off of the P; when they would block (EAGAIN) the poller waits, with
// the connection's deadlines, exactly as net.Conn does.
type rawSock struct {
	rc syscall.RawConn

	// The read loop's: the call in progress, so that no closure is made
	// per read.
	rbuf   []byte
	rn     int
	rerrno syscall.Errno
	readFn func(fd uintptr) bool

	// The writer of the moment's, likewise.
	wv      *net.Buffers
	wwait   bool
	wtotal  int64
	werrno  syscall.Errno
	iov     []syscall.Iovec
	writeFn func(fd uintptr) bool
}

// newRawSock returns nil when nc is not a socket that allows raw access;
// the caller then uses nc itself.
func newRawSock(nc net.Conn) *rawSock {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	s := &rawSock{rc: rc}
	s.readFn, s.writeFn = s.readOnce, s.writeSome
	return s
}

// Read is io.Reader over read(2); a zero-byte read is io.EOF.
func (s *rawSock) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.rbuf, s.rn, s.rerrno = p, 0, 0
	err := s.rc.Read(s.readFn)
	n, errno := s.rn, s.rerrno
	s.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, &net.OpError{Op: "read", Net: "tcp", Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// readOnce is one read(2) into rbuf; false asks the poller to wait.
func (s *rawSock) readOnce(fd uintptr) bool {
	p := s.rbuf
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		runtime.KeepAlive(p)
		s.rn, s.rerrno = int(r), e
		return true
	}
}

// iovMax is Linux's IOV_MAX: the most buffers one writev takes.
const iovMax = 1024

// writev writes v with writev(2), consuming what was written from v, until
// all is written, the write deadline passes or the socket fails.
func (s *rawSock) writev(v *net.Buffers) (int64, error) {
	return s.write(v, true)
}

// writevNow writes what of v the socket takes without waiting, consuming
// it from v.
func (s *rawSock) writevNow(v *net.Buffers) error {
	_, err := s.write(v, false)
	return err
}

func (s *rawSock) write(v *net.Buffers, wait bool) (int64, error) {
	s.wv, s.wwait, s.wtotal, s.werrno = v, wait, 0, 0
	err := s.rc.Write(s.writeFn)
	total, errno := s.wtotal, s.werrno
	s.wv = nil
	clear(s.iov)
	if err == nil && errno != 0 {
		err = &net.OpError{Op: "writev", Net: "tcp", Err: errno}
	}
	return total, err
}

// writeSome writes wv until done, the socket fails or, on a full socket
// buffer, returns false to wait on the poller (wwait) or true to stop.
func (s *rawSock) writeSome(fd uintptr) bool {
	v := s.wv
	for len(*v) > 0 {
		s.iov = fillIovec(s.iov[:0], *v)
		if len(s.iov) == 0 { // only empty buffers left
			*v = nil
			return true
		}
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&s.iov[0])), uintptr(len(s.iov)))
		runtime.KeepAlive(*v)
		switch e {
		case 0:
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return !s.wwait
		default:
			s.werrno = e
			return true
		}
		s.wtotal += int64(r)
		consumeBuffers(v, int64(r))
	}
	return true
}

// fillIovec appends to vec an iovec for each non-empty buffer of v, at most
// iovMax.
func fillIovec(vec []syscall.Iovec, v net.Buffers) []syscall.Iovec {
	for _, b := range v {
		if len(vec) == iovMax {
			break
		}
		if len(b) == 0 {
			continue
		}
		iov := syscall.Iovec{Base: &b[0]}
		iov.SetLen(len(b))
		vec = append(vec, iov)
	}
	return vec
}

// consumeBuffers drops the first n bytes of v. Empty buffers left at its
// front are dropped by writeSome's next fillIovec.
func consumeBuffers(v *net.Buffers, n int64) {
	for len(*v) > 0 && n > 0 {
		b := (*v)[0]
		if int64(len(b)) > n {
			(*v)[0] = b[n:]
			return
		}
		n -= int64(len(b))
		(*v)[0] = nil
		*v = (*v)[1:]
	}
}
