package routeinfo

import (
	"slices"
	"strconv"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

// JSON bodies, written byte for byte as fastjson 1.2.69 writes the Java
// objects: bean properties sorted by name, nulls left out, maps in their
// iteration order, Long map keys unquoted.
//
// TopicRouteData has a second, "standard" form (DefaultRequestProcessor
// for clients of V4_9_4 and later, or acceptStandardJsonOnly): features
// BrowserCompatible, QuoteFieldNames, SkipTransientField and MapSortField,
// so map keys are quoted and sorted (Long keys numerically) and strings are
// escaped browser-safe.
//
//	fastjson: {"brokerDatas":[{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"b","cluster":"c"}],"filterServerTable":{},"queueDatas":[{"brokerName":"b","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}
//	standard: {"brokerDatas":[{"brokerAddrs":{"0":"10.0.0.1:10911"},"brokerName":"b","cluster":"c"}],"filterServerTable":{},"queueDatas":[...]}

type jsonWriter struct {
	standard bool
}

func (w jsonWriter) str(dst []byte, s string) []byte {
	if w.standard {
		return fastjson.AppendString(dst, s, fastjson.Standard)
	}
	return fastjson.AppendString(dst, s, fastjson.Compact)
}

func appendInt(dst []byte, v int64) []byte { return strconv.AppendInt(dst, v, 10) }

// AppendJSON appends the route as RemotingSerializable.encode writes it,
// or in the standard form.
func (rd *TopicRouteData) AppendJSON(dst []byte, standard bool) []byte {
	w := jsonWriter{standard: standard}
	dst = append(dst, `{"brokerDatas":[`...)
	for i := range rd.BrokerDatas {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = w.brokerData(dst, &rd.BrokerDatas[i])
	}
	dst = append(dst, `],"filterServerTable":`...)
	dst = w.filterServers(dst, rd.FilterServerTable)
	if rd.OrderTopicConf != nil {
		dst = append(dst, `,"orderTopicConf":`...)
		dst = w.str(dst, *rd.OrderTopicConf)
	}
	dst = append(dst, `,"queueDatas":[`...)
	for i := range rd.QueueDatas {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = w.queueData(dst, &rd.QueueDatas[i])
	}
	return append(dst, "]}"...)
}

func (w jsonWriter) queueData(dst []byte, q *QueueData) []byte {
	dst = append(dst, `{"brokerName":`...)
	dst = w.str(dst, q.BrokerName)
	dst = append(dst, `,"perm":`...)
	dst = appendInt(dst, int64(q.Perm))
	dst = append(dst, `,"readQueueNums":`...)
	dst = appendInt(dst, int64(q.ReadQueueNums))
	dst = append(dst, `,"topicSysFlag":`...)
	dst = appendInt(dst, int64(q.TopicSysFlag))
	dst = append(dst, `,"writeQueueNums":`...)
	dst = appendInt(dst, int64(q.WriteQueueNums))
	return append(dst, '}')
}

func (w jsonWriter) brokerData(dst []byte, b *BrokerData) []byte {
	dst = append(dst, `{"brokerAddrs":{`...)
	ids := b.Addrs.Keys()
	if w.standard {
		slices.Sort(ids) // MapSortField: a TreeMap of Long keys
	}
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		if w.standard {
			dst = append(dst, '"')
			dst = append(appendInt(dst, id), '"')
		} else {
			dst = appendInt(dst, id)
		}
		dst = append(dst, ':')
		addr, _ := b.Addrs.Get(id)
		dst = w.str(dst, addr)
	}
	dst = append(dst, `},"brokerName":`...)
	dst = w.str(dst, b.BrokerName)
	dst = append(dst, `,"cluster":`...)
	dst = w.str(dst, b.Cluster)
	return append(dst, '}')
}

func (w jsonWriter) filterServers(dst []byte, m *jhash.Map[string, []string]) []byte {
	dst = append(dst, '{')
	if m == nil {
		return append(dst, '}')
	}
	keys := m.Keys()
	if w.standard {
		slices.SortFunc(keys, fastjson.CompareJavaStrings)
	}
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = w.str(dst, k)
		dst = append(dst, ':')
		v, _ := m.Get(k)
		dst = w.strings(dst, v)
	}
	return append(dst, '}')
}

func (w jsonWriter) strings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = w.str(dst, s)
	}
	return append(dst, ']')
}

// AppendJSON appends the cluster info as ClusterInfo.encode writes it.
func (ci *ClusterInfo) AppendJSON(dst []byte) []byte {
	w := jsonWriter{}
	dst = append(dst, `{"brokerAddrTable":{`...)
	first := true
	ci.BrokerAddrTable.Range(func(name string, bd BrokerData) bool {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = w.str(dst, name)
		dst = append(dst, ':')
		dst = w.brokerData(dst, &bd)
		return true
	})
	dst = append(dst, `},"clusterAddrTable":{`...)
	first = true
	ci.ClusterAddrTable.Range(func(cluster string, names []string) bool {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = w.str(dst, cluster)
		dst = append(dst, ':')
		dst = w.strings(dst, names)
		return true
	})
	return append(dst, "}}"...)
}

// AppendJSON appends the list as TopicList.encode writes it.
func (tl *TopicList) AppendJSON(dst []byte) []byte {
	w := jsonWriter{}
	dst = append(dst, '{')
	if tl.BrokerAddr != "" {
		dst = append(dst, `"brokerAddr":`...)
		dst = w.str(dst, tl.BrokerAddr)
		dst = append(dst, ',')
	}
	dst = append(dst, `"topicList":`...)
	dst = w.strings(dst, tl.Topics)
	return append(dst, '}')
}

// AppendJSON appends the version as DataVersion.encode writes it.
func (v DataVersion) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"counter":`...)
	dst = appendInt(dst, v.Counter)
	dst = append(dst, `,"timestamp":`...)
	dst = appendInt(dst, v.Timestamp)
	return append(dst, '}')
}
