package broker

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/clients"
	"github.com/sputnikmq/sputnik/compat/fastjson"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// TestConsumeTimeSpanBody pins QUERY_CONSUME_TIME_SPAN to Java's
// QueryConsumeTimeSpanBody for the same times, the *Str dates included.
func TestConsumeTimeSpanBody(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicSpan", 3)
	for i := range 5 {
		e.put(t, "TopicSpan", int32(i%2), "k", fmt.Sprintf("s-%d", i))
		time.Sleep(2 * time.Millisecond)
	}
	e.waitDispatched(t)
	e.offsets.Commit("c", "G", "TopicSpan", 0, 1)
	e.offsets.Commit("c", "G", "TopicSpan", 1, 2)
	h := handlers(e.stats().register)[protocol.ReqQueryConsumeTimeSpan]

	resp := call(t, h, request(protocol.ReqQueryConsumeTimeSpan, &protocol.QueryConsumeTimeSpanRequestHeader{Topic: "NoTopic", Group: "G"}))
	require.Equal(t, int32(protocol.RespTopicNotExist), resp.Code)
	require.Equal(t, "topic[NoTopic] not exist", resp.Remark)

	resp = call(t, h, request(protocol.ReqQueryConsumeTimeSpan, &protocol.QueryConsumeTimeSpanRequestHeader{Topic: "TopicSpan", Group: "G"}))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)
	v, err := fastjsonParse(resp.Body)
	require.NoError(t, err)
	var rows []string
	for i, s := range v {
		rows = append(rows, fmt.Sprintf("TopicSpan:%d:%d:%d:%d:%d", i, s["minTimeStamp"], s["maxTimeStamp"], s["consumeTimeStamp"], s["delayTime"]))
	}
	require.Len(t, rows, 3)
	// queue 0: 3 messages, consumed 1, so the second one waits; queue 1
	// consumed fully; queue 2 empty: no times, -1 store times.
	require.Greater(t, v[0]["delayTime"], int64(0))
	require.Equal(t, int64(0), v[1]["delayTime"])
	require.Equal(t, int64(-1), v[2]["maxTimeStamp"])
	java := javaAdminBodies(t, []string{"timespan\t" + envBroker + "\t" + strings.Join(rows, "\t")})
	require.Equal(t, java[0], string(resp.Body))
}

// fastjsonParse reads the numbers of each consumeTimeSpanSet element.
func fastjsonParse(b []byte) ([]map[string]int64, error) {
	root, err := fastjson.Parse(b)
	if err != nil {
		return nil, err
	}
	var out []map[string]int64
	for _, el := range root.Get("consumeTimeSpanSet").Elems() {
		m := map[string]int64{}
		for k, fv := range el.Members() {
			if n, err := fv.AsInt64(); err == nil {
				m[k.Text()] = n
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// TestAllProducerInfoBody pins GET_ALL_PRODUCER_INFO to Java's
// ProducerTableInfo: every group with producers, its channels in order.
func TestAllProducerInfoBody(t *testing.T) {
	pm := clients.NewProducerManager(time.Now, newAdminEnv(t).log)
	pm.Register("PG-A", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.1:1"), ClientID: "c1", Language: wire.LanguageJava, Version: 409})
	pm.Register("PG-A", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.2:2"), ClientID: "c2", Language: wire.LanguageGo, Version: 317})
	pm.Register("PG-B", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.3:3"), ClientID: "c3", Language: wire.LanguageCPP, Version: 400})
	pm.Register("PG-Gone", clients.ClientChannelInfo{Channel: fakeChan("10.0.0.4:4"), ClientID: "c4", Language: wire.LanguageJava, Version: 409})
	pm.ChannelClosed(fakeChan("10.0.0.4:4"))
	h := clientRegistrations(&clients.Handlers{Producers: pm})
	resp := call(t, handlers(h)[protocol.ReqGetAllProducerInfo], request(protocol.ReqGetAllProducerInfo, nil))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code)

	line := []string{"producers"}
	for _, g := range []string{"PG-A", "PG-B"} {
		line = append(line, "G="+g)
		infos, _ := pm.Connections(g)
		for _, i := range infos {
			line = append(line, fmt.Sprintf("%s,/%s,%s,%d,%d", i.ClientID, i.Channel.RemoteAddr(), i.Language, i.Version, i.LastUpdate))
		}
	}
	java := javaAdminBodies(t, []string{strings.Join(line, "\t")})
	require.Equal(t, java[0], string(resp.Body))
	require.NotContains(t, string(resp.Body), "PG-Gone")
}
