package broker

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/body"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Clients that come, work and vanish leave nothing behind in the broker:
// each cycle opens a connection, heartbeats a producer and a consumer
// group, sends, pulls, leaves a pull suspended and a request unanswered,
// and drops the connection. Once the suspended pulls time out, the
// broker's goroutines are back to what they were, no consumer group of a
// gone client is left (Java's doChannelCloseEvent removes them), and no
// pull is held.
func TestVanishedClientsLeaveNothingBehind(t *testing.T) {
	b, cl := startBroker(t)
	addr := b.Addr()
	const topic = "LeakT"
	resp := invoke(t, cl, addr, sendV2(topic, 0, "first", "T"))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
	dispatched(t, b, topic, 0, 1)
	const idle = "LeakIdle" // queue 1 is never written
	resp = invoke(t, cl, addr, sendV2(idle, 0, "first", "T"))
	require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)

	cycle := func(i int) {
		c := remoting.NewClient(remoting.ClientConfig{})
		group := fmt.Sprintf("LeakCG%d", i)
		hb := body.HeartbeatData{
			ClientID:        body.Str(fmt.Sprintf("127.0.0.1@leak%d", i)),
			ProducerDataSet: []body.ProducerData{{GroupName: body.Str(fmt.Sprintf("LeakPG%d", i))}},
			ConsumerDataSet: []body.ConsumerData{{
				GroupName: body.Str(group), ConsumeType: body.ConsumePassively, MessageModel: body.Clustering,
				ConsumeFromWhere:    body.ConsumeFromLastOffset,
				SubscriptionDataSet: []body.SubscriptionData{{Topic: body.Str(topic), SubString: body.Str("*")}},
			}},
		}
		req := heartbeat(hb)
		resp := invoke(t, c, addr, req)
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
		resp = invoke(t, c, addr, sendV2(topic, int32(i%4), "m", "T"))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
		p := pull(topic, 0, 0, 0, "*")
		resp = invoke(t, c, addr, p)
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
		// A pull at the end of a queue nobody writes to is held; the
		// connection goes before it is answered.
		held := pull(idle, 1, 0, 300, "*")
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := c.InvokeSync(ctx, addr, held)
		cancel()
		require.Error(t, err, "the held pull must not be answered before its suspend time")
		require.NoError(t, c.Close())

		// A heartbeat the connection's last frame: the broker reads it
		// with the close right behind it.
		raw, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		frame, err := wire.AppendFrame(nil, req)
		require.NoError(t, err)
		_, err = raw.Write(frame)
		require.NoError(t, err)
		require.NoError(t, raw.Close())
	}

	cycle(0)
	require.Eventually(t, func() bool { return b.hold.Len() == 0 }, 5*time.Second, 5*time.Millisecond)
	base := settledGoroutines()
	const cycles = 40
	for i := 1; i <= cycles; i++ {
		cycle(i)
	}
	require.Eventually(t, func() bool {
		return b.hold.Len() == 0 && runtime.NumGoroutine() <= base
	}, 10*time.Second, 5*time.Millisecond, "goroutines: %d at the start, %d now; %d pulls held",
		base, runtime.NumGoroutine(), b.hold.Len())
	for i := 0; i <= cycles; i++ {
		_, ok := b.consumers.Group(fmt.Sprintf("LeakCG%d", i))
		require.False(t, ok, "consumer group of gone client %d left behind", i)
		infos, _ := b.producers.Connections(fmt.Sprintf("LeakPG%d", i))
		require.Empty(t, infos, "producer channel of gone client %d left behind", i)
	}
}

// settledGoroutines is the goroutine count once it has stopped falling
// (connections just closed finish their loops).
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 100 {
		time.Sleep(10 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m >= n {
			return m
		}
		n = m
	}
	return n
}
