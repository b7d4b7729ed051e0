package broker

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/broker/topics"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/config"
	"github.com/sputnikmq/sputnik/store/message"
)

// startBroker runs a broker on a random loopback port with tiny store
// files and no name server.
func startBroker(t testing.TB, extra ...string) (*Broker, *remoting.Client) {
	t.Helper()
	return startBrokerIn(t, t.TempDir(), extra...)
}

// startBrokerIn is startBroker with dir as ROCKETMQ_HOME and the store's
// parent.
func startBrokerIn(t testing.TB, dir string, extra ...string) (*Broker, *remoting.Client) {
	t.Helper()
	conf := filepath.Join(dir, "broker.conf")
	lines := []string{
		"brokerName=broker-t", "brokerIP1=127.0.0.1", "brokerIP2=127.0.0.1",
		"storePathRootDir=" + filepath.Join(dir, "store"), "mappedFileSizeCommitLog=1048576",
		"mappedFileSizeConsumeQueue=6000", "maxHashSlotNum=1000", "maxIndexNum=4000",
	}
	content := ""
	for _, l := range append(lines, extra...) {
		content += l + "\n"
	}
	require.NoError(t, os.WriteFile(conf, []byte(content), 0o644))
	st, err := brokerconfig.Load([]string{"-c", conf}, map[string]string{"ROCKETMQ_HOME": dir}, dir)
	require.NoError(t, err)
	require.Nil(t, st.Exit)
	b, err := New(st, Options{ListenAddr: "127.0.0.1:0"})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, b.Shutdown(ctx))
	})
	cl := remoting.NewClient(remoting.ClientConfig{})
	t.Cleanup(func() { _ = cl.Close() })
	return b, cl
}

// dispatched waits until a queue holds n messages (dispatch to consume
// queues is asynchronous, as in Java).
func dispatched(t *testing.T, b *Broker, topic string, q int32, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for b.store.MaxOffsetInQueue(topic, q) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%s-%d never reached %d messages", topic, q, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func invoke(t *testing.T, cl *remoting.Client, addr string, req *wire.Command) *wire.Command {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cl.InvokeSync(ctx, addr, req)
	require.NoError(t, err)
	return resp
}

func sendV2(topic string, queueID int32, body, tags string) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqSendMessageV2))
	props := message.AppendProperties(nil, message.Properties{{Key: message.PropTags, Value: tags}, {Key: message.PropWait, Value: "true"}})
	(&protocol.SendMessageRequestHeaderV2{
		ProducerGroup: protocol.Some("PG"), Topic: topic, DefaultTopic: protocol.Some("TBW102"), DefaultTopicQueueNums: protocol.Some[int32](4),
		QueueId: queueID, BornTimestamp: time.Now().UnixMilli(), Properties: string(props),
	}).EncodeTo(req)
	req.Body = []byte(body)
	return req
}

// heartbeat is a HEART_BEAT request carrying hb.
func heartbeat(hb body.HeartbeatData) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqHeartBeat))
	req.Body = hb.Encode()
	return req
}

func pull(topic string, queueID int32, offset int64, suspendMs int64, sub string) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqPullMessage))
	(&protocol.PullMessageRequestHeader{
		ConsumerGroup: "CG", Topic: topic, QueueId: queueID, QueueOffset: offset, MaxMsgNums: 32,
		SysFlag: pullFlagSuspend | pullFlagSubscription, SuspendTimeoutMillis: protocol.Some(suspendMs), Subscription: sub,
		CommitOffset: protocol.Some[int64](0), SubVersion: protocol.Some[int64](0), // sent by every client
	}).EncodeTo(req)
	return req
}

// Java 4.9.8: SendMessageProcessor auto-creates the topic from TBW102 and
// answers msgId/queueId/queueOffset; PullMessageProcessor answers FOUND
// with the records, and PULL_NOT_FOUND suspends until a message arrives.
func TestSendPullLongPolling(t *testing.T) { testSendPullLongPolling(t) }

// With transientStorePoolEnable a message reaches consumers once the
// commit service has written it (within commitCommitLogThoroughInterval,
// 200 ms), and a suspended pull is still woken by it.
func TestSendPullLongPollingTransientStorePool(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the staging ring is Linux-only")
	}
	testSendPullLongPolling(t, "transientStorePoolEnable=true")
}

