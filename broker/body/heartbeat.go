package body

import (
	"slices"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// ExpressionTypeTag and ExpressionTypeSQL92 are
// org.apache.rocketmq.common.filter.ExpressionType's constants.
const (
	ExpressionTypeTag   = "TAG"
	ExpressionTypeSQL92 = "SQL92"
)

// IsTagType is ExpressionType.isTagType: null, "" and "TAG".
func IsTagType(t NullString) bool { return !t.Valid || t.S == "" || t.S == ExpressionTypeTag }

// SubscriptionData is
// org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData (4.9.8).
// filterClassSource is never serialized and not kept.
type SubscriptionData struct {
	ClassFilterMode bool
	Topic           NullString
	SubString       NullString
	TagsSet         []string // HashSet order; nil is Java null
	CodeSet         []int32  // HashSet order; nil is Java null
	SubVersion      int64
	ExpressionType  NullString
}

// NewSubscriptionData is `new SubscriptionData()` at nowMillis: empty tag
// and code sets, subVersion = now, expressionType TAG.
func NewSubscriptionData(nowMillis int64) SubscriptionData {
	return SubscriptionData{TagsSet: []string{}, CodeSet: []int32{}, SubVersion: nowMillis,
		ExpressionType: Str(ExpressionTypeTag)}
}

func nullHash(s NullString) int32 {
	if !s.Valid {
		return 0
	}
	return jhash.String(s.S)
}

// HashCode is SubscriptionData.hashCode (subVersion is not part of it; a
// Set's hash is the sum of its elements').
func (s *SubscriptionData) HashCode() int32 {
	h := int32(1)
	h = 31*h + boolHash(s.ClassFilterMode)
	var codes int32
	for _, c := range s.CodeSet {
		codes += c
	}
	h = 31*h + codes
	h = 31*h + nullHash(s.SubString)
	var tags int32
	for _, t := range s.TagsSet {
		tags += jhash.String(t)
	}
	h = 31*h + tags
	h = 31*h + nullHash(s.Topic)
	h = 31*h + nullHash(s.ExpressionType)
	return h
}

func boolHash(b bool) int32 {
	if b {
		return 1231
	}
	return 1237
}

// Equal is SubscriptionData.equals (subVersion included).
func (s *SubscriptionData) Equal(o *SubscriptionData) bool {
	return s.ClassFilterMode == o.ClassFilterMode && s.SubString == o.SubString &&
		s.SubVersion == o.SubVersion && s.Topic == o.Topic && s.ExpressionType == o.ExpressionType &&
		sameSet(s.CodeSet, o.CodeSet) && sameSet(s.TagsSet, o.TagsSet)
}

// sameSet compares two deduplicated sets (nil is null).
func sameSet[T comparable](a, b []T) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

var subscriptionFields = fields("classFilterMode?", "codeSet", "expressionType", "filterClassSource",
	"subString", "subVersion", "tagsSet", "topic")

func decodeSubscription(d *fastjson.Decoder, v fastjson.Value, nowMillis int64) SubscriptionData {
	s := NewSubscriptionData(nowMillis)
	for k, fv := range d.Object(v).Members() {
		switch subscriptionFields.match(k) {
		case "classFilterMode":
			s.ClassFilterMode = d.Bool(fv, false)
		case "codeSet":
			s.CodeSet = decodeIntSet(d, fv)
		case "expressionType":
			s.ExpressionType = decodeNullString(d, fv)
		case "subString":
			s.SubString = decodeNullString(d, fv)
		case "subVersion":
			s.SubVersion = d.Int64(fv, s.SubVersion)
		case "tagsSet":
			s.TagsSet = decodeStringSet(d, fv)
		case "topic":
			s.Topic = decodeNullString(d, fv)
		}
	}
	return s
}

func (s *SubscriptionData) write(w *fastjson.Writer) {
	w.BeginObject()
	w.Key("classFilterMode")
	w.Bool(s.ClassFilterMode)
	writeInts(w, "codeSet", s.CodeSet)
	writeNullString(w, "expressionType", s.ExpressionType)
	writeNullString(w, "subString", s.SubString)
	w.Key("subVersion")
	w.Int64(s.SubVersion)
	writeStrings(w, "tagsSet", s.TagsSet)
	writeNullString(w, "topic", s.Topic)
	w.EndObject()
}

// decodeSubscriptionSet reads a Set<SubscriptionData>: elements equal to
// an earlier one are dropped, the rest are returned in HashSet iteration
// order. A JSON null is nil.
func decodeSubscriptionSet(d *fastjson.Decoder, v fastjson.Value, nowMillis int64) []SubscriptionData {
	if v.IsNull() {
		return nil
	}
	var subs []SubscriptionData
	for _, e := range beanElems(d, v) {
		if e.IsNull() {
			continue // documented divergence: Java keeps a null element
		}
		s := decodeSubscription(d, e, nowMillis)
		if !slices.ContainsFunc(subs, func(o SubscriptionData) bool { return s.Equal(&o) }) {
			subs = append(subs, s)
		}
	}
	order := jhash.NewSet(func(i int) int32 { return subs[i].HashCode() }, -1)
	for i := range subs {
		order.Add(i)
	}
	out := make([]SubscriptionData, 0, len(subs))
	for _, i := range order.Keys() {
		out = append(out, subs[i])
	}
	return out
}

// ProducerData is org.apache.rocketmq.common.protocol.heartbeat.ProducerData.
type ProducerData struct {
	GroupName NullString
}

// ConsumerData is org.apache.rocketmq.common.protocol.heartbeat.ConsumerData.
type ConsumerData struct {
	GroupName           NullString
	ConsumeType         ConsumeType
	MessageModel        MessageModel
	ConsumeFromWhere    ConsumeFromWhere
	SubscriptionDataSet []SubscriptionData // HashSet order; nil is Java null
	UnitMode            bool
}

var consumerDataFields = fields("consumeFromWhere", "consumeType", "groupName", "messageModel",
	"subscriptionDataSet", "unitMode?")

func decodeConsumerData(d *fastjson.Decoder, v fastjson.Value, nowMillis int64) ConsumerData {
	c := ConsumerData{SubscriptionDataSet: []SubscriptionData{}}
	for k, fv := range d.Object(v).Members() {
		switch consumerDataFields.match(k) {
		case "consumeFromWhere":
			c.ConsumeFromWhere = ConsumeFromWhere(decodeEnum(d, fv, consumeFromWhereNames, "ConsumeFromWhere"))
		case "consumeType":
			c.ConsumeType = ConsumeType(decodeEnum(d, fv, consumeTypeNames, "ConsumeType"))
		case "groupName":
			c.GroupName = decodeNullString(d, fv)
		case "messageModel":
			c.MessageModel = MessageModel(decodeEnum(d, fv, messageModelNames, "MessageModel"))
		case "subscriptionDataSet":
			c.SubscriptionDataSet = decodeSubscriptionSet(d, fv, nowMillis)
		case "unitMode":
			c.UnitMode = d.Bool(fv, false)
		}
	}
	return c
}

func (c *ConsumerData) write(w *fastjson.Writer) {
	w.BeginObject()
	writeEnum(w, "consumeFromWhere", consumeFromWhereNames, uint8(c.ConsumeFromWhere))
	writeEnum(w, "consumeType", consumeTypeNames, uint8(c.ConsumeType))
	writeNullString(w, "groupName", c.GroupName)
	writeEnum(w, "messageModel", messageModelNames, uint8(c.MessageModel))
	if c.SubscriptionDataSet != nil {
		w.Key("subscriptionDataSet")
		w.BeginArray()
		for i := range c.SubscriptionDataSet {
			c.SubscriptionDataSet[i].write(w)
		}
		w.EndArray()
	}
	w.Key("unitMode")
	w.Bool(c.UnitMode)
	w.EndObject()
}

// HeartbeatData is org.apache.rocketmq.common.protocol.heartbeat.HeartbeatData,
// the HEART_BEAT body. Java 4.9.8 client example:
//
//	{"clientID":"10.0.0.5@12345#1690000000000","consumerDataSet":[{"consumeFromWhere":
//	"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","groupName":"G1",
//	"messageModel":"CLUSTERING","subscriptionDataSet":[{"classFilterMode":false,
//	"codeSet":[2598919],"expressionType":"TAG","subString":"TagA","subVersion":
//	1690000000000,"tagsSet":["TagA"],"topic":"T1"}],"unitMode":false}],
//	"producerDataSet":[{"groupName":"P1"},{"groupName":"CLIENT_INNER_PRODUCER"}]}
//
// client-go v2.1.2 writes the fields in declaration order
// (clientID, producerDataSet, consumerDataSet) and codeSet as strings.
type HeartbeatData struct {
	ClientID        NullString
	ProducerDataSet []ProducerData // array order (identity-hash set in Java); nil is null
	ConsumerDataSet []ConsumerData // array order (identity-hash set in Java); nil is null
}

var heartbeatFields = fields("clientID", "consumerDataSet", "producerDataSet")
var producerDataFields = fields("groupName")

// DecodeHeartbeatData reads a HEART_BEAT body as HeartbeatData.decode
// does. nowMillis is the default subVersion of subscriptions that have
// none (Java's field initializer runs at decode time).
func DecodeHeartbeatData(data []byte, nowMillis int64) (HeartbeatData, error) {
	h := HeartbeatData{ProducerDataSet: []ProducerData{}, ConsumerDataSet: []ConsumerData{}}
	root, err := parseRoot(data, "HeartbeatData")
	if err != nil {
		return h, err
	}
	var d fastjson.Decoder
	for k, fv := range root.Members() {
		switch heartbeatFields.match(k) {
		case "clientID":
			h.ClientID = decodeNullString(&d, fv)
		case "consumerDataSet":
			h.ConsumerDataSet = nil
			if !fv.IsNull() {
				h.ConsumerDataSet = []ConsumerData{}
			}
			for _, e := range beanElems(&d, fv) {
				if !e.IsNull() {
					h.ConsumerDataSet = append(h.ConsumerDataSet, decodeConsumerData(&d, e, nowMillis))
				}
			}
		case "producerDataSet":
			h.ProducerDataSet = decodeProducers(&d, fv)
		}
	}
	return h, finish(&d, "HeartbeatData")
}

func decodeProducers(d *fastjson.Decoder, v fastjson.Value) []ProducerData {
	if v.IsNull() {
		return nil
	}
	out := []ProducerData{}
	for _, e := range beanElems(d, v) {
		if e.IsNull() {
			continue
		}
		var p ProducerData
		for k, fv := range d.Object(e).Members() {
			if producerDataFields.match(k) == "groupName" {
				p.GroupName = decodeNullString(d, fv)
			}
		}
		out = append(out, p)
	}
	return out
}

// Encode is HeartbeatData.encode().
func (h *HeartbeatData) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeNullString(w, "clientID", h.ClientID)
		if h.ConsumerDataSet != nil {
			w.Key("consumerDataSet")
			w.BeginArray()
			for i := range h.ConsumerDataSet {
				h.ConsumerDataSet[i].write(w)
			}
			w.EndArray()
		}
		if h.ProducerDataSet != nil {
			w.Key("producerDataSet")
			w.BeginArray()
			for _, p := range h.ProducerDataSet {
				w.BeginObject()
				writeNullString(w, "groupName", p.GroupName)
				w.EndObject()
			}
			w.EndArray()
		}
		w.EndObject()
	})
}

