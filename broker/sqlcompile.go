package broker

import (
	"fmt"
	"time"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/consumerfilter"
	"github.com/sputnikmq/sputnik/broker/sqlfilter"
	"github.com/sputnikmq/sputnik/store/config"
)

// consumerFilterPersistPeriod is how often consumerFilter.json is written
// (BrokerController: every 10 s, first after 10 s).
const consumerFilterPersistPeriod = 10 * time.Second

// compileFilter is FilterFactory.get(type).compile(expression): SQL92 is
// the only type 4.9.8 registers.
func compileFilter(typ, expr string) (consumerfilter.Matcher, error) {
	if typ != body.ExpressionTypeSQL92 {
		return nil, fmt.Errorf("no filter for expression type %s", typ)
	}
	return sqlfilter.Compile(expr)
}

// newConsumerFilters is ConsumerFilterManager(brokerController): its bloom
// filter is sized by maxErrorRateOfBloomFilter and
// expectConsumerNumUseFilter (a bad value fails the start, as Java's
// constructor throws).
func (b *Broker) newConsumerFilters() (*consumerfilter.Manager, error) {
	bc := &b.cfg.Broker
	bloom, err := consumerfilter.NewBloom(bc.MaxErrorRateOfBloomFilter, bc.ExpectConsumerNumUseFilter)
	if err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	return consumerfilter.New(consumerfilter.Options{
		Path: config.ConsumerFilterPath(b.cfg.Store.StorePathRootDir), Bloom: bloom, Compile: compileFilter,
		CleanSpan: time.Duration(bc.FilterDataCleanTimeSpan) * time.Millisecond, Log: b.log.WithField("component", "filters"),
	}), nil
}

// filterBitMap is CommitLogDispatcherCalcBitMap: with enableCalcFilterBitMap
// (read per message, as Java does), the bloom bits of the topic's filters
// that select the message, for its consume-queue extension unit.
func (b *Broker) filterBitMap(topic string, properties []byte) []byte {
	if !b.cfg.Broker.EnableCalcFilterBitMap {
		return nil
	}
	return b.filters.BitMap(topic, propertyLookup(properties))
}
