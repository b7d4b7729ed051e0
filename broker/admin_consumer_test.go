package broker

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// fakeClients records what the broker sends to clients and answers calls
// with answer.
type fakeClients struct {
	mu     sync.Mutex
	sent   []sentReq
	answer func(ch clients.Channel, req *wire.Command) (*wire.Command, error)
}

type sentReq struct {
	to      string
	req     *wire.Command
	timeout time.Duration
}

func (f *fakeClients) Oneway(ch clients.Channel, req *wire.Command) error {
	f.record(ch, req, 0)
	return nil
}

func (f *fakeClients) Call(_ context.Context, ch clients.Channel, req *wire.Command, timeout time.Duration) (*wire.Command, error) {
	f.record(ch, req, timeout)
	if f.answer == nil {
		return nil, fmt.Errorf("%w: no answer", remoting.ErrTimeout)
	}
	return f.answer(ch, req)
}

func (f *fakeClients) record(ch clients.Channel, req *wire.Command, timeout time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, sentReq{to: ch.RemoteAddr(), req: req, timeout: timeout})
}

func (e *adminEnv) consumerAdmin(fc *fakeClients) handlerTable {
	return handlers((&consumerAdmin{store: e.store, topics: e.topics, offsets: e.offsets, consumers: e.consumers,
		brokerName: envBroker, clients: fc, log: e.log}).register)
}

// join registers a consumer of group subscribing topics (version 4.9.8
// unless given).
func (e *adminEnv) join(group, addr, clientID string, version int32, topics ...string) {
	var subs []body.SubscriptionData
	for _, topic := range topics {
		sd := body.NewSubscriptionData(1)
		sd.Topic, sd.SubString = body.Str(topic), body.Str("*")
		subs = append(subs, sd)
	}
	e.consumers.Register(group, clients.ClientChannelInfo{Channel: fakeChan(addr), ClientID: clientID, Version: version},
		clients.Registration{Subscriptions: subs})
}

// mqRows turns "TOPIC:Q:OFF" strings into table rows of envBroker.
func mqRows(t *testing.T, specs ...string) []body.MQOffset {
	t.Helper()
	var out []body.MQOffset
	for _, s := range specs {
		var q int32
		var off int64
		p := strings.Split(s, ":")
		_, err := fmt.Sscanf(p[1]+" "+p[2], "%d %d", &q, &off)
		require.NoError(t, err)
		out = append(out, body.MQOffset{MQ: body.MessageQueue{Topic: p[0], BrokerName: envBroker, QueueID: q}, Offset: off})
	}
	return out
}

// TestConsumerAdminBodiesMatchJava pins the reset-offset and
// consumer-status bodies to the 4.9.8 classes, with enough queues for the
// HashMap to resize.
func TestConsumerAdminBodiesMatchJava(t *testing.T) {
	var specs []string
	for i := range 20 {
		specs = append(specs, fmt.Sprintf("Topic%d:%d:%d", i%3, i, int64(i)*1000+7))
	}
	rows := mqRows(t, specs...)
	status := []body.ConsumerStatus{
		{ClientID: "10.0.0.1@111", Offsets: rows[:5]},
		{ClientID: "10.0.0.2@222", Offsets: rows[5:]},
		{ClientID: "10.0.0.3@333"},
	}
	lines := []string{
		"resetoffset\t" + envBroker + "\t" + strings.Join(specs, "\t"),
		"resetoffsetc\t" + envBroker + "\t" + strings.Join(specs, "\t"),
		"consumerstatus\t" + envBroker + "\t10.0.0.1@111=" + strings.Join(specs[:5], ",") +
			"\t10.0.0.2@222=" + strings.Join(specs[5:], ",") + "\t10.0.0.3@333=",
		"clientstatus\t" + envBroker + "\t" + strings.Join(specs, "\t"),
	}
	java := javaAdminBodies(t, lines)
	require.Equal(t, java[0], string(body.EncodeResetOffsetBody(rows)))
	require.Equal(t, java[1], string(body.EncodeResetOffsetBodyForC(rows)))
	require.Equal(t, java[2], string(body.EncodeGetConsumerStatusBody(status)))

	decoded, err := body.DecodeConsumerStatusOffsets([]byte(java[3]))
	require.NoError(t, err)
	require.ElementsMatch(t, rows, decoded)
	// Written back as the broker's table, the decoded rows give Java's bytes.
	require.Equal(t, java[0], string(body.EncodeResetOffsetBody(decoded)))
}

