package ha

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// memLog is a commit log in memory: files of segSize bytes from base.
type memLog struct {
	mu      sync.Mutex
	base    int64
	data    []byte
	segSize int64
}

func (l *memLog) MaxOffset() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.base + int64(len(l.data))
}

func (l *memLog) SegmentSize() int64 { return l.segSize }

func (l *memLog) ReadFrom(off int64) (segment.View, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if off < l.base || off > l.base+int64(len(l.data)) {
		return segment.View{}, segment.ErrRange
	}
	end := min(off-off%l.segSize+l.segSize, l.base+int64(len(l.data)))
	return segment.View{B: bytes.Clone(l.data[off-l.base : end-l.base])}, nil
}

func (l *memLog) AppendAt(off int64, data []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.data) == 0 {
		l.base = off
	}
	if off != l.base+int64(len(l.data)) {
		return io.ErrUnexpectedEOF
	}
	l.data = append(l.data, data...)
	return nil
}

func (l *memLog) add(b []byte) {
	l.mu.Lock()
	l.data = append(l.data, b...)
	l.mu.Unlock()
}

func testConfig() Config {
	return Config{HeartbeatInterval: 50 * time.Millisecond, HousekeepingInterval: time.Second, BatchSize: 100, FallbehindMax: 1 << 20}
}

func startMaster(t *testing.T, src Source) *Master {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	m := NewMaster(testConfig(), src, ln)
	t.Cleanup(func() { require.NoError(t, m.Close()) })
	return m
}

func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}

