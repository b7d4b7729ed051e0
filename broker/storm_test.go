package broker

import (
	"context"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/protocol/protocoltest"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

var stormTime = flag.Duration("storm", 2*time.Second, "how long TestRequestStorm runs")

// The fuzz requests of FuzzBrokerRequest (every code the broker serves,
// with the broker's names, edge values and raw bytes), sent at once from
// several connections, each its own client: the handlers run against each
// other as they do under real load, so -race sees their shared state. The
// same rules: no panic, every request answered unless Java may hold it,
// and the broker answers afterwards.
func TestRequestStorm(t *testing.T) {
	reqs, err := protocoltest.Served("broker", "broker+client")
	require.NoError(t, err)
	b, cl := startBroker(t)
	addr := b.Addr()
	values := seedFuzzBroker(t, cl, addr)
	bodies := fuzzBodies()

	clients := make([]*remoting.Client, 4)
	for i := range clients {
		clients[i] = remoting.NewClient(remoting.ClientConfig{})
		t.Cleanup(func() { _ = clients[i].Close() })
	}
	ctx, cancel := context.WithTimeout(context.Background(), *stormTime)
	defer cancel()
	build := func(data []byte) (*wire.Command, bool) { return protocoltest.Build(data, reqs, values, bodies) }
	counts, err := protocoltest.Storm(ctx, len(clients), build, func(w int, req *wire.Command) error {
		return sendChecked(clients[w], addr, req)
	})
	require.NoError(t, err)
	alive, err := tryInvoke(cl, addr, wire.NewRequest(int32(protocol.ReqGetBrokerRuntimeInfo)))
	require.NoError(t, err)
	require.Equal(t, int32(protocol.RespSuccess), alive.Code)
	t.Logf("requests per connection: %v", counts)
}
