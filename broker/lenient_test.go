package broker

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// without drops header fields from req.
func without(req *wire.Command, keys ...string) *wire.Command {
	req.Ext = slices.DeleteFunc(req.Ext, func(f wire.ExtField) bool { return slices.Contains(keys, f.Key) })
	return req
}

// Header fields Java 4.9.8 marks @CFNotNull but serves a request without,
// failing only where its processor reads them (conformance
// broker/errors/bad-requests compares every case with Java).
func TestFieldsNeededOnlyWhereJavaReadsThem(t *testing.T) {
	b, cl := startBroker(t)
	addr := b.Addr()
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, sendV2("Known", 0, "m0", "")).Code)
	dispatched(t, b, "Known", 0, 1)

	for _, c := range []struct {
		name   string
		req    *wire.Command
		code   protocol.ResponseCode
		remark string
	}{
		{"send without producer group, default topic and queue count", without(sendV2("Known", 0, "m1", ""), "a", "c", "d"),
			protocol.RespSuccess, ""},
		{"a new topic needs the default topic", without(sendV2("New1", 0, "x", ""), "c"),
			protocol.RespSystemError, "the custom field <defaultTopic> is null"},
		{"a new topic needs the queue count", without(sendV2("New2", 0, "x", ""), "d"),
			protocol.RespSystemError, "the custom field <defaultTopicQueueNums> is null"},
		{"an empty default topic names no topic", setExt(sendV2("New3", 0, "x", ""), "c", ""),
			protocol.RespTopicNotExist, "topic[New3] not exist, apply first please!" + protocol.FAQSuggestTodo},
		{"pull without commit offset, suspend time and version", without(pull("Known", 0, 0, 1000, "*"), "commitOffset", "suspendTimeoutMillis", "subVersion"),
			protocol.RespSystemError, "the custom field <suspendTimeoutMillis> is null"},
		{"pull not suspending needs no suspend time", setExt(without(pull("Known", 0, 0, 1000, "*"), "suspendTimeoutMillis", "commitOffset"), "sysFlag", "4"),
			protocol.RespSuccess, "FOUND"},
		{"a committing pull needs its offset", setExt(without(pull("Known", 0, 0, 1000, "*"), "commitOffset"), "sysFlag", strconv.Itoa(pullFlagCommitOffset|pullFlagSubscription)),
			protocol.RespSystemError, "the custom field <commitOffset> is null"},
		{"an SQL92 subscription needs its version", setExt(setExt(without(pull("Known", 0, 0, 1000, "a > 1"), "subVersion"), "expressionType", "SQL92"), "sysFlag", "4"),
			protocol.RespSubscriptionParseFailed, "parse the consumer's subscription failed"},
		{"a pull by the heartbeats' subscription needs the version after the consumer checks", setExt(without(pull("Known", 0, 0, 1000, "*"), "subVersion"), "sysFlag", "0"),
			protocol.RespSubscriptionNotExist, "the consumer's group info not exist" + protocol.FAQSuggestTodo},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := invoke(t, cl, addr, c.req)
			require.EqualValues(t, c.code, resp.Code, resp.Remark)
			if c.remark != "" {
				require.Equal(t, c.remark, resp.Remark)
			}
		})
	}
	create := without(createTopicRequest("Made"), "defaultTopic")
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, addr, create).Code, "UPDATE_AND_CREATE_TOPIC never reads defaultTopic")
}

func setExt(req *wire.Command, key, value string) *wire.Command {
	req.SetExt(key, value)
	return req
}

func createTopicRequest(topic string) *wire.Command {
	req := wire.NewRequest(int32(protocol.ReqUpdateAndCreateTopic))
	(&protocol.CreateTopicRequestHeader{Topic: topic, DefaultTopic: protocol.Some("TBW102"), ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6, TopicFilterType: "SINGLE_TAG"}).EncodeTo(req)
	return req
}

// Java 4.9.8 PullMessageProcessor.generateOffsetMovedEvent: a pull past a
// queue's end stores an OFFSET_MOVED_EVENT with the group as tags and keys
// and the delay level 0, in HashMap order (broker/errors/bad-requests
// compares the record's size with Java's).
func TestOffsetMovedEventRecord(t *testing.T) {
	b, cl := startBroker(t)
	require.EqualValues(t, protocol.RespSuccess, invoke(t, cl, b.Addr(), sendV2("Moved", 0, "m0", "")).Code)
	dispatched(t, b, "Moved", 0, 1)
	resp := invoke(t, cl, b.Addr(), setExt(pull("Moved", 0, 100, 0, "*"), "sysFlag", "4"))
	require.EqualValues(t, protocol.RespPullOffsetMoved, resp.Code, resp.Remark)
	dispatched(t, b, "OFFSET_MOVED_EVENT", 0, 1)
	res, err := b.store.GetMessage("G", "OFFSET_MOVED_EVENT", 0, 0, 1, nil)
	require.NoError(t, err)
	defer res.Release()
	require.Len(t, res.Messages, 1)
	rec, err := message.DecodeRecord(res.Messages[0].B, true)
	require.NoError(t, err)
	require.Equal(t, "KEYS\x01CG\x02DELAY\x010\x02TAGS\x01CG", string(rec.Properties))
	require.Equal(t, `{"consumerGroup":"CG","messageQueue":{"brokerName":"`+b.cfg.Broker.BrokerName+`","queueId":0,"topic":"Moved"},"offsetNew":1,"offsetRequest":100}`, string(rec.Body))
}
