package wire

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func sampleCommand(st SerializeType) *Command {
	c := NewRequest(310)
	c.Opaque = 42
	c.Serialize = st
	c.Remark = "tab\there \"q\" \\ é 世界 \x01"
	c.AddExt("a", "PG")
	c.AddExt("b", "TopicTest")
	c.AddExt("i", "KEYS\x01k1\x02TAGS\x01TagA\x02")
	c.Body = []byte("hello")
	return c
}

func TestRoundTrip(t *testing.T) {
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		t.Run(st.String(), func(t *testing.T) {
			c := sampleCommand(st)
			frame, err := AppendFrame(nil, c)
			require.NoError(t, err)
			fr := NewFrameReader(bytes.NewReader(frame), 0)
			got, err := fr.ReadCommand()
			require.NoError(t, err)
			require.Equal(t, c.Code, got.Code)
			require.Equal(t, c.Opaque, got.Opaque)
			require.Equal(t, c.Remark, got.Remark)
			require.Equal(t, c.Ext, got.Ext)
			require.Equal(t, c.Body, got.Body)
			require.Equal(t, st, got.Serialize)
			again, err := AppendFrame(nil, got)
			require.NoError(t, err)
			require.Equal(t, frame, again)
			got.Release()
			t.Logf("%s", frame)
		})
	}
}