func TestDecodeConsumerStatusOffsetsRejectsGarbage(t *testing.T) {
	for _, in := range []string{"", "null", "[1]", "{", `{"messageQueueTable":{{"queueId":"x"}:1}}`} {
		_, err := body.DecodeConsumerStatusOffsets([]byte(in))
		require.Error(t, err, "%q", in)
	}
	rows, err := body.DecodeConsumerStatusOffsets([]byte(`{"messageQueueTable":{null:1,{"topic":"T","brokerName":"b","queueId":2}:null,{"topic":"T","brokerName":"b","queueId":3}:9}}`))
	require.NoError(t, err)
	require.Equal(t, []body.MQOffset{{MQ: body.MessageQueue{Topic: "T", BrokerName: "b", QueueID: 3}, Offset: 9}}, rows)
}

func resetReq(topic, group string, ts int64, force bool) *wire.Command {
	return request(protocol.ReqInvokeBrokerToResetOffset, &protocol.ResetOffsetRequestHeader{Topic: topic, Group: group, Timestamp: ts, IsForce: force})
}

// TestResetOffset follows Broker2Client.resetOffset: the offsets of a
// timestamp (or the end), kept where a non-forced reset would go forward,
// sent oneway to every consumer of the group; CONSUMER_NOT_ONLINE when
// there is none (mqadmin then resets the offsets itself).
func TestResetOffset(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicR", 2)
	var mid int64
	for i := range 6 {
		r := e.put(t, "TopicR", int32(i%2), "k", fmt.Sprintf("m%d", i))
		if i == 3 {
			mid = r.StoreTimestamp
		}
		time.Sleep(2 * time.Millisecond) // distinct store times
	}
	e.waitDispatched(t)
	fc := &fakeClients{}
	ht := e.consumerAdmin(fc)
	h := ht[protocol.ReqInvokeBrokerToResetOffset]

	resp := call(t, h, resetReq("NoSuchTopic", "G", 0, true))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "[reset-offset] reset offset failed, no topic in this broker. topic=NoSuchTopic", resp.Remark)

	resp = call(t, h, resetReq("TopicR", "G", 0, true))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "THe consumer group <G> not exist", resp.Remark)

	e.offsets.Commit("c", "G", "TopicR", 0, 3)
	e.offsets.Commit("c", "G", "TopicR", 1, 1)
	resp = call(t, h, resetReq("TopicR", "G", 0, true))
	require.Equal(t, int32(protocol.RespConsumerNotOnline), resp.Code)
	require.Equal(t, "Consumer not online, so can not reset offset, Group: G Topic: TopicR Timestamp: 0", resp.Remark)
	require.Empty(t, fc.sent)

	e.join("G", "10.0.0.1:1", "c1", wire.CurrentVersion, "TopicR")
	e.join("G", "10.0.0.2:2", "c2", wire.CurrentVersion, "TopicR")
	for _, tc := range []struct {
		name  string
		ts    int64
		force bool
		want  []string
	}{
		{"forced to the start", 0, true, []string{"TopicR:0:0", "TopicR:1:0"}},
		{"forced to the end", -1, true, []string{"TopicR:0:3", "TopicR:1:3"}},
		{"not forced past the group", -1, false, []string{"TopicR:0:3", "TopicR:1:1"}},
		{"forced to a time", mid, true, []string{ // the store's answer for the time (nearest store time)
			fmt.Sprintf("TopicR:0:%d", e.store.OffsetInQueueByTime("TopicR", 0, mid)), "TopicR:1:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc.sent = nil
			resp := call(t, h, resetReq("TopicR", "G", tc.ts, tc.force))
			require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
			want := string(body.EncodeResetOffsetBody(mqRows(t, tc.want...)))
			require.Equal(t, want, string(resp.Body))
			require.Len(t, fc.sent, 2)
			for i, s := range fc.sent {
				require.Equal(t, []string{"10.0.0.1:1", "10.0.0.2:2"}[i], s.to)
				out := frameRoundTrip(t, s.req)
				require.Equal(t, int32(protocol.ReqResetConsumerClientOffset), out.Code)
				var hdr protocol.ResetOffsetRequestHeader
				require.NoError(t, hdr.DecodeFrom(out))
				require.Equal(t, protocol.ResetOffsetRequestHeader{Topic: "TopicR", Group: "G", Timestamp: tc.ts}, hdr)
				require.Equal(t, want, string(out.Body))
			}
		})
	}

	// A C++ admin gets the list form sent to the clients, the map back.
	fc.sent = nil
	req := resetReq("TopicR", "G", 0, true)
	req.Language = wire.LanguageCPP
	resp = call(t, h, req)
	require.Equal(t, string(body.EncodeResetOffsetBody(mqRows(t, "TopicR:0:0", "TopicR:1:0"))), string(resp.Body))
	require.Equal(t, string(body.EncodeResetOffsetBodyForC(mqRows(t, "TopicR:0:0", "TopicR:1:0"))), string(fc.sent[0].req.Body))

	// Clients older than V3_0_7_SNAPSHOT cannot reset.
	e.join("G", "10.0.0.3:3", "c3", 27, "TopicR")
	resp = call(t, h, resetReq("TopicR", "G", 0, true))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Contains(t, resp.Remark, "the client does not support this feature")
}

