package offsets

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/config"
)

// Java 4.9.8: ConsumerOffsetManager (4.9.7 broker jar, the same source):
// commits, queries, clone, removal, the correction-offset query and the
// unsubscribed scan against a fake store, persist and restart.
func TestOffsetsLikeJava(t *testing.T) { compareWithJava(t, "offsets", runOffsets) }

// With enableLmq: LmqConsumerOffsetManager and lmqConsumerOffset.json.
func TestLmqOffsetsLikeJava(t *testing.T) { compareWithJava(t, "lmqoffsets", runOffsets) }

func runOffsets(t *testing.T, root string, cmds [][]string) string {
	var out strings.Builder
	minOffsets := map[string]int64{}
	opts := Options{StorePathRootDir: root, MinOffset: func(topic string, q int32) int64 {
		return minOffsets[topic+"#"+strconv.Itoa(int(q))]
	}}
	var m *Manager
	for _, a := range cmds {
		fmt.Fprintf(&out, "> %s\n", strings.Join(a, " "))
		switch a[0] {
		case "start":
			var err error
			m, err = New(opts)
			require.NoError(t, err)
		case "storeset":
			require.Equal(t, "enableLmq", a[1], "the only store setting the offsets script uses")
			opts.Lmq = a[2] == "true"
		case "store.min":
			minOffsets[a[1]+"#"+a[2]] = int64(atoi(t, a[3]))
		default:
			require.True(t, strings.HasPrefix(a[0], "offset."), a[0])
			offsetCommand(t, &out, m, strings.TrimPrefix(a[0], "offset."), a)
		}
	}
	return out.String()
}

func atoi(t *testing.T, s string) int {
	v, err := strconv.Atoi(s)
	require.NoError(t, err)
	return v
}

func offsetCommand(t *testing.T, out *strings.Builder, m *Manager, op string, a []string) {
	switch op {
	case "commit":
		m.Commit("127.0.0.1:5555", a[1], a[2], int32(atoi(t, a[3])), int64(atoi(t, a[4])))
	case "query":
		fmt.Fprintln(out, m.Query(a[1], a[2], int32(atoi(t, a[3]))))
	case "queryAll":
		q, ok := m.QueryAll(a[1], a[2])
		if !ok {
			fmt.Fprintln(out, "null")
			return
		}
		parts := make([]string, len(q))
		for i, e := range q {
			parts[i] = fmt.Sprintf("%d:%d", e.QueueID, e.Offset)
		}
		fmt.Fprintf(out, "{%s}\n", strings.Join(parts, ","))
	case "topicsOf":
		fmt.Fprintln(out, sortedList(m.TopicsOf(a[1])))
	case "groupsOf":
		fmt.Fprintln(out, sortedList(m.GroupsOf(a[1])))
	case "clone":
		m.Clone(a[1], a[2], a[3])
	case "remove":
		m.RemoveGroup(a[1])
	case "minAll":
		filter := a[2]
		if filter == "-" {
			filter = ""
		}
		fmt.Fprintln(out, treeMap(m.MinOffsetInAllGroups(a[1], filter)))
	case "scan":
		m.ScanUnsubscribed()
	case "bulk":
		for i := range atoi(t, a[2]) {
			m.Commit("127.0.0.1:5555", "G", a[1]+strconv.Itoa(i), 0, int64(i))
		}
	case "names":
		var names []string
		m.table.Range(func(key string, _ *config.QueueOffsets) bool {
			names = append(names, key)
			return true
		})
		fmt.Fprintln(out, strings.Join(names, " "))
	case "syncFromFile": // the slave sync's decode (broker/slavesync.go)
		data, err := os.ReadFile(m.path)
		require.NoError(t, err)
		w, err := config.DecodeConsumerOffsets(data)
		require.NoError(t, err)
		m.PutAll(w)
		require.NoError(t, m.Persist())
	case "writeFile": // a file as an operator or an older broker may leave it
		require.NoError(t, os.MkdirAll(filepath.Dir(m.path), 0o755))
		require.NoError(t, os.WriteFile(m.path, []byte(a[1]), 0o644))
	case "persist":
		require.NoError(t, m.Persist())
	case "load":
		_, err := m.Load()
		require.NoError(t, err)
		fmt.Fprintln(out, "load true")
	case "file":
		fmt.Fprintln(out, fileOrMissing(m.path))
	default:
		t.Fatalf("unknown command offset.%s", op)
	}
}

// sortedList is Java's sorted ArrayList.toString.
func sortedList(s []string) string {
	s = slices.Clone(s)
	slices.Sort(s)
	return "[" + strings.Join(s, ", ") + "]"
}

// treeMap is Java's TreeMap<Integer, Long>.toString.
func treeMap(q []QueueOffset) string {
	q = slices.Clone(q)
	slices.SortFunc(q, func(a, b QueueOffset) int { return int(a.QueueID) - int(b.QueueID) })
	parts := make([]string, len(q))
	for i, e := range q {
		parts[i] = fmt.Sprintf("%d=%d", e.QueueID, e.Offset)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
