package body

import (
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// ConsumerList is
// org.apache.rocketmq.common.protocol.header.GetConsumerListByGroupResponseBody,
// the GET_CONSUMER_LIST_BY_GROUP response: {"consumerIdList":["ip@pid",...]}.
// ConsumerIDList nil is Java null (the field has no initializer).
type ConsumerList struct {
	ConsumerIDList []string
}

var consumerListFields = fields("consumerIdList")

// DecodeConsumerList reads a GET_CONSUMER_LIST_BY_GROUP response body
// (a List: order and duplicates kept).
func DecodeConsumerList(data []byte) (ConsumerList, error) {
	var r ConsumerList
	root, err := parseRoot(data, "GetConsumerListByGroupResponseBody")
	if err != nil {
		return r, err
	}
	var d fastjson.Decoder
	for k, fv := range root.Members() {
		if consumerListFields.match(k) != "consumerIdList" {
			continue
		}
		r.ConsumerIDList = nil
		if !fv.IsNull() {
			r.ConsumerIDList = []string{}
		}
		for _, e := range d.Array(fv).Elems() {
			r.ConsumerIDList = append(r.ConsumerIDList, d.String(e, ""))
		}
	}
	return r, finish(&d, "GetConsumerListByGroupResponseBody")
}

// Encode is GetConsumerListByGroupResponseBody.encode().
func (r *ConsumerList) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeStrings(w, "consumerIdList", r.ConsumerIDList)
		w.EndObject()
	})
}

// Connection is org.apache.rocketmq.common.protocol.body.Connection: one
// client channel. Language is the LanguageCode name ("" is null).
type Connection struct {
	ClientID   NullString
	ClientAddr NullString
	Language   string
	Version    int32
}

func (c *Connection) write(w *fastjson.Writer) {
	w.BeginObject()
	writeNullString(w, "clientAddr", c.ClientAddr)
	writeNullString(w, "clientId", c.ClientID)
	if c.Language != "" {
		w.Key("language")
		w.String(c.Language)
	}
	w.Key("version")
	w.Int(int(c.Version))
	w.EndObject()
}

func writeConnections(w *fastjson.Writer, conns []Connection) {
	w.Key("connectionSet")
	w.BeginArray()
	for i := range conns {
		conns[i].write(w)
	}
	w.EndArray()
}

// ProducerConnection is
// org.apache.rocketmq.common.protocol.body.ProducerConnection, the
// GET_PRODUCER_CONNECTION_LIST response body. Java's connectionSet is a
// HashSet of a class without hashCode, so its order is random; ours is
// the order given.
type ProducerConnection struct {
	ConnectionSet []Connection
}

// Encode is ProducerConnection.encode().
func (p *ProducerConnection) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeConnections(w, p.ConnectionSet)
		w.EndObject()
	})
}

// ConsumerConnection is
// org.apache.rocketmq.common.protocol.body.ConsumerConnection, the
// GET_CONSUMER_CONNECTION_LIST response body. SubscriptionTable must be in
// the order Java's ConcurrentHashMap iterates it (see PutAllOrder).
type ConsumerConnection struct {
	ConnectionSet     []Connection
	SubscriptionTable []SubscriptionData // keyed by Topic
	ConsumeType       ConsumeType
	MessageModel      MessageModel
	ConsumeFromWhere  ConsumeFromWhere
}

// Encode is ConsumerConnection.encode().
func (c *ConsumerConnection) Encode() []byte {
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		writeConnections(w, c.ConnectionSet)
		writeEnum(w, "consumeFromWhere", consumeFromWhereNames, uint8(c.ConsumeFromWhere))
		writeEnum(w, "consumeType", consumeTypeNames, uint8(c.ConsumeType))
		writeEnum(w, "messageModel", messageModelNames, uint8(c.MessageModel))
		w.Key("subscriptionTable")
		w.BeginObject()
		for i := range c.SubscriptionTable {
			w.Key(c.SubscriptionTable[i].Topic.S)
			c.SubscriptionTable[i].write(w)
		}
		w.EndObject()
		w.EndObject()
	})
}

// PutAllOrder returns the iteration order of a `new ConcurrentHashMap<>()`
// after putAll of a map whose String keys iterate as given: putAll first
// presizes the table to tableSizeFor(n + n/2 + 1), which then never
// resizes, so keys sort by bucket and keep the source order inside one.
func PutAllOrder(keys []string) []int {
	n := len(keys)
	capacity := 1
	for capacity < n+n>>1+1 {
		capacity <<= 1
	}
	buckets := make([][]int, capacity)
	for i, k := range keys {
		h := jhash.String(k)
		b := int(uint32(h^int32(uint32(h)>>16))&0x7fffffff) & (capacity - 1)
		buckets[b] = append(buckets[b], i)
	}
	out := make([]int, 0, n)
	for _, b := range buckets {
		out = append(out, b...)
	}
	return out
}
