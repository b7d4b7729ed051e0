package broker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/protocol/protocoltest"
	"github.com/sputnikmq/sputnik/remoting/wire"
	"github.com/sputnikmq/sputnik/store/message"
)

// fuzzNames are the string values a broker request field can take besides
// raw fuzz bytes: the names the test broker holds, system names and
// malformed ones.
func fuzzNames(offsetMsgID string) func(key string) []string {
	return func(key string) []string {
		k := strings.ToLower(key)
		switch {
		case strings.Contains(k, "topic") || key == "b" || key == "c":
			return []string{"FuzzTopic", "TBW102", "%RETRY%FuzzGroup", "%DLQ%FuzzGroup", "SCHEDULE_TOPIC_XXXX",
				"RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC", "FuzzNew", "", "bad topic!", "%LMQ%x", strings.Repeat("T", 200)}
		case strings.Contains(k, "group") || key == "a":
			return []string{"FuzzGroup", "PG", "CG", "%RETRY%FuzzGroup", "TOOLS_CONSUMER", "", "bad group!"}
		case strings.Contains(k, "client"):
			return []string{"fc1", "fc2", "127.0.0.1@1", ""}
		case strings.Contains(k, "msgid"):
			return []string{offsetMsgID, "7F00000100002A9F00000000FFFFFFFF", "X", "", "7F000001"}
		case key == "properties" || key == "i":
			return []string{"TAGS\x01t\x02KEYS\x01k1 k2\x02", "", "\x01\x02", "DELAY\x013\x02", "TRAN_MSG\x01true\x02PGROUP\x01PG\x02",
				"UNIQ_KEY\x01AB\x02", "INSTANCE_ID\x01%LMQ%a\x02INNER_MULTI_DISPATCH\x01%LMQ%a,%LMQ%b\x02", "noseparators",
				"REAL_TOPIC\x01FuzzTopic\x02REAL_QID\x011\x02"}
		case strings.Contains(k, "expression") || k == "subscription":
			return []string{"*", "TAG", "SQL92", "a > 1", "t || u", "", "a >"}
		case strings.Contains(k, "key"):
			return []string{"k1", "", "TOPIC_PUT_NUMS", "GROUP_GET_NUMS"}
		case strings.Contains(k, "name") || strings.Contains(k, "addr"):
			return []string{"broker-t", "DefaultCluster", "127.0.0.1:10911", "", "TOPIC_PUT_NUMS", "x"}
		}
		return nil
	}
}

// fuzzBodies are request bodies the broker's codes read; the shapes the
// body package writes come from its encoders.
func fuzzBodies() [][]byte {
	batch, _ := message.AppendBatchEntry(nil, 0, []byte("b1"), []byte("TAGS\x01t\x02"))
	batch, _ = message.AppendBatchEntry(batch, 0, []byte("b2"), nil)
	sub := body.NewSubscriptionData(1)
	sub.Topic, sub.SubString = body.Str("FuzzTopic"), body.Str("*")
	heartbeat := body.HeartbeatData{ClientID: body.Str("fc1"),
		ProducerDataSet: []body.ProducerData{{GroupName: body.Str("PG")}},
		ConsumerDataSet: []body.ConsumerData{{GroupName: body.Str("FuzzGroup"), ConsumeType: body.ConsumePassively,
			MessageModel: body.Clustering, ConsumeFromWhere: body.ConsumeFromLastOffset, SubscriptionDataSet: []body.SubscriptionData{sub}}}}
	lock := body.LockBatchRequest{ClientID: body.Str("fc1"), ConsumerGroup: body.Str("FuzzGroup"),
		MQSet: []body.MessageQueue{{Topic: "FuzzTopic", BrokerName: "broker-t", QueueID: 0}}}
	sql := body.NewSubscriptionData(1)
	sql.Topic, sql.SubString, sql.ExpressionType = body.Str("FuzzTopic"), body.Str("a > 1"), body.Str(body.ExpressionTypeSQL92)
	check := body.CheckClientRequest{ClientID: body.Str("fc1"), Group: body.Str("FuzzGroup"), SubscriptionData: &sql}
	mq := `{"topic":"FuzzTopic","brokerName":"broker-t","queueId":0}`
	return [][]byte{
		nil, []byte("{}"), []byte("null"), []byte("[]"), []byte("not json"), batch,
		heartbeat.Encode(), lock.Encode(), check.Encode(),
		[]byte(`{"groupName":"FuzzGroup2","consumeEnable":true,"retryQueueNums":1,"retryMaxTimes":16,"brokerId":0}`),
		[]byte(`{"offsetTable":{` + mq + `:5}}`),
		[]byte("fileReservedTime=72\nbrokerPermission=6\n"),
	}
}

