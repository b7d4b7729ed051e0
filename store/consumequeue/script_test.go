package consumequeue

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/segment"
)

// scriptArgs reads a script's "# args FILESIZE TOPIC QUEUEID [EXTFILESIZE]"
// line: the arguments the Java oracle takes after ROOT.
func scriptArgs(t *testing.T, script string) []string {
	t.Helper()
	for _, line := range strings.Split(script, "\n") {
		if rest, ok := strings.CutPrefix(line, "# args "); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatal("script has no '# args' line")
	return nil
}

// goScript runs a ConsumeQueueOracle script (see its class comment)
// against this package and returns the same output the Java program
// prints. The queue lives in root/consumequeue, ext files in
// root/consumequeue_ext.
func goScript(t *testing.T, root string, args []string, script string) string {
	t.Helper()
	r := &runner{t: t, root: root, stamps: map[int64]int64{}}
	r.size, _ = strconv.ParseInt(args[0], 10, 64)
	r.topic = args[1]
	id, _ := strconv.Atoi(args[2])
	r.queueID = int32(id)
	if len(args) > 3 {
		n, _ := strconv.ParseInt(args[3], 10, 64)
		r.ext = &ExtOptions{Root: filepath.Join(root, "consumequeue_ext"), FileSize: n}
	}
	sc := bufio.NewScanner(strings.NewReader(script))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r.do(strings.Fields(line))
	}
	if r.q != nil {
		r.q.Close()
	}
	return r.out.String()
}

type runner struct {
	t       *testing.T
	root    string
	size    int64
	topic   string
	queueID int32
	ext     *ExtOptions
	q       *Queue
	stamps  map[int64]int64
	minPhy  int64
	out     strings.Builder
}

func (r *runner) num(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	require.NoError(r.t, err)
	return v
}

func (r *runner) lookup(phy int64, _ int32) (int64, bool) {
	st, ok := r.stamps[phy]
	return st, ok
}

func (r *runner) do(f []string) {
	t := r.t
	switch f[0] {
	case "open":
		if r.q != nil {
			r.q.Close()
		}
		q, err := Open(segment.OS, filepath.Join(r.root, "consumequeue"), r.topic, r.queueID, r.size, Options{Ext: r.ext})
		require.NoError(t, err)
		r.q = q
	case "put":
		err := r.q.Put(Unit{Phy: r.num(f[1]), Size: int32(r.num(f[2])), TagsCode: r.num(f[3])}, r.num(f[4]))
		require.NoError(t, err)
		r.out.WriteString("put true\n")
	case "dispatch":
		req := &Request{Phy: r.num(f[1]), Size: int32(r.num(f[2])), TagsCode: r.num(f[3]),
			QueueOffset: r.num(f[4]), StoreTimestamp: r.num(f[5])}
		if f[6] != "-" {
			var err error
			req.BitMap, err = hex.DecodeString(f[6])
			require.NoError(t, err)
		}
		require.NoError(t, r.q.PutRequest(req))
	case "recover":
		require.NoError(t, r.q.Recover())
	case "flush":
		_, err := r.q.Flush(0)
		require.NoError(t, err)
	case "truncate":
		require.NoError(t, r.q.TruncateAfter(r.num(f[1])))
	case "correctmin":
		require.NoError(t, r.q.CorrectMinOffset(r.num(f[1])))
	case "delete":
		n, err := r.q.DeleteBefore(r.num(f[1]))
		require.NoError(t, err)
		fmt.Fprintf(&r.out, "deleted %d\n", n)
	default:
		r.doRead(f)
	}
}

func (r *runner) doRead(f []string) {
	switch f[0] {
	case "stamp":
		r.stamps[r.num(f[1])] = r.num(f[2])
	case "minphy":
		r.minPhy = r.num(f[1])
	case "bytime":
		fmt.Fprintf(&r.out, "bytime %s %d\n", f[1], r.q.OffsetByTime(r.num(f[1]), r.minPhy, r.lookup))
	case "state":
		fmt.Fprintf(&r.out, "state min %d max %d maxphy %d\n", r.q.MinOffset(), r.q.MaxOffset(), r.q.MaxPhysicalOffset())
	case "units":
		for off := r.q.MinOffset(); off < r.q.MaxOffset(); off++ {
			u, err := r.q.Get(off)
			if err != nil {
				fmt.Fprintf(&r.out, "unit %d null\n", off)
				continue
			}
			fmt.Fprintf(&r.out, "unit %d %d %d %d\n", off, u.Phy, u.Size, u.TagsCode)
		}
	case "ext":
		u, err := r.q.ExtUnit(r.num(f[1]))
		if err != nil {
			fmt.Fprintf(&r.out, "ext %s null\n", f[1])
			return
		}
		bm := "-"
		if u.BitMap != nil {
			bm = hex.EncodeToString(u.BitMap)
		}
		fmt.Fprintf(&r.out, "ext %s %d %d %d %s\n", f[1], u.Size, u.TagsCode, u.MsgStoreTime, bm)
	default:
		r.t.Fatalf("unknown script command %q", f[0])
	}
}