// TestConsumerStatus asks every consumer (or the one named) for its
// offsets and answers with the table of those that answered.
func TestConsumerStatus(t *testing.T) {
	e := newAdminEnv(t)
	rows := mqRows(t, "TopicS:0:5", "TopicS:1:7")
	fc := &fakeClients{answer: func(ch clients.Channel, req *wire.Command) (*wire.Command, error) {
		if ch.RemoteAddr() == "10.0.0.3:3" {
			return nil, fmt.Errorf("%w: slow client", remoting.ErrTimeout)
		}
		resp := wire.NewResponse(req, int32(protocol.RespSuccess), "")
		resp.Body = []byte(`{"consumerTable":{},"messageQueueTable":` + string(body.EncodeResetOffsetBody(rows))[len(`{"offsetTable":`):])
		return resp, nil
	}}
	h := e.consumerAdmin(fc)[protocol.ReqInvokeBrokerToGetConsumerStatus]
	status := func(client string) *wire.Command {
		return call(t, h, request(protocol.ReqInvokeBrokerToGetConsumerStatus,
			&protocol.GetConsumerStatusRequestHeader{Topic: "TopicS", Group: "G", ClientAddr: client}))
	}

	// Java reads the missing group's info and throws: SYSTEM_ERROR in the
	// server's serialize type.
	err := callErr(t, h, request(protocol.ReqInvokeBrokerToGetConsumerStatus,
		&protocol.GetConsumerStatusRequestHeader{Topic: "TopicS", Group: "G"}))
	pe, ok := protocol.AsError(err)
	require.True(t, ok)
	require.Equal(t, protocol.RespSystemError, pe.Code)
	require.True(t, pe.Thrown)

	e.join("G", "10.0.0.1:1", "c1", wire.CurrentVersion, "TopicS")
	e.join("G", "10.0.0.2:2", "c2", wire.CurrentVersion, "TopicS")
	e.join("G", "10.0.0.3:3", "c3", wire.CurrentVersion, "TopicS")
	resp := status("")
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, string(body.EncodeGetConsumerStatusBody([]body.ConsumerStatus{{ClientID: "c1", Offsets: rows}, {ClientID: "c2", Offsets: rows}})),
		string(resp.Body))
	require.Len(t, fc.sent, 3)
	out := frameRoundTrip(t, fc.sent[0].req)
	require.Equal(t, int32(protocol.ReqGetConsumerStatusFromClient), out.Code)
	require.Equal(t, statusTimeout, fc.sent[0].timeout)

	fc.sent = nil
	resp = status("c2")
	require.Equal(t, string(body.EncodeGetConsumerStatusBody([]body.ConsumerStatus{{ClientID: "c2", Offsets: rows}})), string(resp.Body))
	require.Len(t, fc.sent, 1)
	require.Equal(t, "10.0.0.2:2", fc.sent[0].to)
}

