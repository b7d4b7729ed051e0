package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sputnikmq/sputnik/compat/fastjson"
)

// addSeeds adds every golden (Java-written and Java-reencoded) of kind and
// the lenient inputs of kind to f's seed corpus, which plain go test runs.
func addSeeds(f *testing.F, kind string) {
	for _, dir := range []string{"*", "*/reencoded"} {
		files, _ := filepath.Glob(filepath.Join(goldenDir, dir, kind))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, c := range lenientCases {
		if c.kind == kind {
			f.Add([]byte(c.input))
		}
	}
}

// fuzzDecoder checks decode never panics and that whatever it accepts
// encodes to something it accepts again with the same number of entries.
func fuzzDecoder[T interface {
	Encode() []byte
	Len() int
}](f *testing.F, kind string, decode func([]byte) (T, error)) {
	addSeeds(f, kind)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decode(data)
		if err != nil {
			return
		}
		again, err := decode(v.Encode())
		if err != nil {
			t.Fatalf("re-decoding our own output: %v\n%s", err, v.Encode())
		}
		if again.Len() != v.Len() {
			t.Fatalf("%d entries became %d", v.Len(), again.Len())
		}
	})
}

func FuzzDecodeTopics(f *testing.F) { fuzzDecoder(f, topicsFile, DecodeTopics) }

func FuzzDecodeSubscriptionGroups(f *testing.F) {
	fuzzDecoder(f, subscriptionGroupFile, DecodeSubscriptionGroups)
}

func FuzzDecodeConsumerOffsets(f *testing.F) {
	fuzzDecoder(f, consumerOffsetFile, DecodeConsumerOffsets)
}

func FuzzDecodeDelayOffsets(f *testing.F) { fuzzDecoder(f, delayOffsetFile, DecodeDelayOffsets) }

func FuzzDecodeConsumerFilters(f *testing.F) {
	fuzzDecoder(f, consumerFilterFile, DecodeConsumerFilters)
}

func FuzzDecodeLmqConsumerOffsets(f *testing.F) {
	f.Add([]byte(`{"lmqOffsetTable":{"T@%LMQ%g1":11,"%LMQ%t1@%LMQ%g2":7},"offsetTable":{"T@G":{1:9}}}`))
	f.Add([]byte(`{"lmqOffsetTable":null}`))
	fuzzDecoder(f, lmqConsumerOffsetFile, func(data []byte) (*ConsumerOffsets, error) {
		c, err := DecodeLmqConsumerOffsets(data)
		if err == nil && !c.IsLmq() {
			panic("an LMQ table lost its LMQ part")
		}
		return c, err
	})
}

// DecodeDataVersion never panics, and what it accepts writes back to the
// same version.
func FuzzDecodeDataVersion(f *testing.F) {
	f.Add([]byte(`{"counter":3,"timestamp":1700000000000}`))
	f.Add([]byte(`{"counter":null}`))
	f.Add([]byte(`{"timestamp":"12","stateVersion":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeDataVersion(data, DataVersion{Timestamp: 5})
		if err != nil {
			return
		}
		w := fastjson.NewWriter(fastjson.Compact)
		v.WriteJSON(w)
		again, err := DecodeDataVersion(w.Bytes(), DataVersion{})
		if err != nil || again != v {
			t.Fatalf("%+v wrote %s, read back %+v (%v)", v, w.Bytes(), again, err)
		}
	})
}
