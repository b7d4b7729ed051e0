package routeinfo

import "github.com/sputnikmq/sputnik/compat/javalang/jhash"

// Broker liveness: a broker stays registered while it re-registers within
// BrokerExpiry, and is dropped at once when its connection closes.
// Java 4.9.8 mirror: RouteInfoManager.scanNotActiveBroker, onChannelDestroy,
// isBrokerTopicConfigChanged, updateBrokerInfoUpdateTimestamp.

// DataVersionOf returns the data version last registered from brokerAddr
// (queryBrokerTopicConfig).
func (t *Table) DataVersionOf(brokerAddr string) (DataVersion, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	li, ok := t.live.Get(brokerAddr)
	if !ok {
		return DataVersion{}, false
	}
	return li.dataVersion, true
}

// QueryDataVersion serves QUERY_DATA_VERSION: it reports whether v differs
// from the version last registered from brokerAddr and, when it does not,
// counts the query as a sign of life. It returns the stored version, if any.
func (t *Table) QueryDataVersion(brokerAddr string, v DataVersion) (changed bool, stored DataVersion, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	li, ok := t.live.Get(brokerAddr)
	changed = !ok || li.dataVersion != v
	if !ok {
		return changed, DataVersion{}, false
	}
	if !changed {
		li.lastUpdate = t.nowMillis()
	}
	return changed, li.dataVersion, true
}

// ScanNotActiveBrokers drops every broker not registered for BrokerExpiry,
// closing its connection, and returns how many it dropped.
func (t *Table) ScanNotActiveBrokers() int {
	type expired struct {
		addr string
		conn Conn
	}
	var dead []expired
	t.mu.Lock()
	deadline := t.nowMillis() - BrokerExpiry.Milliseconds()
	t.live.Range(func(addr string, li *liveInfo) bool {
		if li.lastUpdate < deadline {
			dead = append(dead, expired{addr, li.conn})
		}
		return true
	})
	for _, d := range dead {
		t.live.Remove(d.addr)
		t.log.Warnf("The broker channel expired, %s %dms", d.addr, BrokerExpiry.Milliseconds())
	}
	t.mu.Unlock()
	for _, d := range dead {
		if d.conn != nil {
			_ = d.conn.Close() // its close hook finds nothing left to clean
		}
		t.removeBroker(d.addr, d.conn)
	}
	return len(dead)
}

// OnConnClosed cleans up after a connection closed, went idle or failed:
// the broker registered over conn, or failing that the one whose address
// is remoteAddr, leaves the table (onChannelDestroy).
func (t *Table) OnConnClosed(remoteAddr string, conn Conn) {
	t.mu.RLock()
	found := ""
	if conn != nil {
		t.live.Range(func(addr string, li *liveInfo) bool {
			if li.conn == conn {
				found = addr
				return false
			}
			return true
		})
	}
	t.mu.RUnlock()
	if found == "" {
		found = remoteAddr
	} else {
		t.log.Infof("the broker's channel destroyed, %s, clean it's data structure at once", found)
	}
	if found != "" {
		t.removeBroker(found, conn)
	}
}

// removeBroker is the write half of onChannelDestroy: brokerAddr leaves the
// live and filter tables and its group; a group left empty leaves its
// cluster and takes its queue data with it.
func (t *Table) removeBroker(brokerAddr string, _ Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	t.live.Remove(brokerAddr)
	t.filters.Remove(brokerAddr)
	nameFound, removeName := t.dropAddrLocked(brokerAddr)
	if nameFound != "" && removeName {
		t.dropFromClusterLocked(nameFound)
	}
	if removeName {
		t.dropTopicsOfLocked(nameFound)
	}
}

// dropAddrLocked removes brokerAddr from the first group holding it,
// walking groups in table order; like Java it also drops any group it
// passes that has no address left.
func (t *Table) dropAddrLocked(brokerAddr string) (nameFound string, removeName bool) {
	var emptyGroups []string
	t.brokers.Range(func(name string, bd *BrokerData) bool {
		var id int64
		hit := false
		bd.Addrs.Range(func(k int64, v string) bool {
			if v == brokerAddr {
				id, hit = k, true
				return false
			}
			return true
		})
		if hit {
			nameFound = bd.BrokerName
			bd.Addrs.Remove(id)
			t.log.Infof("remove brokerAddr[%d, %s] from brokerAddrTable, because channel destroyed", id, brokerAddr)
		}
		if bd.Addrs.Len() == 0 {
			removeName = true
			emptyGroups = append(emptyGroups, name)
			t.log.Infof("remove brokerName[%s] from brokerAddrTable, because channel destroyed", bd.BrokerName)
		}
		return !hit
	})
	for _, name := range emptyGroups {
		t.brokers.Remove(name)
	}
	return nameFound, removeName
}

// dropFromClusterLocked removes brokerName from the first cluster listing
// it, and that cluster when it is left empty.
func (t *Table) dropFromClusterLocked(brokerName string) {
	var emptied string
	t.clusters.Range(func(cluster string, names jhash.Set[string]) bool {
		if !names.Remove(brokerName) {
			return true
		}
		t.log.Infof("remove brokerName[%s], clusterName[%s] from clusterAddrTable, because channel destroyed", brokerName, cluster)
		if names.Len() == 0 {
			t.log.Infof("remove the clusterName[%s] from clusterAddrTable, because channel destroyed and no broker in this cluster", cluster)
			emptied = cluster
		}
		return false
	})
	if emptied != "" {
		t.clusters.Remove(emptied)
	}
}

// dropTopicsOfLocked removes brokerName's queue data from every topic and
// the topics left without queues.
func (t *Table) dropTopicsOfLocked(brokerName string) {
	var empty []string
	t.topics.Range(func(topic string, m *jhash.Map[string, *QueueData]) bool {
		if old, ok := m.Remove(brokerName); ok {
			t.log.Infof("remove topic[%s %s], from topicQueueTable, because channel destroyed", topic, old)
		}
		if m.Len() == 0 {
			t.log.Infof("remove topic[%s] all queue, from topicQueueTable, because channel destroyed", topic)
			empty = append(empty, topic)
		}
		return true
	})
	for _, topic := range empty {
		t.topics.Remove(topic)
	}
}
