package groups

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/config"
)

// Java 4.9.8: SubscriptionGroupManager (4.9.7 broker jar, the same
// source): built-in groups, auto-creation, updates, deletes, restart.
func TestGroupsLikeJava(t *testing.T) { compareWithJava(t, "groups", runGroups) }

func testOptions(root string) Options {
	var clock int64 = 1_700_000_000_000
	return Options{StorePathRootDir: root, AutoCreateSubscriptionGroup: true,
		Now: func() int64 { clock++; return clock }}
}

func runGroups(t *testing.T, root string, cmds [][]string) string {
	var out strings.Builder
	opts := testOptions(root)
	var m *Manager
	for _, a := range cmds {
		fmt.Fprintf(&out, "> %s\n", strings.Join(a, " "))
		switch a[0] {
		case "set":
			require.Equal(t, "autoCreateSubscriptionGroup", a[1])
			opts.AutoCreateSubscriptionGroup = a[2] == "true"
			if m != nil {
				m.SetAutoCreate(opts.AutoCreateSubscriptionGroup)
			}
		case "start":
			var err error
			m, err = New(opts)
			require.NoError(t, err)
		default:
			require.True(t, strings.HasPrefix(a[0], "group."), a[0])
			groupCommand(t, &out, m, strings.TrimPrefix(a[0], "group."), a)
		}
	}
	return out.String()
}

func groupCommand(t *testing.T, out *strings.Builder, m *Manager, op string, a []string) {
	switch op {
	case "find":
		g, ok, err := m.Find(a[1])
		require.NoError(t, err)
		fmt.Fprintln(out, gcString(g, ok))
	case "update":
		require.NoError(t, m.Update(groupOf(t, a)))
	case "disable":
		m.DisableConsume(a[1])
	case "delete":
		_, err := m.Delete(a[1])
		require.NoError(t, err)
	case "version":
		fmt.Fprintf(out, "counter %d\n", m.DataVersion().Counter)
	case "isSys":
		fmt.Fprintln(out, IsSysConsumerGroup(a[1]))
	case "bulk":
		n, err := strconv.Atoi(a[2])
		require.NoError(t, err)
		for i := range n {
			require.NoError(t, m.Update(config.NewSubscriptionGroupConfig(a[1]+strconv.Itoa(i))))
		}
	case "syncFromFile": // the slave sync's decode (broker/slavesync.go)
		data, err := os.ReadFile(config.SubscriptionGroupPath(m.opts.StorePathRootDir))
		require.NoError(t, err)
		w, err := config.DecodeSubscriptionGroups(data)
		require.NoError(t, err)
		require.NoError(t, m.ReplaceAll(w))
	case "names":
		var names []string
		for _, g := range m.Groups() {
			names = append(names, g.GroupName)
		}
		fmt.Fprintln(out, strings.Join(names, " "))
	case "persist":
		require.NoError(t, m.Persist())
	case "load":
		_, err := m.Load()
		require.NoError(t, err)
		fmt.Fprintln(out, "load true")
	case "file":
		fmt.Fprintln(out, fileOrMissing(config.SubscriptionGroupPath(m.opts.StorePathRootDir)))
	default:
		t.Fatalf("unknown command group.%s", op)
	}
}

// groupOf is BrokerManagers.groupOf.
func groupOf(t *testing.T, a []string) config.SubscriptionGroupConfig {
	g := config.NewSubscriptionGroupConfig(a[1])
	for _, kv := range a[2:] {
		k, v, _ := strings.Cut(kv, "=")
		n, _ := strconv.ParseInt(v, 10, 64) // only read for the number fields
		switch k {
		case "consume":
			g.ConsumeEnable = v == "true"
		case "fromMin":
			g.ConsumeFromMinEnable = v == "true"
		case "broadcast":
			g.ConsumeBroadcastEnable = v == "true"
		case "notify":
			g.NotifyConsumerIdsChangedEnable = v == "true"
		case "retryQ":
			g.RetryQueueNums = int32(n)
		case "retryMax":
			g.RetryMaxTimes = int32(n)
		case "brokerId":
			g.BrokerID = n
		case "slow":
			g.WhichBrokerWhenConsumeSlowly = n
		default:
			t.Fatalf("unknown group field %s", k)
		}
	}
	return g
}

// gcString is BrokerManagers.gc.
func gcString(g config.SubscriptionGroupConfig, ok bool) string {
	if !ok {
		return "null"
	}
	return fmt.Sprintf("group %s consume=%t fromMin=%t broadcast=%t retryQ=%d retryMax=%d brokerId=%d slow=%d notify=%t",
		g.GroupName, g.ConsumeEnable, g.ConsumeFromMinEnable, g.ConsumeBroadcastEnable, g.RetryQueueNums,
		g.RetryMaxTimes, g.BrokerID, g.WhichBrokerWhenConsumeSlowly, g.NotifyConsumerIdsChangedEnable)
}
