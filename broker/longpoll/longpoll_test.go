package longpoll

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type tags map[int64]bool

func (t tags) MatchArrival(code int64, ok bool, _ []byte) bool { return !ok || t[code] }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestArrivalWakesMatchingRequests(t *testing.T) {
	var max atomic.Int64
	h := NewHolder(func(string, int32) int64 { return max.Load() })
	var a, b atomic.Int32
	h.Suspend(&Request{Topic: "T", QueueID: 1, Offset: 0, Timeout: time.Minute, Filter: tags{7: true}, Wake: func() { a.Add(1) }})
	h.Suspend(&Request{Topic: "T", QueueID: 1, Offset: 0, Timeout: time.Minute, Filter: tags{8: true}, Wake: func() { b.Add(1) }})
	require.Equal(t, 2, h.Len())

	max.Store(1)
	h.Arrived("T", 2, 1, 7, true, nil) // another queue
	h.Arrived("T", 1, 1, 9, true, nil) // no filter matches
	require.Equal(t, 2, h.Len())
	h.Arrived("T", 1, 1, 7, true, nil)
	waitFor(t, "wake a", func() bool { return a.Load() == 1 })
	require.Equal(t, 1, h.Len())
	require.EqualValues(t, 0, b.Load())

	h.Check() // the periodic check carries no tags: the queue grew, so b wakes
	waitFor(t, "wake b", func() bool { return b.Load() == 1 })
	require.Equal(t, 0, h.Len())
}

func TestTimeoutWakesOnce(t *testing.T) {
	h := NewHolder(func(string, int32) int64 { return 0 })
	var n atomic.Int32
	start := time.Now()
	h.Suspend(&Request{Topic: "T", Timeout: 30 * time.Millisecond, Wake: func() { n.Add(1) }})
	waitFor(t, "timeout", func() bool { return n.Load() == 1 })
	require.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
	h.Arrived("T", 0, 5, 0, false, nil)
	time.Sleep(20 * time.Millisecond)
	require.EqualValues(t, 1, n.Load(), "a woken request is not woken again")
}

func TestSuspendAfterArrivalWakesAtOnce(t *testing.T) {
	h := NewHolder(func(string, int32) int64 { return 3 })
	var n atomic.Int32
	h.Suspend(&Request{Topic: "T", Offset: 2, Timeout: time.Minute, Wake: func() { n.Add(1) }})
	waitFor(t, "immediate wake", func() bool { return n.Load() == 1 })
}

func TestWakeAll(t *testing.T) {
	h := NewHolder(func(string, int32) int64 { return 0 })
	var n atomic.Int32
	for i := range 5 {
		h.Suspend(&Request{Topic: "T", QueueID: int32(i), Timeout: time.Minute, Wake: func() { n.Add(1) }})
	}
	h.WakeAll()
	require.EqualValues(t, 5, n.Load())
	require.Zero(t, h.Len())
}