func testSendPullLongPolling(t *testing.T, conf ...string) {
	b, cl := startBroker(t, conf...)
	require.Equal(t, slices.Contains(conf, "transientStorePoolEnable=true"), b.store.CommitLog().Staged())
	addr := b.Addr()
	for i := range 3 {
		resp := invoke(t, cl, addr, sendV2("AutoTopic", 1, fmt.Sprint("hello ", i), "TagA"))
		require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
		var rh protocol.SendMessageResponseHeader
		require.NoError(t, rh.DecodeFrom(resp))
		require.EqualValues(t, i, rh.QueueOffset)
		require.Len(t, rh.MsgId, 32)
		region, _ := resp.ExtValue(message.PropMsgRegion)
		require.Equal(t, "DefaultRegion", region)
	}
	dispatched(t, b, "AutoTopic", 1, 3)
	// Which pulls may be served on the read loop: unfiltered ones of
	// messages in memory.
	h := &pullHandlers{store: b.store}
	require.True(t, h.servedFromMemory(pull("AutoTopic", 1, 0, 1000, "*")))
	require.False(t, h.servedFromMemory(pull("AutoTopic", 1, 0, 1000, "TagA")), "a tag filter may scan past maxMsgNums units")
	require.False(t, h.servedFromMemory(pull("AutoTopic", 1, 3, 1000, "*")), "at the end: it suspends")
	require.False(t, h.servedFromMemory(pull("AutoTopic", 7, 0, 1000, "*")), "no such queue")
	resp := invoke(t, cl, addr, pull("AutoTopic", 1, 0, 1000, "TagA"))
	require.EqualValues(t, protocol.RespSuccess, resp.Code)
	require.Equal(t, "FOUND", resp.Remark)
	var n int
	for rest := resp.Body; len(rest) > 0; n++ {
		rec, err := message.DecodeRecord(rest, true)
		require.NoError(t, err)
		require.Equal(t, fmt.Sprint("hello ", n), string(rec.Body))
		rest = rest[rec.TotalSize:]
	}
	require.Equal(t, 3, n)

	// Tag filter: nothing matches TagB, so the pull suspends and times out.
	start := time.Now()
	resp = invoke(t, cl, addr, pull("AutoTopic", 1, 0, 300, "TagB"))
	require.EqualValues(t, protocol.RespPullRetryImmediately, resp.Code, resp.Remark)
	_ = start

	// Long polling: a pull at the end waits and is woken by a send.
	done := make(chan *wire.Command, 1)
	go func() { done <- invoke(t, cl, addr, pull("AutoTopic", 1, 3, 5000, "*")) }()
	time.Sleep(100 * time.Millisecond)
	sent := time.Now()
	invoke(t, cl, addr, sendV2("AutoTopic", 1, "wake up", "TagA"))
	select {
	case resp = <-done:
		require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
		require.Less(t, time.Since(sent), 2*time.Second, "woken by the message, not the timeout")
	case <-time.After(8 * time.Second):
		t.Fatal("suspended pull never answered")
	}

	// Suspend timeout with nothing new: PULL_NOT_FOUND after ~the timeout.
	start = time.Now()
	resp = invoke(t, cl, addr, pull("AutoTopic", 1, 4, 300, "*"))
	require.EqualValues(t, protocol.RespPullNotFound, resp.Code)
	require.GreaterOrEqual(t, time.Since(start), 250*time.Millisecond)
}

