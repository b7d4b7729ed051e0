package store

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// transientStorePoolEnable: appends are staged and committed in the
// background; consumers see them once committed, and the files are
// ordinary commit-log files a store without the option reads back.
func TestTransientStorePool(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the staging ring is Linux-only")
	}
	root := t.TempDir()
	cfg := testConfig(root)
	cfg.TransientStorePoolEnable = true
	s := openStore(t, cfg)
	require.True(t, s.CommitLog().Staged())
	msgs := putN(t, s, 300)
	end := msgs[len(msgs)-1].res.End()
	eventually(t, "commit", func() bool { return s.MaxPhyOffset() == end })
	checkAll(t, s, msgs)
	require.NoError(t, s.Close())

	cfg.TransientStorePoolEnable = false
	s = openStore(t, cfg)
	require.False(t, s.CommitLog().Staged())
	checkAll(t, s, msgs)
	require.NoError(t, s.Close())

	// Java enables the pool only for an async-flush master.
	cfg.TransientStorePoolEnable = true
	cfg.FlushDiskType = SyncFlush
	s = openStore(t, cfg)
	defer s.Close()
	require.False(t, s.CommitLog().Staged())
}
