package message

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// Separators of the properties string (MessageDecoder.NAME_VALUE_SEPARATOR
// and PROPERTY_SEPARATOR): key 0x01 value 0x02 key 0x01 value …
const (
	NameValueSeparator = 0x01
	PropertySeparator  = 0x02
	// KeySeparator separates the keys in the KEYS property
	// (MessageConst.KEY_SEPARATOR).
	KeySeparator = " "
)

// Well-known property keys (Java MessageConst, 4.9.8), exact strings.
const (
	PropKeys                  = "KEYS"
	PropTags                  = "TAGS"
	PropWait                  = "WAIT" // PROPERTY_WAIT_STORE_MSG_OK
	PropDelay                 = "DELAY"
	PropRetryTopic            = "RETRY_TOPIC"
	PropRealTopic             = "REAL_TOPIC"
	PropRealQueueID           = "REAL_QID"
	PropTranMsg               = "TRAN_MSG" // PROPERTY_TRANSACTION_PREPARED
	PropProducerGroup         = "PGROUP"
	PropMinOffset             = "MIN_OFFSET"
	PropMaxOffset             = "MAX_OFFSET"
	PropBuyerID               = "BUYER_ID"
	PropOriginMessageID       = "ORIGIN_MESSAGE_ID"
	PropTransferFlag          = "TRANSFER_FLAG"
	PropCorrectionFlag        = "CORRECTION_FLAG"
	PropMQ2Flag               = "MQ2_FLAG"
	PropReconsumeTime         = "RECONSUME_TIME"
	PropMsgRegion             = "MSG_REGION"
	PropTraceSwitch           = "TRACE_ON"
	PropUniqKey               = "UNIQ_KEY" // PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX
	PropMaxReconsumeTimes     = "MAX_RECONSUME_TIMES"
	PropConsumeStartTime      = "CONSUME_START_TIME"
	PropTranPreparedQueueOff  = "TRAN_PREPARED_QUEUE_OFFSET"
	PropTransactionCheckTimes = "TRANSACTION_CHECK_TIMES"
	PropCheckImmunityTime     = "CHECK_IMMUNITY_TIME_IN_SECONDS"
	PropInstanceID            = "INSTANCE_ID"
	PropCorrelationID         = "CORRELATION_ID"
	PropReplyToClient         = "REPLY_TO_CLIENT"
	PropTTL                   = "TTL"
	PropArriveTime            = "ARRIVE_TIME"
	PropPushReplyTime         = "PUSH_REPLY_TIME"
	PropCluster               = "CLUSTER"
	PropMsgType               = "MSG_TYPE"
	PropInnerMultiDispatch    = "INNER_MULTI_DISPATCH"
	PropInnerMultiQueueOffset = "INNER_MULTI_QUEUE_OFFSET"
	PropTransactionID         = "__transactionId__" // user property set by the Java tx producer
	PropTimerDeliverMS        = "TIMER_DELIVER_MS"  // 5.x / client-go only; ignored by 4.9
	PropShardingKey           = "SHARDING_KEY"      // 5.x / client-go only; ignored by 4.9
)

// LmqPrefix starts the names of light message queues, the queues
// INNER_MULTI_DISPATCH may name, and of their consumer groups
// (MixAll.LMQ_PREFIX).
const LmqPrefix = "%LMQ%"

// Property is one key/value pair of a properties string.
type Property struct{ Key, Value string }

// Properties is a properties string parsed into its pairs, in order.
// Keys are unique when it comes from ParseProperties.
type Properties []Property

// ParseProperties parses a raw properties string as Java's
// MessageDecoder.string2messageProperties does after decoding it as UTF-8
// (invalid sequences become U+FFFD): split on 0x02; a segment counts only
// if its first 0x01 leaves a non-empty key and a non-empty value (the value
// may contain further 0x01); a later duplicate key replaces the value in
// the first one's place. Java's parser never fails, nor does this one.
func ParseProperties(b []byte) Properties {
	return ParsePropertiesString(javalang.DecodeUTF8(b))
}

// ParsePropertiesString is ParseProperties for a Java string (a request
// header's properties field).
func ParsePropertiesString(s string) Properties {
	var p Properties
	eachPair(s, func(k, v string) { p.Set(k, v) })
	return p
}

// eachPair calls put with each pair of a properties string that Java's
// string2messageProperties keeps (a name and a value, both not empty), in
// the string's order.
func eachPair(s string, put func(k, v string)) {
	for s != "" {
		var seg string
		seg, s, _ = strings.Cut(s, string(rune(PropertySeparator)))
		if k, v, ok := strings.Cut(seg, string(rune(NameValueSeparator))); ok && k != "" && v != "" {
			put(k, v)
		}
	}
}