func TestSendChecks(t *testing.T) {
	b, cl := startBroker(t, "autoCreateTopicEnable=false")
	addr := b.Addr()
	resp := invoke(t, cl, addr, sendV2("NoSuchTopic", 0, "x", ""))
	require.EqualValues(t, protocol.RespTopicNotExist, resp.Code)
	require.Contains(t, resp.Remark, "topic[NoSuchTopic] not exist, apply first please!")
	resp = invoke(t, cl, addr, sendV2("bad topic!", 0, "x", ""))
	require.EqualValues(t, protocol.RespSystemError, resp.Code)
	resp = invoke(t, cl, addr, sendV2("SCHEDULE_TOPIC_XXXX", 0, "x", ""))
	require.EqualValues(t, protocol.RespNoPermission, resp.Code)
	require.Equal(t, "Sending message to topic[SCHEDULE_TOPIC_XXXX] is forbidden.", resp.Remark)

	create := wire.NewRequest(int32(protocol.ReqUpdateAndCreateTopic))
	(&protocol.CreateTopicRequestHeader{Topic: "Made", DefaultTopic: protocol.Some("TBW102"), ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6, TopicFilterType: "SINGLE_TAG"}).EncodeTo(create)
	resp = invoke(t, cl, addr, create)
	require.EqualValues(t, protocol.RespSuccess, resp.Code)
	require.Equal(t, "not set any response code", resp.Remark, "Java's updateAndCreateTopic never clears it")
	resp = invoke(t, cl, addr, sendV2("Made", 5, "x", ""))
	require.EqualValues(t, protocol.RespSystemError, resp.Code)
	require.Contains(t, resp.Remark, "request queueId[5] is illegal, TopicConfig [topicName=Made, readQueueNums=2, writeQueueNums=2, perm=RW-")
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, sendV2("Made", 1, "x", "")).Code)

	dispatched(t, b, "Made", 1, 1)
	q := wire.NewRequest(int32(protocol.ReqGetMaxOffset))
	(&protocol.GetMaxOffsetRequestHeader{Topic: "Made", QueueId: 1}).EncodeTo(q)
	resp = invoke(t, cl, addr, q)
	var mh protocol.GetMaxOffsetResponseHeader
	require.NoError(t, mh.DecodeFrom(resp))
	require.EqualValues(t, 1, mh.Offset)

	co := wire.NewRequest(int32(protocol.ReqQueryConsumerOffset))
	(&protocol.QueryConsumerOffsetRequestHeader{ConsumerGroup: "G", Topic: "Made", QueueId: 1}).EncodeTo(co)
	resp = invoke(t, cl, addr, co)
	require.EqualValues(t, protocol.RespSuccess, resp.Code, "a new group on a queue starting at 0 gets offset 0")
	up := wire.NewRequest(int32(protocol.ReqUpdateConsumerOffset))
	(&protocol.UpdateConsumerOffsetRequestHeader{ConsumerGroup: "G", Topic: "Made", QueueId: 1, CommitOffset: 1}).EncodeTo(up)
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, up).Code)
	resp = invoke(t, cl, addr, co)
	var oh protocol.QueryConsumerOffsetResponseHeader
	require.NoError(t, oh.DecodeFrom(resp))
	require.EqualValues(t, 1, oh.Offset)
}

// Java serves every processor but pull on listenPort-2 too (the VIP
// channel Java producers use when vipChannelEnabled).
func TestVIPPortServesSendNotPull(t *testing.T) {
	b, cl := startBroker(t)
	vip := b.vip.Addr().String()
	resp := invoke(t, cl, vip, sendV2("VipTopic", 0, "via vip", ""))
	require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
	resp = invoke(t, cl, vip, pull("VipTopic", 0, 0, 0, "*"))
	require.EqualValues(t, protocol.RespRequestCodeNotSupported, resp.Code)
}

func TestOrderTopicsOf(t *testing.T) {
	require.Equal(t, map[string]string{"T": "broker-a:4;broker-b:4"}, orderTopicsOf([]byte(`{"table":{"T":"broker-a:4;broker-b:4"}}`)))
	require.Nil(t, orderTopicsOf(nil))
	require.Nil(t, orderTopicsOf([]byte(`{}`)))
	require.Equal(t, map[string]string{}, orderTopicsOf([]byte(`{"table":{}}`)))
}

// RegisterBrokerBody.encode(true): zlib of length-prefixed parts.
func TestCompressedRegisterBody(t *testing.T) {
	wr := topics.Wrapper{DataVersion: config.DataVersion{Counter: 3, Timestamp: 17}, Topics: []config.TopicConfig{
		{TopicName: "T1", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicFilterType: config.SingleTag},
		{TopicName: "T2", ReadQueueNums: 8, WriteQueueNums: 2, Perm: 7, TopicFilterType: config.MultiTag},
	}}
	zr, err := zlib.NewReader(bytes.NewReader(compressedBody(wr, 4)))
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	next := func() string {
		n := binary.BigEndian.Uint32(raw)
		s := string(raw[4 : 4+n])
		raw = raw[4+n:]
		return s
	}
	require.Equal(t, `{"counter":3,"timestamp":17}`, next())
	require.EqualValues(t, 2, binary.BigEndian.Uint32(raw))
	raw = raw[4:]
	require.Equal(t, "T1 4 4 4 SINGLE_TAG", next(), "perm rewritten to brokerPermission")
	require.Equal(t, "T2 8 2 4 MULTI_TAG", next())
	require.Equal(t, "[]", next())
	require.Empty(t, raw)
}
