package routeinfo

import "github.com/sputnikmq/sputnik/compat/javalang/jhash"

// Read-side queries and the admin operations on topics.
// Java 4.9.8 mirror: RouteInfoManager.pickupTopicRouteData, getAllClusterInfo,
// getAllTopicList, getTopicsByCluster, getSystemTopicList, getUnitTopics,
// getHasUnitSubTopicList, getHasUnitSubUnUnitTopicList, deleteTopic,
// wipeWritePermOfBrokerByLock, addWritePermOfBrokerByLock.

// PickupTopicRouteData returns the route of topic, or false when no broker
// serves it (the topic is unknown, or its groups are gone).
func (t *Table) PickupTopicRouteData(topic string) (*TopicRouteData, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.pickupLocked(topic)
}

func (t *Table) pickupLocked(topic string) (*TopicRouteData, bool) {
	qm, ok := t.topics.Get(topic)
	if !ok {
		return nil, false
	}
	rd := &TopicRouteData{
		QueueDatas:        make([]QueueData, 0, qm.Len()),
		FilterServerTable: jhash.NewMap[string, []string](jhash.String, -1),
	}
	names := jhash.NewStringSet()
	qm.Range(func(name string, qd *QueueData) bool {
		rd.QueueDatas = append(rd.QueueDatas, *qd)
		names.Add(name)
		return true
	})
	names.Range(func(name string) bool {
		bd, ok := t.brokers.Get(name)
		if !ok {
			return true
		}
		c := bd.clone()
		rd.BrokerDatas = append(rd.BrokerDatas, c)
		if t.filters.Len() > 0 {
			c.Addrs.Range(func(_ int64, addr string) bool {
				if fs, ok := t.filters.Get(addr); ok {
					rd.FilterServerTable.Put(addr, fs)
				}
				return true
			})
		}
		return true
	})
	if len(rd.BrokerDatas) == 0 {
		return nil, false
	}
	return rd, true
}

// ClusterInfo returns a snapshot of the broker groups and clusters.
func (t *Table) ClusterInfo() *ClusterInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	// Java serialises the live maps; copies keep their exact order.
	return &ClusterInfo{
		BrokerAddrTable: jhash.MapValues(t.brokers, func(bd *BrokerData) BrokerData {
			return BrokerData{Cluster: bd.Cluster, BrokerName: bd.BrokerName, Addrs: bd.Addrs.Copy()}
		}),
		ClusterAddrTable: jhash.MapValues(t.clusters, func(names jhash.Set[string]) []string { return names.Keys() }),
	}
}

// AllTopics lists every topic (getAllTopicList).
func (t *Table) AllTopics() TopicList {
	t.mu.RLock()
	defer t.mu.RUnlock()
	set := jhash.NewStringSet()
	t.topics.Range(func(topic string, _ *jhash.Map[string, *QueueData]) bool {
		set.Add(topic)
		return true
	})
	return TopicList{Topics: set.Keys()}
}

// TopicsByCluster lists the topics served by any broker group of cluster;
// an unknown cluster yields an empty list.
func (t *Table) TopicsByCluster(cluster string) TopicList {
	t.mu.RLock()
	defer t.mu.RUnlock()
	set := jhash.NewStringSet()
	names, ok := t.clusters.Get(cluster)
	if !ok {
		return TopicList{Topics: set.Keys()}
	}
	names.Range(func(name string) bool {
		t.topics.Range(func(topic string, qm *jhash.Map[string, *QueueData]) bool {
			if qm.Has(name) {
				set.Add(topic)
			}
			return true
		})
		return true
	})
	return TopicList{Topics: set.Keys()}
}

// SystemTopics lists the cluster names and broker group names (the topics
// brokers create after them) plus the address of one broker.
func (t *Table) SystemTopics() TopicList {
	t.mu.RLock()
	defer t.mu.RUnlock()
	set := jhash.NewStringSet()
	t.clusters.Range(func(cluster string, names jhash.Set[string]) bool {
		set.Add(cluster)
		names.Range(func(name string) bool {
			set.Add(name)
			return true
		})
		return true
	})
	tl := TopicList{Topics: set.Keys()}
	t.brokers.Range(func(_ string, bd *BrokerData) bool {
		if _, addr, ok := bd.Addrs.First(); ok {
			tl.BrokerAddr = addr
			return false
		}
		return true
	})
	return tl
}

// UnitTopics lists the topics whose first queue data has the unit flag.
func (t *Table) UnitTopics() TopicList {
	return t.topicsWhere(func(f int32) bool { return f&FlagUnit == FlagUnit })
}

// HasUnitSubTopics lists the topics whose first queue data has the
// unit-sub flag.
func (t *Table) HasUnitSubTopics() TopicList {
	return t.topicsWhere(func(f int32) bool { return f&FlagUnitSub == FlagUnitSub })
}

// HasUnitSubUnUnitTopics lists the topics whose first queue data has the
// unit-sub flag but not the unit flag.
func (t *Table) HasUnitSubUnUnitTopics() TopicList {
	return t.topicsWhere(func(f int32) bool { return f&FlagUnit != FlagUnit && f&FlagUnitSub == FlagUnitSub })
}

// topicsWhere tests the sysFlag of each topic's first queue data
// (topicQueueTableIter).
func (t *Table) topicsWhere(pick func(sysFlag int32) bool) TopicList {
	t.mu.RLock()
	defer t.mu.RUnlock()
	set := jhash.NewStringSet()
	t.topics.Range(func(topic string, qm *jhash.Map[string, *QueueData]) bool {
		if _, qd, ok := qm.First(); ok && pick(qd.TopicSysFlag) {
			set.Add(topic)
		}
		return true
	})
	return TopicList{Topics: set.Keys()}
}

// DeleteTopic removes topic from every broker.
func (t *Table) DeleteTopic(topic string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	t.topics.Remove(topic)
}

// DeleteTopicInCluster removes topic's queue data of the broker groups of
// cluster, and the topic once no group serves it.
func (t *Table) DeleteTopicInCluster(topic, cluster string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	names, ok := t.clusters.Get(cluster)
	if !ok || names.Len() == 0 {
		return
	}
	qm, ok := t.topics.Get(topic)
	if !ok {
		return
	}
	names.Range(func(name string) bool {
		if old, ok := qm.Remove(name); ok {
			t.log.Infof("deleteTopic, remove one broker's topic %s %s %s", name, topic, old)
		}
		return true
	})
	if qm.Len() == 0 {
		t.log.Infof("deleteTopic, remove the topic all queue %s %s", cluster, topic)
		t.topics.Remove(topic)
	}
}

// WipeWritePerm clears the write permission of every queue data of
// brokerName and returns how many topics it touched.
func (t *Table) WipeWritePerm(brokerName string) int {
	return t.setPerm(brokerName, func(p int32) int32 { return p &^ PermWrite })
}

// AddWritePerm sets read+write permission on every queue data of
// brokerName and returns how many topics it touched.
func (t *Table) AddWritePerm(brokerName string) int {
	return t.setPerm(brokerName, func(int32) int32 { return PermRead | PermWrite })
}

func (t *Table) setPerm(brokerName string, f func(int32) int32) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	n := 0
	t.topics.Range(func(_ string, qm *jhash.Map[string, *QueueData]) bool {
		if qd, ok := qm.Get(brokerName); ok {
			qd.Perm = f(qd.Perm)
			n++
		}
		return true
	})
	return n
}
