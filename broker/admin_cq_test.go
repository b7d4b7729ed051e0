package broker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

func cqReq(topic string, q int32, index int64, count int32, group *string) *wire.Command {
	req := request(protocol.ReqQueryConsumeQueue, &protocol.QueryConsumeQueueRequestHeader{Topic: topic, QueueId: q, Index: index, Count: count})
	if group != nil {
		req.SetExt("consumerGroup", *group)
	}
	return req
}

// TestQueryConsumeQueue pins QUERY_CONSUME_QUEUE's answers to Java's: the
// units from an index (at most count), the group's subscription or "not
// online", and the remarks for a missing queue or index.
func TestQueryConsumeQueue(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicQ", 2)
	for i := range 5 {
		e.put(t, "TopicQ", 0, "k", fmt.Sprintf("q-%d", i), "TAGS", []string{"TagA", "TagB"}[i%2])
	}
	e.waitDispatched(t)
	h := handlers(e.stats().register)[protocol.ReqQueryConsumeQueue]

	resp := call(t, h, cqReq("TopicQ", 1, 0, 10, nil))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "1@TopicQ is not exist!", resp.Remark)

	resp = call(t, h, cqReq("TopicQ", 0, 9, 10, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Equal(t, "Index 9 of 0@TopicQ is not exist!", resp.Remark)
	require.Empty(t, resp.Body)

	var rows []string
	q := e.store.ConsumeQueues().Get("TopicQ", 0)
	for i := int64(1); i < 4; i++ {
		u, err := q.Get(i)
		require.NoError(t, err)
		rows = append(rows, fmt.Sprintf("%d:%d:%d", u.Phy, u.Size, u.TagsCode))
	}
	sd := body.NewSubscriptionData(1_700_000_000_123)
	sd.Topic, sd.SubString, sd.TagsSet, sd.CodeSet = body.Str("TopicQ"), body.Str("TagA"), []string{"TagA"}, []int32{2598919}
	e.consumers.Register("G", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.1:1"), ClientID: "c1", Version: wire.CurrentVersion},
		clients.Registration{Subscriptions: []body.SubscriptionData{sd}})

	g, other := "G", "Other"
	var goBodies []string
	for _, group := range []*string{nil, &g, &other} {
		resp := call(t, h, cqReq("TopicQ", 0, 1, 3, group))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
		require.Equal(t, "not set any response code", resp.Remark, "Java never clears it here")
		goBodies = append(goBodies, string(resp.Body))
	}
	prefix := "querycq\t5\t0\t"
	java := javaAdminBodies(t, []string{
		prefix + "-\t-\trows\t" + strings.Join(rows, "\t"),
		prefix + "null\t" + string(sd.JSON()) + "\trows\t" + strings.Join(rows, "\t"),
		prefix + "Other@TopicQ is not online!\t-\trows\t" + strings.Join(rows, "\t"),
		"extunit\t-5\t1700000000000\t-",
		"extunit\t77\t1700000000001\t0180ff0000000000a5",
	})
	require.Equal(t, java[:3], goBodies)

	require.Equal(t, java[3], body.ExtUnitJSON(20, -5, 1_700_000_000_000, nil))
	bits := []byte{0x01, 0x80, 0xff, 0, 0, 0, 0, 0, 0xa5}
	json, bitsText, _ := strings.Cut(java[4], "\t")
	require.Equal(t, json, body.ExtUnitJSON(int16(20+len(bits)), 77, 1_700_000_000_001, bits))
	require.Equal(t, strings.ReplaceAll(bitsText, `\n`, "\n"), body.BitsString(bits))
}
