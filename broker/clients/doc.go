// Package clients is the broker's client bookkeeping, Java 4.9.8's
// ProducerManager, ConsumerManager with ConsumerGroupInfo and
// ClientChannelInfo, DefaultConsumerIdsChangeListener with
// Broker2Client.notifyConsumerIdsChanged, ClientHousekeepingService and
// RebalanceLockManager, and the request handlers that use them
// (ClientManageProcessor, ConsumerManageProcessor.getConsumerListByGroup,
// AdminBrokerProcessor's lockBatchMQ, unlockBatchMQ,
// getConsumerConnectionList, getProducerConnectionList).
//
// Time is injected (Config.Now) and the periodic scan is a Run(ctx)
// goroutine, so that tests drive expiry with a fake clock. Connections are
// seen through the narrow Channel interface, which *remoting.Conn
// satisfies. Side effects on other broker parts (creating retry topics,
// finding or auto-creating subscription groups, sending
// NOTIFY_CONSUMER_IDS_CHANGED, the consumer filter registry) are callbacks
// and interfaces supplied by the broker.
package clients

import (
	"time"
)

// Java 4.9.8 constants.
const (
	// ChannelExpiredTimeout is ProducerManager/ConsumerManager
	// CHANNEL_EXPIRED_TIMEOUT: a channel without heartbeat for longer is
	// dropped and closed by the scan.
	ChannelExpiredTimeout = 120 * time.Second
	// ScanInterval is ClientHousekeepingService's period (first run after
	// one period too).
	ScanInterval = 10 * time.Second
	// DefaultLockMaxLiveTime is rocketmq.broker.rebalance.lockMaxLiveTime's
	// default (RebalanceLockManager.REBALANCE_LOCK_MAX_LIVE_TIME).
	DefaultLockMaxLiveTime = 60 * time.Second
)

// Channel is what the managers need of a client connection. Channels are
// compared by identity (Java keys its tables by the Netty Channel), so an
// implementation must be a pointer type or otherwise comparable.
type Channel interface {
	// RemoteAddr is "ip:port" (RemotingHelper.parseChannelRemoteAddr).
	RemoteAddr() string
	// Close closes the connection (RemotingUtil.closeChannel).
	Close() error
	// Closed reports whether the connection is closed or closing. It
	// turns true before the close event that calls the managers'
	// ChannelClosed, so a registration that checks it under a manager's
	// lock is either refused or removed by that event.
	Closed() bool
}
