// Package routeinfo is the name server's route table: which brokers are
// alive, which broker groups form which cluster, and which queues each
// broker serves for each topic. It is a plain data structure guarded by
// one RWMutex, with no remoting dependency: connections appear only as the
// opaque Conn handle the table compares and closes.
//
// Java 4.9.8 mirror: org.apache.rocketmq.namesrv.routeinfo.RouteInfoManager
// (tables keyed as in 4.9.8: topic → brokerName → QueueData). Every table
// iterates in java.util.HashMap order (see internal/jhash), so lists built
// from them come out in the order a Java name server writes them.
package routeinfo

import (
	"slices"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// BrokerExpiry is how long a broker stays registered without a new
// registration (RouteInfoManager.BROKER_CHANNEL_EXPIRED_TIME).
const BrokerExpiry = 2 * time.Minute

// Conn is the connection a broker registered over. The table compares it
// by identity and closes it when the broker expires.
type Conn interface {
	Close() error
}

// Table is the route table. The zero value is not usable; call New.
type Table struct {
	log *logrus.Entry
	now func() time.Time

	mu       sync.RWMutex
	topics   *jhash.Map[string, *jhash.Map[string, *QueueData]] // topicQueueTable; Lock should be held
	brokers  *jhash.Map[string, *BrokerData]                    // brokerAddrTable; Lock should be held
	clusters *jhash.Map[string, jhash.Set[string]]              // clusterAddrTable; Lock should be held
	live     *jhash.Map[string, *liveInfo]                      // brokerLiveTable; Lock should be held
	filters  *jhash.Map[string, []string]                       // filterServerTable; Lock should be held
	// gen counts changes that can alter a route; Lock should be held.
	gen uint64

	cache routeCache
}

// Options configure a Table.
type Options struct {
	// Log receives the table's log lines; nil discards them.
	Log *logrus.Entry
	// Now is the clock (time.Now); tests inject their own.
	Now func() time.Time
}

// New returns an empty table, its maps sized as RouteInfoManager's.
func New(opts Options) *Table {
	t := &Table{
		log:      opts.Log,
		now:      opts.Now,
		topics:   jhash.NewMap[string, *jhash.Map[string, *QueueData]](jhash.String, 1024),
		brokers:  jhash.NewMap[string, *BrokerData](jhash.String, 128),
		clusters: jhash.NewMap[string, jhash.Set[string]](jhash.String, 32),
		live:     jhash.NewMap[string, *liveInfo](jhash.String, 256),
		filters:  jhash.NewMap[string, []string](jhash.String, 256),
	}
	if t.log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		t.log = logrus.NewEntry(l)
	}
	if t.now == nil {
		t.now = time.Now
	}
	return t
}

func (t *Table) nowMillis() int64 { return t.now().UnixMilli() }

// Registration is one REGISTER_BROKER call.
type Registration struct {
	ClusterName  string
	BrokerAddr   string
	BrokerName   string
	BrokerID     int64
	HAServerAddr string
	// Topics carries the broker's topics and data version (never nil in
	// Java: a request without body registers an empty wrapper with version
	// 0/0).
	Topics TopicConfigWrapper
	// FilterServers is the body's filterServerList; nil (the legacy body)
	// leaves the broker's filter servers as they are, empty clears them.
	FilterServers []string
	Conn          Conn
}

// RegisterBroker records a broker registration, as
// RouteInfoManager.registerBroker: it adds the broker to its cluster and
// group, replaces an older id registered under the same address, rebuilds
// the group's queue data from a master whose data version changed (or that
// registers first), refreshes liveness, and reports the live master to a
// slave.
func (t *Table) RegisterBroker(r *Registration) RegisterResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	changed := false
	names, ok := t.clusters.Get(r.ClusterName)
	if !ok {
		names = jhash.NewStringSet()
		t.clusters.Put(r.ClusterName, names)
	}
	changed = names.Add(r.BrokerName) || changed

	bd, ok := t.brokers.Get(r.BrokerName)
	first := !ok
	if !ok {
		bd = newBrokerData(r.ClusterName, r.BrokerName)
		t.brokers.Put(r.BrokerName, bd)
	}
	changed = t.dropOtherIDsOfAddrLocked(bd, r.BrokerAddr, r.BrokerID) || changed
	oldAddr, existed := bd.Addrs.Put(r.BrokerID, r.BrokerAddr)
	if r.BrokerID == MasterID {
		t.log.Infof("cluster [%s] brokerName [%s] master address change from %s to %s", bd.Cluster, bd.BrokerName, nullable(oldAddr, existed), r.BrokerAddr)
	}
	first = first || !existed
	changed = changed || first || oldAddr != r.BrokerAddr

	if r.BrokerID == MasterID && (first || t.versionChangedLocked(r.BrokerAddr, r.Topics.DataVersion)) {
		for i := range r.Topics.Topics {
			changed = t.updateQueueDataLocked(r.BrokerName, &r.Topics.Topics[i]) || changed
		}
	}
	_, wasLive := t.live.Put(r.BrokerAddr, &liveInfo{
		lastUpdate:   t.nowMillis(),
		dataVersion:  r.Topics.DataVersion,
		conn:         r.Conn,
		haServerAddr: r.HAServerAddr,
	})
	if !wasLive {
		t.log.Infof("new broker registered, %s HAServer: %s", r.BrokerAddr, r.HAServerAddr)
	}
	if r.FilterServers != nil {
		changed = t.setFilterServersLocked(r.BrokerAddr, r.FilterServers) || changed
	}
	if changed {
		t.gen++
	}
	return t.masterOfLocked(bd, r.BrokerID)
}

