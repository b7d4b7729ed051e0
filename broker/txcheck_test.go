package broker

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// txEnv is a store with a transactional producer group "PG" connected
// through a fake channel, and a checker whose clock the test moves.
type txEnv struct {
	*adminEnv
	producers *clients.ProducerManager
	fc        *fakeClients
	checker   *txChecker
	clock     atomic.Int64 // ms, the store's and the checker's clock
	checkMax  int32
}

func newTxEnv(t *testing.T) *txEnv {
	e := &txEnv{fc: &fakeClients{}, checkMax: 15}
	e.clock.Store(time.Now().UnixMilli())
	e.adminEnv = newAdminEnvWith(t, func(o *store.Options) { o.Now = e.clock.Load })
	e.producers = clients.NewProducerManager(time.Now, e.log)
	e.producers.Register("PG", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.9:9"), ClientID: "p1", Version: wire.CurrentVersion})
	e.checker = &txChecker{store: e.store, topics: e.topics, offsets: e.offsets, producers: e.producers, clients: e.fc,
		storeHost: envStoreHost,
		timeout:   func() time.Duration { return 6 * time.Second }, checkMax: func() int32 { return e.checkMax },
		reservedTime: func() time.Duration { return 72 * time.Hour },
		now:          func() time.Time { return time.UnixMilli(e.clock.Load()) }, log: e.log}
	e.createTopic(t, "TopicTx", 4)
	return e
}

// round runs one check at the test's clock, after the dispatch caught up.
func (e *txEnv) round(t *testing.T, after time.Duration) {
	t.Helper()
	e.waitDispatched(t)
	e.clock.Add(after.Milliseconds())
	e.checker.check()
	e.waitDispatched(t)
}

// asked decodes the CHECK_TRANSACTION_STATE requests sent so far and
// forgets them.
func (e *txEnv) asked(t *testing.T) []checkReq {
	t.Helper()
	var out []checkReq
	for _, s := range e.fc.sent {
		req := frameRoundTrip(t, s.req)
		require.Equal(t, int32(protocol.ReqCheckTransactionState), req.Code)
		var hdr protocol.CheckTransactionStateRequestHeader
		require.NoError(t, hdr.DecodeFrom(req))
		rec, err := message.DecodeRecord(req.Body, false)
		require.NoError(t, err)
		out = append(out, checkReq{to: s.to, hdr: hdr, rec: rec})
	}
	e.fc.sent = nil
	return out
}

type checkReq struct {
	to  string
	hdr protocol.CheckTransactionStateRequestHeader
	rec message.Record
}

func (e *txEnv) offset(topic string) int64 { return e.offsets.Query(groups.TransCheckGroup, topic, 0) }

// TestTxCheckAsksProducerAndCommitResolves: a half message left unknown
// past the transaction timeout is written again and its producer asked;
// the producer's END_TRANSACTION (from the check) commits the copy, and
// the next round passes over it.
func TestTxCheckAsksProducerAndCommitResolves(t *testing.T) {
	e := newTxEnv(t)
	half := e.putHalf(t, "TopicTx", 3, "unknown")

	e.round(t, 0) // younger than the timeout: nothing yet
	require.Empty(t, e.fc.sent)
	require.Equal(t, int64(0), e.store.MaxOffsetInQueue(topics.TransHalfTopic, 0)-1, "no copy written")

	e.round(t, 7*time.Second)
	got := e.asked(t)
	require.Len(t, got, 1)
	c := got[0]
	require.Equal(t, "10.0.0.9:9", c.to)
	require.Equal(t, int64(1), c.hdr.TranStateTableOffset, "the copy at the end of the half queue")
	require.NotEqual(t, half.WroteOffset, c.hdr.CommitLogOffset)
	require.Equal(t, "UNIQ-unknown", c.hdr.MsgId)
	require.Equal(t, c.hdr.MsgId, c.hdr.TransactionId)
	require.Equal(t, message.OffsetMsgID(envStoreHost, c.hdr.CommitLogOffset), c.hdr.OffsetMsgId)
	require.Equal(t, "TopicTx", c.rec.Topic)
	require.Equal(t, int32(3), c.rec.QueueID)
	require.Equal(t, "unknown", string(c.rec.Body))
	require.Equal(t, int32(3), c.rec.Flag)
	times, _ := message.ParseProperties(c.rec.Properties).Get(message.PropTransactionCheckTimes)
	require.Equal(t, "1", times)
	require.Equal(t, int64(1), e.offset(topics.TransHalfTopic), "the walk moved past the original")

	resp := call(t, e.tx(false)[protocol.ReqEndTransaction], request(protocol.ReqEndTransaction,
		&protocol.EndTransactionRequestHeader{ProducerGroup: "PG", TranStateTableOffset: c.hdr.TranStateTableOffset,
			CommitLogOffset: c.hdr.CommitLogOffset, CommitOrRollback: message.TransactionCommit, FromTransactionCheck: true,
			MsgId: c.hdr.MsgId, TransactionId: c.hdr.TransactionId}))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	e.waitDispatched(t)
	require.Equal(t, int64(1), e.store.MaxOffsetInQueue("TopicTx", 3))

	e.round(t, 7*time.Second)
	require.Empty(t, e.fc.sent, "resolved: no more checks")
	require.Equal(t, int64(2), e.offset(topics.TransHalfTopic))
	require.Equal(t, int64(1), e.offset(topics.TransOpHalfTopic))
	e.round(t, 7*time.Second)
	require.Empty(t, e.fc.sent)
	require.Equal(t, int64(1), e.store.MaxOffsetInQueue("TopicTx", 3), "committed once")
}

// TestTxCheckSkipsEnded: half messages committed or rolled back before
// the check are passed over without asking anyone.
func TestTxCheckSkipsEnded(t *testing.T) {
	e := newTxEnv(t)
	h := e.tx(false)[protocol.ReqEndTransaction]
	for i, state := range []int32{message.TransactionCommit, message.TransactionRollback} {
		half := e.putHalf(t, "TopicTx", int32(i), "ended")
		resp := call(t, h, endTx(half, "PG", state))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	}
	e.round(t, 7*time.Second)
	require.Empty(t, e.fc.sent)
	require.Equal(t, int64(2), e.offset(topics.TransHalfTopic))
	require.Equal(t, int64(2), e.offset(topics.TransOpHalfTopic))
}

// TestTxCheckDiscardsAfterCheckMax: a producer that never answers has the
// message checked transactionCheckMax times, then it goes to
// TRANS_CHECK_MAX_TIME_TOPIC; without a producer online nobody is asked
// but the checks still count.
func TestTxCheckDiscardsAfterCheckMax(t *testing.T) {
	e := newTxEnv(t)
	e.checkMax = 3
	e.putHalf(t, "TopicTx", 1, "never answered")
	asked := 0
	for range 6 {
		e.round(t, 7*time.Second)
		asked += len(e.asked(t))
	}
	require.Equal(t, 3, asked)
	require.Equal(t, int64(1), e.store.MaxOffsetInQueue(topics.TransCheckMaxTimeTopic, 0))
	rec, ok := e.store.LookMessage(e.store.CommitLogOffsetInQueue(topics.TransCheckMaxTimeTopic, 0, 0))
	require.True(t, ok)
	require.Equal(t, "never answered", string(rec.Body))
	times, _ := message.ParseProperties(rec.Properties).Get(message.PropTransactionCheckTimes)
	require.Equal(t, "3", times)
	_, ok = e.topics.Select(topics.TransCheckMaxTimeTopic)
	require.True(t, ok, "the topic is created")
	require.Equal(t, int64(0), e.store.MaxOffsetInQueue("TopicTx", 1))
}

// TestTxCheckImmunity: CHECK_IMMUNITY_TIME_IN_SECONDS delays the first
// check; a message within it is written again with the prepared offset.
func TestTxCheckImmunity(t *testing.T) {
	e := newTxEnv(t)
	var p message.Properties
	p.Set(message.PropTranMsg, "true")
	p.Set(message.PropProducerGroup, "PG")
	p.Set(message.PropUniqKey, "UNIQ-immune")
	p.Set(message.PropCheckImmunityTime, "30")
	r := e.store.PutMessage(halfMessage(&store.Message{Topic: "TopicTx", QueueID: 0, Body: []byte("immune"),
		Properties: message.AppendProperties(nil, p.HashMapOrder()), BornTimestamp: e.clock.Load(),
		BornHost: envBorn, StoreHost: envStoreHost}))
	require.Equal(t, store.PutOK, r.Status)

	e.round(t, 7*time.Second)
	require.Empty(t, e.fc.sent, "still immune at 7 s")
	e.waitDispatched(t)
	copyRec, ok := e.store.LookMessage(e.store.CommitLogOffsetInQueue(topics.TransHalfTopic, 0, 1))
	require.True(t, ok, "written again to wait")
	prepared, _ := message.ParseProperties(copyRec.Properties).Get(message.PropTranPreparedQueueOff)
	require.Equal(t, "0", prepared)

	e.round(t, 30*time.Second)
	got := e.asked(t)
	require.Len(t, got, 1, "checked once the immunity is over")
}
