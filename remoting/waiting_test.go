package remoting

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWaitersHead(t *testing.T) {
	var w waiters
	t0 := time.Unix(1_700_000_000, 0)
	assert.Zero(t, w.headWait(t0), "nobody waits")
	a := w.enter(t0)
	b := w.enter(t0.Add(30 * time.Millisecond))
	assert.Equal(t, 100*time.Millisecond, w.headWait(t0.Add(100*time.Millisecond)))
	w.leave(a)
	assert.Equal(t, 70*time.Millisecond, w.headWait(t0.Add(100*time.Millisecond)), "the next one is the head")
	w.leave(b)
	assert.Zero(t, w.headWait(t0.Add(time.Second)))
}
