package main

import (
	"testing"

	"github.com/sputnikmq/sputnik/conformance/cluster"
	"github.com/sputnikmq/sputnik/conformance/scenario"
)

func TestShapeFor(t *testing.T) {
	plain := &scenario.Scenario{Needs: scenario.Needs{Brokers: 1}}
	pinnedNS := &scenario.Scenario{Needs: scenario.Needs{Brokers: 2, NamesrvJava: true}}
	withSlave := &scenario.Scenario{Needs: scenario.Needs{Brokers: 1, Slave: true}}
	javaMaster := &scenario.Scenario{Needs: scenario.Needs{Brokers: 1, Slave: true, MasterJava: true}}
	javaSlave := &scenario.Scenario{Needs: scenario.Needs{Brokers: 1, Slave: true, SlaveJava: true}}
	withACL := &scenario.Scenario{Needs: scenario.Needs{Brokers: 1, ACL: "accounts: []\n"}}
	for _, c := range []struct {
		brokerImpl string
		s          *scenario.Scenario
		impl       cluster.Impl
		want       cluster.Shape
	}{
		{"java", plain, cluster.Java, cluster.Shape{Namesrv: cluster.Java, Broker: cluster.Java, Brokers: 1}},
		{"sputnik", plain, cluster.Java, cluster.Shape{Namesrv: cluster.Java, Broker: cluster.Java, Brokers: 1}},
		{"java", plain, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Java, Brokers: 1}},
		{"same", plain, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Sputnik, Brokers: 1}},
		{"same", pinnedNS, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Java, Broker: cluster.Sputnik, Brokers: 2}},
		{"java", withSlave, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Java, Brokers: 1, Slave: true}},
		{"same", javaMaster, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Java, SlaveBroker: cluster.Sputnik, Brokers: 1, Slave: true}},
		{"same", javaSlave, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Sputnik, SlaveBroker: cluster.Java, Brokers: 1, Slave: true}},
		{"same", javaSlave, cluster.Java, cluster.Shape{Namesrv: cluster.Java, Broker: cluster.Java, Brokers: 1, Slave: true}},
		{"java", javaMaster, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Java, Brokers: 1, Slave: true}},
		{"same", withACL, cluster.Sputnik, cluster.Shape{Namesrv: cluster.Sputnik, Broker: cluster.Sputnik, Brokers: 1, ACL: "accounts: []\n"}},
		{"java", withACL, cluster.Java, cluster.Shape{Namesrv: cluster.Java, Broker: cluster.Java, Brokers: 1, ACL: "accounts: []\n"}},
	} {
		r := &runner{opts: &options{brokerImpl: c.brokerImpl}}
		if got := r.shapeFor(c.s, c.impl); got != c.want {
			t.Errorf("-broker-impl %s, %s: shape %s, want %s", c.brokerImpl, c.impl, got, c.want)
		}
	}
}
