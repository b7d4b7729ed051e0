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
	require.Equal(t, "/h/store/commitlog", c.CommitLogDir())
	p := "/a,/b"
	c.StorePathCommitLog = &p
	require.Equal(t, "/a", c.CommitLogDir())
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
