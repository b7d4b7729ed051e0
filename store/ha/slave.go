package ha

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// retryInterval is how long a slave waits before it dials again after a
// failure, or while it has no master address (Java waitForRunning(5000)).
const retryInterval = 5 * time.Second

// dialTimeout bounds a connection attempt (Java RemotingUtil.connect).
const dialTimeout = 5 * time.Second

// Slave follows a master (Java HAClient): it reports its max offset,
// appends what the master streams and confirms it.
type Slave struct {
	cfg  Config
	sink Sink

	addr    atomic.Pointer[string]
	changed chan struct{} // the master address changed
	stop    chan struct{}
	once    sync.Once
	done    sync.WaitGroup

	mu sync.Mutex
	nc net.Conn // the current connection, nil between them
}

// NewSlave starts following the master set by SetMasterAddress, until
// Close.
func NewSlave(cfg Config, sink Sink) *Slave {
	s := &Slave{cfg: cfg.withDefaults(), sink: sink, changed: make(chan struct{}, 1), stop: make(chan struct{})}
	s.done.Add(1)
	go s.run()
	return s
}

// SetMasterAddress points the slave at the master's HA address
// "host:port" (Java updateMasterAddress). A different address drops the
// current connection and dials the new one.
func (s *Slave) SetMasterAddress(addr string) {
	if old := s.addr.Load(); old != nil && *old == addr {
		return
	}
	old := s.addr.Swap(&addr)
	s.cfg.Log.Infof("update master address, OLD: %s NEW: %s", deref(old), addr)
	s.mu.Lock()
	if s.nc != nil {
		_ = s.nc.Close()
	}
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// MasterAddress is the address the slave follows, "" before one is set.
func (s *Slave) MasterAddress() string { return deref(s.addr.Load()) }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Close disconnects and stops.
func (s *Slave) Close() error {
	s.once.Do(func() {
		close(s.stop)
		s.mu.Lock()
		if s.nc != nil {
			_ = s.nc.Close()
		}
		s.mu.Unlock()
		s.done.Wait()
	})
	return nil
}

func (s *Slave) run() {
	defer s.done.Done()
	for {
		select {
		case <-s.changed: // this pass dials the newest address
		default:
		}
		if addr := s.MasterAddress(); addr != "" {
			if err := s.follow(addr); err != nil {
				s.cfg.Log.WithError(err).Warnf("HAClient: connection to master %s ended", addr)
			}
		}
		select {
		case <-s.stop:
			return
		case <-s.changed:
		case <-time.After(retryInterval):
		}
	}
}

// follow connects to addr and replicates until the connection fails or
// the slave stops.
func (s *Slave) follow(addr string) error {
	d := net.Dialer{Timeout: dialTimeout}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if !s.attach(nc) {
		_ = nc.Close()
		return nil
	}
	defer s.detach()
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	r := newReporter(s, nc)
	s.done.Add(1)
	go func() { defer s.done.Done(); r.run() }()
	defer r.close()
	return s.receive(nc, r)
}

// attach makes nc the current connection unless the slave is stopping.
func (s *Slave) attach(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.stop:
		return false
	default:
	}
	s.nc = nc
	return true
}

func (s *Slave) detach() {
	s.mu.Lock()
	if s.nc != nil {
		_ = s.nc.Close()
		s.nc = nil
	}
	s.mu.Unlock()
}

// receive reads frames and appends their data (Java dispatchReadRequest):
// a frame must continue the slave's log, unless the log is empty.
func (s *Slave) receive(nc net.Conn, r *reporter) error {
	var hdr [HeaderSize]byte
	var data []byte
	for {
		_ = nc.SetReadDeadline(time.Now().Add(s.cfg.HousekeepingInterval))
		if _, err := io.ReadFull(nc, hdr[:]); err != nil {
			return s.readErr(err)
		}
		h, err := ParseHeader(hdr[:])
		if err != nil {
			return err
		}
		if have := s.sink.MaxOffset(); have != 0 && have != h.Offset {
			return fmt.Errorf("master pushed offset not equal the max phy offset in slave, SLAVE: %d MASTER: %d", have, h.Offset)
		}
		if h.Size == 0 {
			continue
		}
		if cap(data) < int(h.Size) {
			data = make([]byte, h.Size)
		}
		data = data[:h.Size]
		if _, err := io.ReadFull(nc, data); err != nil {
			return s.readErr(err)
		}
		if err := s.sink.AppendAt(h.Offset, data); err != nil {
			return fmt.Errorf("append %d bytes at %d: %w", h.Size, h.Offset, err)
		}
		r.grown()
	}
}

func (s *Slave) readErr(err error) error {
	select {
	case <-s.stop:
		return nil
	default:
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("master not response for %s: %w", s.cfg.HousekeepingInterval, err)
	}
	return err
}

// reporter writes the slave's offset reports: at once on connecting (Java
// waits for the first heartbeat), after each append, and every
// HeartbeatInterval.
type reporter struct {
	s      *Slave
	nc     net.Conn
	kick   chan struct{}
	closed chan struct{}
}

func newReporter(s *Slave, nc net.Conn) *reporter {
	return &reporter{s: s, nc: nc, kick: make(chan struct{}, 1), closed: make(chan struct{})}
}

func (r *reporter) grown() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

func (r *reporter) close() { close(r.closed) }

func (r *reporter) run() {
	var b [ReportSize]byte
	reported := int64(-1)
	tick := time.NewTicker(r.s.cfg.HeartbeatInterval)
	defer tick.Stop()
	for {
		off := r.s.sink.MaxOffset()
		if off != reported {
			if !r.send(b[:], off) {
				return
			}
			reported = off
		}
		select {
		case <-r.closed:
			return
		case <-r.kick:
		case <-tick.C:
			if !r.send(b[:], reported) {
				return
			}
		}
	}
}

// send writes one report; a failure closes the connection, which ends
// the receiver too.
func (r *reporter) send(b []byte, off int64) bool {
	PutReport(b, off)
	_ = r.nc.SetWriteDeadline(time.Now().Add(r.s.cfg.HousekeepingInterval))
	if _, err := r.nc.Write(b); err != nil {
		r.s.cfg.Log.WithError(err).Warnf("HAClient: report offset %d failed", off)
		_ = r.nc.Close()
		return false
	}
	return true
}
