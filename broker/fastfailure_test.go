package broker

import (
	"context"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/brokerconfig"
	"github.com/sputnikmq/sputnik/remoting"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/remoting/wire"
)

// Java 4.9.8 BrokerFastFailure: requests that waited too long for a
// worker are answered SYSTEM_BUSY; while the page cache is busy every
// queued send is; nothing is while brokerFastFailureEnable is false.
func TestFastFailureCutsQueues(t *testing.T) {
	release := make(chan struct{})
	s := remoting.NewServer(remoting.ServerConfig{ListenAddr: "127.0.0.1:0"})
	codes := []protocol.RequestCode{protocol.ReqSendMessageV2, protocol.ReqConsumerSendMsgBack,
		protocol.ReqPullMessage, protocol.ReqHeartBeat, protocol.ReqEndTransaction}
	for _, c := range codes { // one worker each, busy until release
		s.RegisterProcessor([]protocol.RequestCode{c}, remoting.Processor{Workers: 1, QueueCapacity: 10,
			Handler: func(_ context.Context, _ *remoting.Conn, req *wire.Command) (*wire.Command, error) {
				<-release
				return wire.NewResponse(req, int32(protocol.RespSuccess), ""), nil
			}})
	}
	require.NoError(t, s.Listen())
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	addr := s.Addr().String()

	// Per code a running request and a waiting one, each pair on a
	// connection of its own (a waiting request holds its read loop).
	answers := map[protocol.RequestCode]chan *wire.Command{}
	for _, c := range codes {
		ch := make(chan *wire.Command, 2)
		answers[c] = ch
		cl := remoting.NewClient(remoting.ClientConfig{})
		t.Cleanup(func() { _ = cl.Close() })
		for range 2 {
			require.NoError(t, cl.InvokeAsync(addr, wire.NewRequest(int32(c)), 30*time.Second, func(r *wire.Command, err error) {
				assert.NoError(t, err)
				ch <- r
			}))
		}
		require.Eventually(t, func() bool { return s.QueueLen(c) == 1 }, 5*time.Second, time.Millisecond)
	}

	cfg := brokerconfig.DefaultBrokerConfig(brokerconfig.Machine{})
	var busy atomic.Bool
	log, hook := logtest.NewNullLogger()
	ff := &fastFailure{cfg: &cfg, pageCacheBusy: busy.Load, servers: []queueCutter{s}, log: log.WithField("t", "t")}
	queued := func() (n int) {
		for _, c := range codes {
			n += s.QueueLen(c)
		}
		return n
	}
	timeout := regexp.MustCompile(`^\[TIMEOUT_CLEAN_QUEUE\]broker busy, start flow control for a while, period in queue: \d+ms, size of queue: 0$`)
	expectCut := func(c protocol.RequestCode, re *regexp.Regexp) {
		t.Helper()
		select {
		case r := <-answers[c]:
			assert.Equal(t, int32(protocol.RespSystemBusy), r.Code, "code %d", c)
			assert.Regexp(t, re, r.Remark, "code %d", c)
		case <-time.After(5 * time.Second):
			t.Fatalf("code %d: no answer", c)
		}
	}

	cfg.BrokerFastFailureEnable = false
	cfg.WaitTimeMillsInPullQueue = 0
	busy.Store(true)
	ff.cleanExpired()
	assert.Equal(t, 5, queued(), "disabled")

	cfg.BrokerFastFailureEnable = true
	busy.Store(false)
	cfg.WaitTimeMillsInSendQueue, cfg.WaitTimeMillsInHeartbeatQueue = 3_600_000, 3_600_000
	cfg.WaitTimeMillsInPullQueue, cfg.WaitTimeMillsInTransactionQueue = 0, 0
	ff.cleanExpired()
	expectCut(protocol.ReqPullMessage, timeout)
	expectCut(protocol.ReqEndTransaction, timeout)
	assert.Equal(t, 3, queued(), "sends and the heartbeat have not waited an hour")
	assert.Len(t, hook.Entries, 1, "one warning")

	busy.Store(true)
	ff.cleanExpired()
	pcBusy := regexp.MustCompile(`^\[PCBUSY_CLEAN_QUEUE\]broker busy, start flow control for a while, period in queue: \d+ms, size of queue: 0$`)
	expectCut(protocol.ReqSendMessageV2, pcBusy)
	expectCut(protocol.ReqConsumerSendMsgBack, pcBusy)
	assert.Equal(t, 1, queued(), "a busy page cache clears only the send queues")

	busy.Store(false)
	cfg.WaitTimeMillsInHeartbeatQueue = 1
	require.Eventually(t, func() bool { return s.QueueHeadWait(protocol.ReqHeartBeat) >= time.Millisecond }, 5*time.Second, time.Millisecond)
	ff.cleanExpired()
	expectCut(protocol.ReqHeartBeat, timeout)
	assert.Zero(t, queued())
	assert.Len(t, hook.Entries, 1, "warnings at most once a second")

	close(release)
	for _, c := range codes {
		r := <-answers[c]
		assert.Equal(t, int32(protocol.RespSuccess), r.Code, "the running request of code %d", c)
	}
}
