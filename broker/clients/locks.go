package clients

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
)

// RebalanceLockManager is
// org.apache.rocketmq.broker.client.rebalance.RebalanceLockManager
// (4.9.8): group → message queue → the client holding it. A lock lives
// maxLive after its holder last locked it; an expired lock is taken over
// by the next client that asks. Nothing is ever removed but by
// UnlockBatch (Java neither).
type RebalanceLockManager struct {
	now     func() time.Time
	log     *logrus.Entry
	maxLive int64 // ms

	mu    sync.Mutex
	table map[string]map[body.MessageQueue]*lockEntry
}

type lockEntry struct {
	clientID   string
	lastUpdate int64
}

// expired is LockEntry.isExpired: strictly more than maxLive ago.
func (e *lockEntry) expired(now, maxLive int64) bool { return now-e.lastUpdate > maxLive }

// lockedBy is LockEntry.isLocked.
func (e *lockEntry) lockedBy(clientID string, now, maxLive int64) bool {
	return e.clientID == clientID && !e.expired(now, maxLive)
}

// NewRebalanceLockManager returns an empty manager; maxLive <= 0 means
// DefaultLockMaxLiveTime.
func NewRebalanceLockManager(now func() time.Time, log *logrus.Entry, maxLive time.Duration) *RebalanceLockManager {
	if maxLive <= 0 {
		maxLive = DefaultLockMaxLiveTime
	}
	return &RebalanceLockManager{now: now, log: log, maxLive: maxLive.Milliseconds(),
		table: map[string]map[body.MessageQueue]*lockEntry{}}
}

// isLockedLocked is isLocked: clientID holds an unexpired lock on mq; if
// so the lock is renewed. Lock should be held.
func (m *RebalanceLockManager) isLockedLocked(group string, mq body.MessageQueue, clientID string, now int64) bool {
	e, ok := m.table[group][mq]
	if !ok || !e.lockedBy(clientID, now, m.maxLive) {
		return false
	}
	e.lastUpdate = now
	return true
}

// acquireLocked is the body of tryLock's locked section for one queue: a
// free queue gets a new entry, the holder renews, an expired lock changes
// hands; a queue held by another live client is refused. Lock should be
// held.
func (m *RebalanceLockManager) acquireLocked(group string, mq body.MessageQueue, clientID string, now int64) bool {
	groupValue, ok := m.table[group]
	if !ok {
		groupValue = map[body.MessageQueue]*lockEntry{}
		m.table[group] = groupValue
	}
	e, ok := groupValue[mq]
	if !ok {
		e = &lockEntry{clientID: clientID, lastUpdate: now}
		groupValue[mq] = e
	}
	if e.lockedBy(clientID, now, m.maxLive) {
		e.lastUpdate = now
		return true
	}
	if e.expired(now, m.maxLive) {
		m.log.WithFields(logrus.Fields{"group": group, "old": e.clientID, "new": clientID, "mq": mq}).
			Warn("tryLock, message queue lock expired, I got it")
		e.clientID, e.lastUpdate = clientID, now
		return true
	}
	return false
}

// TryLock is tryLock for one queue.
func (m *RebalanceLockManager) TryLock(group string, mq body.MessageQueue, clientID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now().UnixMilli()
	return m.isLockedLocked(group, mq, clientID, now) || m.acquireLocked(group, mq, clientID, now)
}

// TryLockBatch is tryLockBatch: it returns the queues of mqs now locked by
// clientID — those it already held (renewed), free ones and expired ones
// it took — in the iteration order of Java's result HashSet (mqs must be
// in the request set's iteration order, as body.DecodeLockBatchRequest
// returns it).
func (m *RebalanceLockManager) TryLockBatch(group string, mqs []body.MessageQueue, clientID string) []body.MessageQueue {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now().UnixMilli()
	locked := body.NewMQSet(len(mqs))
	notLocked := body.NewMQSet(len(mqs))
	for _, mq := range mqs {
		if m.isLockedLocked(group, mq, clientID, now) {
			locked.Add(mq)
		} else {
			notLocked.Add(mq)
		}
	}
	for _, mq := range notLocked.Keys() {
		if m.acquireLocked(group, mq, clientID, now) {
			locked.Add(mq)
		}
	}
	return locked.Keys()
}

// UnlockBatch is unlockBatch: each queue clientID holds is released,
// expired or not; queues held by others are left alone.
func (m *RebalanceLockManager) UnlockBatch(group string, mqs []body.MessageQueue, clientID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	groupValue, ok := m.table[group]
	if !ok {
		return
	}
	for _, mq := range mqs {
		if e, ok := groupValue[mq]; ok && e.clientID == clientID {
			delete(groupValue, mq)
		}
	}
}

// HasGroup reports whether group has ever held a lock (Java's mqLockTable
// keeps a group's map once created).
func (m *RebalanceLockManager) HasGroup(group string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.table[group]
	return ok
}

// Holder returns the client holding mq in group and whether that lock is
// still live (for tests and admin views).
func (m *RebalanceLockManager) Holder(group string, mq body.MessageQueue) (clientID string, live bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.table[group][mq]
	if !ok {
		return "", false
	}
	return e.clientID, !e.expired(m.now().UnixMilli(), m.maxLive)
}
