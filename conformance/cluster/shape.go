package cluster

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
)

// Shape is what a group of scenarios needs: which implementation serves as
// name server, which as brokers, how many broker groups (masters) and
// whether each group has a slave.
type Shape struct {
	Namesrv Impl
	Broker  Impl
	Brokers int
	// Slave gives every broker group a slave: brokerId 1, brokerRole
	// SLAVE, no haMasterAddress, so it learns its master's HA address
	// from the name server's answer to its registration.
	Slave bool
	// SlaveBroker is the slaves' implementation when it is not Broker's
	// (a Java master with a Sputnik slave, or the other way round); ""
	// means Broker.
	SlaveBroker Impl
	// SyncMaster runs the masters as SYNC_MASTER (a send waits for the
	// slave) instead of ASYNC_MASTER.
	SyncMaster bool
	// ACL, when set, is the plain_acl.yml of every broker, which then runs
	// with aclEnable=true (BrokerOptions.ACL).
	ACL string
	// Serialize, when set, is the serialize type every server of the
	// cluster is started with (SerializeEnv): the type of the requests
	// they make and of the answers they write outside a request's
	// callback.
	Serialize string
}

// masterRole is the masters' brokerRole ("": ASYNC_MASTER).
func (s Shape) masterRole() string {
	if s.SyncMaster {
		return "SYNC_MASTER"
	}
	return ""
}

// SlaveImpl is the implementation the slaves run.
func (s Shape) SlaveImpl() Impl {
	if s.SlaveBroker != "" {
		return s.SlaveBroker
	}
	return s.Broker
}

// String is the shape's key: "ns=sputnik broker=java x1", "… x1+slave".
func (s Shape) String() string {
	str := fmt.Sprintf("ns=%s broker=%s x%d", s.Namesrv, s.Broker, s.Brokers)
	if s.Slave {
		str += "+slave"
		if s.SlaveImpl() != s.Broker {
			str += "=" + string(s.SlaveImpl())
		}
	}
	if s.SyncMaster {
		str += " sync"
	}
	if s.ACL != "" {
		sum := sha256.Sum256([]byte(s.ACL))
		str += fmt.Sprintf(" acl=%x", sum[:4])
	}
	if s.Serialize != "" {
		str += " serialize=" + s.Serialize
	}
	return str
}

// BrokerNodes is how many broker processes the shape runs.
func (s Shape) BrokerNodes() int {
	if s.Slave {
		return 2 * s.Brokers
	}
	return s.Brokers
}

// MultiBrokerHeap caps the Java broker heap of shapes with more than one
// broker process, so that three JVMs and the driver fit a 2-core box.
const MultiBrokerHeap = "512m"

// ClusterName is the brokerClusterName of every harness cluster.
const ClusterName = "ConformanceCluster"

// BrokerName is the name of the i-th broker group: broker-a, broker-b, …
func BrokerName(i int) string { return "broker-" + string(rune('a'+i)) }

// Cluster is a running name server with its brokers.
type Cluster struct {
	Shape   Shape
	Namesrv *Node
	// Brokers are the masters, broker-a, broker-b, …
	Brokers []*Node
	// Slaves[i] is the slave of Brokers[i] (Shape.Slave only).
	Slaves []*Node
	// Boot is how long StartCluster took.
	Boot time.Duration
}

// Nodes lists the name server, the masters, then the slaves (nil entries
// skipped): the order to start them in.
func (c *Cluster) Nodes() []*Node {
	var ns []*Node
	if c.Namesrv != nil {
		ns = append(ns, c.Namesrv)
	}
	for _, b := range slices.Concat(c.Brokers, c.Slaves) {
		if b != nil {
			ns = append(ns, b)
		}
	}
	return ns
}

