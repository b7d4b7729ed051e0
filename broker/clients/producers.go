package clients

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// ProducerManager is org.apache.rocketmq.broker.client.ProducerManager
// (4.9.8): producer group → channel → ClientChannelInfo, plus clientId →
// channel.
type ProducerManager struct {
	now func() time.Time
	log *logrus.Entry

	mu      sync.Mutex
	groups  *omap[string, *omap[Channel, *ClientChannelInfo]]
	clients map[string]Channel
	next    uint32 // round-robin position of AvailableChannel
}

// NewProducerManager returns an empty manager; now and log are required.
func NewProducerManager(now func() time.Time, log *logrus.Entry) *ProducerManager {
	return &ProducerManager{now: now, log: log,
		groups: newOmap[string, *omap[Channel, *ClientChannelInfo]](), clients: map[string]Channel{}}
}

// Register is registerProducer: a new channel is added, stamped now (and
// its clientId mapped to it); a known one only has its lastUpdate refreshed (the
// stored info is kept, even when the heartbeat's clientId differs). A
// channel already closed is not registered, as in ConsumerManager.Register.
func (m *ProducerManager) Register(group string, info ClientChannelInfo) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if info.Channel.Closed() {
		return
	}
	table, ok := m.groups.get(group)
	if !ok {
		table = newOmap[Channel, *ClientChannelInfo]()
		m.groups.put(group, table)
	}
	now := m.now().UnixMilli()
	if found, ok := table.get(info.Channel); ok {
		found.LastUpdate = now
		return
	}
	stored := info
	stored.LastUpdate = now // Java builds the info at the heartbeat
	table.put(info.Channel, &stored)
	m.clients[info.ClientID] = info.Channel
	m.log.WithFields(logrus.Fields{"group": group, "clientId": info.ClientID,
		"remote": info.Channel.RemoteAddr()}).Info("new producer connected")
}

// Unregister is unregisterProducer: removes the channel from the group
// (and info's clientId from the client table, whether or not the channel
// was there), and the group once it is empty. A missing or empty group is
// left alone.
func (m *ProducerManager) Unregister(group string, info ClientChannelInfo) {
	m.mu.Lock()
	defer m.mu.Unlock()
	table, ok := m.groups.get(group)
	if !ok || table.len() == 0 {
		return
	}
	table.remove(info.Channel)
	delete(m.clients, info.ClientID)
	if table.len() == 0 {
		m.groups.remove(group)
	}
}

// ChannelClosed is doChannelCloseEvent: the channel leaves every group.
// Groups left empty stay (Java does not remove them here).
func (m *ProducerManager) ChannelClosed(ch Channel) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.groups.each(func(_ string, table *omap[Channel, *ClientChannelInfo]) {
		if info, ok := table.remove(ch); ok {
			delete(m.clients, info.ClientID)
		}
	})
}

// ScanNotActive is scanNotActiveChannel: channels whose last heartbeat is
// more than ChannelExpiredTimeout old are removed and closed. Empty groups
// stay. It returns the channels it closed.
func (m *ProducerManager) ScanNotActive() []Channel {
	m.mu.Lock()
	var expired []Channel
	now := m.now().UnixMilli()
	m.groups.each(func(group string, table *omap[Channel, *ClientChannelInfo]) {
		table.each(func(ch Channel, info *ClientChannelInfo) {
			if now-info.LastUpdate > ChannelExpiredTimeout.Milliseconds() {
				table.remove(ch)
				delete(m.clients, info.ClientID)
				expired = append(expired, ch)
				m.log.WithFields(logrus.Fields{"group": group, "remote": ch.RemoteAddr()}).
					Warn("SCAN: remove expired channel from ProducerManager groupChannelTable")
			}
		})
	})
	m.mu.Unlock()
	for _, ch := range expired {
		_ = ch.Close() // best effort, as RemotingUtil.closeChannel
	}
	return expired
}

// Connections returns copies of the group's channel infos, and whether
// the group exists (it may exist with none: see ChannelClosed).
func (m *ProducerManager) Connections(group string) ([]ClientChannelInfo, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	table, ok := m.groups.get(group)
	if !ok {
		return nil, false
	}
	out := make([]ClientChannelInfo, 0, table.len())
	table.each(func(_ Channel, info *ClientChannelInfo) { out = append(out, *info) })
	return out, true
}

// AvailableChannel is getAvailableChannel: one of the group's channels,
// taken in turn (the transaction check asks producers round-robin); false
// when the group has none. Closed channels are already gone from the
// table (ChannelClosed), so Java's writability retries have nothing to
// skip.
func (m *ProducerManager) AvailableChannel(group string) (Channel, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	table, ok := m.groups.get(group)
	if !ok || table.len() == 0 {
		return nil, false
	}
	m.next++
	return table.keys[int(m.next%uint32(table.len()))], true
}

// FindChannel is findChannel: the channel last registered by clientID.
func (m *ProducerManager) FindChannel(clientID string) (Channel, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch, ok := m.clients[clientID]
	return ch, ok
}

// Groups returns the producer group names.
func (m *ProducerManager) Groups() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.groups.keys...)
}
