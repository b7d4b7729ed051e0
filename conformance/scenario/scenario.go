// Package scenario holds the conformance scenarios and their registry.
//
// A scenario is a story told with official clients (the Java 4.9.8 client
// and tools through javaclient, client-go) or raw frames (rawclient), that
// takes nothing but addresses: the same scenario runs against the
// reference Java servers and against Sputnik, and the runner
// (conformance/cmd/conformance) puts both results side by side. A scenario
// that fails against Java is a broken scenario.
//
// One file per area (namesrv_route.go, namesrv_kv.go,
// namesrv_two_brokers.go, namesrv_master_slave.go, …); each registers
// its scenarios in init. Names are "area/what", stable across runs: the
// JSON report and the known-failures list refer to them.
package scenario

import (
	"context"
	"errors"
	"fmt"
	"log"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/conformance/javaclient"
)

// Scenario is one conformance check.
type Scenario struct {
	// Name is "area/what".
	Name string
	// Doc says in one sentence what is checked, citing the Java behaviour.
	Doc string
	// Tags select scenarios: "quick" marks the representative subset run
	// by `make conformance-quick`; areas ("namesrv", "mqadmin", "goclient",
	// "javaclient", "raw") group the rest.
	Tags []string
	// Needs is the cluster shape.
	Needs Needs
	// Timeout bounds Run (0 = 90 s).
	Timeout time.Duration
	// Run performs the check; nil error is a pass, Skip(...) a skip.
	Run func(ctx context.Context, env *Env) error
}

// Needs describes the cluster a scenario runs against. The name server is
// the implementation under test unless NamesrvJava is set; the brokers are
// the runner's -broker-impl choice unless BrokerJava is set.
type Needs struct {
	// Brokers is the number of broker groups (masters), at least 1.
	Brokers int
	// NamesrvJava pins the name server to Java (for "Sputnik broker with
	// the Java name server" scenarios).
	NamesrvJava bool
	// BrokerJava pins the brokers to Java.
	BrokerJava bool
	// MasterJava pins the masters to Java and SlaveJava the slaves, for
	// replication between the implementations: the other side follows
	// the runner's -broker-impl choice.
	MasterJava, SlaveJava bool
	// SyncMaster runs the masters as SYNC_MASTER (Slave should be set).
	SyncMaster bool
	// Slave gives every broker group a slave (brokerId 1, SLAVE) that
	// finds its master through the name server.
	Slave bool
	// ACL, when set, runs every broker with aclEnable=true and this text
	// as its $ROCKETMQ_HOME/conf/plain_acl.yml (Java 4.9.8's plain ACL).
	// Scenarios with the same text share a cluster; Control.WriteBrokerACL
	// rewrites the file while the broker runs.
	ACL string
	// Serialize, when set, starts every server with ROCKETMQ_SERIALIZE_TYPE
	// set to it ("ROCKETMQ"): the serialize type of the requests the
	// servers make and of the answers they write outside a request's
	// callback.
	Serialize string
}

// HasTag reports whether s carries tag.
func (s *Scenario) HasTag(tag string) bool { return slices.Contains(s.Tags, tag) }

// Broker is one broker of the cluster under test.
type Broker struct {
	Name string // brokerName
	Addr string // 127.0.0.1:listenPort
}

// Control lets a scenario stop and start the cluster's processes. The
// runner starts anything left stopped again before the next scenario.
type Control interface {
	// KillBroker sends SIGKILL to broker i and waits for it to die.
	KillBroker(i int) error
	// StopBroker stops broker i with SIGTERM (graceful shutdown).
	StopBroker(i int) error
	// StartBroker starts broker i again (same ports and store) and waits
	// for its boot line.
	StartBroker(ctx context.Context, i int) error
	// SwitchBroker makes broker i, stopped, start next time as the other
	// implementation (Java for Sputnik and the reverse) on the same
	// configuration file, ports and store: the in-place migration an
	// operator does. The runner switches it back after the scenario.
	SwitchBroker(i int) error
	// KillSlave, StopSlave, StartSlave and SwitchSlave do the same for
	// the slave of broker group i (Needs.Slave).
	KillSlave(i int) error
	StopSlave(i int) error
	StartSlave(ctx context.Context, i int) error
	SwitchSlave(i int) error
	// KillNamesrv and StartNamesrv do the same for the name server.
	KillNamesrv() error
	StartNamesrv(ctx context.Context) error
	// WriteBrokerACL replaces the plain_acl.yml of broker i (Needs.ACL)
	// with text, in one rename. A running broker notices by itself: Java
	// 4.9.8 polls the file's modification time every 5 s. The runner does
	// not put the file back: a scenario that changes it restores it.
	WriteBrokerACL(i int, text string) error
}