// StartCluster starts the name server, then the masters one by one, then
// their slaves, then waits until the name server lists every broker in its
// cluster info. On error the returned cluster holds what was started; Stop
// it.
func (l *Launcher) StartCluster(ctx context.Context, s Shape) (*Cluster, error) {
	t0 := time.Now()
	c := &Cluster{Shape: s}
	ns, err := l.StartNamesrv(ctx, s.Namesrv, NamesrvOptions{Serialize: s.Serialize})
	c.Namesrv = ns
	if err != nil {
		return c, fmt.Errorf("start name server: %w", err)
	}
	heap := ""
	if s.BrokerNodes() > 1 {
		heap = minHeap(l.Java.BrokerHeap, MultiBrokerHeap)
	}
	for i := 0; i < s.Brokers; i++ {
		b, err := l.StartBroker(ctx, s.Broker, BrokerOptions{
			Name: BrokerName(i), Cluster: ClusterName, Namesrv: ns.Addr(), Heap: heap, Role: s.masterRole(),
			ACL: s.ACL, Serialize: s.Serialize,
		})
		c.Brokers = append(c.Brokers, b)
		if err != nil {
			return c, fmt.Errorf("start broker: %w", err)
		}
	}
	for i := 0; s.Slave && i < s.Brokers; i++ {
		b, err := l.StartBroker(ctx, s.SlaveImpl(), BrokerOptions{
			Name: BrokerName(i), Cluster: ClusterName, Namesrv: ns.Addr(), Heap: heap,
			ID: 1, Role: "SLAVE", ACL: s.ACL, Serialize: s.Serialize,
		})
		c.Slaves = append(c.Slaves, b)
		if err != nil {
			return c, fmt.Errorf("start slave: %w", err)
		}
	}
	if err := c.WaitRegistered(ctx, 30*time.Second); err != nil {
		return c, err
	}
	c.Boot = time.Since(t0)
	return c, nil
}

// WaitRegistered polls the name server's cluster info (raw
// GET_BROKER_CLUSTER_INFO) until every running broker is listed under its
// address.
func (c *Cluster) WaitRegistered(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		last = c.checkRegistered(ctx)
		if last == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("brokers not registered with %s within %s: %w", c.Namesrv, timeout, last)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// CodeGetBrokerClusterInfo is GET_BROKER_CLUSTER_INFO.
const CodeGetBrokerClusterInfo = 106

func (c *Cluster) checkRegistered(ctx context.Context) error {
	resp, err := rawclient.Call(ctx, c.Namesrv.Addr(), rawclient.Request(CodeGetBrokerClusterInfo), 3*time.Second)
	if err != nil {
		return err
	}
	if resp.Code != 0 {
		return fmt.Errorf("GET_BROKER_CLUSTER_INFO: code %d %s", resp.Code, resp.Remark)
	}
	var ci rawclient.ClusterInfo
	if err := rawclient.UnmarshalFastJSON(resp.Body, &ci); err != nil {
		return fmt.Errorf("GET_BROKER_CLUSTER_INFO body: %w", err)
	}
	var missing []string
	for _, b := range slices.Concat(c.Brokers, c.Slaves) {
		if b == nil || !b.Running() {
			continue
		}
		bd, ok := ci.BrokerAddrTable[b.Name]
		if !ok || !slices.Contains(ci.ClusterAddrTable[ClusterName], b.Name) || bd.BrokerAddrs[strconv.Itoa(b.BrokerID)] != b.Addr() {
			missing = append(missing, fmt.Sprintf("%s id %d", b.Name, b.BrokerID))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("not listed: %s", strings.Join(missing, ", "))
	}
	return nil
}

// Heal switches back every broker a scenario switched to the other
// implementation (stopping it first), starts again every node that is not
// running (a scenario killed it), name server first, and waits for
// registration.
func (c *Cluster) Heal(ctx context.Context) error {
	healed := false
	for _, n := range c.Nodes() {
		if n.Switched() {
			if err := n.Stop(30 * time.Second); err != nil {
				return err
			}
			if err := n.SwitchImpl(); err != nil {
				return err
			}
		}
		if !n.Running() {
			if err := n.Start(ctx); err != nil {
				return err
			}
			healed = true
		}
	}
	if !healed {
		return nil
	}
	return c.WaitRegistered(ctx, 30*time.Second)
}

// Stop stops the brokers, all at once (a Java broker's shutdown takes
// seconds, most of it sleeping), then the name server, gracefully.
func (c *Cluster) Stop() error {
	brokers := slices.DeleteFunc(slices.Concat(c.Brokers, c.Slaves), func(n *Node) bool { return n == nil })
	errs := make([]error, len(brokers))
	var wg sync.WaitGroup
	for i, b := range brokers {
		wg.Go(func() { errs[i] = b.Stop(30 * time.Second) })
	}
	wg.Wait()
	if c.Namesrv != nil {
		errs = append(errs, c.Namesrv.Stop(15*time.Second))
	}
	return errors.Join(errs...)
}