// FuzzBrokerRequest sends every code the broker serves, with headers and
// bodies made from fuzz input (the broker's names, edge numbers, malformed
// values, raw bytes), to one in-process broker. Java answers bad input
// with a response code, and so must Sputnik: no handler may panic, no
// request may go unanswered past its deadline but a held pull, and the
// broker must keep answering.
func FuzzBrokerRequest(f *testing.F) {
	reqs, err := protocoltest.Served("broker", "broker+client")
	require.NoError(f, err)
	b, cl := startBroker(f)
	addr := b.Addr()
	values := seedFuzzBroker(f, cl, addr)
	bodies := fuzzBodies()
	for i, r := range reqs {
		f.Add(protocoltest.Seed(i, r, 0))
		f.Add(protocoltest.Seed(i, r, 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, ok := protocoltest.Build(data, reqs, values, bodies)
		if !ok {
			return
		}
		if err := sendChecked(cl, addr, req); err != nil {
			t.Fatal(err)
		}
		alive, err := tryInvoke(cl, addr, wire.NewRequest(int32(protocol.ReqGetBrokerRuntimeInfo)))
		require.NoError(t, err, "after %v", req)
		require.Equal(t, int32(protocol.RespSuccess), alive.Code)
	})
}

// seedFuzzBroker stores three messages in FuzzTopic (queues 0-2, tags t,
// u, t) and returns the values fuzz requests draw on: the broker's names
// and the first message's id and commit-log offset.
func seedFuzzBroker(t testing.TB, cl *remoting.Client, addr string) protocoltest.Values {
	t.Helper()
	var msgID string
	var offset int64
	for i, tags := range []string{"t", "u", "t"} {
		resp, err := tryInvoke(cl, addr, sendV2("FuzzTopic", int32(i), "fuzz seed", tags))
		require.NoError(t, err)
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
		if i == 0 {
			msgID, _ = resp.ExtValue("msgId")
			offset, err = strconv.ParseInt(msgID[len(msgID)-16:], 16, 64)
			require.NoError(t, err)
		}
	}
	return protocoltest.Values{Names: fuzzNames(msgID), Offset: offset}
}

// sendChecked sends one fuzz request; nil when it was answered without a
// panic, or held as Java may hold it.
func sendChecked(c *remoting.Client, addr string, req *wire.Command) error {
	timeout := 3 * time.Second
	if unanswered(req) {
		timeout = 200 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := c.InvokeSync(ctx, addr, req)
	switch {
	case err == nil:
		if resp.Code == int32(protocol.RespSystemError) && strings.HasPrefix(resp.Remark, "panic:") {
			return fmt.Errorf("%v: %s", req, resp.Remark)
		}
		return nil
	case errors.Is(err, remoting.ErrTimeout) && unanswered(req):
		return nil
	}
	return fmt.Errorf("%v: %w", req, err)
}

// unanswered reports whether Java may leave req without a response: a
// pull it holds, or an END_TRANSACTION of neither commit nor rollback,
// where 4.9.8's EndTransactionProcessor returns null.
func unanswered(req *wire.Command) bool {
	switch protocol.RequestCode(req.Code) {
	case protocol.ReqPullMessage:
		return true
	case protocol.ReqEndTransaction:
		var hdr protocol.EndTransactionRequestHeader
		return hdr.DecodeFrom(req) == nil &&
			hdr.CommitOrRollback != message.TransactionCommit && hdr.CommitOrRollback != message.TransactionRollback
	}
	return false
}
