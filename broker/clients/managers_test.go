package clients

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func info(ch Channel, id string) ClientChannelInfo {
	return ClientChannelInfo{Channel: ch, ClientID: id, Language: wire.LanguageJava, Version: 409}
}

// Java 4.9.8: ProducerManager.registerProducer/unregisterProducer/
// doChannelCloseEvent/scanNotActiveChannel.
func TestProducerManager(t *testing.T) {
	clk := newClock()
	m := NewProducerManager(clk.now, quietLog())
	a, b := newChan("10.0.0.1:1"), newChan("10.0.0.2:2")

	m.Register("P", info(a, "ca"))
	clk.advance(time.Second)
	m.Register("P", info(a, "ca-renamed")) // known channel: only the timestamp moves
	m.Register("P", info(b, "cb"))
	got, ok := m.Connections("P")
	require.True(t, ok)
	require.Len(t, got, 2)
	require.Equal(t, "ca", got[0].ClientID)
	require.Equal(t, clk.now().UnixMilli(), got[0].LastUpdate)
	ch, ok := m.FindChannel("cb")
	require.True(t, ok)
	require.Same(t, b, ch)

	// Close removes the channel but keeps the (possibly empty) group.
	m.ChannelClosed(b)
	m.ChannelClosed(a)
	got, ok = m.Connections("P")
	require.True(t, ok)
	require.Empty(t, got)
	_, ok = m.FindChannel("ca")
	require.False(t, ok)

	// Unregister of the last channel removes the group.
	m.Register("Q", info(a, "ca"))
	m.Unregister("Q", info(a, "ca"))
	_, ok = m.Connections("Q")
	require.False(t, ok)

	// Expiry: strictly more than 120 s.
	m.Register("R", info(a, "ca"))
	clk.advance(ChannelExpiredTimeout)
	require.Empty(t, m.ScanNotActive())
	clk.advance(time.Millisecond)
	require.Equal(t, []Channel{a}, m.ScanNotActive())
	require.True(t, a.isClosed())
	got, ok = m.Connections("R")
	require.True(t, ok, "Java's scan leaves the empty group")
	require.Empty(t, got)
}

func TestConsumerRegisterChanges(t *testing.T) {
	clk := newClock()
	ev := &events{}
	m := NewConsumerManager(clk.now, quietLog(), ev.listener)
	a, b := newChan("a:1"), newChan("b:1")
	reg := func(subs ...body.SubscriptionData) Registration {
		return Registration{ConsumeType: body.ConsumePassively, MessageModel: body.Clustering,
			ConsumeFromWhere: body.ConsumeFromLastOffset, Subscriptions: subs, NotifyIdsChanged: true}
	}
	tests := []struct {
		name       string
		ch         Channel
		id         string
		reg        Registration
		changed    bool
		wantTopics map[string]int64 // topic → subVersion
	}{
		{"first channel and topic", a, "A", reg(sub("T1", 10)), true, map[string]int64{"T1": 10}},
		{"same again", a, "A", reg(sub("T1", 10)), false, map[string]int64{"T1": 10}},
		{"higher subVersion replaces, no change", a, "A", reg(sub("T1", 11)), false, map[string]int64{"T1": 11}},
		{"lower subVersion ignored", a, "A", reg(sub("T1", 5)), false, map[string]int64{"T1": 11}},
		{"new topic", a, "A", reg(sub("T1", 11), sub("T2", 1)), true, map[string]int64{"T1": 11, "T2": 1}},
		{"topic dropped", a, "A", reg(sub("T2", 1)), true, map[string]int64{"T2": 1}},
		{"second channel", b, "B", reg(sub("T2", 1)), true, map[string]int64{"T2": 1}},
		{"clientId differs on known channel: no change", b, "B2", reg(sub("T2", 1)), false, map[string]int64{"T2": 1}},
	}
	for _, tt := range tests {
		changed := m.Register("G", info(tt.ch, tt.id), tt.reg)
		require.Equal(t, tt.changed, changed, tt.name)
		g, ok := m.Group("G")
		require.True(t, ok)
		topics := map[string]int64{}
		for _, s := range g.Subscriptions {
			topics[s.Topic.S] = s.SubVersion
		}
		require.Equal(t, tt.wantTopics, topics, tt.name)
		evs := ev.take()
		if tt.changed {
			require.Len(t, evs, 2, tt.name)
			require.Equal(t, EventChange, evs[0].Event)
			require.Len(t, evs[0].Channels, len(g.Channels))
		} else {
			require.Len(t, evs, 1, tt.name)
		}
		require.Equal(t, EventRegister, evs[len(evs)-1].Event, tt.name)
	}
	g, _ := m.Group("G")
	require.Equal(t, []string{"A", "B2"}, g.ClientIDs())
	fi, ok := m.FindChannel("G", "B2")
	require.True(t, ok)
	require.Same(t, b, fi.Channel)
	require.Equal(t, []string{"G"}, m.GroupsConsuming("T2"))
	require.Equal(t, 1, m.SubscriptionCount("G"))
	model, ok := m.MessageModel("G")
	require.True(t, ok)
	require.Equal(t, body.Clustering, model)
	_, ok = m.MessageModel("nobody")
	require.False(t, ok)

	// notify off: no CHANGE even when changed.
	c := newChan("c:1")
	require.True(t, m.Register("G", info(c, "C"), Registration{Subscriptions: []body.SubscriptionData{sub("T2", 1)}}))
	evs := ev.take()
	require.Len(t, evs, 1)
	require.Equal(t, EventRegister, evs[0].Event)
	g, _ = m.Group("G")
	require.Equal(t, body.ConsumeTypeNull, g.ConsumeType, "the last heartbeat's types win")
	model, _ = m.MessageModel("G")
	require.Equal(t, g.MessageModel, model, "as Group reports it")
}

