package broker

import (
	"unsafe"

	"github.com/sputnikmq/sputnik/broker/consumerfilter"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// pullFilter is Java's MessageFilter as a pull and a suspended pull use
// it: the consume-queue check, the commit-log check and the check of an
// arriving message.
type pullFilter interface {
	MatchTagsCode(tagsCode int64, ok bool, ext *consumequeue.ExtUnit) bool
	MatchRecord(record []byte) bool
	MatchArrival(tagsCode int64, tagsOK bool, properties []byte) bool
}

// sqlFilter is ExpressionMessageFilter for an SQL92 subscription. The
// consume-queue check passes a unit unless the group's registered filter
// rules it out by the unit's filter bit map (enableCalcFilterBitMap; see
// consumerfilter.Filter.MatchBitMap); a filter the pull carries itself has
// no bloom data, so every unit passes, as in Java. The commit-log check
// evaluates the expression on the message's properties and selects it
// only on TRUE. A nil matcher (an expression that did not compile when
// loaded from consumerFilter.json) selects everything, as Java does
// without a compiled expression.
type sqlFilter struct {
	m consumerfilter.Matcher
	// bitMap is the registered filter's consume-queue check of an ext
	// unit; nil for a carried filter.
	bitMap func(storeTime int64, bitMap []byte) bool
}

func (f sqlFilter) MatchTagsCode(_ int64, _ bool, ext *consumequeue.ExtUnit) bool {
	return ext == nil || f.bitMap == nil || f.bitMap(ext.MsgStoreTime, ext.BitMap)
}

func (f sqlFilter) MatchRecord(record []byte) bool {
	if f.m == nil {
		return true
	}
	props, err := message.RecordProperties(record)
	if err != nil {
		return false // Java decodes no properties and the expression sees none
	}
	return f.match(props)
}

func (f sqlFilter) MatchArrival(_ int64, _ bool, properties []byte) bool {
	return f.m == nil || f.match(properties)
}

// match evaluates on a raw properties string as Java's
// string2messageProperties map reads it (the last pair of a name wins).
// The values handed to the expression alias the record: it must not keep
// them, and does not (evaluation is synchronous).
func (f sqlFilter) match(props []byte) bool {
	return f.m.Match(propertyLookup(props))
}

// propertyLookup reads a raw properties string as Java's
// string2messageProperties map does (the last pair of a name wins). The
// values it returns alias props: the caller must not keep them.
func propertyLookup(props []byte) func(name string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := message.LookupProperty(props, name)
		return unsafe.String(unsafe.SliceData(v), len(v)), ok
	}
}

// retryFilter is ExpressionForRetryMessageFilter (filterSupportRetry): a
// pull of a group's retry topic applies, to each message, the group's
// SQL92 filter of the topic the message was first sent to (its
// RETRY_TOPIC property); a message without one, or whose topic the group
// has no compiled filter for, passes. The consume-queue check is the
// subscription's own.
type retryFilter struct {
	pullFilter
	group   string
	filters sqlFilters
}

func (f retryFilter) MatchRecord(record []byte) bool {
	props, err := message.RecordProperties(record)
	if err != nil {
		return false
	}
	return f.matchOriginal(props)
}

func (f retryFilter) MatchArrival(tagsCode int64, tagsOK bool, properties []byte) bool {
	return f.MatchTagsCode(tagsCode, tagsOK, nil) && f.matchOriginal(properties)
}

func (f retryFilter) matchOriginal(props []byte) bool {
	topic, _ := message.LookupProperty(props, message.PropRetryTopic)
	orig, ok := f.filters.Get(string(topic), f.group)
	if !ok || orig.Matcher == nil {
		return true
	}
	return sqlFilter{m: orig.Matcher}.match(props)
}
