package consumerfilter

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The positions Java 4.9.x's BloomFilter.createByFn(20, 32).generate(s)
// printed (rocketmq-filter jar with Guava 31), and one other shape.
func TestBloomMatchesJava(t *testing.T) {
	b, err := NewBloom(20, 32)
	require.NoError(t, err)
	require.Equal(t, Bloom{F: 20, N: 32, K: 3, M: 112}, b)
	for s, want := range map[string][]int32{
		"":                       {0, 0, 0},
		"a":                      {94, 99, 7},
		"G#T":                    {24, 26, 83},
		"ConfSqlCG#ConfSqlTopic": {80, 47, 17},
		"0123456789abcdef":       {11, 47, 60},
		"0123456789abcdefXYZ":    {47, 94, 19},
		"héllo wörld ☃ long string over sixteen": {89, 58, 4},
	} {
		require.Equal(t, want, b.Positions(s), "%q", s)
	}
	g, err := NewBloom(1, 1000)
	require.NoError(t, err)
	require.Equal(t, int32(7), g.K)
	require.Equal(t, int32(9592), g.M)
	require.Equal(t, []int32{3598, 2235, 8069, 1104, 4729, 971, 8202}, g.Positions("x#y"))
	require.True(t, b.Valid(b.Data("x")))
	require.False(t, g.Valid(b.Data("x")))

	// Guava 31 murmur3_128().hashString(s, UTF_8).asLong().
	require.Equal(t, uint64(0xcbd8a7b341bd9b02), murmur3x64("hello"))
	require.Equal(t, uint64(0x85555565f6597889), murmur3x64("a"))

	_, err = NewBloom(100, 1)
	require.Error(t, err)
	_, err = NewBloom(20, 0)
	require.Error(t, err)
}