func TestConsumerUnregisterCloseScan(t *testing.T) {
	clk := newClock()
	ev := &events{}
	m := NewConsumerManager(clk.now, quietLog(), ev.listener)
	a, b := newChan("a:1"), newChan("b:1")
	r := Registration{Subscriptions: []body.SubscriptionData{sub("T", 1)}, NotifyIdsChanged: true}
	m.Register("G", info(a, "A"), r)
	m.Register("G", info(b, "B"), r)
	m.Register("H", info(a, "A"), r)
	ev.take()

	// Unregister one channel: CHANGE with the rest.
	m.Unregister("G", a, true)
	evs := ev.take()
	require.Len(t, evs, 1)
	require.Equal(t, GroupEvent{Event: EventChange, Group: "G", Channels: []Channel{b}}, evs[0])

	// Closing b empties G: UNREGISTER then CHANGE (empty); notify flag not consulted.
	m.ChannelClosed(b)
	evs = ev.take()
	require.Equal(t, []GroupEvent{{Event: EventUnregister, Group: "G"}, {Event: EventChange, Group: "G"}}, evs)
	_, ok := m.Group("G")
	require.False(t, ok)

	// Unregister with notify false and the last channel: UNREGISTER only.
	m.Unregister("H", a, false)
	require.Equal(t, []GroupEvent{{Event: EventUnregister, Group: "H"}}, ev.take())

	// Scan: expired channels closed, empty groups dropped, no events.
	m.Register("S", info(a, "A"), r)
	clk.advance(60 * time.Second)
	m.Register("S", info(b, "B"), r)
	ev.take()
	clk.advance(60*time.Second + time.Millisecond)
	require.Equal(t, []Channel{a}, m.ScanNotActive())
	require.True(t, a.isClosed())
	g, ok := m.Group("S")
	require.True(t, ok)
	require.Equal(t, []string{"B"}, g.ClientIDs())
	clk.advance(60 * time.Second)
	require.Equal(t, []Channel{b}, m.ScanNotActive())
	_, ok = m.Group("S")
	require.False(t, ok)
	require.Empty(t, ev.take())
}

func TestNotifyListener(t *testing.T) {
	a, b := newChan("a:1"), newChan("b:1")
	var sent []Channel
	var reqs []*wire.Command
	enabled := true
	l := NotifyListener(func() bool { return enabled }, func(ch Channel, req *wire.Command) {
		sent = append(sent, ch)
		reqs = append(reqs, req)
	}, nil)
	l(GroupEvent{Event: EventChange, Group: "G", Channels: []Channel{a, b}})
	require.Equal(t, []Channel{a, b}, sent)
	for _, r := range reqs {
		require.Equal(t, int32(40), r.Code)
		require.True(t, r.IsOneway())
		v, ok := r.ExtValue("consumerGroup")
		require.True(t, ok)
		require.Equal(t, "G", v)
		require.Empty(t, r.Body)
	}
	enabled = false
	l(GroupEvent{Event: EventChange, Group: "G", Channels: []Channel{a}})
	require.Len(t, sent, 2)
	l(GroupEvent{Event: EventRegister, Group: "G"}) // nil filters: no panic
}

// TestAvailableChannelRoundRobin: the transaction check asks the group's
// producers in turn, and none once they are gone.
func TestAvailableChannelRoundRobin(t *testing.T) {
	m := NewProducerManager(newClock().now, quietLog())
	_, ok := m.AvailableChannel("P")
	require.False(t, ok)
	a, b := newChan("10.0.0.1:1"), newChan("10.0.0.2:2")
	m.Register("P", info(a, "ca"))
	m.Register("P", info(b, "cb"))
	seen := map[Channel]int{}
	for range 6 {
		ch, ok := m.AvailableChannel("P")
		require.True(t, ok)
		seen[ch]++
	}
	require.Equal(t, map[Channel]int{a: 3, b: 3}, seen)
	m.ChannelClosed(a)
	m.ChannelClosed(b)
	_, ok = m.AvailableChannel("P")
	require.False(t, ok)
}