// CheckClientRequest is
// org.apache.rocketmq.common.protocol.body.CheckClientRequestBody, the
// CHECK_CLIENT_CONFIG body. SubscriptionData is nil when absent or null.
type CheckClientRequest struct {
	ClientID         NullString
	Group            NullString
	SubscriptionData *SubscriptionData
}

var checkClientFields = fields("clientId", "group", "subscriptionData")

// DecodeCheckClientRequest reads a CHECK_CLIENT_CONFIG body.
func DecodeCheckClientRequest(data []byte, nowMillis int64) (CheckClientRequest, error) {
	var c CheckClientRequest
	root, err := parseRoot(data, "CheckClientRequestBody")
	if err != nil {
		return c, err
	}
	var d fastjson.Decoder
	for k, fv := range root.Members() {
		switch checkClientFields.match(k) {
		case "clientId":
			c.ClientID = decodeNullString(&d, fv)
		case "group":
			c.Group = decodeNullString(&d, fv)
		case "subscriptionData":
			c.SubscriptionData = nil
			if !fv.IsNull() {
				s := decodeSubscription(&d, fv, nowMillis)
				c.SubscriptionData = &s
			}
		}
	}
	return c, finish(&d, "CheckClientRequestBody")
}

// Encode is CheckClientRequestBody.encode().
func (c *CheckClientRequest) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeNullString(w, "clientId", c.ClientID)
		writeNullString(w, "group", c.Group)
		if c.SubscriptionData != nil {
			w.Key("subscriptionData")
			c.SubscriptionData.write(w)
		}
		w.EndObject()
	})
}
