package clients

import (
	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
)

// Registration is what a heartbeat's ConsumerData registers.
type Registration struct {
	ConsumeType      body.ConsumeType
	MessageModel     body.MessageModel
	ConsumeFromWhere body.ConsumeFromWhere
	Subscriptions    []body.SubscriptionData
	// NotifyIdsChanged is the group config's notifyConsumerIdsChangedEnable
	// (true when the group has no config).
	NotifyIdsChanged bool
}

// Register is registerConsumer: it creates the group if needed, updates
// the channel and the subscriptions and reports whether either changed.
// A change fires EventChange (when r.NotifyIdsChanged); EventRegister is
// always fired. A channel already closed is not registered (nothing
// changes, no event): its close event has passed, and Java 4.9.8, which
// registers it, keeps it in the group until the expiry scan.
func (m *ConsumerManager) Register(group string, info ClientChannelInfo, r Registration) bool {
	m.mu.Lock()
	if info.Channel.Closed() {
		m.mu.Unlock()
		return false
	}
	now := m.now().UnixMilli()
	g, ok := m.groups.get(group)
	if !ok {
		g = &ConsumerGroupInfo{name: group, subs: newOmap[string, body.SubscriptionData](),
			channels: newOmap[Channel, *ClientChannelInfo](), consumeType: r.ConsumeType,
			messageModel: r.MessageModel, consumeFromWhere: r.ConsumeFromWhere, lastUpdate: now}
		m.groups.put(group, g)
	}
	r1 := g.updateChannel(info, r.ConsumeType, r.MessageModel, r.ConsumeFromWhere, now)
	r2 := g.updateSubscription(r.Subscriptions, now)
	var events []GroupEvent
	if (r1 || r2) && r.NotifyIdsChanged {
		events = append(events, GroupEvent{Event: EventChange, Group: group, Channels: g.allChannels()})
	}
	events = append(events, GroupEvent{Event: EventRegister, Group: group, Subscriptions: r.Subscriptions})
	m.mu.Unlock()
	m.fire(events)
	return r1 || r2
}

// Unregister is unregisterConsumer: the channel leaves the group, an empty
// group is removed (EventUnregister); then EventChange with the remaining
// channels when notify.
func (m *ConsumerManager) Unregister(group string, ch Channel, notify bool) {
	m.mu.Lock()
	g, ok := m.groups.get(group)
	if !ok {
		m.mu.Unlock()
		return
	}
	var events []GroupEvent
	g.channels.remove(ch)
	if g.channels.len() == 0 {
		if _, removed := m.groups.remove(group); removed {
			events = append(events, GroupEvent{Event: EventUnregister, Group: group})
		}
	}
	if notify {
		events = append(events, GroupEvent{Event: EventChange, Group: group, Channels: g.allChannels()})
	}
	m.mu.Unlock()
	m.fire(events)
}

// ChannelClosed is doChannelCloseEvent: the channel leaves every group;
// for each group it was in, an emptied group is removed
// (EventUnregister), then EventChange is fired whatever the group's
// notify setting (the listener checks the broker's).
func (m *ConsumerManager) ChannelClosed(ch Channel) {
	m.mu.Lock()
	var events []GroupEvent
	m.groups.each(func(group string, g *ConsumerGroupInfo) {
		if _, removed := g.channels.remove(ch); !removed {
			return
		}
		if g.channels.len() == 0 {
			m.groups.remove(group)
			m.log.WithField("group", group).Info("unregister consumer ok, no any connection, and remove consumer group")
			events = append(events, GroupEvent{Event: EventUnregister, Group: group})
		}
		events = append(events, GroupEvent{Event: EventChange, Group: group, Channels: g.allChannels()})
	})
	m.mu.Unlock()
	m.fire(events)
}

// ScanNotActive is scanNotActiveChannel: expired channels are removed and
// closed, emptied groups removed — without any event (Java 4.9.8 fires
// none here). It returns the channels it closed.
func (m *ConsumerManager) ScanNotActive() []Channel {
	m.mu.Lock()
	now := m.now().UnixMilli()
	var expired []Channel
	m.groups.each(func(group string, g *ConsumerGroupInfo) {
		g.channels.each(func(ch Channel, info *ClientChannelInfo) {
			if now-info.LastUpdate > ChannelExpiredTimeout.Milliseconds() {
				g.channels.remove(ch)
				expired = append(expired, ch)
				m.log.WithFields(logrus.Fields{"group": group, "remote": ch.RemoteAddr()}).
					Warn("SCAN: remove expired channel from ConsumerManager consumerTable")
			}
		})
		if g.channels.len() == 0 {
			m.groups.remove(group)
		}
	})
	m.mu.Unlock()
	for _, ch := range expired {
		_ = ch.Close()
	}
	return expired
}

// Group returns a copy of the group's info (getConsumerGroupInfo).
func (m *ConsumerManager) Group(group string) (GroupSnapshot, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.groups.get(group)
	if !ok {
		return GroupSnapshot{}, false
	}
	return g.snapshot(), true
}

// FindChannel is findChannel: the group's channel whose clientId is
// clientID.
func (m *ConsumerManager) FindChannel(group, clientID string) (ClientChannelInfo, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.groups.get(group)
	if !ok {
		return ClientChannelInfo{}, false
	}
	for _, ch := range g.channels.keys {
		if info := g.channels.vals[ch]; info.ClientID == clientID {
			return *info, true
		}
	}
	return ClientChannelInfo{}, false
}

// FindSubscription is findSubscriptionData.
func (m *ConsumerManager) FindSubscription(group, topic string) (body.SubscriptionData, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.groups.get(group)
	if !ok {
		return body.SubscriptionData{}, false
	}
	return g.subs.get(topic)
}

// MessageModel is the group's message model, without the copy Group makes
// (the pull path asks on every request).
func (m *ConsumerManager) MessageModel(group string) (body.MessageModel, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.groups.get(group)
	if !ok {
		return 0, false
	}
	return g.messageModel, true
}

// SubscriptionCount is findSubscriptionDataCount.
func (m *ConsumerManager) SubscriptionCount(group string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if g, ok := m.groups.get(group); ok {
		return g.subs.len()
	}
	return 0
}

// GroupsConsuming is queryTopicConsumeByWho: the groups subscribed to topic.
func (m *ConsumerManager) GroupsConsuming(topic string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	m.groups.each(func(group string, g *ConsumerGroupInfo) {
		if _, ok := g.subs.get(topic); ok {
			out = append(out, group)
		}
	})
	return out
}
