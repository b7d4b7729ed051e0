package broker

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
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
