package brokerconfig

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: `mqbroker -h` prints HelpFormatter's text and exits 0; an
// unknown option prints it and exits 1.
func TestHelpMatchesJava(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		code int
	}{{"-h", ExitOK}, {"-hx", ExitBadArgs}} {
		out, code := javaRun(t, nil, nil, "org.apache.rocketmq.broker.BrokerStartup", tc.arg)
		require.Equal(t, tc.code, code)
		require.Equal(t, out, HelpText)
		s, err := pinned(nil).Load([]string{tc.arg})
		require.NoError(t, err)
		require.Equal(t, &Exit{Code: tc.code, Stdout: out}, s.Exit)
	}
}
