package fastjson

import (
	"fmt"
	"testing"
)

// writeRoute100 writes a TopicRouteData-like body for a topic spread over
// 100 brokers: 100 QueueData and 100 BrokerData (two addresses each), the
// largest route bodies a name server sends.
func writeRoute100(w *Writer) {
	w.BeginObject()
	w.Key("brokerDatas")
	w.BeginArray()
	for i := 0; i < 100; i++ {
		w.BeginObject()
		w.Key("brokerAddrs")
		w.BeginObject()
		w.KeyInt(0)
		w.String(fmt.Sprintf("10.0.%d.1:10911", i))
		w.KeyInt(1)
		w.String(fmt.Sprintf("10.0.%d.2:10911", i))
		w.EndObject()
		w.Key("brokerName")
		w.String(fmt.Sprintf("broker-%03d", i))
		w.Key("cluster")
		w.String("DefaultCluster")
		w.EndObject()
	}
	w.EndArray()
	w.Key("filterServerTable")
	w.BeginObject()
	w.EndObject()
	w.Key("queueDatas")
	w.BeginArray()
	for i := 0; i < 100; i++ {
		w.BeginObject()
		w.Key("brokerName")
		w.String(fmt.Sprintf("broker-%03d", i))
		w.Key("perm")
		w.Int(6)
		w.Key("readQueueNums")
		w.Int(8)
		w.Key("topicSysFlag")
		w.Int(0)
		w.Key("writeQueueNums")
		w.Int(8)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
}

type benchBroker struct {
	name, addr0, addr1 string
}

func benchBrokers() []benchBroker {
	bs := make([]benchBroker, 100)
	for i := range bs {
		bs[i] = benchBroker{fmt.Sprintf("broker-%03d", i), fmt.Sprintf("10.0.%d.1:10911", i), fmt.Sprintf("10.0.%d.2:10911", i)}
	}
	return bs
}

func route100(t testing.TB) []byte {
	w := NewWriter(Compact)
	writeRoute100(w)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	return w.Bytes()
}

func BenchmarkParseRoute100(b *testing.B) {
	body := route100(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeRoute100 parses and reads every field with a Decoder, as a
// client-side route decoder would.
func BenchmarkDecodeRoute100(b *testing.B) {
	body := route100(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		v, err := Parse(body)
		if err != nil {
			b.Fatal(err)
		}
		var d Decoder
		n := 0
		for _, bd := range d.Array(v.Get("brokerDatas")).Elems() {
			for k, addr := range d.Object(bd.Get("brokerAddrs")).Members() {
				n += int(d.Int64(k, 0)) + len(d.String(addr, ""))
			}
			n += len(d.String(bd.Get("brokerName"), ""))
		}
		for _, qd := range d.Array(v.Get("queueDatas")).Elems() {
			n += int(d.Int(qd.Get("perm"), 6) + d.Int(qd.Get("readQueueNums"), 0))
		}
		if d.Err() != nil || n == 0 {
			b.Fatal(d.Err())
		}
	}
}

func benchWrite(b *testing.B, mode Mode) {
	brokers := benchBrokers()
	w := NewWriter(mode)
	var buf []byte
	for i := 0; i < 2; i++ { // size the buffer
		w.Reset(buf[:0])
		writeRouteFrom(w, brokers)
		buf = w.Bytes()
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf[:0])
		writeRouteFrom(w, brokers)
		buf = w.Bytes()
	}
	if w.Err() != nil {
		b.Fatal(w.Err())
	}
}

// writeRouteFrom is writeRoute100 without the formatting of test data.
func writeRouteFrom(w *Writer, brokers []benchBroker) {
	w.BeginObject()
	w.Key("brokerDatas")
	w.BeginArray()
	for _, br := range brokers {
		w.BeginObject()
		w.Key("brokerAddrs")
		w.BeginObject()
		w.KeyInt(0)
		w.String(br.addr0)
		w.KeyInt(1)
		w.String(br.addr1)
		w.EndObject()
		w.Key("brokerName")
		w.String(br.name)
		w.Key("cluster")
		w.String("DefaultCluster")
		w.EndObject()
	}
	w.EndArray()
	w.Key("filterServerTable")
	w.BeginObject()
	w.EndObject()
	w.Key("queueDatas")
	w.BeginArray()
	for _, br := range brokers {
		w.BeginObject()
		w.Key("brokerName")
		w.String(br.name)
		w.Key("perm")
		w.Int(6)
		w.Key("readQueueNums")
		w.Int(8)
		w.Key("topicSysFlag")
		w.Int(0)
		w.Key("writeQueueNums")
		w.Int(8)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
}

func BenchmarkWriteRoute100(b *testing.B)         { benchWrite(b, Compact) }
func BenchmarkWriteRoute100Standard(b *testing.B) { benchWrite(b, Standard) }
func BenchmarkWriteRoute100Pretty(b *testing.B)   { benchWrite(b, Pretty) }

func TestBenchBodiesAgree(t *testing.T) {
	w := NewWriter(Compact)
	writeRouteFrom(w, benchBrokers())
	if string(w.Bytes()) != string(route100(t)) {
		t.Error("bench writers differ")
	}
}

// writeTopics100 writes a TopicConfigSerializeWrapper with 100 topics, the
// shape of a REGISTER_BROKER body's topic table and of topics.json.
func writeTopics100(w *Writer) {
	w.BeginObject()
	w.Key("dataVersion")
	w.BeginObject()
	w.Key("counter")
	w.Int64(1234)
	w.Key("timestamp")
	w.Int64(1690000000000)
	w.EndObject()
	w.Key("topicConfigTable")
	w.BeginObject()
	for i := 0; i < 100; i++ {
		name := fmt.Sprintf("Topic-%03d", i)
		w.Key(name)
		w.BeginObject()
		w.Key("order")
		w.Bool(false)
		w.Key("perm")
		w.Int(6)
		w.Key("readQueueNums")
		w.Int(8)
		w.Key("topicFilterType")
		w.String("SINGLE_TAG")
		w.Key("topicName")
		w.String(name)
		w.Key("topicSysFlag")
		w.Int(0)
		w.Key("writeQueueNums")
		w.Int(8)
		w.EndObject()
	}
	w.EndObject()
	w.EndObject()
}

func BenchmarkParseTopics100(b *testing.B) {
	w := NewWriter(Compact)
	writeTopics100(w)
	body := w.Bytes()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteTopics100Pretty(b *testing.B) {
	w := NewWriter(Pretty)
	writeTopics100(w)
	buf := w.Bytes()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf[:0])
		writeTopics100(w) // includes 100 fmt.Sprintf calls for the names
		buf = w.Bytes()
	}
}
