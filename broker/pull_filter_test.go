package broker

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/consumequeue"
	"github.com/sputnikmq/sputnik/store/message"
)

// sendProps is a SEND_MESSAGE_V2 with user properties.
func sendProps(topic string, body string, props message.Properties) *wire.Command {
	req := sendV2(topic, 0, body, "T")
	var h protocol.SendMessageRequestHeaderV2
	if err := h.DecodeFrom(req); err != nil {
		panic(err)
	}
	all := append(message.ParsePropertiesString(h.Properties), props...)
	h.Properties = string(message.AppendProperties(nil, all))
	h.EncodeTo(req)
	return req
}

func sqlPull(topic string, offset, suspendMs int64, expr string) *wire.Command {
	req := pull(topic, 0, offset, suspendMs, expr)
	var h protocol.PullMessageRequestHeader
	if err := h.DecodeFrom(req); err != nil {
		panic(err)
	}
	h.ExpressionType = "SQL92"
	h.EncodeTo(req)
	return req
}

func pulledBodies(t *testing.T, resp *wire.Command) []string {
	t.Helper()
	var out []string
	for rest := resp.Body; len(rest) > 0; {
		rec, err := message.DecodeRecord(rest, true)
		require.NoError(t, err)
		out = append(out, string(rec.Body))
		rest = rest[rec.TotalSize:]
	}
	return out
}

// Java 4.9.8 PullMessageProcessor with an SQL92 subscription carried in
// the pull (lite pull consumers): only the messages the expression
// selects, a suspended pull woken only by a selected one, and
// SUBSCRIPTION_PARSE_FAILED for an expression that does not compile.
func TestPullSQL92(t *testing.T) {
	b, cl := startBroker(t, "enablePropertyFilter=true")
	addr := b.Addr()
	for i := range 6 {
		resp := invoke(t, cl, addr, sendProps("SqlTopic", fmt.Sprint("m", i), message.Properties{{Key: "n", Value: fmt.Sprint(i)}}))
		require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	}
	dispatched(t, b, "SqlTopic", 0, 6)
	resp := invoke(t, cl, addr, sqlPull("SqlTopic", 0, 1000, "n >= 2 AND n < 5"))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	require.Equal(t, []string{"m2", "m3", "m4"}, pulledBodies(t, resp))

	done := make(chan *wire.Command, 1)
	go func() { done <- invoke(t, cl, addr, sqlPull("SqlTopic", 6, 5000, "n = 100")) }()
	require.Eventually(t, func() bool { return b.hold.Len() == 1 }, 5*time.Second, time.Millisecond)
	resp = invoke(t, cl, addr, sendProps("SqlTopic", "m6", message.Properties{{Key: "n", Value: "6"}}))
	require.EqualValues(t, protocol.RespSuccess, resp.Code)
	select {
	case <-done:
		t.Fatal("a message the expression does not select woke the pull")
	case <-time.After(300 * time.Millisecond):
	}
	resp = invoke(t, cl, addr, sendProps("SqlTopic", "m7", message.Properties{{Key: "n", Value: "100"}}))
	require.EqualValues(t, protocol.RespSuccess, resp.Code)
	select {
	case resp = <-done:
		require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
		require.Equal(t, []string{"m7"}, pulledBodies(t, resp))
	case <-time.After(5 * time.Second):
		t.Fatal("a selected message did not wake the pull")
	}

	resp = invoke(t, cl, addr, sqlPull("SqlTopic", 0, 0, "n >"))
	require.EqualValues(t, protocol.RespSubscriptionParseFailed, resp.Code, resp.Remark)
}

func TestPullSQL92NeedsPropertyFilter(t *testing.T) {
	b, cl := startBroker(t)
	resp := invoke(t, cl, b.Addr(), sendProps("SqlTopic", "m", nil))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	resp = invoke(t, cl, b.Addr(), sqlPull("SqlTopic", 0, 0, "n > 1"))
	require.EqualValues(t, protocol.RespSystemError, resp.Code)
	require.Equal(t, "The broker does not support consumer to filter message by SQL92", resp.Remark)
}

