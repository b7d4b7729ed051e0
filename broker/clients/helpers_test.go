package clients

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/store/config"
)

var _ Channel = (*remoting.Conn)(nil)

// fakeChan is a Channel that records Close.
type fakeChan struct {
	addr   string
	mu     sync.Mutex
	closed bool
}

func newChan(addr string) *fakeChan { return &fakeChan{addr: addr} }

func (c *fakeChan) RemoteAddr() string { return c.addr }
func (c *fakeChan) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	return nil
}
func (c *fakeChan) Closed() bool { return c.isClosed() }
func (c *fakeChan) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.UnixMilli(1_700_000_000_000)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func quietLog() *logrus.Entry {
	l := logrus.New()
	l.SetLevel(logrus.PanicLevel)
	return logrus.NewEntry(l)
}

// events records listener calls.
type events struct {
	mu  sync.Mutex
	got []GroupEvent
}

func (e *events) listener(ev GroupEvent) {
	e.mu.Lock()
	e.got = append(e.got, ev)
	e.mu.Unlock()
}

func (e *events) take() []GroupEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.got
	e.got = nil
	return out
}

func sub(topic string, version int64) body.SubscriptionData {
	s := body.NewSubscriptionData(version)
	s.Topic = body.Str(topic)
	s.SubString = body.Str("*")
	return s
}

// groups is a SubscriptionGroups backed by a map, optionally auto-creating.
type groups struct {
	mu         sync.Mutex
	table      map[string]config.SubscriptionGroupConfig
	autoCreate bool
}

func (g *groups) FindSubscriptionGroup(group string) (config.SubscriptionGroupConfig, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.table[group]
	if !ok && g.autoCreate {
		c = config.NewSubscriptionGroupConfig(group)
		g.table[group] = c
		ok = true
	}
	return c, ok
}