func readFrame(t *testing.T, nc net.Conn) (Header, []byte) {
	t.Helper()
	var hdr [HeaderSize]byte
	require.NoError(t, nc.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err := io.ReadFull(nc, hdr[:])
	require.NoError(t, err)
	h, err := ParseHeader(hdr[:])
	require.NoError(t, err)
	data := make([]byte, h.Size)
	_, err = io.ReadFull(nc, data)
	require.NoError(t, err)
	return h, data
}

func report(t *testing.T, nc net.Conn, off int64) {
	t.Helper()
	var b [ReportSize]byte
	PutReport(b[:], off)
	_, err := nc.Write(b[:])
	require.NoError(t, err)
}

// Java HAConnection.WriteSocketService: an empty slave gets the master's
// newest file from its start, in frames of at most haTransferBatchSize,
// never across a file's end, then heartbeats carrying the next offset.
func TestMasterFrames(t *testing.T) {
	src := &memLog{segSize: 256, data: pattern(600)}
	m := startMaster(t, src)
	nc, err := net.Dial("tcp", m.Addr().String())
	require.NoError(t, err)
	defer nc.Close()
	report(t, nc, 0)

	var got []Header
	var data []byte
	for off := int64(512); off < 600; {
		h, d := readFrame(t, nc)
		got = append(got, h)
		data = append(data, d...)
		off += int64(h.Size)
	}
	require.Equal(t, []Header{{Offset: 512, Size: 88}}, got)
	require.Equal(t, src.data[512:], data)

	src.add(pattern(300)) // 600..900: crosses the file end at 768
	m.Notify()
	got = nil
	for off := int64(600); off < 900; {
		h, _ := readFrame(t, nc)
		if h.Size == 0 {
			continue
		}
		got = append(got, h)
		off += int64(h.Size)
	}
	require.Equal(t, []Header{{600, 100}, {700, 68}, {768, 100}, {868, 32}}, got)

	h, d := readFrame(t, nc)
	require.Equal(t, Header{Offset: 900}, h, "heartbeat")
	require.Empty(t, d)
}

// The first report is where the slave wants data from; later ones
// confirm, release waiting puts, and may not pass the master's log
// (Java ReadSocketService closes the connection).
func TestMasterAcksAndWaiters(t *testing.T) {
	src := &memLog{segSize: 1 << 20, data: pattern(1000)}
	m := startMaster(t, src)
	require.False(t, m.SlaveOK(1000), "no slave yet")
	nc, err := net.Dial("tcp", m.Addr().String())
	require.NoError(t, err)
	defer nc.Close()
	report(t, nc, 400)
	h, _ := readFrame(t, nc)
	require.Equal(t, int64(400), h.Offset)
	require.Eventually(t, func() bool { return m.Acked() == 400 }, 5*time.Second, time.Millisecond)
	require.True(t, m.SlaveOK(1000))

	done := make(chan bool, 2)
	m.Await(800, time.Minute, func(ok bool) { done <- ok })
	m.Await(300, time.Minute, func(ok bool) { done <- ok }) // already confirmed
	require.True(t, <-done)
	report(t, nc, 800)
	require.True(t, <-done)
	require.False(t, m.Wait(2000, 30*time.Millisecond), "times out")

	report(t, nc, 5000) // past the master's log
	require.Eventually(t, func() bool { return m.Connections() == 0 }, 5*time.Second, time.Millisecond)
}

// Java HAClient: the slave appends frames that continue its log, reports
// its max offset, and drops a master whose frame does not continue it.
func TestSlaveFollows(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	sink := &memLog{segSize: 1 << 20}
	s := NewSlave(testConfig(), sink)
	defer s.Close()
	s.SetMasterAddress(ln.Addr().String())

	nc, err := ln.Accept()
	require.NoError(t, err)
	defer nc.Close()
	require.Equal(t, int64(0), readReport(t, nc), "an empty slave asks from 0 at once")
	send(t, nc, Header{Offset: 4096, Size: 10}, pattern(10))
	require.Equal(t, int64(4106), readReport(t, nc))
	send(t, nc, Header{Offset: 4106}, nil) // heartbeat
	send(t, nc, Header{Offset: 4106, Size: 5}, pattern(5))
	require.Equal(t, int64(4111), readReport(t, nc))
	require.Equal(t, int64(4111), readReport(t, nc), "heartbeat report")

	send(t, nc, Header{Offset: 9999, Size: 1}, []byte{1}) // does not continue the log
	require.NoError(t, nc.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		var b [ReportSize]byte
		if _, err := io.ReadFull(nc, b[:]); err != nil {
			break // the slave hung up
		}
	}
	require.Equal(t, int64(4111), sink.MaxOffset())
}

func readReport(t *testing.T, nc net.Conn) int64 {
	t.Helper()
	var b [ReportSize]byte
	require.NoError(t, nc.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err := io.ReadFull(nc, b[:])
	require.NoError(t, err)
	return ParseReport(b[:])
}

func send(t *testing.T, nc net.Conn, h Header, data []byte) {
	t.Helper()
	var b [HeaderSize]byte
	PutHeader(b[:], h)
	_, err := nc.Write(append(b[:], data...))
	require.NoError(t, err)
}

func TestParseHeader(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want Header
		err  bool
	}{
		{"data", []byte{0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x80, 0}, Header{Offset: 4096, Size: 32768}, false},
		{"heartbeat", []byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, Header{Offset: 1}, false},
		{"short", []byte{0, 0, 0}, Header{}, true},
		{"negative offset", []byte{0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, Header{}, true},
		{"negative size", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, Header{}, true},
		{"too large", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 1}, Header{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ParseHeader(tc.in)
			if tc.err {
				require.ErrorIs(t, err, ErrFrame)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, h)
			var b [HeaderSize]byte
			PutHeader(b[:], h)
			require.Equal(t, tc.in, b[:])
		})
	}
}

func FuzzParseHeader(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x80, 0})
	f.Add([]byte{0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseHeader(b)
		if err != nil {
			return
		}
		if h.Offset < 0 || h.Size < 0 || h.Size > MaxFrameData {
			t.Fatalf("accepted %+v", h)
		}
		var out [HeaderSize]byte
		PutHeader(out[:], h)
		if !bytes.Equal(out[:], b[:HeaderSize]) {
			t.Fatalf("round trip %x -> %x", b[:HeaderSize], out)
		}
	})
}

// FuzzSlaveReceive feeds arbitrary master streams to a slave: it must
// append only data that continues its log and never panic or hang.
func FuzzSlaveReceive(f *testing.F) {
	var frame [HeaderSize]byte
	PutHeader(frame[:], Header{Offset: 0, Size: 3})
	f.Add(append(frame[:], 1, 2, 3))
	PutHeader(frame[:], Header{Offset: 7, Size: 1})
	f.Add(append(frame[:], 9))
	f.Add([]byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, stream []byte) {
		sink := &memLog{segSize: 1 << 20}
		s := &Slave{cfg: testConfig().withDefaults(), sink: sink, stop: make(chan struct{})}
		master, slave := net.Pipe()
		go func() {
			_, _ = master.Write(stream)
			_ = master.Close()
		}()
		r := newReporter(s, slave)
		err := s.receive(slave, r)
		if err == nil {
			t.Fatal("receive ended without an error")
		}
		if got := sink.MaxOffset() - sink.base; got > int64(len(stream)) {
			t.Fatalf("appended %d bytes from a %d-byte stream", got, len(stream))
		}
	})
}
