package namesrv_test

import (
	"context"
	"fmt"
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

// fuzzTarget is an in-process name server with a broker registered, and
// what requests to it are built from.
type fuzzTarget struct {
	addr   string
	reqs   []protocoltest.Request
	bodies [][]byte
	reg    *wire.Command // the broker's registration
}

// startFuzzTarget starts the name server of FuzzNamesrvRequest and
// TestRequestStorm. Its clock stands still: the requests register brokers,
// and a broker silent for 120 s gets its channel closed
// (scanNotActiveBroker).
func startFuzzTarget(t testing.TB) *fuzzTarget {
	t.Helper()
	reqs, err := protocoltest.Served("namesrv")
	require.NoError(t, err)
	clock := namesrvtest.NewClock(time.Now())
	s := namesrvtest.StartTestNamesrv(t, func(o *namesrv.Options) { o.Now = clock.Now })
	ft := &fuzzTarget{addr: s.Addr().String(), reqs: reqs}
	ft.reg = registerReq("FuzzCluster", "fuzz-b", 0, "127.0.0.1:30911", 1, "FuzzTopic:4", "TBW102:8")
	cl := remoting.NewClient(remoting.ClientConfig{})
	t.Cleanup(func() { _ = cl.Close() })
	resp, err := invoke(cl, ft.addr, ft.reg)
	require.NoError(t, err)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	ft.bodies = [][]byte{nil, []byte("{}"), []byte("null"), []byte("[]"), []byte("not json"), ft.reg.Body,
		[]byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"T":null}}}`),
		[]byte("listenPort=9876\norderMessageEnable=true\n"), []byte(`{"topicList":["FuzzTopic"]}`)}
	return ft
}

func invoke(cl *remoting.Client, addr string, req *wire.Command) (*wire.Command, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return cl.InvokeSync(ctx, addr, req)
}

// build makes a request from fuzz bytes; false when they make none.
func (ft *fuzzTarget) build(data []byte) (*wire.Command, bool) {
	return protocoltest.Build(data, ft.reqs, protocoltest.Values{Names: fuzzNames}, ft.bodies)
}

// sendChecked sends req over cl and applies the fuzz rules: it is
// answered (DefaultRequestProcessor answers every code it serves) and no
// handler panicked.
func (ft *fuzzTarget) sendChecked(cl *remoting.Client, req *wire.Command) error {
	resp, err := invoke(cl, ft.addr, req)
	if err != nil {
		return fmt.Errorf("%v: %w", req, err)
	}
	if resp.Code == int32(protocol.RespSystemError) && strings.HasPrefix(resp.Remark, "panic:") {
		return fmt.Errorf("%v: %s", req, resp.Remark)
	}
	return nil
}

// requireAlive checks that the name server still answers.
func (ft *fuzzTarget) requireAlive(t testing.TB, cl *remoting.Client) {
	t.Helper()
	alive, err := invoke(cl, ft.addr, wire.NewRequest(int32(protocol.ReqGetBrokerClusterInfo)))
	require.NoError(t, err)
	require.Equal(t, int32(protocol.RespSuccess), alive.Code)
}

// FuzzNamesrvRequest sends every code the name server serves, with
// headers and bodies made from fuzz input, to one in-process name server
// that has a broker registered. No handler may panic, every request must
// be answered and the server must keep answering.
func FuzzNamesrvRequest(f *testing.F) {
	ft := startFuzzTarget(f)
	cl := remoting.NewClient(remoting.ClientConfig{})
	f.Cleanup(func() { _ = cl.Close() })
	for i, r := range ft.reqs {
		f.Add(protocoltest.Seed(i, r, 0))
		f.Add(protocoltest.Seed(i, r, 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, ok := ft.build(data)
		if !ok {
			return
		}
		require.NoError(t, ft.sendChecked(cl, req))
		ft.requireAlive(t, cl)
	})
}