// setFilterServersLocked records a broker's filter servers (none removes
// the entry) and reports whether that changed anything.
func (t *Table) setFilterServersLocked(addr string, fs []string) bool {
	if len(fs) == 0 {
		_, had := t.filters.Remove(addr)
		return had
	}
	old, had := t.filters.Put(addr, fs)
	return !had || !slices.Equal(old, fs)
}

// dropOtherIDsOfAddrLocked removes the entries of bd holding addr under an
// id other than id: a slave promoted to master (or the reverse) keeps one
// record per address.
func (t *Table) dropOtherIDsOfAddrLocked(bd *BrokerData, addr string, id int64) bool {
	var stale []int64
	bd.Addrs.Range(func(k int64, v string) bool {
		if v == addr && k != id {
			stale = append(stale, k)
		}
		return true
	})
	for _, k := range stale {
		t.log.Debugf("remove entry %d=%s from brokerData", k, addr)
		bd.Addrs.Remove(k)
	}
	return len(stale) > 0
}

// masterOfLocked fills the result for a slave whose master is alive.
func (t *Table) masterOfLocked(bd *BrokerData, id int64) RegisterResult {
	if id == MasterID {
		return RegisterResult{}
	}
	masterAddr, ok := bd.Addrs.Get(MasterID)
	if !ok {
		return RegisterResult{}
	}
	li, ok := t.live.Get(masterAddr)
	if !ok {
		return RegisterResult{}
	}
	return RegisterResult{HAServerAddr: li.haServerAddr, MasterAddr: masterAddr}
}

// versionChangedLocked is isBrokerTopicConfigChanged.
func (t *Table) versionChangedLocked(addr string, v DataVersion) bool {
	li, ok := t.live.Get(addr)
	return !ok || li.dataVersion != v
}

// updateQueueDataLocked is createAndUpdateQueueData; it reports whether
// the queue data changed.
func (t *Table) updateQueueDataLocked(brokerName string, tc *TopicConfig) bool {
	qd := &QueueData{
		BrokerName:     brokerName,
		ReadQueueNums:  tc.ReadQueueNums,
		WriteQueueNums: tc.WriteQueueNums,
		Perm:           tc.Perm,
		TopicSysFlag:   tc.TopicSysFlag,
	}
	m, ok := t.topics.Get(tc.TopicName)
	if !ok {
		m = jhash.NewMap[string, *QueueData](jhash.String, -1)
		m.Put(brokerName, qd)
		t.topics.Put(tc.TopicName, m)
		t.log.Infof("new topic registered, %s %s", tc.TopicName, qd)
		return true
	}
	old, existed := m.Put(brokerName, qd)
	if existed && *old != *qd {
		t.log.Infof("topic changed, %s OLD: %s NEW: %s", tc.TopicName, old, qd)
	}
	return !existed || *old != *qd
}

// nullable renders a Java String that may be null.
func nullable(s string, ok bool) string {
	if !ok {
		return "null"
	}
	return s
}

// UnregisterBroker removes one broker, as RouteInfoManager.unregisterBroker:
// the address from the live table, the id from its group, and the group,
// its cluster membership and its queue data once the group is empty.
func (t *Table) UnregisterBroker(clusterName, brokerAddr, brokerName string, brokerID int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	_, wasLive := t.live.Remove(brokerAddr)
	t.log.Infof("unregisterBroker, remove from brokerLiveTable %s, %s", okFailed(wasLive), brokerAddr)
	t.filters.Remove(brokerAddr)

	bd, ok := t.brokers.Get(brokerName)
	if !ok {
		return
	}
	_, removed := bd.Addrs.Remove(brokerID)
	t.log.Infof("unregisterBroker, remove addr from brokerAddrTable %s, %s", okFailed(removed), brokerAddr)
	if bd.Addrs.Len() > 0 {
		return
	}
	t.brokers.Remove(brokerName)
	t.log.Infof("unregisterBroker, remove name from brokerAddrTable OK, %s", brokerName)
	if names, ok := t.clusters.Get(clusterName); ok {
		removed := names.Remove(brokerName)
		t.log.Infof("unregisterBroker, remove name from clusterAddrTable %s, %s", okFailed(removed), brokerName)
		if names.Len() == 0 {
			t.clusters.Remove(clusterName)
			t.log.Infof("unregisterBroker, remove cluster from clusterAddrTable %s", clusterName)
		}
	}
	t.removeBrokerTopicsLocked(brokerName)
}

func okFailed(ok bool) string {
	if ok {
		return "OK"
	}
	return "Failed"
}

// removeBrokerTopicsLocked drops brokerName's queue data from every topic
// and the topics left without any (removeTopicByBrokerName).
func (t *Table) removeBrokerTopicsLocked(brokerName string) {
	var empty []string
	t.topics.Range(func(topic string, m *jhash.Map[string, *QueueData]) bool {
		if old, ok := m.Remove(brokerName); ok {
			t.log.Infof("removeTopicByBrokerName, remove one broker's topic %s %s", topic, old)
		}
		if m.Len() == 0 {
			empty = append(empty, topic)
			t.log.Infof("removeTopicByBrokerName, remove the topic all queue %s", topic)
		}
		return true
	})
	for _, topic := range empty {
		t.topics.Remove(topic)
	}
}
