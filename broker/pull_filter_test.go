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
