package ha

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// pollInterval is how often an idle writer looks for data nobody told it
// about (Java waits 100 ms too): with transientStorePoolEnable an append
// becomes readable only when the commit service writes it.
const pollInterval = 100 * time.Millisecond

// conn is one slave's connection on the master (Java HAConnection): the
// reader takes the slave's offset reports, the writer streams the log.
type conn struct {
	m    *Master
	nc   net.Conn
	log  *logrus.Entry
	kick chan struct{} // new data, or the first report

	requested atomic.Int64 // Java slaveRequestOffset: -1 until the first report
	closeOnce sync.Once
	closed    chan struct{}
}

func newConn(m *Master, nc net.Conn) *conn {
	c := &conn{m: m, nc: nc, log: m.cfg.Log.WithField("slave", nc.RemoteAddr().String()),
		kick: make(chan struct{}, 1), closed: make(chan struct{})}
	c.requested.Store(-1)
	return c
}

func (c *conn) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// close ends both loops; the first caller drops the connection.
func (c *conn) close() {
	c.closeOnce.Do(func() {
		close(c.closed)
		_ = c.nc.Close()
		c.m.drop(c)
	})
}

// read takes the slave's reports until it goes quiet for the
// housekeeping interval, reports an offset past the master's log, or the
// connection fails (Java ReadSocketService).
func (c *conn) read() {
	defer c.close()
	var b [ReportSize]byte
	for {
		_ = c.nc.SetReadDeadline(time.Now().Add(c.m.cfg.HousekeepingInterval))
		if _, err := io.ReadFull(c.nc, b[:]); err != nil {
			c.readFailed(err)
			return
		}
		if err := c.report(ParseReport(b[:])); err != nil {
			c.log.Warn(err.Error())
			return
		}
	}
}

func (c *conn) readFailed(err error) {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		c.log.Warnf("ha housekeeping, found this connection expired, nothing read for %s", c.m.cfg.HousekeepingInterval)
	case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed):
		c.log.Info("slave connection closed")
	default:
		c.log.WithError(err).Warn("read from slave failed")
	}
}

// report handles one offset report: the first says where to start,
// every one confirms the log before it.
func (c *conn) report(off int64) error {
	if c.requested.Load() < 0 {
		c.requested.Store(off)
		c.log.Infof("slave request offset %d", off)
		c.wake()
	} else if max := c.m.src.MaxOffset(); off > max {
		return fmt.Errorf("slave request offset=%d greater than local commitLog offset=%d", off, max)
	}
	c.m.confirmed(off)
	return nil
}

// write streams the log to the slave from where it asked (Java
// WriteSocketService): frames of at most BatchSize bytes, a heartbeat
// after HeartbeatInterval without data.
func (c *conn) write() {
	defer c.close()
	if !c.awaitRequest() {
		return
	}
	next := c.startOffset()
	c.log.Infof("master transfer data from %d to slave, and slave request %d", next, c.requested.Load())
	var hdr [HeaderSize]byte
	lastWrite := time.Now()
	idle := time.NewTimer(time.Hour)
	defer idle.Stop()
	for {
		sent, err := c.sendSome(&hdr, &next)
		if err != nil {
			c.log.WithError(err).Warn("write to slave failed")
			return
		}
		now := time.Now()
		if sent {
			lastWrite = now
			continue
		}
		if now.Sub(lastWrite) >= c.m.cfg.HeartbeatInterval {
			if err := c.send(&hdr, Header{Offset: next}, nil); err != nil {
				c.log.WithError(err).Warn("heartbeat to slave failed")
				return
			}
			lastWrite = now
		}
		idle.Reset(min(c.m.cfg.HeartbeatInterval-now.Sub(lastWrite), pollInterval))
		select {
		case <-c.closed:
			return
		case <-c.kick:
		case <-idle.C:
		}
	}
}

// awaitRequest waits for the slave's first report.
func (c *conn) awaitRequest() bool {
	for c.requested.Load() < 0 {
		select {
		case <-c.closed:
			return false
		case <-c.kick:
		}
	}
	return true
}

// startOffset is where the transfer starts: where the slave asked, or for
// a slave with nothing, the first byte of the master's newest file.
func (c *conn) startOffset() int64 {
	if req := c.requested.Load(); req != 0 {
		return req
	}
	max := c.m.src.MaxOffset()
	return max - max%c.m.src.SegmentSize()
}

// sendSome sends one frame of data from *next if there is any and
// advances *next past it.
func (c *conn) sendSome(hdr *[HeaderSize]byte, next *int64) (bool, error) {
	if *next >= c.m.src.MaxOffset() {
		return false, nil
	}
	v, err := c.m.src.ReadFrom(*next)
	if err != nil {
		return false, nil // not held (yet, or any more): Java waits too
	}
	defer v.Release()
	data := v.B[:min(len(v.B), c.m.cfg.BatchSize)]
	if len(data) == 0 {
		return false, nil
	}
	if err := c.send(hdr, Header{Offset: *next, Size: int32(len(data))}, data); err != nil {
		return false, err
	}
	*next += int64(len(data))
	return true, nil
}

// send writes a frame, the data straight from the log's mapping.
func (c *conn) send(hdr *[HeaderSize]byte, h Header, data []byte) error {
	PutHeader(hdr[:], h)
	_ = c.nc.SetWriteDeadline(time.Now().Add(c.m.cfg.HousekeepingInterval))
	bufs := net.Buffers{hdr[:], data}
	if _, err := bufs.WriteTo(c.nc); err != nil {
		return fmt.Errorf("frame at %d (%d bytes): %w", h.Offset, h.Size, err)
	}
	return nil
}
