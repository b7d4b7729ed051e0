package broker

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/remoting/protocol"
)

// TestQueryCorrectionOffset: per queue, the smallest offset of the groups
// not filtered out that is still in the store, Long.MAX_VALUE where the
// compare group is behind it; the body as QueryCorrectionOffsetBody
// writes it. Unlike Java, the filtered groups keep their offsets.
func TestQueryCorrectionOffset(t *testing.T) {
	e := newAdminEnv(t)
	e.createTopic(t, "TopicC", 4)
	for i := range 8 {
		e.put(t, "TopicC", int32(i%4), "k", fmt.Sprintf("b%d", i))
	}
	e.waitDispatched(t)
	e.offsets.Commit("c", "GA", "TopicC", 0, 2)
	e.offsets.Commit("c", "GA", "TopicC", 1, 1)
	e.offsets.Commit("c", "GB", "TopicC", 0, 1)
	e.offsets.Commit("c", "GB", "TopicC", 1, 2)
	e.offsets.Commit("c", "GB", "TopicC", 3, 2)
	e.offsets.Commit("c", "GC", "TopicC", 0, 0)
	e.offsets.Commit("c", "GC", "TopicC", 2, 1)
	ht := handlers((&groupAdmin{groups: e.groups, offsets: e.offsets, log: e.log}).register)
	query := func(filter, compare string) string {
		resp := call(t, ht[protocol.ReqQueryCorrectionOffset], request(protocol.ReqQueryCorrectionOffset,
			&protocol.QueryCorrectionOffsetHeader{Topic: "TopicC", FilterGroups: filter, CompareGroup: compare}))
		require.Equal(t, int32(protocol.RespSuccess), resp.Code, resp.Remark)
		return string(resp.Body)
	}

	// GC filtered out: the smallest of GA's and GB's offsets; GB (compare)
	// is among them, so never behind.
	require.Equal(t, `{"correctionOffsets":{0:1,1:1,3:2}}`, query("GC", "GB"))

	// No filter: GC's 0 is the minimum of queue 0, GB is not behind it.
	require.Equal(t, `{"correctionOffsets":{0:0,1:1,2:1,3:2}}`, query("", "GB"))
	require.Equal(t, int64(0), e.offsets.Query("GC", "TopicC", 0), "the filtered group keeps its offsets")

	// GB and GC filtered out: GA's offsets; the compare group GC is behind
	// GA on queue 0 (Long.MAX_VALUE), and its queue 2, which no other group
	// has, is left out where Java fails with a NullPointerException.
	got := query("GB,GC", "GC")
	maxOff := int64(math.MaxInt64)
	require.Equal(t, fmt.Sprintf(`{"correctionOffsets":{0:%d,1:1}}`, maxOff), got)
	java := javaAdminBodies(t, []string{fmt.Sprintf("correction\t0:%d\t1:1", maxOff)})
	require.Equal(t, java[0], got)
	require.Equal(t, `{"correctionOffsets":{}}`, query("GA,GB,GC", "GB"))
}
