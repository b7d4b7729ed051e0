package broker

import (
	"time"

	"github.com/sputnikmq/sputnik/broker/stats"
)

// protectPeriod is how often BrokerController.protectBroker runs (after
// the same delay).
const protectPeriod = 3 * time.Minute

// protectBroker is BrokerController.protectBroker: with
// disableConsumeIfConsumerReadSlowly, a group whose last pull of some queue
// left more than consumerFallbehindThreshold bytes of the commit log
// behind it (GROUP_GET_FALL_SIZE) may consume no more: its subscription
// group is disabled, and its pulls are answered NO_PERMISSION.
func (b *Broker) protectBroker() {
	bc := &b.cfg.Broker
	if !bc.DisableConsumeIfConsumerReadSlowly {
		return
	}
	threshold := bc.ConsumerFallbehindThreshold
	b.stats.FallBehind(func(k stats.FallKey, bytes int64) {
		if bytes > threshold {
			b.log.WithField("component", "protection").Infof("[PROTECT_BROKER] the consumer[%s] consume slowly, %d bytes, disable it", k.Group, bytes)
			b.groups.DisableConsume(k.Group)
		}
	})
}
