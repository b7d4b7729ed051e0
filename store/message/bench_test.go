package message

import (
	"bytes"
	"net/netip"
	"testing"
)

func benchRecord() Record {
	body := bytes.Repeat([]byte("x"), 1024)
	return Record{
		BodyCRC: BodyCRC(body), QueueID: 1, BornTimestamp: 1, StoreTimestamp: 2,
		BornHost:  Host{netip.MustParseAddr("10.0.0.1"), 50000},
		StoreHost: Host{netip.MustParseAddr("10.0.0.2"), 10911},
		Body:      body, Topic: "BenchmarkTopic",
		Properties: []byte(props("UNIQ_KEY", "0A0000010000C350000000000000000A", "TAGS", "TagA", "CLUSTER", "DefaultCluster")),
	}
}

func BenchmarkAppendRecord1KiB(b *testing.B) {
	r := benchRecord()
	buf := make([]byte, 0, 2048)
	b.ReportAllocs()
	b.SetBytes(int64(len(r.Body)))
	for b.Loop() {
		var err error
		if buf, err = AppendRecord(buf[:0], &r); err != nil {
			b.Fatal(err)
		}
		_ = PatchPosition(buf, 1, 2, 3)
	}
}

func BenchmarkDecodeRecord1KiB(b *testing.B) {
	r := benchRecord()
	rec, _ := AppendRecord(nil, &r)
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		if _, err := d.Decode(rec, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRecord1KiBNoCRC(b *testing.B) {
	r := benchRecord()
	rec, _ := AppendRecord(nil, &r)
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		if _, err := d.Decode(rec, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookupProperty(b *testing.B) {
	raw := benchRecord().Properties
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := LookupProperty(raw, PropTags); !ok {
			b.Fatal("no tags")
		}
	}
}

// BenchmarkLookupDispatchProperties is what the dispatch reads of every
// record (TAGS, DELAY, UNIQ_KEY, KEYS): in one pass, and in four.
func BenchmarkLookupDispatchProperties(b *testing.B) {
	raw := benchRecord().Properties
	keys := []string{PropTags, PropDelay, PropUniqKey, PropKeys}
	b.Run("one-pass", func(b *testing.B) {
		var vals [4][]byte
		for b.Loop() {
			LookupProperties(raw, keys, vals[:])
		}
	})
	b.Run("per-key", func(b *testing.B) {
		for b.Loop() {
			for _, k := range keys {
				_, _ = LookupProperty(raw, k)
			}
		}
	})
}

func BenchmarkAppendBatchRecords(b *testing.B) {
	var body []byte
	for range 16 {
		body, _ = AppendBatchEntry(body, 0, bytes.Repeat([]byte("y"), 256), []byte("UNIQ_KEY\x01u"))
	}
	r := benchRecord()
	tmpl := BatchTemplate{Topic: r.Topic, BornHost: r.BornHost, StoreHost: r.StoreHost, Properties: []byte("CLUSTER\x01c")}
	buf := make([]byte, 0, 1<<14)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		out, _, err := AppendBatchRecords(buf[:0], &tmpl, body)
		if err != nil {
			b.Fatal(err)
		}
		buf = out
	}
}
