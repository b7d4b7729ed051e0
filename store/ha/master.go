package ha

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Master serves slaves (Java HAService on a master: AcceptSocketService,
// one HAConnection per slave, and GroupTransferService for SYNC_MASTER
// puts).
type Master struct {
	cfg Config
	src Source
	ln  net.Listener

	mu    sync.Mutex
	conns map[*conn]struct{}
	live  atomic.Pointer[[]*conn] // snapshot of conns: Notify, Connections

	acked atomic.Int64 // Java push2SlaveMaxOffset: the most any slave confirmed

	waitMu  sync.Mutex
	waiters []waiter
	stop    chan struct{}
	once    sync.Once
	done    sync.WaitGroup
}

// waiter is a SYNC_MASTER put waiting for a slave to confirm end.
type waiter struct {
	end      int64
	deadline time.Time
	fn       func(ok bool)
}

// expiryTick is how often waiters are checked for their deadline.
const expiryTick = 20 * time.Millisecond

// NewMaster serves src to the slaves that connect to ln, until Close.
func NewMaster(cfg Config, src Source, ln net.Listener) *Master {
	m := &Master{cfg: cfg.withDefaults(), src: src, ln: ln, conns: map[*conn]struct{}{}, stop: make(chan struct{})}
	m.live.Store(&[]*conn{})
	m.done.Add(2)
	go m.accept()
	go m.expire()
	return m
}

// Addr is the address slaves connect to.
func (m *Master) Addr() net.Addr { return m.ln.Addr() }

// Connections is how many slaves are connected (Java connectionCount).
func (m *Master) Connections() int { return len(*m.live.Load()) }

// Acked is the highest offset a slave has confirmed (Java
// push2SlaveMaxOffset).
func (m *Master) Acked() int64 { return m.acked.Load() }

// SlaveOK reports whether a SYNC_MASTER put ending at end may wait for a
// slave: one is connected and not more than FallbehindMax behind (Java
// isSlaveOK).
func (m *Master) SlaveOK(end int64) bool {
	return m.Connections() > 0 && end-m.acked.Load() < m.cfg.FallbehindMax
}

// Notify tells the slaves' writers that the log has grown; it costs an
// atomic load when no slave is connected.
func (m *Master) Notify() {
	for _, c := range *m.live.Load() {
		c.wake()
	}
}

// Await calls fn(true) once a slave has confirmed everything before end,
// or fn(false) when timeout passes first or the master closes (Java
// GroupCommitRequest through GroupTransferService: FLUSH_SLAVE_TIMEOUT).
// fn runs on a replication goroutine and must not block.
func (m *Master) Await(end int64, timeout time.Duration, fn func(ok bool)) {
	if m.acked.Load() >= end {
		fn(true)
		return
	}
	m.waitMu.Lock()
	select {
	case <-m.stop:
		m.waitMu.Unlock()
		fn(false)
		return
	default:
	}
	m.waiters = append(m.waiters, waiter{end: end, deadline: time.Now().Add(timeout), fn: fn})
	m.waitMu.Unlock()
	if m.acked.Load() >= end { // confirmed while it was being added
		m.release(func(w waiter) bool { return m.acked.Load() >= w.end }, true)
	}
	m.Notify()
}

// Wait is Await for a caller that blocks.
func (m *Master) Wait(end int64, timeout time.Duration) bool {
	ch := make(chan bool, 1)
	m.Await(end, timeout, func(ok bool) { ch <- ok })
	return <-ch
}

// confirmed records a slave's acknowledgement of everything before off
// (Java notifyTransferSome) and releases the puts it covers.
func (m *Master) confirmed(off int64) {
	for {
		cur := m.acked.Load()
		if off <= cur {
			return
		}
		if m.acked.CompareAndSwap(cur, off) {
			break
		}
	}
	m.release(func(w waiter) bool { return off >= w.end }, true)
}

// release answers the waiters pick selects with ok.
func (m *Master) release(pick func(waiter) bool, ok bool) {
	m.waitMu.Lock()
	var due []waiter
	kept := m.waiters[:0]
	for _, w := range m.waiters {
		if pick(w) {
			due = append(due, w)
		} else {
			kept = append(kept, w)
		}
	}
	clear(m.waiters[len(kept):])
	m.waiters = kept
	m.waitMu.Unlock()
	for _, w := range due {
		w.fn(ok)
	}
}

// expire times waiters out.
func (m *Master) expire() {
	defer m.done.Done()
	t := time.NewTicker(expiryTick)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			m.release(func(waiter) bool { return true }, false)
			return
		case now := <-t.C:
			m.release(func(w waiter) bool { return now.After(w.deadline) }, false)
		}
	}
}

func (m *Master) accept() {
	defer m.done.Done()
	for {
		nc, err := m.ln.Accept()
		if err != nil {
			select {
			case <-m.stop:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			m.cfg.Log.WithError(err).Error("AcceptSocketService: accept failed")
			time.Sleep(100 * time.Millisecond) // e.g. out of descriptors: do not spin
			continue
		}
		m.cfg.Log.Infof("HAService receive new connection, %s", nc.RemoteAddr())
		m.serve(nc)
	}
}

// serve starts a slave connection's reader and writer.
func (m *Master) serve(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	c := newConn(m, nc)
	m.mu.Lock()
	m.conns[c] = struct{}{}
	m.publish()
	m.mu.Unlock()
	m.done.Add(2)
	go func() { defer m.done.Done(); c.read() }()
	go func() { defer m.done.Done(); c.write() }()
}

// drop forgets a closed connection.
func (m *Master) drop(c *conn) {
	m.mu.Lock()
	if _, ok := m.conns[c]; ok {
		delete(m.conns, c)
		m.publish()
	}
	m.mu.Unlock()
}

// publish refreshes the connection snapshot; mu is held.
func (m *Master) publish() {
	live := make([]*conn, 0, len(m.conns))
	for c := range m.conns {
		live = append(live, c)
	}
	m.live.Store(&live)
}

// Close stops accepting, closes every slave connection and fails the
// waiting puts.
func (m *Master) Close() error {
	var err error
	m.once.Do(func() { err = m.close() })
	return err
}

func (m *Master) close() error {
	m.waitMu.Lock()
	close(m.stop)
	m.waitMu.Unlock()
	err := m.ln.Close()
	for _, c := range *m.live.Load() {
		c.close()
	}
	m.done.Wait()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("ha: close listener: %w", err)
	}
	return nil
}
