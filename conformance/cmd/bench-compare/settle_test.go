package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// On a quiet machine the wait ends once the probes have stayed fast for
// quietFor; when every probe counts as a stall it gives up at maxWait.
func TestSettlerWait(t *testing.T) {
	s := newSettler(t.TempDir())
	assert.GreaterOrEqual(t, s.fast, settleFastMin)

	s.quietFor, s.maxWait = 200*time.Millisecond, 20*time.Second
	r := s.wait(context.Background())
	assert.False(t, r.TimedOut, "%v", r)
	assert.GreaterOrEqual(t, r.Waited, s.quietFor)
	assert.Positive(t, r.Slowest)

	s.fast, s.maxWait = time.Nanosecond, 300*time.Millisecond
	r = s.wait(context.Background())
	assert.True(t, r.TimedOut, "%v", r)
	assert.Positive(t, r.Stalls)
	assert.Less(t, r.Waited, 5*time.Second)
	assert.Contains(t, r.String(), "gave up waiting")
}
