package procfs

import (
	"os"
	"os/exec"
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

// A child started now began, by the kernel's clock, between just before
// and just after the start call, to a clock tick or two.
func TestProcessStart(t *testing.T) {
	before := time.Now()
	cmd := exec.Command("sleep", "5")
	require.NoError(t, cmd.Start())
	after := time.Now()
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	started, err := ProcessStart(cmd.Process.Pid)
	require.NoError(t, err)
	assert.WithinRange(t, started, before.Add(-3*clockTick), after.Add(3*clockTick))
	_, err = ProcessStart(-1)
	assert.Error(t, err)
}

// This process's own status: resident memory, part of it anonymous (the
// Go heap), and at least one thread.
func TestReadStatus(t *testing.T) {
	s, err := ReadStatus(os.Getpid())
	require.NoError(t, err)
	assert.Positive(t, s.Anon)
	assert.LessOrEqual(t, s.Anon, s.RSS)
	assert.LessOrEqual(t, s.RSS, s.HWM)
	assert.Positive(t, s.Threads)
}
