package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMatches(t *testing.T) {
	b := targets["broker"]
	cases := []struct {
		argv []string
		want bool
	}{
		{[]string{"/opt/sputnik/bin/mqbroker", "-c", "broker.conf"}, true},
		{[]string{"mqbroker"}, true},
		{[]string{"/opt/rocketmq/bin/sputnik-mqbroker", "-n", "127.0.0.1:9876"}, true},
		{[]string{"/opt/rocketmq/bin/sputnik-mqnamesrv"}, false},
		{[]string{"/opt/rocketmq/bin/other-mqbroker"}, false},
		{[]string{"/usr/bin/java", "-Xmx1g", "-cp", "x", "org.apache.rocketmq.broker.BrokerStartup", "-c", "b.conf"}, true},
		{[]string{"/usr/bin/java", "org.apache.rocketmq.namesrv.NamesrvStartup"}, false},
		{[]string{"/bin/grep", "org.apache.rocketmq.broker.BrokerStartup"}, false},
		{[]string{"/opt/sputnik/bin/mqnamesrv"}, false},
	}
	for _, c := range cases {
		require.Equal(t, c.want, matches(c.argv, b), "%v", c.argv)
	}
}

func TestFindPIDs(t *testing.T) {
	root := t.TempDir()
	write := func(pid, cmdline string) {
		dir := filepath.Join(root, pid)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "cmdline"), []byte(cmdline), 0o644))
	}
	write("101", "/x/bin/mqnamesrv\x00-c\x00ns.properties\x00")
	write("102", "/x/bin/mqbroker\x00-c\x00b.conf\x00")
	write("103", "java\x00org.apache.rocketmq.namesrv.NamesrvStartup\x00")
	write("self", "ignored")
	require.Equal(t, []int{101, 103}, findPIDs(root, targets["namesrv"]))
	require.Equal(t, []int{102}, findPIDs(root, targets["broker"]))
	require.Equal(t, "101\n103", joinPIDs([]int{101, 103}))
}
