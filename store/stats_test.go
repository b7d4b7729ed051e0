package store

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStoreStatsRates follows StoreStatsService: a rate over n seconds
// needs n+1 samples (empty before), the total read rate counts 0 for a
// window not full yet, and the counters behind BrokerStats add up.
func TestStoreStatsRates(t *testing.T) {
	var st storeStats
	at := int64(1_700_000_000_000)
	for i := range 11 {
		st.putOK(10, 1000) // 10 messages a second
		if i%2 == 0 {
			st.got(&GetResult{Status: Found})
		} else {
			st.got(&GetResult{Status: NoMessageInQueue})
		}
		st.sample(at)
		at += 1000
	}
	require.Equal(t, "  ", tps(st.put[:10]), "10 samples: no 10 s rate yet")
	require.Equal(t, "10.0  ", tps(st.put))
	require.Equal(t, "1.0 0.0 0.0", totalTps(st.found, st.miss))
	require.Equal(t, int64(110), st.putTimes.Load())
	require.Equal(t, int64(11000), st.putSize.Load())

	for range statsSamples + 5 {
		st.sample(at)
		at += 1000
	}
	require.Len(t, st.put, statsSamples)
	require.Equal(t, "0.0 0.0 0.0", tps(st.put), "an idle minute")
}
