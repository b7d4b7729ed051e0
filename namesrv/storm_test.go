package namesrv_test

import (
	"context"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol/protocoltest"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

var stormTime = flag.Duration("storm", 2*time.Second, "how long TestRequestStorm runs")

// FuzzNamesrvRequest's generated requests (every code the name server
// serves: registrations, unregistrations, route and cluster queries, topic
// deletes, KV and config updates) sent at once from four connections, each
// its own client, so that the handlers and the route table's cache run
// against each other under -race. The same rules: no panic, every request
// answered, and the server answers afterwards.
func TestRequestStorm(t *testing.T) {
	ft := startFuzzTarget(t)
	clients := make([]*remoting.Client, 4)
	for i := range clients {
		clients[i] = remoting.NewClient(remoting.ClientConfig{})
		t.Cleanup(func() { _ = clients[i].Close() })
	}
	ctx, cancel := context.WithTimeout(context.Background(), *stormTime)
	defer cancel()
	counts, err := protocoltest.Storm(ctx, len(clients), ft.build, func(w int, req *wire.Command) error {
		return ft.sendChecked(clients[w], req)
	})
	require.NoError(t, err)
	ft.requireAlive(t, clients[0])
	t.Logf("requests per connection: %v", counts)
}