// Java 4.9.8 ExpressionForRetryMessageFilter (filterSupportRetry=true): a
// pull of %RETRY%G applies G's SQL92 filter of each message's original
// topic (RETRY_TOPIC); without filterSupportRetry every retry message
// passes.
func TestPullRetryTopicFilterSupportRetry(t *testing.T) {
	for _, support := range []bool{true, false} {
		t.Run(fmt.Sprint("filterSupportRetry=", support), func(t *testing.T) {
			b, cl := startBroker(t, "enablePropertyFilter=true", fmt.Sprint("filterSupportRetry=", support))
			b.filters.Register("G", []body.SubscriptionData{{Topic: body.Str("Orig"), SubString: body.Str("n > 1"),
				ExpressionType: body.Str("SQL92"), SubVersion: 1}})
			_, _, err := b.topics.CreateInSendMessageBack("%RETRY%G", 1, 6, 0)
			require.NoError(t, err)
			for i, props := range []message.Properties{
				{{Key: message.PropRetryTopic, Value: "Orig"}, {Key: "n", Value: "1"}},
				{{Key: message.PropRetryTopic, Value: "Orig"}, {Key: "n", Value: "2"}},
				{{Key: message.PropRetryTopic, Value: "Other"}, {Key: "n", Value: "0"}},
				{{Key: "n", Value: "0"}},
			} {
				r := b.store.PutMessage(&store.Message{Topic: "%RETRY%G", Body: []byte(fmt.Sprint("r", i)),
					Properties: message.AppendProperties(nil, props), BornHost: b.storeHost(), StoreHost: b.storeHost()})
				require.Equal(t, store.PutOK, r.Status, "%v", r.Err)
			}
			dispatched(t, b, "%RETRY%G", 0, 4)
			resp := invoke(t, cl, b.Addr(), pull("%RETRY%G", 0, 0, 0, "*"))
			require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
			want := []string{"r1", "r2", "r3"}
			if !support {
				want = []string{"r0", "r1", "r2", "r3"}
			}
			require.Equal(t, want, pulledBodies(t, resp))
		})
	}
}

// Java 4.9.8 CommitLogDispatcherCalcBitMap (enableCalcFilterBitMap with
// enableConsumeQueueExt): each message's consume-queue extension unit
// carries the bloom bits of the filters that select it, and a pull with
// the group's registered filter skips the units whose bits rule them out
// before it reads the commit log, selecting the same messages.
func TestPullSQL92FilterBitMap(t *testing.T) {
	b, cl := startBroker(t, "enablePropertyFilter=true", "enableCalcFilterBitMap=true", "enableConsumeQueueExt=true")
	addr := b.Addr()
	sd := body.NewSubscriptionData(1)
	sd.Topic, sd.SubString, sd.ExpressionType = body.Str("BmTopic"), body.Str("n >= 2"), body.Str(body.ExpressionTypeSQL92)
	hb := body.HeartbeatData{ClientID: body.Str("127.0.0.1@bm"), ConsumerDataSet: []body.ConsumerData{{GroupName: body.Str("CG"),
		ConsumeType: body.ConsumeActively, MessageModel: body.Clustering, SubscriptionDataSet: []body.SubscriptionData{sd}}}}
	resp := invoke(t, cl, addr, heartbeat(hb))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	f, ok := b.filters.Get("BmTopic", "CG")
	require.True(t, ok, "the heartbeat registered the filter")
	// Units stored in the millisecond the filter was born skip the bit
	// map check (isMsgInLive), so the messages come after it.
	born := time.Now().UnixMilli()
	require.Eventually(t, func() bool { return time.Now().UnixMilli() > born+1 }, time.Second, time.Millisecond)

	for i := range 6 {
		resp := invoke(t, cl, addr, sendProps("BmTopic", fmt.Sprint("m", i), message.Properties{{Key: "n", Value: fmt.Sprint(i)}}))
		require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	}
	dispatched(t, b, "BmTopic", 0, 6)
	q := b.store.ConsumeQueues().Get("BmTopic", 0)
	for i := range int64(6) {
		u, err := q.Get(i)
		require.NoError(t, err)
		require.True(t, consumequeue.IsExtAddr(u.TagsCode), "unit %d has an ext unit", i)
		ext, err := q.ExtUnit(u.TagsCode)
		require.NoError(t, err)
		require.Len(t, ext.BitMap, 14, "the bloom filter's 112 bits")
		require.Equal(t, i >= 2, f.MatchBitMap(ext.MsgStoreTime, ext.BitMap), "unit %d", i)
		registered, carried := sqlFilter{m: f.Matcher, bitMap: f.MatchBitMap}, sqlFilter{m: f.Matcher}
		require.Equal(t, i >= 2, registered.MatchTagsCode(ext.TagsCode, true, &ext), "unit %d, consume-queue check", i)
		require.True(t, carried.MatchTagsCode(ext.TagsCode, true, &ext), "a carried filter has no bloom data")
	}

	pullReq := pull("BmTopic", 0, 0, 0, "")
	var h protocol.PullMessageRequestHeader
	require.NoError(t, h.DecodeFrom(pullReq))
	h.SysFlag &^= pullFlagSubscription // the registered filter
	h.ExpressionType, h.SubVersion = body.ExpressionTypeSQL92, protocol.Some[int64](1)
	h.EncodeTo(pullReq)
	resp = invoke(t, cl, addr, pullReq)
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	require.Equal(t, []string{"m2", "m3", "m4", "m5"}, pulledBodies(t, resp))
}
