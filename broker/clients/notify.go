package clients

import (
	"context"
	"time"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// FilterRegistry is the part of ConsumerFilterManager the listener feeds.
type FilterRegistry interface {
	Register(group string, subs []body.SubscriptionData)
	Unregister(group string)
}

// NotifyConsumerIdsChangedRequest is the oneway request
// Broker2Client.notifyConsumerIdsChanged sends: code 40, header
// consumerGroup, no body.
func NotifyConsumerIdsChangedRequest(group string) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqNotifyConsumerIdsChanged))
	(&protocol.NotifyConsumerIdsChangedRequestHeader{ConsumerGroup: group}).EncodeTo(req)
	req.MarkOneway()
	return req
}

// NotifyListener is DefaultConsumerIdsChangeListener: on EventChange, when
// enabled() (BrokerConfig.notifyConsumerIdsChangedEnable), send is called
// with a fresh NOTIFY_CONSUMER_IDS_CHANGED request for every channel of the
// group (send writes it oneway and only logs failures, like Java);
// EventRegister and EventUnregister go to filters (nil: none).
func NotifyListener(enabled func() bool, send func(ch Channel, req *wire.Command), filters FilterRegistry) Listener {
	return func(e GroupEvent) {
		switch e.Event {
		case EventChange:
			if !enabled() {
				return
			}
			for _, ch := range e.Channels {
				send(ch, NotifyConsumerIdsChangedRequest(e.Group))
			}
		case EventRegister:
			if filters != nil {
				filters.Register(e.Group, e.Subscriptions)
			}
		case EventUnregister:
			if filters != nil {
				filters.Unregister(e.Group)
			}
		}
	}
}

// Housekeeping is ClientHousekeepingService: the connection-event hooks
// and the periodic expiry scan of both managers.
type Housekeeping struct {
	Producers *ProducerManager
	Consumers *ConsumerManager
}

// ChannelClosed is onChannelClose / onChannelException / onChannelIdle:
// the channel leaves both managers.
func (k *Housekeeping) ChannelClosed(ch Channel) {
	k.Producers.ChannelClosed(ch)
	k.Consumers.ChannelClosed(ch)
}

// Scan runs one scanExceptionChannel.
func (k *Housekeeping) Scan() {
	k.Producers.ScanNotActive()
	k.Consumers.ScanNotActive()
}

// Run scans every ScanInterval (the first after one interval) until ctx
// ends.
func (k *Housekeeping) Run(ctx context.Context) {
	t := time.NewTicker(ScanInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			k.Scan()
		}
	}
}
