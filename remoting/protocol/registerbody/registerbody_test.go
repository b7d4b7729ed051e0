package registerbody

import (
	"compress/zlib"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	p := Parts{
		DataVersion:   []byte(`{"counter":3,"timestamp":17}`),
		Topics:        [][]byte{AppendTopicText(nil, "T1", 4, 4, 6, "SINGLE_TAG"), AppendTopicText(nil, "T2", 8, 2, 7, "MULTI_TAG")},
		FilterServers: []byte(`[]`),
	}
	require.Equal(t, "T2 8 2 7 MULTI_TAG", string(p.Topics[1]))
	body, err := p.Append(nil, zlib.BestCompression)
	require.NoError(t, err)
	got, err := Decode(body, 1<<20)
	require.NoError(t, err)
	require.Equal(t, p, got)

	_, err = Decode(body[:len(body)/2], 1<<20)
	require.ErrorIs(t, err, ErrBadBody)
	_, err = Decode(body, 10)
	require.ErrorIs(t, err, ErrBadBody, "inflated past the bound")
}
