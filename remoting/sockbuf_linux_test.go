package remoting

import (
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// serverSocketSndBufSize / serverSocketRcvBufSize > 0 size the accepted
// connections' socket buffers (Netty childOption SO_SNDBUF / SO_RCVBUF);
// 0 leaves the system's.
func TestAcceptedSocketBuffers(t *testing.T) {
	sockopt := func(s *Server, opt int) int {
		var conn *Conn
		require.Eventually(t, func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			for c := range s.conns {
				conn = c
			}
			return conn != nil
		}, 5*time.Second, time.Millisecond)
		rc, err := conn.nc.(*net.TCPConn).SyscallConn()
		require.NoError(t, err)
		var v int
		require.NoError(t, rc.Control(func(fd uintptr) { v, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, opt) }))
		require.NoError(t, err)
		return v
	}
	dial := func(s *Server) {
		c, err := net.Dial("tcp", s.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
	}
	sized := startServer(t, ServerConfig{SocketSndBuf: 12345, SocketRcvBuf: 23456}, nil)
	dial(sized)
	require.Equal(t, 2*12345, sockopt(sized, syscall.SO_SNDBUF), "Linux doubles the value set")
	require.Equal(t, 2*23456, sockopt(sized, syscall.SO_RCVBUF))

	plain := startServer(t, ServerConfig{}, nil)
	dial(plain)
	require.NotEqual(t, 2*12345, sockopt(plain, syscall.SO_SNDBUF))
}
