package procfs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStealShare(t *testing.T) {
	t0 := MachineTimes{Busy: time.Second, Steal: time.Second, Total: 10 * time.Second}
	t1 := MachineTimes{Busy: 3 * time.Second, Steal: 2 * time.Second, Total: 14 * time.Second}
	assert.InDelta(t, 0.25, t1.StealShare(t0), 1e-9)
	assert.Zero(t, t0.StealShare(t0), "no time passed")
	share := StartSteal()()
	assert.GreaterOrEqual(t, share, 0.0)
	assert.LessOrEqual(t, share, 1.0)
}

// The machine's own counters: busy and stolen time are parts of the total,
// and MachineCPU is the busy part.
func TestReadMachineTimes(t *testing.T) {
	m, err := ReadMachineTimes()
	require.NoError(t, err)
	require.Positive(t, m.Total)
	assert.LessOrEqual(t, m.Busy+m.Steal, m.Total)
	busy, err := MachineCPU()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, busy, m.Busy)
}
