package storebench

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want Memory
		err  error
	}{
		{"linux", "Name:\tstorebench\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\nRssAnon:\t 512 kB\nRssFile:\t 500 kB\nThreads:\t7\n",
			Memory{VmHWM: 2 << 20, VmRSS: 1 << 20, RssAnon: 512 << 10, RssFile: 500 << 10}, nil},
		{"empty", "", Memory{}, nil},
		{"no value", "VmRSS:\n", Memory{}, nil},
		{"not a number", "VmRSS:\tlots kB\n", Memory{}, ErrStatus},
		{"negative", "VmRSS:\t-1 kB\n", Memory{}, ErrStatus},
		{"overflow", "VmRSS:\t9223372036854775807 kB\n", Memory{}, ErrStatus},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStatus([]byte(tc.in))
			if tc.err != nil {
				require.True(t, errors.Is(err, tc.err), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestSelfMemory(t *testing.T) {
	m, err := selfMemory()
	require.NoError(t, err)
	require.Positive(t, m.VmRSS)
	require.Positive(t, m.HeapUsed)
	require.GreaterOrEqual(t, m.VmHWM, m.VmRSS)
}

func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("VmHWM:\t1 kB\nVmRSS:\t2 kB\n"))
	f.Add([]byte("RssAnon: 99999999999999999999 kB"))
	f.Add([]byte("RssFile:\n\n\tx"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := parseStatus(raw)
		if err == nil && (m.VmRSS < 0 || m.VmHWM < 0 || m.RssAnon < 0 || m.RssFile < 0) {
			t.Fatalf("negative memory %+v from %q", m, raw)
		}
	})
}
