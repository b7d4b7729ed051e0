package nsbench

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"strconv"
	"strings"
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
// The compressed form is RegisterBrokerBody.encode(true): a zlib stream of
// int32-length-prefixed texts (see namesrv/routeinfo/body.go).
func RegisterBody(o Options, ts int64) ([]byte, error) {
	version := `{"counter":1,"timestamp":` + strconv.FormatInt(ts, 10) + `}`
	if o.Compressed {
		return compressedBody(o, version)
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

// compressedBody writes, deflated: the data version, the topic count, each
// TopicConfig.encode() ("<topic> <read> <write> <perm> SINGLE_TAG") and the
// filter server list.
func compressedBody(o Options, version string) ([]byte, error) {
	raw := make([]byte, 0, 64+o.Topics*(40+max(o.TopicNameLen, 16)))
	put := func(s string) {
		raw = binary.BigEndian.AppendUint32(raw, uint32(len(s)))
		raw = append(raw, s...)
	}
	put(version)
	raw = binary.BigEndian.AppendUint32(raw, uint32(o.Topics))
	q := strconv.Itoa(o.Queues)
	for t := range o.Topics {
		put(TopicName(t, o.TopicNameLen) + " " + q + " " + q + " 6 SINGLE_TAG")
	}
	put("[]")
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
