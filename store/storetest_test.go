package store

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

var (
	testBorn  = message.Host{Addr: netip.MustParseAddr("127.0.0.1"), Port: 40000}
	testStore = message.Host{Addr: netip.MustParseAddr("127.0.0.1"), Port: 10911}
)

// testConfig is a store with tiny files so tests cross file boundaries.
func testConfig(root string) Config {
	c := DefaultConfig(root)
	c.StorePathRootDir = root
	c.MappedFileSizeCommitLog = 64 * 1024
	c.MappedFileSizeConsumeQueue = 50 * 20
	c.MaxHashSlotNum = 64
	c.MaxIndexNum = 256
	c.FlushIntervalConsumeQueue = 50
	return c
}

func openStore(t *testing.T, cfg Config) *Store {
	t.Helper()
	s, err := Open(cfg, Options{Master: true})
	require.NoError(t, err)
	require.NoError(t, s.Start())
	return s
}

type sent struct {
	topic   string
	queueID int32
	body    string
	tags    string
	keys    string
	res     PutResult
}

func props(kv ...string) []byte {
	var p message.Properties
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			p = append(p, message.Property{Key: kv[i], Value: kv[i+1]})
		}
	}
	return message.AppendProperties(nil, p.HashMapOrder())
}

func putN(t *testing.T, s *Store, n int) []sent {
	t.Helper()
	var out []sent
	for i := range n {
		m := sent{
			topic:   fmt.Sprintf("Topic%d", i%3),
			queueID: int32(i % 4),
			body:    fmt.Sprintf("body %d %s", i, string(make([]byte, (i*37)%900))),
			tags:    []string{"TagA", "TagB", ""}[i%3],
			keys:    fmt.Sprintf("k%d shared", i),
		}
		m.res = s.PutMessage(&Message{
			Topic: m.topic, QueueID: m.queueID, Body: []byte(m.body),
			Properties:    props(message.PropTags, m.tags, message.PropKeys, m.keys, message.PropUniqKey, fmt.Sprintf("U%05d", i)),
			BornTimestamp: int64(1_700_000_000_000 + i), BornHost: testBorn, StoreHost: testStore,
		})
		require.Equal(t, PutOK, m.res.Status, "%v", m.res.Err)
		out = append(out, m)
	}
	return out
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// checkAll reads every sent message back through GetMessage.
func checkAll(t *testing.T, s *Store, msgs []sent) {
	t.Helper()
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	for _, m := range msgs {
		res, err := s.GetMessage("G", m.topic, m.queueID, m.res.QueueOffset, 1, nil)
		require.NoError(t, err)
		require.Equal(t, Found, res.Status, "%s-%d@%d", m.topic, m.queueID, m.res.QueueOffset)
		rec, err := message.DecodeRecord(res.Messages[0].B, true)
		require.NoError(t, err)
		require.Equal(t, m.body, string(rec.Body))
		require.Equal(t, m.res.WroteOffset, rec.PhysicalOffset)
		require.Equal(t, m.res.QueueOffset, rec.QueueOffset)
		require.Equal(t, m.res.QueueOffset+1, res.NextBeginOffset)
		res.Release()
	}
}

func TestPutGetRestart(t *testing.T) {
	root := t.TempDir()
	cfg := testConfig(root)
	s := openStore(t, cfg)
	msgs := putN(t, s, 300)
	checkAll(t, s, msgs)
	require.Greater(t, len(s.CommitLog().Queue().Segments()), 2)

	// Edge statuses (Java getMessage case for case).
	res, _ := s.GetMessage("G", "Topic0", 0, 1<<40, 32, nil)
	require.Equal(t, OffsetOverflowBadly, res.Status)
	max := s.MaxOffsetInQueue("Topic0", 0)
	require.Equal(t, max, res.NextBeginOffset)
	res, _ = s.GetMessage("G", "Topic0", 0, max, 32, nil)
	require.Equal(t, OffsetOverflowOne, res.Status)
	res, _ = s.GetMessage("G", "NoSuchTopic", 0, 0, 32, nil)
	require.Equal(t, NoMessageInQueue, res.Status)
	require.EqualValues(t, 0, s.MinOffsetInQueue("NoSuchTopic", 0), "Java creates the queue on lookup")

	// A batch pull stops at the in-memory transfer count (32).
	res, _ = s.GetMessage("G", "Topic0", 0, 0, 64, nil)
	require.Equal(t, Found, res.Status)
	require.Equal(t, min(32, int(max)), res.MessageCount())
	res.Release()
	require.NoError(t, s.Close())
	_, err := os.Stat(abortPath(root))
	require.ErrorIs(t, err, os.ErrNotExist, "clean shutdown removes abort")

	s = openStore(t, cfg)
	defer s.Close()
	require.True(t, s.LastExitOK())
	checkAll(t, s, msgs)
	next := map[string]int64{}
	for _, m := range msgs {
		next[consumequeue.QueueKey(m.topic, m.queueID)] = m.res.QueueOffset + 1
	}
	for _, m := range putN(t, s, 10) {
		k := consumequeue.QueueKey(m.topic, m.queueID)
		require.Equal(t, next[k], m.res.QueueOffset, "offsets continue after restart in %s", k)
		next[k]++
	}
}

type tagFilter map[int64]bool

func (f tagFilter) MatchTagsCode(code int64, ok bool, _ *consumequeue.ExtUnit) bool {
	return !ok || f[code]
}
func (f tagFilter) MatchRecord([]byte) bool { return true }

func TestTagFilterAndQueries(t *testing.T) {
	s := openStore(t, testConfig(t.TempDir()))
	defer s.Close()
	msgs := putN(t, s, 120)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	f := tagFilter{message.TagsCode("TagA"): true}
	res, err := s.GetMessage("G", "Topic0", 0, 0, 32, f)
	require.NoError(t, err)
	for _, v := range res.Messages {
		rec, _ := message.DecodeRecord(v.B, false)
		tags, _ := message.LookupProperty(rec.Properties, message.PropTags)
		require.Equal(t, "TagA", string(tags))
	}
	res.Release()

	for _, m := range msgs[:20] {
		q := s.QueryMessage(m.topic, fmt.Sprintf("k%d", indexOf(msgs, m)), 32, 0, 1<<62)
		require.Len(t, q.Messages, 1, m.keys)
		q.Release()
		at := s.OffsetInQueueByTime(m.topic, m.queueID, m.res.StoreTimestamp)
		// Java's binary search returns any message stored in that ms.
		require.Equal(t, m.res.StoreTimestamp, s.MessageStoreTime(m.topic, m.queueID, at))
	}
	q := s.QueryMessage("Topic1", "shared", 64, 0, 1<<62)
	require.Len(t, q.Messages, 40)
	q.Release()
}

func indexOf(msgs []sent, m sent) int {
	for i := range msgs {
		if msgs[i].res.WroteOffset == m.res.WroteOffset {
			return i
		}
	}
	return -1
}

func TestDelayMessageGoesToScheduleTopic(t *testing.T) {
	s := openStore(t, testConfig(t.TempDir()))
	defer s.Close()
	r := s.PutMessage(&Message{
		Topic: "Real", QueueID: 2, Body: []byte("later"), Properties: props(message.PropDelay, "99", message.PropTags, "T"),
		BornHost: testBorn, StoreHost: testStore,
	})
	require.Equal(t, PutOK, r.Status)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	max := s.delays.Max()
	res, _ := s.GetMessage("G", ScheduleTopic, max-1, 0, 1, nil)
	require.Equal(t, Found, res.Status)
	rec, _ := message.DecodeRecord(res.Messages[0].B, false)
	p := message.ParseProperties(rec.Properties)
	v, _ := p.Get(message.PropRealTopic)
	require.Equal(t, "Real", v)
	v, _ = p.Get(message.PropRealQueueID)
	require.Equal(t, "2", v)
	v, _ = p.Get(message.PropDelay)
	require.Equal(t, fmt.Sprint(max), v, "clamped to the highest level")
	res.Release()
	q := s.queue(ScheduleTopic, max-1)
	u, err := q.Get(0)
	require.NoError(t, err)
	require.Equal(t, s.delays.DeliverAt(max, rec.StoreTimestamp), u.TagsCode, "tags code is the delivery time")
}

func TestSecondOpenIsLocked(t *testing.T) {
	cfg := testConfig(t.TempDir())
	s := openStore(t, cfg)
	defer s.Close()
	// POSIX locks do not exclude within a process; the cross-process case
	// is in runfiles_test. Here: the abort file marks the running store.
	_, err := os.Stat(filepath.Join(cfg.StorePathRootDir, "abort"))
	require.NoError(t, err)
}

// Java 4.9.8 ScheduleMessageService: a due delayed message is put back to
// its REAL_TOPIC/REAL_QID; the stored string keeps DELAY and the REAL_*
// keys (Java clears DELAY from the map only), and it is not delayed again.
func TestScheduledDelivery(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.MessageDelayLevel = "1s 2s"
	s := openStore(t, cfg)
	defer s.Close()
	r := s.PutMessage(&Message{
		Topic: "Later", QueueID: 1, Body: []byte("due"), Properties: props(message.PropDelay, "1", message.PropTags, "T"),
		BornHost: testBorn, StoreHost: testStore,
	})
	require.Equal(t, PutOK, r.Status)
	eventually(t, "delivery", func() bool { return s.MaxOffsetInQueue("Later", 1) == 1 })
	res, _ := s.GetMessage("G", "Later", 1, 0, 1, nil)
	require.Equal(t, Found, res.Status)
	rec, _ := message.DecodeRecord(res.Messages[0].B, false)
	require.Equal(t, "due", string(rec.Body))
	require.GreaterOrEqual(t, rec.StoreTimestamp-r.StoreTimestamp, int64(1000), "not before its level's delay")
	p := message.ParseProperties(rec.Properties)
	v, _ := p.Get(message.PropRealTopic)
	require.Equal(t, "Later", v)
	res.Release()
	q := s.ConsumeQueues().Get("Later", 1)
	u, err := q.Get(0)
	require.NoError(t, err)
	require.Equal(t, message.TagsCode("T"), u.TagsCode, "the real queue's tags code is the tag hash again")
}

// enableConsumeQueueExt: units carry ext addresses; reads resolve them to
// the tags code (Java ConsumeQueue.putMessagePositionInfoWrapper, getMessage).
func TestConsumeQueueExt(t *testing.T) {
	cfg := testConfig(t.TempDir())
	cfg.EnableConsumeQueueExt = true
	cfg.MappedFileSizeConsumeQueueExt = 64 * 1024
	s := openStore(t, cfg)
	defer s.Close()
	putN(t, s, 30)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	u, err := s.ConsumeQueues().Get("Topic0", 0).Get(0)
	require.NoError(t, err)
	require.True(t, consumequeue.IsExtAddr(u.TagsCode), "tags code is an ext address")
	res, err := s.GetMessage("G", "Topic0", 0, 0, 32, tagFilter{message.TagsCode("TagA"): true})
	require.NoError(t, err)
	require.Equal(t, Found, res.Status)
	for _, v := range res.Messages {
		rec, _ := message.DecodeRecord(v.B, false)
		tags, _ := message.LookupProperty(rec.Properties, message.PropTags)
		require.Equal(t, "TagA", string(tags))
	}
	res.Release()
}

// InMemoryByConsumeOffset is Java's in-memory estimate for a message that
// exists; past a queue's end or of no queue it says no.
func TestInMemoryByConsumeOffset(t *testing.T) {
	cfg := testConfig(t.TempDir())
	s := openStore(t, cfg)
	checkAll(t, s, putN(t, s, 40)) // dispatched
	max := s.MaxOffsetInQueue("Topic0", 0)
	require.Greater(t, max, int64(1))
	require.True(t, s.InMemoryByConsumeOffset("Topic0", 0, 0))
	require.True(t, s.InMemoryByConsumeOffset("Topic0", 0, max-1))
	require.False(t, s.InMemoryByConsumeOffset("Topic0", 0, max), "nothing there yet")
	require.False(t, s.InMemoryByConsumeOffset("NoSuchTopic", 0, 0))
	require.Nil(t, s.ConsumeQueues().Get("NoSuchTopic", 0), "the screen creates no queue, unlike Java's lookups")
	require.NoError(t, s.Close())

	cfg.AccessMessageInMemoryMaxRatio = 0 // no memory for messages: all but the last are on disk
	s = openStore(t, cfg)
	defer s.Close()
	require.False(t, s.InMemoryByConsumeOffset("Topic0", 0, 0))
}
