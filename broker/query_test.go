package broker

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// records splits a QUERY_MESSAGE body into its records.
func records(t *testing.T, b []byte) []message.Record {
	t.Helper()
	var out []message.Record
	for len(b) > 0 {
		rec, err := message.DecodeRecord(b, true)
		require.NoError(t, err)
		out = append(out, rec)
		b = b[rec.TotalSize:]
	}
	return out
}

func queryReq(topic, key string, maxNum int32, unique bool) *wire.Command {
	req := request(protocol.ReqQueryMessage, &protocol.QueryMessageRequestHeader{
		Topic: topic, Key: key, MaxNum: maxNum, BeginTimestamp: 0, EndTimestamp: time.Now().Add(time.Hour).UnixMilli()})
	if unique {
		req.AddExt(uniqueMsgQueryFlag, "true")
	}
	return req
}

// TestQueryMessage covers queryMsgByKey and queryMsgByUniqueKey (Java
// 4.9.8: QueryMessageProcessor.queryMessage).
func TestQueryMessage(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicQ", 2)
	var wrote []int64
	for i := range 40 {
		r := e.put(t, "TopicQ", int32(i%2), fmt.Sprintf("shared k%d", i), "body-"+strconv.Itoa(i))
		wrote = append(wrote, r.WroteOffset)
	}
	e.put(t, "TopicOther", 0, "shared", "other")
	e.waitDispatched(t)
	ht := handlers((&queryHandlers{store: e.store}).register)
	q := ht[protocol.ReqQueryMessage]

	for _, tc := range []struct {
		name   string
		key    string
		maxNum int32
		unique bool
		want   []int64 // commit-log offsets, ascending
	}{
		{"one key", "k7", 10, false, wrote[7:8]},
		{"shared key limited", "shared", 5, false, nil}, // 5 of the 40, checked by count
		{"unique flag uses defaultQueryMaxNum", "shared", 1, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := call(t, q, queryReq("TopicQ", tc.key, tc.maxNum, tc.unique))
			require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
			var rh protocol.QueryMessageResponseHeader
			require.NoError(t, rh.DecodeFrom(resp))
			require.Positive(t, rh.IndexLastUpdateTimestamp)
			require.Positive(t, rh.IndexLastUpdatePhyoffset)
			recs := records(t, resp.Body)
			for _, r := range recs {
				require.Equal(t, "TopicQ", r.Topic)
			}
			switch {
			case tc.want != nil:
				require.Len(t, recs, len(tc.want))
				for i, r := range recs {
					require.Equal(t, tc.want[i], r.PhysicalOffset)
				}
			case tc.unique:
				require.Len(t, recs, int(e.store.Config().DefaultQueryMaxNum))
			default:
				require.Len(t, recs, int(tc.maxNum))
			}
		})
	}

	resp := call(t, q, queryReq("TopicQ", "nope", 10, false))
	require.Equal(t, int32(protocol.RespQueryNotFound), resp.Code)
	require.Equal(t, "can not find message, maybe time range not correct", resp.Remark)
	require.Empty(t, resp.Body)
	_, ok := resp.ExtValue("indexLastUpdateTimestamp")
	require.True(t, ok, "Java sends the header with QUERY_NOT_FOUND too")
}

// TestViewMessageByID covers queryMsgById (Java 4.9.8:
// QueryMessageProcessor.viewMessageById): the offset id's offset gives the
// record's bytes.
func TestViewMessageByID(t *testing.T) {
	e := newAdminEnv(t)
	r1 := e.put(t, "TopicV", 0, "a", "first")
	r2 := e.put(t, "TopicV", 0, "b", "second")
	ht := handlers((&queryHandlers{store: e.store}).register)
	v := ht[protocol.ReqViewMessageById]
	for _, r := range []int64{r1.WroteOffset, r2.WroteOffset} {
		id := message.OffsetMsgID(envStoreHost, r)
		_, off, err := message.ParseOffsetMsgID(id)
		require.NoError(t, err)
		resp := call(t, v, request(protocol.ReqViewMessageById, &protocol.ViewMessageRequestHeader{Offset: off}))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
		want, ok := e.store.SelectOneMessage(r)
		require.True(t, ok)
		require.Equal(t, want.B, resp.Body)
		want.Release()
		rec := records(t, resp.Body)
		require.Len(t, rec, 1)
		require.Equal(t, id, rec[0].MsgID())
	}
	resp := call(t, v, request(protocol.ReqViewMessageById, &protocol.ViewMessageRequestHeader{Offset: 1 << 33}))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, "can not find message by the offset, 8589934592", resp.Remark)

	req := wire.NewRequest(int32(protocol.ReqViewMessageById))
	req.AddExt("offset", "x")
	callErr(t, v, req)
}
