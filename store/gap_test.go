package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/sputnikmq/sputnik/store/message"
)

// Records whose queue offsets jump past the consume queue's end (here the
// counter is moved by hand; in the field a deleted topic's older records
// dispatched again after a crash, or a damaged header) do not stop
// dispatch, which would refuse every later put: the gap is filled and
// reads step over it, before and after a restart.
func TestDispatchPastQueueEnd(t *testing.T) {
	cfg := testConfig(t.TempDir())
	s := openStore(t, cfg)
	put := func(i int) PutResult {
		res := s.PutMessage(&Message{Topic: "Gap", Body: []byte(fmt.Sprint("m", i)),
			Properties: props(message.PropTags, "T"), BornHost: testBorn, StoreHost: testStore})
		require.Equal(t, PutOK, res.Status, "%v", res.Err)
		return res
	}
	for i := range 3 {
		put(i)
	}
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	s.CommitLog().SetQueueOffsets(map[string]int64{"Gap-0": 6})
	require.EqualValues(t, 6, put(3).QueueOffset)
	require.EqualValues(t, 7, put(4).QueueOffset)
	eventually(t, "dispatch", func() bool { return s.DispatchBehind() == 0 })
	require.True(t, s.Writable())

	check := func() {
		t.Helper()
		res, err := s.GetMessage("G", "Gap", 0, 0, 32, nil)
		require.NoError(t, err)
		require.Equal(t, Found, res.Status)
		require.Equal(t, []int64{0, 1, 2, 6, 7}, res.QueueOffsets)
		require.EqualValues(t, 8, res.NextBeginOffset)
		for i, v := range res.Messages {
			rec, err := message.DecodeRecord(v.B, true)
			require.NoError(t, err)
			require.Equal(t, fmt.Sprint("m", i), string(rec.Body))
			require.Equal(t, res.QueueOffsets[i], rec.QueueOffset)
		}
		res.Release()
		res, err = s.GetMessage("G", "Gap", 0, 3, 1, nil)
		require.NoError(t, err)
		require.Equal(t, Found, res.Status)
		require.Equal(t, []int64{6}, res.QueueOffsets)
		require.EqualValues(t, 7, res.NextBeginOffset)
		res.Release()
	}
	check()
	require.NoError(t, s.Close())
	s = openStore(t, cfg)
	defer s.Close()
	check()
	require.EqualValues(t, 8, put(5).QueueOffset)
}
