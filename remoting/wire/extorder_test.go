package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/compat/javalang/jhash"
)

func extKeys(t *testing.T, c *Command) []string {
	t.Helper()
	frame, err := AppendFrame(nil, c)
	require.NoError(t, err)
	d, err := Decode(frame[4:])
	require.NoError(t, err)
	keys := make([]string, 0, len(d.Ext))
	for _, f := range d.Ext {
		keys = append(keys, f.Key)
	}
	return keys
}

// A send response as the broker builds it: MSG_REGION and TRACE_ON added
// directly, then SendMessageResponseHeader (a FastCodesHeader).
func TestExtOrderSendResponse(t *testing.T) {
	for _, tc := range []struct {
		st   SerializeType
		want []string
	}{
		// one HashMap: buckets queueId 1, TRACE_ON 4, MSG_REGION 7, msgId 9, queueOffset 10
		{SerializeJSON, []string{"queueId", "TRACE_ON", "MSG_REGION", "msgId", "queueOffset"}},
		// the header's encode() first, then the map of direct fields
		{SerializeRocketMQ, []string{"msgId", "queueId", "queueOffset", "TRACE_ON", "MSG_REGION"}},
	} {
		c := NewResponse(&Command{Serialize: tc.st}, 0, "")
		c.AddExt("MSG_REGION", "DefaultRegion")
		c.AddExt("TRACE_ON", "true")
		from := len(c.Ext)
		c.AddExt("msgId", "X")
		c.AddExt("queueId", "1")
		c.AddExt("queueOffset", "2")
		c.MarkHeader(from, true, []string{"queueOffset", "msgId", "transactionId", "queueId"})
		require.Equal(t, tc.want, extKeys(t, c), tc.st)
	}
}

// Without a typed header, both forms write the HashMap's order, and the
// table grows past 12 keys as Java's does.
func TestExtOrderIsHashMapOrder(t *testing.T) {
	for _, n := range []int{2, 12, 13, 25, 40} {
		c := NewRequest(1)
		m := jhash.NewMap[string, string](jhash.String, -1)
		for i := range n {
			k := fmt.Sprintf("key%d", i*7)
			c.AddExt(k, "v")
			m.Put(k, "v")
		}
		for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
			c.Serialize = st
			require.Equal(t, m.Keys(), extKeys(t, c), "%d keys, %v", n, st)
		}
	}
}

// A header's fields go into the map after the direct ones, in put order:
// that decides keys that share a bucket (sysFlag and reconsumeTimes of
// SendMessageRequestHeader, 14 fields, a 32-bucket table).
func TestExtOrderPutOrderBreaksTies(t *testing.T) {
	c := NewRequest(10)
	c.AddExt("sysFlag", "0") // as a typed header would write them, declaration order
	c.AddExt("reconsumeTimes", "0")
	for i := range 12 {
		c.AddExt(fmt.Sprintf("f%d", i), "v")
	}
	c.MarkHeader(0, false, nil)
	plain := extKeys(t, c)
	c.MarkHeader(0, false, []string{"reconsumeTimes", "sysFlag"})
	reordered := extKeys(t, c)
	require.Less(t, indexOf(plain, "sysFlag"), indexOf(plain, "reconsumeTimes"))
	require.Less(t, indexOf(reordered, "reconsumeTimes"), indexOf(reordered, "sysFlag"))
}

func indexOf(keys []string, k string) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	return -1
}

// A decoded command is written back in its wire order.
func TestExtOrderDecodedKeepsWireOrder(t *testing.T) {
	c := &Command{Code: 1, Language: LanguageJava, Serialize: SerializeRocketMQ}
	c.Ext = c.extInline[:0]
	for _, k := range []string{"z", "msgId", "a", "queueId"} {
		c.AddExt(k, "v")
	}
	require.Equal(t, []string{"z", "msgId", "a", "queueId"}, extKeys(t, c))
}

func TestExtOrderAllocatesNothing(t *testing.T) {
	c := NewResponse(&Command{Serialize: SerializeRocketMQ}, 0, "")
	c.AddExt("MSG_REGION", "DefaultRegion")
	c.AddExt("TRACE_ON", "true")
	c.AddExt("msgId", "X")
	c.MarkHeader(2, true, []string{"msgId"})
	buf := make([]byte, 0, 512)
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		c.Serialize = st
		allocs := testing.AllocsPerRun(100, func() {
			var err error
			if _, err = AppendFrame(buf[:0], c); err != nil {
				t.Fatal(err)
			}
		})
		require.Zero(t, allocs, st)
	}
}

// FuzzExtOrder: whatever the keys and header mark, both encoders write
// every entry exactly once, and without a header in java.util.HashMap's
// order.
func FuzzExtOrder(f *testing.F) {
	f.Add("a\x00b\x00c\x00sysFlag\x00reconsumeTimes", uint8(1), uint8(3), true)
	f.Add("MSG_REGION\x00TRACE_ON\x00msgId\x00queueId", uint8(2), uint8(4), false)
	f.Fuzz(func(t *testing.T, keys string, from, to uint8, fast bool) {
		c := NewRequest(1)
		m := jhash.NewMap[string, int](jhash.String, -1)
		for i, k := range splitKeys(keys) {
			if m.Has(k) {
				continue // a HashMap holds a key once
			}
			c.AddExt(k, fmt.Sprint(i))
			m.Put(k, i)
		}
		n := len(c.Ext)
		if int(to) <= n && from <= to && to > 0 {
			c.MarkHeader(int(from), fast, splitKeys(keys)[:min(int(to), len(splitKeys(keys)))])
			c.hdr.to = int(to)
		}
		for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
			c.Serialize = st
			got := extKeys(t, c)
			if len(got) != n {
				t.Fatalf("%v: %d entries written, %d held", st, len(got), n)
			}
			seen := map[string]bool{}
			for _, k := range got {
				if seen[k] || !m.Has(k) {
					t.Fatalf("%v: key %q written twice or never held", st, k)
				}
				seen[k] = true
			}
			if c.hdr.to == 0 && fmt.Sprint(got) != fmt.Sprint(m.Keys()) {
				t.Fatalf("%v: order %q, HashMap %q", st, got, m.Keys())
			}
		}
	})
}

func splitKeys(s string) []string {
	var out []string
	for _, k := range strings.Split(s, "\x00") {
		if k != "" && len(k) < 1000 {
			out = append(out, k)
		}
	}
	return out
}
