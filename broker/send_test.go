package broker

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/broker/groups"
	"github.com/sputnikmq/sputnik/broker/stats"
	"github.com/sputnikmq/sputnik/remoting/protocol"
	"github.com/sputnikmq/sputnik/store"
	"github.com/sputnikmq/sputnik/store/message"
)

// TestSyncFlushSendsAnswerWhenDurable: with SYNC_FLUSH a send waiting for
// the store (WAIT=true) is deferred and answered from the flush goroutine;
// concurrent sends each get their own answer, with distinct queue offsets.
func TestSyncFlushSendsAnswerWhenDurable(t *testing.T) {
	b, cl := startBroker(t, "flushDiskType=SYNC_FLUSH")
	addr := b.Addr()
	const n = 16
	offsets := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp := invoke(t, cl, addr, sendV2("SyncT", 0, "body", "TagA"))
			require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
			var rh protocol.SendMessageResponseHeader
			require.NoError(t, rh.DecodeFrom(resp))
			offsets[i] = rh.QueueOffset
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, o := range offsets {
		require.False(t, seen[o], "queue offset %d answered twice", o)
		require.Less(t, o, int64(n))
		seen[o] = true
	}
}

// Java 4.9.8 counts a delayed send under SCHEDULE_TOPIC_XXXX (its put
// changed the message's topic) and, with enableScheduleMessageStats (the
// default), the delivery as a put to the real topic and a get of
// SCHEDULE_CONSUMER (ScheduleMessageService.PutResultProcess.onSuccess).
func TestDelayedSendStats(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprint("enableScheduleMessageStats=", on), func(t *testing.T) {
			b, cl := startBroker(t, fmt.Sprint("enableScheduleMessageStats=", on))
			value := func(name, key string) int64 {
				if it, ok := b.stats.Item(name, key); ok && it != nil {
					return it.Value()
				}
				return 0
			}
			resp := invoke(t, cl, b.Addr(), sendProps("DelayT", "later", message.Properties{{Key: message.PropDelay, Value: "1"}}))
			require.EqualValues(t, protocol.RespSuccess, resp.Code, resp.Remark)
			require.EqualValues(t, 1, value(stats.TopicPutNums, store.ScheduleTopic))
			require.EqualValues(t, 0, value(stats.TopicPutNums, "DelayT"))

			dispatched(t, b, "DelayT", 0, 1) // delivered (first run after 1 s, level 1 waits 1 s)
			delivered := int64(0)
			if on {
				delivered = 1
			}
			require.Eventually(t, func() bool { return value(stats.TopicPutNums, "DelayT") == delivered }, 5*time.Second, time.Millisecond)
			require.EqualValues(t, delivered, value(stats.GroupGetNums, stats.GroupKey(store.ScheduleTopic, groups.ScheduleConsumerGroup)))
			require.EqualValues(t, 1+delivered, value(stats.BrokerPutNums, "DefaultCluster"))
			require.EqualValues(t, 0, value(stats.BrokerGetNums, "DefaultCluster"), "no pull was served")
		})
	}
}
