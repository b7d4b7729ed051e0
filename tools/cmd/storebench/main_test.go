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
