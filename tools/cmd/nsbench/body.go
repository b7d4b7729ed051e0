package main

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
)

// registerBody builds a RegisterBrokerBody for o.topics topics. The JSON
// form is what fastjson writes (fields sorted); the compressed form is
// RegisterBrokerBody.encode(true) of 4.9.8: a zlib stream of the data
// version JSON, the topic count, each TopicConfig.encode() text and the
// filter server list, each length-prefixed with an int32.
func registerBody(o options, ts int64) ([]byte, error) {
	version := fmt.Sprintf(`{"counter":1,"timestamp":%d}`, ts)
	if o.compressed {
		return compressedBody(o, version)
	}
	var b strings.Builder
	b.WriteString(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":`)
	b.WriteString(version)
	b.WriteString(`,"topicConfigTable":{`)
	for t := 0; t < o.topics; t++ {
		if t > 0 {
			b.WriteByte(',')
		}
		name := topicName(t)
		fmt.Fprintf(&b, `"%s":{"order":false,"perm":6,"readQueueNums":%d,"topicFilterType":"SINGLE_TAG","topicName":"%s","topicSysFlag":0,"writeQueueNums":%d}`,
			name, o.queues, name, o.queues)
	}
	b.WriteString(`}}}`)
	return []byte(b.String()), nil
}

func compressedBody(o options, version string) ([]byte, error) {
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	put := func(s string) {
		_ = binary.Write(zw, binary.BigEndian, int32(len(s)))
		_, _ = zw.Write([]byte(s))
	}
	put(version)
	_ = binary.Write(zw, binary.BigEndian, int32(o.topics))
	for t := 0; t < o.topics; t++ {
		put(fmt.Sprintf("%s %d %d %d SINGLE_TAG", topicName(t), o.queues, o.queues, 6))
	}
	put("[]")
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
