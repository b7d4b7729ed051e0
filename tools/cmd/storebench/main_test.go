package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"123", 123, true}, {"64KiB", 64 << 10, true}, {"2GiB", 2 << 30, true}, {"10GB", 10e9, true},
		{"5MB", 5e6, true}, {"7B", 7, true}, {"", 0, false}, {"GiB", 0, false}, {"-1GiB", 0, false}, {"1.5GiB", 0, false},
	} {
		got, err := parseBytes(tc.in)
		if !tc.ok {
			require.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
}

func TestInts(t *testing.T) {
	got, err := ints("128, 1024,65536")
	require.NoError(t, err)
	require.Equal(t, []int{128, 1024, 65536}, got)
	for _, bad := range []string{"", "1,,2", "0", "x"} {
		_, err := ints(bad)
		require.Error(t, err, bad)
	}
}
