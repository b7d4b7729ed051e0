package routeinfo

import (
	"strconv"
	"testing"
)

// benchTable registers brokers broker groups serving the same topics, as
// tools/cmd/nsbench does.
func benchTable(b *testing.B, brokers, topicCount int) *Table {
	b.Helper()
	tb := New(Options{})
	tcs := make([]TopicConfig, topicCount)
	for i := range tcs {
		tcs[i] = topic("BenchTopic"+strconv.Itoa(i), 8, 6)
	}
	for i := range brokers {
		addr := "127.0.0.1:" + strconv.Itoa(30000+4*i)
		tb.RegisterBroker(reg("BenchCluster", "bench-broker-"+strconv.Itoa(i), 0, addr, topics(1, tcs...), nil))
	}
	return tb
}

// BenchmarkRouteLookup is GET_ROUTEINFO_BY_TOPIC's work: pick up the route
// and write it, 10 brokers per topic.
func BenchmarkRouteLookup(b *testing.B) {
	for _, standard := range []bool{false, true} {
		b.Run("standard="+strconv.FormatBool(standard), func(b *testing.B) {
			tb := benchTable(b, 10, 100)
			b.ReportAllocs()
			buf := make([]byte, 0, 4096)
			var n int
			for i := 0; b.Loop(); i++ {
				rd, ok := tb.PickupTopicRouteData("BenchTopic" + strconv.Itoa(i%100))
				if !ok {
					b.Fatal("no route")
				}
				buf = rd.AppendJSON(buf[:0], standard)
				n = len(buf)
			}
			b.SetBytes(int64(n))
		})
	}
}

// BenchmarkRegister100kTopics registers one broker serving 100,000 topics
// (JSON body decoding included).
func BenchmarkRegister100kTopics(b *testing.B) {
	body := []byte(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,"timestamp":1},"topicConfigTable":{`)
	for i := range 100_000 {
		if i > 0 {
			body = append(body, ',')
		}
		n := "BenchTopic" + strconv.Itoa(i)
		body = append(body, `"`+n+`":{"order":false,"perm":6,"readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"`+n+`","topicSysFlag":0,"writeQueueNums":8}`...)
	}
	body = append(body, "}}}"...)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		tb := New(Options{})
		rb, err := DecodeRegisterBody(body, false, 0)
		if err != nil {
			b.Fatal(err)
		}
		tb.RegisterBroker(&Registration{ClusterName: "c", BrokerName: "b", BrokerAddr: "h:1", Topics: rb.Topics, FilterServers: rb.FilterServers})
	}
}

// BenchmarkRouteLookupCached is the same lookup through the route cache,
// the handler's path while no broker changes anything.
func BenchmarkRouteLookupCached(b *testing.B) {
	tb := benchTable(b, 10, 100)
	b.ReportAllocs()
	var n int
	for i := 0; b.Loop(); i++ {
		body, ok := tb.RouteJSON("BenchTopic"+strconv.Itoa(i%100), i%2 == 0)
		if !ok {
			b.Fatal("no route")
		}
		n = len(body)
	}
	b.SetBytes(int64(n))
}

// BenchmarkDecodeCompressed100kTopics decodes RegisterBrokerBody's
// compressed form for 100,000 topics.
func BenchmarkDecodeCompressed100kTopics(b *testing.B) {
	rb := &RegisterBody{Topics: TopicConfigWrapper{DataVersion: DataVersion{Counter: 1, Timestamp: 1}}, FilterServers: []string{}}
	for i := range 100_000 {
		rb.Topics.Topics = append(rb.Topics.Topics, topic("BenchTopic"+strconv.Itoa(i), 8, 6))
	}
	body := encodeCompressedB(b, rb)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeRegisterBody(body, true, 0); err != nil {
			b.Fatal(err)
		}
	}
}
