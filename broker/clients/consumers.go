package clients

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// Event is org.apache.rocketmq.broker.client.ConsumerGroupEvent.
type Event uint8

// Consumer group events, as ConsumerManager fires them.
const (
	// EventChange: the group's channels or subscriptions changed; Channels
	// holds every channel of the group.
	EventChange Event = iota + 1
	// EventUnregister: the group's last channel left and the group is gone.
	EventUnregister
	// EventRegister: a heartbeat registered the group; Subscriptions holds
	// its subscriptions.
	EventRegister
)

func (e Event) String() string {
	switch e {
	case EventChange:
		return "CHANGE"
	case EventUnregister:
		return "UNREGISTER"
	case EventRegister:
		return "REGISTER"
	}
	return "UNKNOWN"
}

// GroupEvent is one ConsumerIdsChangeListener.handle call.
type GroupEvent struct {
	Event         Event
	Group         string
	Channels      []Channel               // EventChange
	Subscriptions []body.SubscriptionData // EventRegister
}

// Listener is ConsumerIdsChangeListener. ConsumerManager calls it after
// releasing its lock, in the order Java fires the events.
type Listener func(GroupEvent)

// ConsumerGroupInfo is org.apache.rocketmq.broker.client.ConsumerGroupInfo.
type ConsumerGroupInfo struct {
	name             string
	subs             *omap[string, body.SubscriptionData] // topic → subscription
	channels         *omap[Channel, *ClientChannelInfo]
	consumeType      body.ConsumeType
	messageModel     body.MessageModel
	consumeFromWhere body.ConsumeFromWhere
	lastUpdate       int64
}

// updateChannel is ConsumerGroupInfo.updateChannel: it reports whether a
// new channel joined. A known channel heard with another clientId gets the
// new info stored, but the old info's timestamp is the one refreshed (Java
// 4.9.8 quirk: the new info keeps its construction time).
func (g *ConsumerGroupInfo) updateChannel(info ClientChannelInfo, ct body.ConsumeType,
	mm body.MessageModel, cfw body.ConsumeFromWhere, now int64) bool {
	g.consumeType, g.messageModel, g.consumeFromWhere = ct, mm, cfw
	updated := false
	old, ok := g.channels.get(info.Channel)
	if !ok {
		stored := info
		g.channels.put(info.Channel, &stored)
		old, updated = &stored, true
	} else if old.ClientID != info.ClientID {
		stored := info
		stored.LastUpdate = now // Java built it at this heartbeat
		g.channels.put(info.Channel, &stored)
	}
	g.lastUpdate = now
	old.LastUpdate = now
	return updated
}

// updateSubscription is ConsumerGroupInfo.updateSubscription: new topics
// are added, a higher subVersion replaces, topics not in subs are removed.
// Only additions and removals count as a change.
func (g *ConsumerGroupInfo) updateSubscription(subs []body.SubscriptionData, now int64) bool {
	updated := false
	for _, s := range subs {
		old, ok := g.subs.get(s.Topic.S)
		switch {
		case !ok:
			g.subs.put(s.Topic.S, s)
			updated = true
		case s.SubVersion > old.SubVersion:
			g.subs.put(s.Topic.S, s)
		}
	}
	g.subs.each(func(topic string, _ body.SubscriptionData) {
		for _, s := range subs {
			if s.Topic.S == topic {
				return
			}
		}
		g.subs.remove(topic)
		updated = true
	})
	g.lastUpdate = now
	return updated
}

func (g *ConsumerGroupInfo) allChannels() []Channel {
	return append([]Channel(nil), g.channels.keys...)
}

// GroupSnapshot is a copy of a ConsumerGroupInfo.
type GroupSnapshot struct {
	Name             string
	Channels         []ClientChannelInfo
	Subscriptions    []body.SubscriptionData // in the group table's insertion order
	ConsumeType      body.ConsumeType
	MessageModel     body.MessageModel
	ConsumeFromWhere body.ConsumeFromWhere
	LastUpdate       int64
}

// ClientIDs is getAllClientId.
func (s *GroupSnapshot) ClientIDs() []string {
	out := make([]string, 0, len(s.Channels))
	for _, c := range s.Channels {
		out = append(out, c.ClientID)
	}
	return out
}

// SubscriptionTable returns the subscriptions in the order Java's
// ConsumerConnection.subscriptionTable iterates after
// `putAll(consumerGroupInfo.getSubscriptionTable())`: the group's
// ConcurrentHashMap order (jhash.CHMOrder of the insertion order, exact
// while the table never held 12 topics at once), then body.PutAllOrder.
func (s *GroupSnapshot) SubscriptionTable() []body.SubscriptionData {
	hashes := make([]int32, len(s.Subscriptions))
	for i := range s.Subscriptions {
		hashes[i] = jhash.String(s.Subscriptions[i].Topic.S)
	}
	src := make([]body.SubscriptionData, 0, len(hashes))
	for _, i := range jhash.CHMOrder(hashes) {
		src = append(src, s.Subscriptions[i])
	}
	keys := make([]string, len(src))
	for i := range src {
		keys[i] = src[i].Topic.S
	}
	out := make([]body.SubscriptionData, 0, len(src))
	for _, i := range body.PutAllOrder(keys) {
		out = append(out, src[i])
	}
	return out
}

func (g *ConsumerGroupInfo) snapshot() GroupSnapshot {
	s := GroupSnapshot{Name: g.name, ConsumeType: g.consumeType, MessageModel: g.messageModel,
		ConsumeFromWhere: g.consumeFromWhere, LastUpdate: g.lastUpdate}
	g.channels.each(func(_ Channel, info *ClientChannelInfo) { s.Channels = append(s.Channels, *info) })
	g.subs.each(func(_ string, sub body.SubscriptionData) { s.Subscriptions = append(s.Subscriptions, sub) })
	return s
}

// ConsumerManager is org.apache.rocketmq.broker.client.ConsumerManager.
type ConsumerManager struct {
	now      func() time.Time
	log      *logrus.Entry
	listener Listener

	mu     sync.Mutex
	groups *omap[string, *ConsumerGroupInfo]
}

// NewConsumerManager returns an empty manager reporting to listener
// (nil: none).
func NewConsumerManager(now func() time.Time, log *logrus.Entry, listener Listener) *ConsumerManager {
	if listener == nil {
		listener = func(GroupEvent) {}
	}
	return &ConsumerManager{now: now, log: log, listener: listener,
		groups: newOmap[string, *ConsumerGroupInfo]()}
}

func (m *ConsumerManager) fire(events []GroupEvent) {
	for _, e := range events {
		m.listener(e)
	}
}
