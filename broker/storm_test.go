package broker

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"sync"
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

	ctx, cancel := context.WithTimeout(context.Background(), *stormTime)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	counts := make([]int, len(errs))
	for w := range errs {
		c := remoting.NewClient(remoting.ClientConfig{})
		t.Cleanup(func() { _ = c.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			data := make([]byte, 96)
			for ctx.Err() == nil && errs[w] == nil {
				for i := range data {
					data[i] = byte(rng.Uint32())
				}
				req, ok := protocoltest.Build(data[:rng.IntN(len(data))], reqs, values, bodies)
				if ok {
					errs[w] = sendChecked(c, addr, req)
					counts[w]++
				}
			}
		}()
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	alive, err := tryInvoke(cl, addr, wire.NewRequest(int32(protocol.ReqGetBrokerRuntimeInfo)))
	require.NoError(t, err)
	require.Equal(t, int32(protocol.RespSuccess), alive.Code)
	t.Logf("requests per connection: %v", counts)
}
