package brokerconfig

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Java 4.9.8: ServerUtil.parseCmdLine with PosixParser (commons-cli 1.2).
func TestParseCommandLine(t *testing.T) {
	cases := []struct {
		args   []string
		seen   []string
		values map[string][]string
		bad    bool
	}{
		{args: nil, values: map[string][]string{}},
		{args: []string{"-c", "b.conf", "-n", "a:1"}, seen: []string{"c", "n"}, values: map[string][]string{"c": {"b.conf"}, "n": {"a:1"}}},
		{args: []string{"-pm"}, seen: []string{"p", "m"}, values: map[string][]string{}},
		{args: []string{"-pcb.conf"}, seen: []string{"p", "c"}, values: map[string][]string{"c": {"b.conf"}}},
		{args: []string{"--configFile=x", "-namesrvAddr", `"q:2"`}, seen: []string{"c", "n"}, values: map[string][]string{"c": {"x"}, "n": {"q:2"}}},
		{args: []string{"-c", "a", "-c", "b"}, seen: []string{"c", "c"}, values: map[string][]string{"c": {"a", "b"}}},
		{args: []string{"stray", "-p", "--", "-x"}, seen: []string{"p"}, values: map[string][]string{}},
		{args: []string{"-n", "-x"}, seen: []string{"n"}, values: map[string][]string{"n": {"-x"}}},
		{args: []string{"-x"}, bad: true},
		{args: []string{"-px"}, bad: true},
		{args: []string{"-c"}, bad: true},
		{args: []string{"-c", "-p"}, bad: true},
		{args: []string{"--nope"}, bad: true},
	}
	for _, tc := range cases {
		cl, err := parseCommandLine(tc.args)
		if tc.bad {
			require.ErrorIs(t, err, errBadCommandLine, "%q", tc.args)
			continue
		}
		require.NoError(t, err, "%q", tc.args)
		require.Equal(t, tc.seen, cl.seen, "%q", tc.args)
		require.Equal(t, tc.values, cl.values, "%q", tc.args)
	}
}

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
