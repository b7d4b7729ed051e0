package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseResult(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]float64
		err  bool
	}{
		{"send", "noise\nRESULT sent=10 tps=2.5 p99us=300\n", map[string]float64{"sent": 10, "tps": 2.5, "p99us": 300}, false},
		{"last wins", "RESULT a=1\nRESULT a=2\n", map[string]float64{"a": 2}, false},
		{"none", "no result\n", nil, true},
		{"bad pair", "RESULT a\n", nil, true},
		{"bad number", "RESULT a=x\n", nil, true},
		{"empty key", "RESULT =1\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseResult([]byte(tc.in))
			if tc.err {
				require.True(t, errors.Is(err, ErrNoResult), "err = %v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func FuzzParseResult(f *testing.F) {
	f.Add([]byte("RESULT sent=1 tps=2.5\n"))
	f.Add([]byte("RESULT \n"))
	f.Add([]byte("x\nRESULT a=1e400 b=-0\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := parseResult(in)
		if err != nil && !errors.Is(err, ErrNoResult) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		if err == nil && m == nil {
			t.Fatal("nil map without error")
		}
	})
}

func TestParseSendTPS(t *testing.T) {
	got, err := parseSendTPS([]byte("level=info msg=x sendTps=10\nlevel=info sendTps=1234 maxRt=3\n"))
	require.NoError(t, err)
	require.Equal(t, 1234.0, got)
	_, err = parseSendTPS([]byte("nothing"))
	require.ErrorIs(t, err, ErrNoResult)
}