// LookupProperty returns the value of key in a raw properties string
// without parsing or allocating (the last occurrence wins, as in Java's
// map); the value aliases raw. A pair matches when its name, up to the
// first name-value separator, is key and its value is not empty. Each pair
// is found with one IndexByte and only its first len(key)+1 bytes are
// compared.
func LookupProperty(raw []byte, key string) ([]byte, bool) {
	if key == "" || strings.IndexByte(key, NameValueSeparator) >= 0 {
		return nil, false // no pair's name can be key
	}
	var val []byte
	found := false
	for len(raw) > 0 {
		var seg []byte
		seg, raw = cutPair(raw)
		if len(seg) > len(key)+1 && seg[len(key)] == NameValueSeparator && string(seg[:len(key)]) == key {
			val, found = seg[len(key)+1:], true
		}
	}
	return val, found
}

// LookupPropertyString is LookupProperty over a properties string (a
// request header's field), without copying it; the value is a substring
// of raw.
func LookupPropertyString(raw, key string) (string, bool) {
	v, ok := LookupProperty(unsafe.Slice(unsafe.StringData(raw), len(raw)), key)
	return unsafe.String(unsafe.SliceData(v), len(v)), ok
}

// LookupProperties is LookupProperty of every one of keys in a single pass
// over raw (the dispatch reads up to four properties of every record):
// vals[i] is set to the value of keys[i], or to nil when it is absent.
// A value found is never empty. A pair's name is cut at its first
// name-value separator, so a key holding one, or an empty key, matches
// nothing.
func LookupProperties(raw []byte, keys []string, vals [][]byte) {
	clear(vals[:len(keys)])
	for len(raw) > 0 {
		var seg []byte
		seg, raw = cutPair(raw)
		eq := bytes.IndexByte(seg, NameValueSeparator)
		if eq <= 0 || eq == len(seg)-1 {
			continue // no name or no value: Java skips the pair
		}
		for k, key := range keys {
			if len(key) == eq && string(seg[:eq]) == key {
				vals[k] = seg[eq+1:]
			}
		}
	}
}

// cutPair splits a raw properties string at its first property
// separator: the first pair and the rest (nil when there is no separator).
func cutPair(raw []byte) (pair, rest []byte) {
	i := bytes.IndexByte(raw, PropertySeparator)
	if i < 0 {
		return raw, nil
	}
	return raw[:i], raw[i+1:]
}

// Get returns the value of key.
func (p Properties) Get(key string) (string, bool) {
	for _, kv := range p {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Set replaces the value of key in place, or appends the pair.
func (p *Properties) Set(key, value string) {
	for i := range *p {
		if (*p)[i].Key == key {
			(*p)[i].Value = value
			return
		}
	}
	*p = append(*p, Property{key, value})
}

// Delete removes key and reports whether it was there.
func (p *Properties) Delete(key string) bool {
	for i := range *p {
		if (*p)[i].Key == key {
			*p = append((*p)[:i], (*p)[i+1:]...)
			return true
		}
	}
	return false
}

// HashMapOrder returns the pairs in the order a java.util.HashMap filled
// with them in p's order iterates: the order in which Java's
// messageProperties2String writes a message's properties (Message keeps
// them in a HashMap).
func (p Properties) HashMapOrder() Properties {
	m := jhash.NewMap[string, string](jhash.String, -1)
	for _, kv := range p {
		m.Put(kv.Key, kv.Value)
	}
	out := make(Properties, 0, m.Len())
	m.Range(func(k, v string) bool {
		out = append(out, Property{k, v})
		return true
	})
	return out
}

// AppendProperties appends p as Java's MessageDecoder.messageProperties2String
// writes it: key 0x01 value, pairs joined by 0x02, no trailing 0x02.
func AppendProperties(dst []byte, p Properties) []byte {
	for i, kv := range p {
		if i > 0 {
			dst = append(dst, PropertySeparator)
		}
		dst = append(dst, kv.Key...)
		dst = append(dst, NameValueSeparator)
		dst = append(dst, kv.Value...)
	}
	return dst
}

// SplitKeys splits a KEYS value as the index service does
// (IndexService.buildIndex: String.split(" ") and empty keys skipped).
func SplitKeys(keys string) []string {
	var out []string
	for k := range strings.SplitSeq(keys, KeySeparator) {
		if k != "" {
			out = append(out, k)
		}
	}
	return out
}

// SendProperties appends the properties string 4.9.8's
// SendMessageProcessor stores for a message sent with the header
// properties header: Java parses them into a HashMap, puts CLUSTER =
// cluster and writes the map in HashMap order. A single message
// (batch false) has WAIT removed from the written string (the key still
// counted for the table's growth, which decides the order); a batch keeps
// it, and its string is appended to every entry's (AppendBatchRecords).
func SendProperties(dst []byte, header, cluster string, batch bool) []byte {
	m := jhash.NewMap[string, string](jhash.String, -1)
	m.Grow(strings.Count(header, string(rune(PropertySeparator))) + 2) // the pairs and CLUSTER
	eachPair(header, func(k, v string) { m.Put(k, v) })
	m.Put(PropCluster, cluster)
	if !batch {
		m.Remove(PropWait)
	}
	first := true
	m.Range(func(k, v string) bool {
		if !first {
			dst = append(dst, PropertySeparator)
		}
		first = false
		dst = append(dst, k...)
		dst = append(dst, NameValueSeparator)
		dst = append(dst, v...)
		return true
	})
	return dst
}
