package store

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/compat/oracle"
)

// Java 4.9.8: MessageStoreConfig's fields, defaults and @ImportantField
// marks, in declaration order, as `mqbroker -p` prints them.
func TestConfigMatchesJava(t *testing.T) {
	want := oracle.Run(t, "", []string{"-Duser.home=/HOME"}, "ConfigPrint",
		"org.apache.rocketmq.store.config.MessageStoreConfig")
	all, err := javaprops.Lines(DefaultConfig("/HOME"), false)
	require.NoError(t, err)
	cfg := DefaultConfig("/HOME")
	important, err := javaprops.Lines(&cfg, true)
	require.NoError(t, err)
	isImportant := map[string]bool{}
	for _, l := range important {
		isImportant[l] = true
	}
	var got strings.Builder
	for _, l := range all {
		got.WriteString(l)
		if isImportant[l] {
			got.WriteString(" important")
		}
		got.WriteByte('\n')
	}
	require.Equal(t, want, got.String())
}

func TestDerivedGetters(t *testing.T) {
	c := DefaultConfig("/h")
	require.Equal(t, []string{"/h/store/commitlog"}, c.CommitLogPaths())
	require.False(t, c.MultiPathCommitLog())
	for v, want := range map[string][]string{
		"/a":             {"/a"},
		"/a,/b":          {"/a", "/b"},
		" /a , /b,,/a, ": {"/a", "/b"}, // Java: "/a ", " /b", "", "/a", " "
		",":              nil,
		"/b,/a,/c":       {"/b", "/a", "/c"},
	} {
		c.StorePathCommitLog = &v
		require.Equal(t, want, c.CommitLogPaths(), "%q", v)
		require.Equal(t, strings.Contains(v, ","), c.MultiPathCommitLog(), "%q", v)
	}
	require.Nil(t, c.ReadOnlyCommitLogPaths())
	ro := "/r1,/r2"
	c.ReadOnlyCommitLogStorePaths = &ro
	require.Equal(t, []string{"/r1", "/r2"}, c.ReadOnlyCommitLogPaths())
	c.MappedFileSizeConsumeQueue = 101
	require.EqualValues(t, 120, c.ConsumeQueueFileSize())
	c.DiskMaxUsedSpaceRatio = 99
	require.EqualValues(t, 95, c.DiskMaxUsedRatio())
	c.DiskMaxUsedSpaceRatio = 1
	require.EqualValues(t, 10, c.DiskMaxUsedRatio())
	c.TransientStorePoolEnable = true
	require.True(t, c.TransientPoolEnabled())
	c.BrokerRole = Slave
	require.False(t, c.TransientPoolEnabled())
	require.Error(t, c.FlushDiskType.UnmarshalText([]byte("sync_flush")))
}
