package broker

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/store/config"
)

func (e *adminEnv) groupAdmin(slave bool) handlerTable {
	h := &groupAdmin{groups: e.groups, offsets: e.offsets, slave: slave, log: e.log,
		allOffsets: func() []byte {
			// Stand-in for the ConsumerOffsetManager.encode the broker
			// wires: the persisted file holds the same (pretty) text.
			if err := e.offsets.Persist(); err != nil {
				return nil
			}
			b, _ := os.ReadFile(config.ConsumerOffsetPath(e.root))
			return b
		}}
	return handlers(h.register)
}

// groupBodies are UPDATE_AND_CREATE_SUBSCRIPTIONGROUP bodies fastjson
// reads in more or less lenient ways.
var groupBodies = []string{
	`{"groupName":"g1","retryMaxTimes":3,"retryQueueNums":2,"consumeEnable":false,"brokerId":1}`,
	`{"groupName":"g2","retryMaxTimes":"5","whichBrokerWhenConsumeSlowly":"2","consumeBroadcastEnable":"false"}`,
	`{"groupName":"g3","unknownField":[1,2],"notifyConsumerIdsChangedEnable":0}`,
	`{"retryMaxTimes":7}`,
	`null`,
}

func goGroupJSON(t *testing.T, body string) string {
	t.Helper()
	g, ok, err := decodeGroupConfig([]byte(body))
	require.NoError(t, err, body)
	if !ok {
		return "null"
	}
	w := fastjson.NewWriter(fastjson.Compact)
	writeGroupConfig(w, g)
	return string(w.Bytes())
}

// TestGroupBodiesMatchJava decodes each body as Java's
// RemotingSerializable.decode(body, SubscriptionGroupConfig.class) does and
// writes it back as toJson() does.
func TestGroupBodiesMatchJava(t *testing.T) {
	var lines []string
	for _, b := range groupBodies {
		lines = append(lines, "group\t"+b)
	}
	for i, want := range javaAdminBodies(t, lines) {
		require.Equal(t, want, goGroupJSON(t, groupBodies[i]), groupBodies[i])
	}
}

func TestDecodeGroupConfigRejects(t *testing.T) {
	for _, b := range []string{``, `[1]`, `"g"`, `{"groupName":`, `{} {}`} {
		_, _, err := decodeGroupConfig([]byte(b))
		require.ErrorIs(t, err, ErrBadGroupBody, "%q", b)
	}
}

func FuzzDecodeGroupConfig(f *testing.F) {
	for _, b := range groupBodies {
		f.Add([]byte(b))
	}
	f.Add([]byte(`{"subscriptionGroupTable":{}}`))
	f.Add([]byte(`{"groupName":"a"}}, "x": {`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, ok, err := decodeGroupConfig(b)
		if err != nil {
			require.ErrorIs(t, err, ErrBadGroupBody)
			return
		}
		if ok { // what we decoded survives being written and read again
			w := fastjson.NewWriter(fastjson.Compact)
			writeGroupConfig(w, g)
			again, ok2, err := decodeGroupConfig(w.Bytes())
			require.NoError(t, err)
			require.True(t, ok2)
			require.Equal(t, g, again)
		}
	})
}

