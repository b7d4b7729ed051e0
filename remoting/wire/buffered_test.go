package wire

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// FrameBuffered looks at what the first ReadCommand left in the buffer
// (a bytes.Reader hands everything over in one read).
func TestFrameBuffered(t *testing.T) {
	frame, err := AppendFrame(nil, sampleCommand(SerializeJSON))
	require.NoError(t, err)
	cases := []struct {
		name    string
		rest    []byte
		max     int
		want    bool
		readErr bool // the next ReadCommand fails (at once)
	}{
		{"nothing", nil, 0, false, false},
		{"part of the length field", frame[:3], 0, false, false},
		{"length field only", frame[:4], 0, false, false},
		{"frame but its last byte", frame[:len(frame)-1], 0, false, false},
		{"whole frame", frame, 0, true, false},
		{"whole frame and a part", append(append([]byte(nil), frame...), 0, 0), 0, true, false},
		{"negative length fails at once", binary.BigEndian.AppendUint32(nil, 0x80000000), 0, true, true},
		{"too long fails at once", binary.BigEndian.AppendUint32(nil, uint32(len(frame))), len(frame) + 3, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.max
			if max == 0 {
				max = DefaultMaxFrameLength
			}
			stream := append(append([]byte(nil), frame...), tc.rest...)
			fr := NewFrameReader(bytes.NewReader(stream), max)
			require.False(t, fr.FrameBuffered(), "before any read")
			cmd, err := fr.ReadCommand()
			require.NoError(t, err)
			cmd.Release()
			require.Equal(t, tc.want, fr.FrameBuffered())
			if tc.want {
				_, err := fr.ReadCommand() // returns without blocking on the reader
				require.Equal(t, tc.readErr, err != nil, "%v", err)
			}
		})
	}
}
