package store

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/message"
)

// Java 4.9.8 MultiDispatch with enableLmq: a message naming further queues
// takes the next offset of each under the lock (INNER_MULTI_QUEUE_OFFSET,
// its properties written again without WAIT), dispatch puts its unit in
// each of them, long polling hears of each arrival, and the counters
// survive a restart.
func TestMultiDispatchLmq(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.EnableMultiDispatch, cfg.EnableLmq = true, true
	var mu sync.Mutex
	var arrivals []Arrival
	open := func() *Store {
		s, err := Open(cfg, Options{Master: true, OnArrival: func(a Arrival) {
			mu.Lock()
			a.Properties = nil
			arrivals = append(arrivals, a)
			mu.Unlock()
		}})
		require.NoError(t, err)
		require.NoError(t, s.Start())
		return s
	}
	put := func(s *Store, body, queues string) PutResult {
		t.Helper()
		r := s.PutMessage(&Message{Topic: "Parent", QueueID: 3, Body: []byte(body),
			Properties:     props(message.PropInnerMultiDispatch, queues, message.PropTags, "t"),
			WaitStoreMsgOK: true, WaitProperty: "true",
			BornTimestamp: 1_700_000_000_000, BornHost: testBorn, StoreHost: testStore})
		require.Equal(t, PutOK, r.Status, "%v", r.Err)
		return r
	}
	s := open()
	put(s, "m0", "%LMQ%a,%LMQ%b")
	put(s, "m1", "%LMQ%a")
	put(s, "m2", "Other,%LMQ%b,") // a plain topic keeps the queue id; trailing empty names drop
	put(s, "m3", "")              // blank: an ordinary message
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })

	want := map[string][]string{"%LMQ%a/0": {"m0", "m1"}, "%LMQ%b/0": {"m0", "m2"}, "Other/3": {"m2"}, "Parent/3": {"m0", "m1", "m2", "m3"}}
	offsets := map[string]string{"m0": "0,0", "m1": "1", "m2": "0,1"}
	for key, bodies := range want {
		topic, qid := key[:len(key)-2], int32(key[len(key)-1]-'0')
		res, err := s.GetMessage("G", topic, qid, 0, 32, nil)
		require.NoError(t, err)
		require.Equal(t, Found, res.Status, key)
		var got []string
		for _, v := range res.Messages {
			rec, err := message.DecodeRecord(v.B, true)
			require.NoError(t, err)
			got = append(got, string(rec.Body))
			off, ok := message.LookupProperty(rec.Properties, message.PropInnerMultiQueueOffset)
			require.Equal(t, offsets[string(rec.Body)], string(off), "%s in %s", rec.Body, key)
			require.Equal(t, offsets[string(rec.Body)] != "", ok)
			_, wait := message.LookupProperty(rec.Properties, message.PropWait)
			require.False(t, wait, "WAIT is not stored")
			if ok {
				p := message.ParseProperties(rec.Properties)
				require.Equal(t, message.AppendProperties(nil, p.HashMapOrder()), rec.Properties, "written in HashMap order")
			}
		}
		res.Release()
		require.Equal(t, bodies, got, key)
	}
	mu.Lock()
	var lmqArrivals []Arrival
	for _, a := range arrivals {
		if a.Topic != "Parent" {
			lmqArrivals = append(lmqArrivals, a)
		}
	}
	mu.Unlock()
	require.Len(t, lmqArrivals, 5)
	require.Equal(t, Arrival{Topic: "%LMQ%a", QueueID: 0, NextOffset: 2, TagsCode: message.TagsCode("t"),
		StoreTimestamp: lmqArrivals[2].StoreTimestamp}, lmqArrivals[2])
	require.NoError(t, s.Close())

	s = open()
	defer s.Close()
	put(s, "m4", "%LMQ%a,Other")
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	require.EqualValues(t, 3, s.MaxOffsetInQueue("%LMQ%a", 0), "the counter came back from the consume queue")
	require.EqualValues(t, 2, s.MaxOffsetInQueue("Other", 3))
	require.EqualValues(t, 2, s.cqs.Counted(), "two LMQ topics")
}

// Without enableMultiDispatch the property is an ordinary one; with more
// LMQ consume queues than maxLmqConsumeQueueNum, multi-dispatch puts are
// refused (LMQ_CONSUME_QUEUE_NUM_EXCEEDED) and the rest go on.
func TestMultiDispatchOffAndLmqLimit(t *testing.T) {
	cfg := testConfig(t.TempDir())
	s := openStore(t, cfg)
	r := s.PutMessage(&Message{Topic: "Parent", Body: []byte("x"), Properties: props(message.PropInnerMultiDispatch, "%LMQ%a"),
		BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, r.Status)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	require.EqualValues(t, 0, s.MaxOffsetInQueue("%LMQ%a", 0), "multi-dispatch is off")
	require.NoError(t, s.Close())

	cfg = testConfig(t.TempDir())
	cfg.EnableMultiDispatch, cfg.EnableLmq, cfg.MaxLmqConsumeQueueNum = true, true, 1
	s = openStore(t, cfg)
	defer s.Close()
	for _, q := range []string{"%LMQ%a", "%LMQ%b"} { // two LMQs: one over the limit of 1
		r := s.PutMessage(&Message{Topic: "Parent", Body: []byte("x"), Properties: props(message.PropInnerMultiDispatch, q),
			BornHost: testBorn, StoreHost: testStore})
		require.Equal(t, PutOK, r.Status)
	}
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	r = s.PutMessage(&Message{Topic: "Parent", Body: []byte("x"), Properties: props(message.PropInnerMultiDispatch, "%LMQ%a"),
		BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, LmqConsumeQueueNumExceeded, r.Status)
	require.ErrorIs(t, r.Err, ErrLmqExceeded)
	r = s.PutMessage(&Message{Topic: "Parent", Body: []byte("y"), BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, r.Status, "an ordinary message is stored")
}

// Better than Java: a queue name that cannot be a consume-queue directory
// (Java would create it wherever the path leads) makes the put
// MESSAGE_ILLEGAL, and nothing is written outside the store.
func TestMultiDispatchBadQueueNames(t *testing.T) {
	root := t.TempDir()
	cfg := testConfig(filepath.Join(root, "store"))
	cfg.EnableMultiDispatch, cfg.EnableLmq = true, true
	s := openStore(t, cfg)
	defer s.Close()
	for _, queues := range []string{"../../escaped", "%LMQ%a,..", "a,,b", "%LMQ%a/b", `a\b`, "a\x00", strings.Repeat("q", 128)} {
		r := s.PutMessage(&Message{Topic: "Parent", Body: []byte("x"), Properties: props(message.PropInnerMultiDispatch, queues),
			BornHost: testBorn, StoreHost: testStore})
		require.Equal(t, MessageIllegal, r.Status, "%q", queues)
		require.ErrorIs(t, r.Err, ErrBadQueueName)
	}
	r := s.PutMessage(&Message{Topic: "Parent", Body: []byte("x"), Properties: props(message.PropInnerMultiDispatch, "%LMQ%ok,"+strings.Repeat("q", 127)),
		BornHost: testBorn, StoreHost: testStore})
	require.Equal(t, PutOK, r.Status, "%v", r.Err)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the store directory")
	require.EqualValues(t, 1, s.MaxOffsetInQueue("%LMQ%ok", 0))
}
