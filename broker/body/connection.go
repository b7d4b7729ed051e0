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

// ProducerInfo is org.apache.rocketmq.common.protocol.body.ProducerInfo,
// one producer channel of GET_ALL_PRODUCER_INFO (mqadmin producer).
// Language is the LanguageCode name ("" for an unknown one: left out).
type ProducerInfo struct {
	ClientID            string
	RemoteIP            string // "/ip:port" (InetSocketAddress.toString)
	Language            string
	Version             int32
	LastUpdateTimestamp int64
}

// ProducerGroupInfos is one group's producers, in channel order.
type ProducerGroupInfos struct {
	Group     string
	Producers []ProducerInfo
}

// EncodeProducerTableInfo is ProducerTableInfo.encode():
// {"data":{"group":[{"clientId":…,"language":"JAVA","lastUpdateTimestamp":…,"remoteIP":…,"version":409}]}},
// the groups in the HashMap's order.
func EncodeProducerTableInfo(groups []ProducerGroupInfos) []byte {
	m := jhash.NewMap[string, []ProducerInfo](jhash.String, -1)
	for _, g := range groups {
		m.Put(g.Group, g.Producers)
	}
	return encodeCompact(func(w *fastjson.Writer) {
		w.BeginObject()
		w.Key("data")
		w.BeginObject()
		m.Range(func(group string, ps []ProducerInfo) bool {
			w.Key(group)
			w.BeginArray()
			for _, p := range ps {
				w.BeginObject()
				w.Key("clientId")
				w.String(p.ClientID)
				if p.Language != "" {
					w.Key("language")
					w.String(p.Language)
				}
				w.Key("lastUpdateTimestamp")
				w.Int64(p.LastUpdateTimestamp)
				w.Key("remoteIP")
				w.String(p.RemoteIP)
				w.Key("version")
				w.Int(int(p.Version))
				w.EndObject()
			}
			w.EndArray()
			return true
		})
		w.EndObject()
		w.EndObject()
	})
}
