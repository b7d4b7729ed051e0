package broker

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"strconv"
	"strings"
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
	resp, err := churnInvoke(cl, addr, sendV2("FuzzTopic", 0, "storm seed", "t"))
	require.NoError(t, err)
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	msgID, _ := resp.ExtValue("msgId")
	offset, err := strconv.ParseInt(msgID[len(msgID)-16:], 16, 64)
	require.NoError(t, err)
	values := protocoltest.Values{Names: fuzzNames(msgID), Offset: offset}
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
					errs[w] = stormCall(c, addr, req)
					counts[w]++
				}
			}
		}()
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	alive, err := churnInvoke(cl, addr, wire.NewRequest(int32(protocol.ReqGetBrokerRuntimeInfo)))
	require.NoError(t, err)
	require.Equal(t, int32(protocol.RespSuccess), alive.Code)
	t.Logf("requests per connection: %v", counts)
}

// stormCall sends one storm request; nil when it was answered without a
// panic, or held as Java may hold it.
func stormCall(c *remoting.Client, addr string, req *wire.Command) error {
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
			return errors.New(req.String() + ": " + resp.Remark)
		}
		return nil
	case errors.Is(err, remoting.ErrTimeout) && unanswered(req):
		return nil
	}
	return errors.New(req.String() + ": " + err.Error())
}
