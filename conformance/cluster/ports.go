package cluster

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
)

// Ports hands out loopback ports for the nodes of a run. Ports are drawn at
// random from [Low, High), below Linux's default ephemeral range so that
// outgoing connections do not take them, and never handed out twice by the
// same Ports. A port is "free" when it can be bound right now;
// a node that loses the race at start-up fails with a bind error in its log.
type Ports struct {
	Low, High int

	mu   sync.Mutex
	used map[int]bool
	rnd  *rand.Rand
}

// NewPorts returns a port allocator over [low, high).
func NewPorts(low, high int) *Ports {
	return &Ports{Low: low, High: high, used: make(map[int]bool), rnd: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// DefaultPorts is the range the runner uses: 20000–32000.
func DefaultPorts() *Ports { return NewPorts(20000, 32000) }

// ErrNoPorts is returned when no free port set was found.
var ErrNoPorts = errors.New("cluster: no free loopback ports")

// Namesrv returns a free port for a name server.
func (p *Ports) Namesrv() (int, error) { return p.take(0, 0) }

// Broker returns a free base port p for a broker: the broker listens on p,
// on p-2 (the "VIP" fast remoting server) and, as a master, on p+1 (HA).
func (p *Ports) Broker() (int, error) { return p.take(-2, 1) }

// BrokerPorts lists the ports a broker with listenPort base binds.
func BrokerPorts(base int) []int { return []int{base - 2, base, base + 1} }

// take finds base such that base+lo..base+hi are all unused and bindable,
// and reserves that whole span.
func (p *Ports) take(lo, hi int) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	span := p.High - p.Low - (hi - lo)
	if span <= 0 {
		return 0, fmt.Errorf("%w: range [%d,%d) too small", ErrNoPorts, p.Low, p.High)
	}
	for try := 0; try < 200; try++ {
		base := p.Low - lo + p.rnd.IntN(span)
		if p.reserveLocked(base+lo, base+hi) {
			return base, nil
		}
	}
	return 0, ErrNoPorts
}

func (p *Ports) reserveLocked(from, to int) bool {
	for port := from; port <= to; port++ {
		if p.used[port] || !bindable(port) {
			return false
		}
	}
	for port := from; port <= to; port++ {
		p.used[port] = true
	}
	return true
}

// Reserve marks ports as taken (for nodes whose ports were chosen by hand).
func (p *Ports) Reserve(ports ...int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, port := range ports {
		p.used[port] = true
	}
}

// bindable binds the wildcard address, as the Java servers do (Netty binds
// 0.0.0.0:port), which conflicts with any listener on that port.
func bindable(port int) bool {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
