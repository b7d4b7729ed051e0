package nsbench

import (
	"compress/zlib"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/namesrv/routeinfo"
)

// TopicName is the name of topic i: BenchTopic<i>, padded with 'x' to
// nameLen characters when nameLen is longer.
func TopicName(i, nameLen int) string {
	s := "BenchTopic" + strconv.Itoa(i)
	if len(s) < nameLen {
		s += strings.Repeat("x", nameLen-len(s))
	}
	return s
}

// RegisterBody builds the RegisterBrokerBody for o's topics, stamped with
// data version {counter 1, timestamp ts}.
//
// The JSON form is what fastjson writes for a 4.9.8 broker (fields
// sorted, no whitespace):
//
//	{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{…},
//	 "topicConfigTable":{"<topic>":{"order":false,"perm":6,"readQueueNums":8,
//	 "topicFilterType":"SINGLE_TAG","topicName":"<topic>","topicSysFlag":0,
//	 "writeQueueNums":8},…}}}
//
// The compressed form is RegisterBrokerBody.encode(true), written by
// namesrv/routeinfo, which owns that layout.
func RegisterBody(o Options, ts int64) ([]byte, error) {
	version := `{"counter":1,"timestamp":` + strconv.FormatInt(ts, 10) + `}`
	if o.Compressed {
		return compressedBody(o, ts)
	}
	b := make([]byte, 0, 128+o.Topics*(140+2*max(o.TopicNameLen, 16)))
	b = append(b, `{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":`...)
	b = append(b, version...)
	b = append(b, `,"topicConfigTable":{`...)
	q := strconv.Itoa(o.Queues)
	for t := range o.Topics {
		if t > 0 {
			b = append(b, ',')
		}
		name := TopicName(t, o.TopicNameLen)
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":{"order":false,"perm":6,"readQueueNums":`...)
		b = append(b, q...)
		b = append(b, `,"topicFilterType":"SINGLE_TAG","topicName":"`...)
		b = append(b, name...)
		b = append(b, `","topicSysFlag":0,"writeQueueNums":`...)
		b = append(b, q...)
		b = append(b, '}')
	}
	return append(b, `}}}`...), nil
}

// compressedBody is the same body in RegisterBrokerBody.encode(true)
// form, written by the name server's own encoder of that layout.
func compressedBody(o Options, ts int64) ([]byte, error) {
	rb := routeinfo.RegisterBody{
		Topics:        routeinfo.TopicConfigWrapper{DataVersion: routeinfo.DataVersion{Timestamp: ts, Counter: 1}},
		FilterServers: []string{},
	}
	q := int32(o.Queues)
	for t := range o.Topics {
		rb.Topics.Topics = append(rb.Topics.Topics, routeinfo.TopicConfig{
			TopicName: TopicName(t, o.TopicNameLen), ReadQueueNums: q, WriteQueueNums: q,
			Perm: 6, TopicFilterType: "SINGLE_TAG",
		})
	}
	return rb.AppendCompressed(nil, zlib.BestCompression)
}
