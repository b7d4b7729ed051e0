package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sputnikmq/sputnik/conformance/rawclient"
)

// Shape is what a group of scenarios needs: which implementation serves as
// name server, which as brokers, and how many broker groups (masters).
type Shape struct {
	Namesrv Impl
	Broker  Impl
	Brokers int
}

// String is the shape's key: "ns=sputnik broker=java x1".
func (s Shape) String() string {
	return fmt.Sprintf("ns=%s broker=%s x%d", s.Namesrv, s.Broker, s.Brokers)
}

// ClusterName is the brokerClusterName of every harness cluster.
const ClusterName = "ConformanceCluster"

// BrokerName is the name of the i-th broker group: broker-a, broker-b, …
func BrokerName(i int) string { return "broker-" + string(rune('a'+i)) }

// Cluster is a running name server with its brokers.
type Cluster struct {
	Shape   Shape
	Namesrv *Node
	Brokers []*Node
	// Boot is how long StartCluster took.
	Boot time.Duration
}

// Nodes lists the name server then the brokers (nil entries skipped).
func (c *Cluster) Nodes() []*Node {
	var ns []*Node
	if c.Namesrv != nil {
		ns = append(ns, c.Namesrv)
	}
	for _, b := range c.Brokers {
		if b != nil {
			ns = append(ns, b)
		}
	}
	return ns
}

// StartCluster starts the name server, then the brokers one by one, then
// waits until the name server lists every broker in its cluster info. On
// error the returned cluster holds what was started; Stop it.
func (l *Launcher) StartCluster(ctx context.Context, s Shape) (*Cluster, error) {
	t0 := time.Now()
	c := &Cluster{Shape: s}
	ns, err := l.StartNamesrv(ctx, s.Namesrv, NamesrvOptions{})
	c.Namesrv = ns
	if err != nil {
		return c, fmt.Errorf("start name server: %w", err)
	}
	for i := 0; i < s.Brokers; i++ {
		b, err := l.StartBroker(ctx, s.Broker, BrokerOptions{
			Name: BrokerName(i), Cluster: ClusterName, Namesrv: ns.Addr(),
		})
		c.Brokers = append(c.Brokers, b)
		if err != nil {
			return c, fmt.Errorf("start broker: %w", err)
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
	for _, b := range c.Brokers {
		if b == nil || !b.Running() {
			continue
		}
		bd, ok := ci.BrokerAddrTable[b.Name]
		if !ok || !slices.Contains(ci.ClusterAddrTable[ClusterName], b.Name) || !mapHasValue(bd.BrokerAddrs, b.Addr()) {
			missing = append(missing, b.Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("not listed: %s", strings.Join(missing, ", "))
	}
	return nil
}

func mapHasValue(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}

// Heal starts again every node that is not running (a scenario killed it),
// name server first, and waits for registration.
func (c *Cluster) Heal(ctx context.Context) error {
	healed := false
	for _, n := range c.Nodes() {
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

// Stop stops the brokers, then the name server, gracefully.
func (c *Cluster) Stop() error {
	var errs []error
	for i := len(c.Brokers) - 1; i >= 0; i-- {
		if c.Brokers[i] != nil {
			errs = append(errs, c.Brokers[i].Stop(30*time.Second))
		}
	}
	if c.Namesrv != nil {
		errs = append(errs, c.Namesrv.Stop(15*time.Second))
	}
	return errors.Join(errs...)
}
