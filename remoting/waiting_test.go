package remoting

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWaitersHead(t *testing.T) {
	var w waiters
	t0 := time.Unix(1_700_000_000, 0)
	assert.Zero(t, w.headWait(t0), "nobody waits")
	a, _ := w.enter(t0, 0)
	b, _ := w.enter(t0.Add(30*time.Millisecond), 0)
	assert.Equal(t, 100*time.Millisecond, w.headWait(t0.Add(100*time.Millisecond)))
	w.leave(a)
	assert.Equal(t, 70*time.Millisecond, w.headWait(t0.Add(100*time.Millisecond)), "the next one is the head")
	w.leave(b)
	assert.Zero(t, w.headWait(t0.Add(time.Second)))
}

func TestWaitersLimit(t *testing.T) {
	var w waiters
	t0 := time.Unix(1_700_000_000, 0)
	_, ok := w.enter(t0, 2)
	require.True(t, ok)
	b, ok := w.enter(t0, 2)
	require.True(t, ok)
	_, ok = w.enter(t0, 2)
	assert.False(t, ok, "two wait already")
	w.leave(b)
	_, ok = w.enter(t0, 2)
	assert.True(t, ok)
	assert.Equal(t, 2, w.len())
}

// cut takes the requests that waited long enough, oldest first, with
// the queue's size after each; younger ones stay.
func TestWaitersCut(t *testing.T) {
	var w waiters
	t0 := time.Unix(1_700_000_000, 0)
	var rs []*waiter
	for _, ms := range []int{30, 0, 10, 250} { // entered at t0 + ms
		r, _ := w.enter(t0.Add(time.Duration(ms)*time.Millisecond), 0)
		rs = append(rs, r)
	}
	remark := func(waited time.Duration, left int) string { return fmt.Sprintf("%d,%d", waited.Milliseconds(), left) }
	now := t0.Add(300 * time.Millisecond)
	assert.Equal(t, 3, w.cut(now, 270*time.Millisecond, remark))
	assert.Equal(t, "300,3", <-rs[1].cut, "the oldest goes first")
	assert.Equal(t, "290,2", <-rs[2].cut)
	assert.Equal(t, "270,1", <-rs[0].cut, "exactly maxWait is cut, as Java's behind >= max")
	assert.Empty(t, rs[3].cut)
	assert.Equal(t, 1, w.len())
	assert.Zero(t, w.cut(now, time.Second, remark))
	assert.Equal(t, 1, w.cut(now, 0, remark), "0 takes every one")
	assert.Equal(t, "50,0", <-rs[3].cut)
}
