package topics

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/config"
)

// Java 4.9.8: TopicConfigManager (4.9.7 broker jar, the same source), a
// broker's life from start to restart.
func TestTopicsLikeJava(t *testing.T) { compareWithJava(t, "topics", runTopics) }

// defaultOptions are BrokerManagers' BrokerConfig before any `set`.
func defaultOptions(root string) Options {
	var clock int64 = 1_700_000_000_000
	return Options{StorePathRootDir: root, BrokerName: "broker-a", ClusterName: "DefaultCluster",
		DefaultTopicQueueNums: 8, AutoCreateTopicEnable: true, ClusterTopicEnable: true, BrokerTopicEnable: true,
		MsgTraceTopicName: TraceTopic, Now: func() int64 { clock++; return clock }}
}

func runTopics(t *testing.T, root string, cmds [][]string) string {
	var out strings.Builder
	opts := defaultOptions(root)
	var m *Manager
	for _, a := range cmds {
		fmt.Fprintf(&out, "> %s\n", strings.Join(a, " "))
		switch a[0] {
		case "set":
			setOption(t, &opts, m, a[1], a[2])
		case "start":
			var err error
			m, err = New(opts)
			require.NoError(t, err)
		default:
			require.True(t, strings.HasPrefix(a[0], "topic."), a[0])
			topicCommand(t, &out, m, strings.TrimPrefix(a[0], "topic."), a)
		}
	}
	return out.String()
}

func setOption(t *testing.T, o *Options, m *Manager, key, value string) {
	b := value == "true"
	switch key {
	case "brokerName":
		o.BrokerName = value
	case "brokerClusterName":
		o.ClusterName = value
	case "autoCreateTopicEnable":
		o.AutoCreateTopicEnable = b
		if m != nil {
			m.SetAutoCreateTopicEnable(b)
		}
	case "clusterTopicEnable":
		o.ClusterTopicEnable = b
	case "brokerTopicEnable":
		o.BrokerTopicEnable = b
	case "traceTopicEnable":
		o.TraceTopicEnable = b
	case "msgTraceTopicName":
		o.MsgTraceTopicName = value
	case "defaultTopicQueueNums":
		o.DefaultTopicQueueNums = int32(atoi(t, value))
	default:
		t.Fatalf("unknown option %s", key)
	}
}

func atoi(t *testing.T, s string) int {
	v, err := strconv.Atoi(s)
	require.NoError(t, err)
	return v
}

func topicCommand(t *testing.T, out *strings.Builder, m *Manager, op string, a []string) {
	i32 := func(k int) int32 { return int32(atoi(t, a[k])) }
	switch op {
	case "createSend":
		tc, ok, err := m.CreateInSendMessage(a[1], a[2], "127.0.0.1:5555", i32(3), i32(4))
		require.NoError(t, err)
		fmt.Fprintln(out, tcString(tc, ok))
	case "createBack":
		tc, _, err := m.CreateInSendMessageBack(a[1], i32(2), i32(3), i32(4))
		require.NoError(t, err)
		fmt.Fprintln(out, tcString(tc, true))
	case "createTranCheck":
		tc, _, err := m.CreateTranCheckMaxTime(i32(1), i32(2))
		require.NoError(t, err)
		fmt.Fprintln(out, tcString(tc, true))
	case "update":
		tc := config.TopicConfig{TopicName: a[1], ReadQueueNums: i32(2), WriteQueueNums: i32(3), Perm: i32(4),
			TopicFilterType: filterType(a[5]), TopicSysFlag: i32(6), Order: a[7] == "true"}
		require.NoError(t, m.Update(tc))
	case "unit":
		require.NoError(t, m.UpdateUnitFlag(a[1], a[2] == "true"))
	case "unitSub":
		require.NoError(t, m.UpdateUnitSubFlag(a[1], a[2] == "true"))
	case "order":
		require.NoError(t, m.UpdateOrderTopics(orderTable(a[1])))
	case "isOrder":
		fmt.Fprintln(out, m.IsOrderTopic(a[1]))
	case "select":
		fmt.Fprintln(out, tcString(m.Select(a[1])))
	case "bulk":
		for i := range atoi(t, a[2]) {
			require.NoError(t, m.Update(config.TopicConfig{TopicName: a[1] + strconv.Itoa(i), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6,
				TopicFilterType: config.SingleTag}))
		}
	case "syncFromFile": // the slave sync's decode (broker/slavesync.go)
		data, err := os.ReadFile(config.TopicsPath(m.opts.StorePathRootDir))
		require.NoError(t, err)
		w, err := config.DecodeTopics(data)
		require.NoError(t, err)
		require.NoError(t, m.ReplaceAll(w))
	case "names":
		var names []string
		for _, tc := range m.Wrapper().Topics {
			names = append(names, tc.TopicName)
		}
		fmt.Fprintln(out, strings.Join(names, " "))
	case "delete":
		_, err := m.Delete(a[1])
		require.NoError(t, err)
	default:
		topicQuery(t, out, m, op, a)
	}
}

func topicQuery(t *testing.T, out *strings.Builder, m *Manager, op string, a []string) {
	switch op {
	case "wrapper":
		w := m.Wrapper()
		fmt.Fprintf(out, "counter %d\n", w.DataVersion.Counter)
		for _, tc := range w.Topics {
			fmt.Fprintln(out, tcString(tc, true))
		}
	case "version":
		fmt.Fprintf(out, "counter %d\n", m.DataVersion().Counter)
	case "isSystem":
		fmt.Fprintln(out, m.IsSystemTopic(a[1]))
	case "notAllowedSend":
		fmt.Fprintln(out, IsNotAllowedSend(a[1]))
	case "validate":
		if err := Validate(unescape(a[1])); err != nil {
			fmt.Fprintf(out, "1 %s\n", err) // ResponseCode.SYSTEM_ERROR
		} else {
			fmt.Fprintln(out, "ok")
		}
	case "illegal":
		fmt.Fprintln(out, IsTopicOrGroupIllegal(unescape(a[1])))
	case "persist":
		require.NoError(t, m.Persist())
	case "load":
		_, err := m.Load()
		require.NoError(t, err)
		fmt.Fprintln(out, "load true")
	case "file":
		fmt.Fprintln(out, fileOrMissing(config.TopicsPath(m.opts.StorePathRootDir)))
	default:
		t.Fatalf("unknown command topic.%s", op)
	}
}

func filterType(s string) config.TopicFilterType {
	switch s {
	case "SINGLE_TAG":
		return config.SingleTag
	case "MULTI_TAG":
		return config.MultiTag
	}
	return config.FilterTypeNull
}

// orderTable is BrokerManagers.kvTable.
func orderTable(arg string) map[string]string {
	switch arg {
	case "-":
		return nil
	case "empty":
		return map[string]string{}
	}
	table := map[string]string{}
	for _, t := range strings.Split(arg, ",") {
		table[t] = "broker-a:4"
	}
	return table
}

// tcString is BrokerManagers.tc.
func tcString(tc config.TopicConfig, ok bool) string {
	if !ok {
		return "null"
	}
	return fmt.Sprintf("topic %s r=%d w=%d perm=%d filter=%s sys=%d order=%t", tc.TopicName, tc.ReadQueueNums,
		tc.WriteQueueNums, tc.Perm, tc.TopicFilterType, tc.TopicSysFlag, tc.Order)
}
