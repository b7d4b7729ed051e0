package namesrv_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/namesrv"
	"github.com/sputnikmq/sputnik/namesrv/namesrvtest"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/protocol/protocoltest"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// fuzzNames are the string values a name-server request field can take
// besides raw fuzz bytes: the names of the registered test broker, system
// names and malformed ones.
func fuzzNames(key string) []string {
	k := strings.ToLower(key)
	switch {
	case strings.Contains(k, "topic"):
		return []string{"FuzzTopic", "TBW102", "%RETRY%g", "", "bad topic!", "nosuch", "FuzzTopic,TBW102"}
	case strings.Contains(k, "cluster"):
		return []string{"FuzzCluster", "DefaultCluster", "", "x"}
	case strings.Contains(k, "brokername") || k == "name":
		return []string{"fuzz-b", "fuzz-b2", "", "x"}
	case strings.Contains(k, "addr"):
		return []string{"127.0.0.1:30911", "127.0.0.1:30912", "", "x", "127.0.0.1"}
	case strings.Contains(k, "namespace"):
		return []string{"ORDER_TOPIC_CONFIG", "NS", ""}
	case strings.Contains(k, "key"):
		return []string{"FuzzTopic", "k", ""}
	case strings.Contains(k, "value"):
		return []string{"fuzz-b:4", "v", ""}
	}
	return nil
}

// FuzzNamesrvRequest sends every code the name server serves, with
// headers and bodies made from fuzz input, to one in-process name server
// that has a broker registered. No handler may panic, every request must
// be answered (DefaultRequestProcessor answers every code it serves) and
// the server must keep answering.
func FuzzNamesrvRequest(f *testing.F) {
	reqs, err := protocoltest.Served("namesrv")
	require.NoError(f, err)
	// A still clock: the fuzz connection registers brokers, and a broker
	// silent for 120 s gets its channel closed (scanNotActiveBroker).
	clock := namesrvtest.NewClock(time.Now())
	s := namesrvtest.StartTestNamesrv(f, func(o *namesrv.Options) { o.Now = clock.Now })
	addr := s.Addr().String()
	cl := remoting.NewClient(remoting.ClientConfig{})
	f.Cleanup(func() { _ = cl.Close() })
	call := func(req *wire.Command) (*wire.Command, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return cl.InvokeSync(ctx, addr, req)
	}
	reg := registerReq("FuzzCluster", "fuzz-b", 0, "127.0.0.1:30911", 1, "FuzzTopic:4", "TBW102:8")
	resp, err := call(reg)
	require.NoError(f, err)
	require.Equal(f, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	bodies := [][]byte{nil, []byte("{}"), []byte("null"), []byte("[]"), []byte("not json"), reg.Body,
		[]byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"T":null}}}`),
		[]byte("listenPort=9876\norderMessageEnable=true\n"), []byte(`{"topicList":["FuzzTopic"]}`)}
	for i, r := range reqs {
		f.Add(protocoltest.Seed(i, r, 0))
		f.Add(protocoltest.Seed(i, r, 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, ok := protocoltest.Build(data, reqs, protocoltest.Values{Names: fuzzNames}, bodies)
		if !ok {
			return
		}
		resp, err := call(req)
		require.NoError(t, err, "%v", req)
		if resp.Code == int32(protocol.RespSystemError) && strings.HasPrefix(resp.Remark, "panic:") {
			t.Fatalf("%v: %s", req, resp.Remark)
		}
		alive, err := call(wire.NewRequest(int32(protocol.ReqGetBrokerClusterInfo)))
		require.NoError(t, err, "after %v", req)
		require.Equal(t, int32(protocol.RespSuccess), alive.Code)
	})
}