// TestRelayToConsumer covers callConsumer: GET_CONSUMER_RUNNING_INFO and
// CONSUME_MESSAGE_DIRECTLY reach the named consumer with the request's
// fields, and its answer comes back as the answer.
func TestRelayToConsumer(t *testing.T) {
	e := newAdminEnv(t)
	r := e.put(t, "TopicD", 0, "k", "direct-body")
	e.waitDispatched(t)
	fc := &fakeClients{answer: func(ch clients.Channel, req *wire.Command) (*wire.Command, error) {
		resp := wire.NewResponse(req, int32(protocol.RespSuccess), "from "+ch.RemoteAddr())
		resp.Opaque = 999 // the client's own opaque
		resp.Body = []byte(`{"properties":{}}`)
		return resp, nil
	}}
	ht := e.consumerAdmin(fc)
	info := request(protocol.ReqGetConsumerRunningInfo, &protocol.GetConsumerRunningInfoRequestHeader{ConsumerGroup: "G", ClientId: "c1", JstackEnable: true})
	info.Opaque = 42

	resp := call(t, ht[protocol.ReqGetConsumerRunningInfo], info)
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "The Consumer <G> <c1> not online", resp.Remark)

	e.join("G", "10.0.0.1:1", "c1", wire.CurrentVersion, "TopicD")
	resp = call(t, ht[protocol.ReqGetConsumerRunningInfo], info)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, "from 10.0.0.1:1", resp.Remark)
	require.Equal(t, int32(42), resp.Opaque)
	require.True(t, resp.IsResponse())
	require.Equal(t, `{"properties":{}}`, string(resp.Body))
	out := frameRoundTrip(t, fc.sent[0].req)
	require.Equal(t, int32(protocol.ReqGetConsumerRunningInfo), out.Code)
	require.Equal(t, relayTimeout, fc.sent[0].timeout)
	var ih protocol.GetConsumerRunningInfoRequestHeader
	require.NoError(t, ih.DecodeFrom(out))
	require.Equal(t, protocol.GetConsumerRunningInfoRequestHeader{ConsumerGroup: "G", ClientId: "c1", JstackEnable: true}, ih)

	id := message.OffsetMsgID(envStoreHost, r.WroteOffset)
	fc.sent = nil
	resp = call(t, ht[protocol.ReqConsumeMessageDirectly], request(protocol.ReqConsumeMessageDirectly,
		&protocol.ConsumeMessageDirectlyResultRequestHeader{ConsumerGroup: "G", ClientId: "c1", MsgId: id}))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	out = frameRoundTrip(t, fc.sent[0].req)
	require.Equal(t, int32(protocol.ReqConsumeMessageDirectly), out.Code)
	broker, _ := out.ExtValue("brokerName")
	require.Equal(t, envBroker, broker)
	recs := records(t, out.Body)
	require.Len(t, recs, 1)
	require.Equal(t, "direct-body", string(recs[0].Body))

	for _, bad := range []string{"nothex", message.OffsetMsgID(envStoreHost, r.WroteOffset+1<<30)} {
		err := callErr(t, ht[protocol.ReqConsumeMessageDirectly], request(protocol.ReqConsumeMessageDirectly,
			&protocol.ConsumeMessageDirectlyResultRequestHeader{ConsumerGroup: "G", ClientId: "c1", MsgId: bad}))
		pe, ok := protocol.AsError(err)
		require.True(t, ok && pe.Code == protocol.RespSystemError && pe.Thrown, "%s: %v", bad, err) // Java throws on both
	}

	fc.answer = nil // the client does not answer in time
	resp = call(t, ht[protocol.ReqGetConsumerRunningInfo], info)
	require.Equal(t, int32(protocol.RespConsumeMsgTimeout), resp.Code)
	require.True(t, strings.HasPrefix(resp.Remark, "consumer <G> <c1> Timeout: "), resp.Remark)

	e.join("G", "10.0.0.2:2", "old", 61, "TopicD")
	resp = call(t, ht[protocol.ReqGetConsumerRunningInfo], request(protocol.ReqGetConsumerRunningInfo,
		&protocol.GetConsumerRunningInfoRequestHeader{ConsumerGroup: "G", ClientId: "old"}))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Contains(t, resp.Remark, "too low to finish")
}

// TestCloneGroupOffset copies offsets per topic; an online source group
// that does not subscribe a topic keeps it unless the clone is offline.
func TestCloneGroupOffset(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicA", 2)
	e.createTopic(t, "TopicB", 1)
	e.offsets.Commit("c", "Src", "TopicA", 0, 4)
	e.offsets.Commit("c", "Src", "TopicA", 1, 6)
	e.offsets.Commit("c", "Src", "TopicB", 0, 9)
	e.offsets.Commit("c", "Src", "Gone", 0, 1) // no topic config: skipped
	h := e.consumerAdmin(&fakeClients{})[protocol.ReqCloneGroupOffset]
	clone := func(dst, topic string, offline bool) {
		resp := call(t, h, request(protocol.ReqCloneGroupOffset, &protocol.CloneGroupOffsetRequestHeader{SrcGroup: "Src", DestGroup: dst, Topic: topic, Offline: offline}))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	}

	clone("D1", "TopicA", false)
	require.Equal(t, int64(4), e.offsets.Query("D1", "TopicA", 0))
	require.Equal(t, int64(6), e.offsets.Query("D1", "TopicA", 1))
	require.Equal(t, int64(-1), e.offsets.Query("D1", "TopicB", 0))

	clone("D2", "", false)
	require.Equal(t, int64(6), e.offsets.Query("D2", "TopicA", 1))
	require.Equal(t, int64(9), e.offsets.Query("D2", "TopicB", 0))
	require.Equal(t, int64(-1), e.offsets.Query("D2", "Gone", 0))

	e.join("Src", "10.0.0.1:1", "c1", wire.CurrentVersion, "TopicA")
	clone("D3", "TopicB", false)
	require.Equal(t, int64(-1), e.offsets.Query("D3", "TopicB", 0))
	clone("D3", "TopicB", true)
	require.Equal(t, int64(9), e.offsets.Query("D3", "TopicB", 0))
}
