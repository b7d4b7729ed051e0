package store

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/store/message"
)

func TestKeyView(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("order-1 order-2"), []byte("键-1"), {'k', 0xff, 'v'}, {0xe4, 0xbd}} {
		require.Equal(t, javalang.DecodeUTF8(b), keyView(b), "%q", b)
	}
}

// BenchmarkBuildIndex is the index half of dispatching a record that
// carries a UNIQ_KEY and two KEYS, as every message of the store
// benchmark does.
func BenchmarkBuildIndex(b *testing.B) {
	benchDispatch(b, func(s *Store, rec *message.Record) error {
		uniq, _ := message.LookupProperty(rec.Properties, message.PropUniqKey)
		keys, _ := message.LookupProperty(rec.Properties, message.PropKeys)
		return s.buildIndex(rec, uniq, keys)
	})
}

// BenchmarkDispatch is one such record's whole dispatch: consume-queue
// unit (TAGS code) and index entries.
func BenchmarkDispatch(b *testing.B) {
	benchDispatch(b, func(s *Store, rec *message.Record) error {
		_, err := s.dispatch(rec)
		return err
	})
}

// benchDispatch runs step on records of 8 queues in log order, in a store
// whose consume-queue and index files do not fill up during the run.
func benchDispatch(b *testing.B, step func(*Store, *message.Record) error) {
	cfg := testConfig(b.TempDir())
	cfg.MappedFileSizeConsumeQueue = 300_000 * 20
	cfg.MaxHashSlotNum = 1 << 16
	cfg.MaxIndexNum = 1 << 23
	s, err := Open(cfg, Options{Master: true})
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	recs := make([]message.Record, 1024)
	for i := range recs {
		recs[i] = message.Record{Topic: "BenchTopic", QueueID: int32(i % 8), TotalSize: 200, Properties: props(
			message.PropUniqKey, "7F000001000018B4AAC2"+strconv.Itoa(100000+i),
			message.PropKeys, "order-"+strconv.Itoa(i)+" user-"+strconv.Itoa(i%7),
			message.PropTags, "TagA")}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		rec := &recs[i&(len(recs)-1)]
		rec.QueueOffset = int64(i / 8)
		rec.PhysicalOffset, rec.StoreTimestamp = int64(i)*200, 1_700_000_000_000+int64(i)
		if err := step(s, rec); err != nil {
			b.Fatal(err)
		}
	}
}