// Env is what a scenario gets: addresses, clients, a logger and a
// directory. Nothing in it says which implementation is under test.
type Env struct {
	// Namesrv is the name server address, 127.0.0.1:port.
	Namesrv string
	// Cluster is brokerClusterName of every broker.
	Cluster string
	// Brokers are the masters, in order broker-a, broker-b, …
	Brokers []Broker
	// Slaves[i] is the slave (brokerId 1) of Brokers[i] (Needs.Slave).
	Slaves []Broker
	// Java is the official Java 4.9.8 client and tools.
	Java *javaclient.Driver
	// Nodes stops and starts processes.
	Nodes Control
	// Log writes to the scenario's log file.
	Log *log.Logger
	// Dir is a scratch directory for this scenario run.
	Dir string

	mu  sync.Mutex
	obs []Observation
}

// Observation is a normalized piece of output a scenario recorded; the
// runner compares a Sputnik run's observations with the Java run's.
type Observation struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Observe records text under name for the cross-implementation comparison.
// Pass text through Mask first so that addresses and paths do not differ.
func (e *Env) Observe(name, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.obs = append(e.obs, Observation{Name: name, Text: text})
	e.Log.Printf("observe %s:\n%s", name, text)
}

// Observations returns what was recorded, in order.
func (e *Env) Observations() []Observation {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Observation(nil), e.obs...)
}

// Mask replaces the run-specific parts of s: broker addresses by
// <broker-a> … (slaves by <broker-a#1>), the name server address by
// <namesrv>, the scenario directory by <dir>.
func (e *Env) Mask(s string) string {
	for _, b := range e.Brokers {
		s = strings.ReplaceAll(s, b.Addr, "<"+b.Name+">")
	}
	for _, b := range e.Slaves {
		s = strings.ReplaceAll(s, b.Addr, "<"+b.Name+"#1>")
	}
	s = strings.ReplaceAll(s, e.Namesrv, "<namesrv>")
	if e.Dir != "" {
		s = strings.ReplaceAll(s, e.Dir, "<dir>")
	}
	return s
}

// BrokerAddr returns the address of the broker named name.
func (e *Env) BrokerAddr(name string) string {
	for _, b := range e.Brokers {
		if b.Name == name {
			return b.Addr
		}
	}
	return ""
}

// SkipError marks a scenario that could not run here (not a pass, not a
// failure).
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return "skipped: " + e.Reason }

// Skip returns a SkipError.
func Skip(format string, args ...any) error {
	return &SkipError{Reason: fmt.Sprintf(format, args...)}
}

// IsSkip reports whether err is a skip.
func IsSkip(err error) bool {
	var s *SkipError
	return errors.As(err, &s)
}

var (
	registryMu sync.Mutex
	registry   []*Scenario
	names      = map[string]bool{}
)

// Register adds scenarios; a duplicate name panics.
func Register(ss ...*Scenario) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, s := range ss {
		if names[s.Name] {
			panic("scenario: duplicate name " + s.Name)
		}
		if s.Run == nil {
			panic("scenario: " + s.Name + " has no Run")
		}
		if s.Needs.Brokers == 0 {
			s.Needs.Brokers = 1
		}
		names[s.Name] = true
		registry = append(registry, s)
	}
}

// All returns every registered scenario in registration order.
func All() []*Scenario {
	registryMu.Lock()
	defer registryMu.Unlock()
	return append([]*Scenario(nil), registry...)
}

// Select returns the scenarios carrying any of tags (all when tags is
// empty) whose name matches run (all when nil), in registration order
// except that "lifecycle" scenarios (which stop and start processes) come
// last.
func Select(tags []string, run *regexp.Regexp) []*Scenario {
	var out []*Scenario
	for _, s := range All() {
		if len(tags) > 0 && !slices.ContainsFunc(tags, s.HasTag) {
			continue
		}
		if run != nil && !run.MatchString(s.Name) {
			continue
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b *Scenario) int {
		return cmpBool(a.HasTag("lifecycle"), b.HasTag("lifecycle"))
	})
	return out
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Eventually calls f every interval until it returns nil or timeout
// passes; it returns f's last error.
func Eventually(ctx context.Context, timeout, interval time.Duration, f func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %s: %w", timeout, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), err)
		case <-time.After(interval):
		}
	}
}
