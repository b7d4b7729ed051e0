//go:build !linux

package remoting

import (
	"errors"
	"net"
)

// rawSock is Linux-only (rawio_linux.go); elsewhere connections use the
// net package's own reads and writes.
type rawSock struct{}

func newRawSock(net.Conn) *rawSock { return nil }

func (*rawSock) Read([]byte) (int, error) { return 0, errors.ErrUnsupported }

func (*rawSock) writev(*net.Buffers) (int64, error) { return 0, errors.ErrUnsupported }

func (*rawSock) writevNow(*net.Buffers) error { return errors.ErrUnsupported }
