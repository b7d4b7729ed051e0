package store

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sputnikmq/sputnik/store/ha"
)

// replication is the store's HA service (Java HAService inside
// DefaultMessageStore): every store with Options.HA serves slaves on
// haListenPort, as Java's does whatever its role; a SLAVE also follows
// its master.
type replication struct {
	master atomic.Pointer[ha.Master]
	mu     sync.Mutex
	slave  *ha.Slave
	addr   string // the master address set before the slave started
}

func (s *Store) haConfig() ha.Config {
	return ha.Config{
		HeartbeatInterval:    time.Duration(s.cfg.HaSendHeartbeatInterval) * time.Millisecond,
		HousekeepingInterval: time.Duration(s.cfg.HaHousekeepingInterval) * time.Millisecond,
		BatchSize:            int(s.cfg.HaTransferBatchSize),
		FallbehindMax:        int64(s.cfg.HaSlaveFallbehindMax),
		Log:                  s.log.WithField("component", "ha"),
	}
}

// startHA binds haListenPort (Java AcceptSocketService.beginAccept, which
// fails the broker's start when the port is taken) and, on a slave,
// starts following the master.
func (s *Store) startHA() error {
	if !s.opt.HA {
		return nil
	}
	addr := net.JoinHostPort("", strconv.Itoa(int(s.cfg.HaListenPort)))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("store: HA listen on %s: %w", addr, err)
	}
	s.ha.master.Store(ha.NewMaster(s.haConfig(), s.cl, ln))
	if s.cfg.BrokerRole == Slave {
		s.ha.mu.Lock()
		s.ha.slave = ha.NewSlave(s.haConfig(), replicaSink{s})
		if s.ha.addr != "" {
			s.ha.slave.SetMasterAddress(s.ha.addr)
		}
		s.ha.mu.Unlock()
	}
	return nil
}

// closeHA stops replication; SYNC_MASTER puts still waiting fail.
func (s *Store) closeHA() error {
	s.ha.mu.Lock()
	sl := s.ha.slave
	s.ha.mu.Unlock()
	var errs []error
	if sl != nil {
		errs = append(errs, sl.Close())
	}
	if m := s.ha.master.Load(); m != nil {
		errs = append(errs, m.Close())
	}
	return errors.Join(errs...)
}

// HAAddr is the address slaves connect to, nil before Start or without
// Options.HA.
func (s *Store) HAAddr() net.Addr {
	if m := s.ha.master.Load(); m != nil {
		return m.Addr()
	}
	return nil
}

// SetHAMasterAddress points a slave's replication client at its master's
// HA address "host:port" (Java updateHaMasterAddress): from haMasterAddress
// in the config, or from the name server's answer to the slave's
// registration. A change drops the current connection. Before Start the
// address is kept for it.
func (s *Store) SetHAMasterAddress(addr string) {
	s.ha.mu.Lock()
	defer s.ha.mu.Unlock()
	s.ha.addr = addr
	if s.ha.slave != nil {
		s.ha.slave.SetMasterAddress(addr)
	}
}

// SlaveFallBehind is how many commit-log bytes the slaves have not yet
// acknowledged (Java slaveFallBehindMuch): the max offset less the
// highest offset a slave has confirmed.
func (s *Store) SlaveFallBehind() int64 {
	var acked int64
	if m := s.ha.master.Load(); m != nil {
		acked = m.Acked()
	}
	return s.cl.MaxOffset() - acked
}

// HAConnections is how many slaves are connected.
func (s *Store) HAConnections() int {
	if m := s.ha.master.Load(); m != nil {
		return m.Connections()
	}
	return 0
}

// replicated wakes the slaves' writers after an append.
func (s *Store) replicated() {
	if m := s.ha.master.Load(); m != nil {
		m.Notify()
	}
}

// replicaSink appends what the master streams (Java appendToCommitLog)
// and wakes dispatch.
type replicaSink struct{ s *Store }

func (r replicaSink) MaxOffset() int64 { return r.s.cl.MaxOffset() }

func (r replicaSink) AppendAt(off int64, data []byte) error {
	if r.s.closed.Load() {
		return ErrClosed
	}
	if err := r.s.cl.AppendAt(off, data); err != nil {
		return err
	}
	r.s.reput.wake()
	return nil
}