// TestGroupAdmin runs create, list, delete with and without offsets
// (Java 4.9.8: AdminBrokerProcessor.updateAndCreateSubscriptionGroup,
// getAllSubscriptionGroup, deleteSubscriptionGroup, getAllConsumerOffset).
func TestGroupAdmin(t *testing.T) {
	e := newAdminEnv(t)
	ht := e.groupAdmin(false)
	for _, b := range groupBodies {
		req := request(protocol.ReqUpdateAndCreateSubscriptiongroup, nil)
		req.Body = []byte(b)
		if b == `{"retryMaxTimes":7}` { // groupName null: Java's table put throws
			callErr(t, ht[protocol.ReqUpdateAndCreateSubscriptiongroup], req)
			continue
		}
		resp := call(t, ht[protocol.ReqUpdateAndCreateSubscriptiongroup], req)
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, b)
	}
	g, ok := e.groups.Get("g2")
	require.True(t, ok)
	require.Equal(t, int32(5), g.RetryMaxTimes)

	resp := call(t, ht[protocol.ReqGetAllSubscriptiongroupConfig], request(protocol.ReqGetAllSubscriptiongroupConfig, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	all, err := fastjson.Parse(resp.Body)
	require.NoError(t, err)
	v := e.groups.DataVersion()
	require.Equal(t, v.Counter, mustInt64(t, all.Get("dataVersion").Get("counter")))
	table := all.Get("subscriptionGroupTable")
	require.Equal(t, len(e.groups.Groups()), table.Len())
	var lines, goJSON []string
	for k, val := range table.Members() {
		require.Equal(t, k.Text(), val.Get("groupName").Text())
		w := fastjson.NewWriter(fastjson.Compact)
		w.Value(val)
		goJSON = append(goJSON, string(w.Bytes()))
		lines = append(lines, "group\t"+string(w.Bytes()))
	}
	require.Equal(t, goJSON, javaAdminBodies(t, lines), "each group as Java writes it")

	e.offsets.Commit("c", "g1", "T", 0, 5)
	e.offsets.Commit("c", "g2", "T", 1, 6)
	resp = call(t, ht[protocol.ReqGetAllConsumerOffset], request(protocol.ReqGetAllConsumerOffset, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	require.Contains(t, string(resp.Body), `"T@g1":{0:5}`)
	require.NotContains(t, string(resp.Body), "\n")

	del := func(group string, removeOffset bool) {
		resp := call(t, ht[protocol.ReqDeleteSubscriptiongroup], request(protocol.ReqDeleteSubscriptiongroup,
			&protocol.DeleteSubscriptionGroupRequestHeader{GroupName: group, RemoveOffset: removeOffset}))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	}
	del("g1", false)
	del("g2", true)
	del("never", true)
	_, ok = e.groups.Get("g1")
	require.False(t, ok)
	require.Equal(t, int64(5), e.offsets.Query("g1", "T", 0), "offsets stay without removeOffset")
	require.Equal(t, int64(-1), e.offsets.Query("g2", "T", 1))
}

func mustInt64(t *testing.T, v fastjson.Value) int64 {
	t.Helper()
	n, err := v.AsInt64()
	require.NoError(t, err)
	return n
}

func TestGroupAdminOnSlave(t *testing.T) {
	e := newAdminEnv(t)
	ht := e.groupAdmin(true)
	req := request(protocol.ReqUpdateAndCreateSubscriptiongroup, nil)
	req.Body = []byte(groupBodies[0])
	resp := call(t, ht[protocol.ReqUpdateAndCreateSubscriptiongroup], req)
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	require.Equal(t, slaveModifyRemark, resp.Remark)
	resp = call(t, ht[protocol.ReqDeleteSubscriptiongroup], request(protocol.ReqDeleteSubscriptiongroup,
		&protocol.DeleteSubscriptionGroupRequestHeader{GroupName: "x"}))
	require.Equal(t, int32(protocol.RespSystemError), resp.Code)
	_, ok := e.groups.Get("g1")
	require.False(t, ok)
}

func TestCompactJSON(t *testing.T) {
	got, err := compactJSON([]byte("{\n\t\"offsetTable\":{\n\t\t\"T@g\":{0:5,1:6\n\t\t}\n\t}\n}"))
	require.NoError(t, err)
	require.Equal(t, `{"offsetTable":{"T@g":{0:5,1:6}}}`, string(got))
	_, err = compactJSON([]byte("{"))
	require.Error(t, err)
	var se *fastjson.SyntaxError
	require.True(t, errors.As(err, &se))
}
