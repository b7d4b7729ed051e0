package javacli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// brokerOptions are mqbroker's (BrokerStartup + ServerUtil).
var brokerOptions = Options{
	{Short: "c", Long: "configFile", HasArg: true, Desc: "Broker config properties file"},
	{Short: "h", Long: "help", Desc: "Print help"},
	{Short: "m", Long: "printImportantConfig", Desc: "Print important config item"},
	{Short: "n", Long: "namesrvAddr", HasArg: true, Desc: "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
	{Short: "p", Long: "printConfigItem", Desc: "Print all config item"},
}

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
		cl, err := brokerOptions.Parse(tc.args)
		if tc.bad {
			require.ErrorIs(t, err, ErrBadCommandLine, "%q", tc.args)
			continue
		}
		require.NoError(t, err, "%q", tc.args)
		require.Equal(t, tc.seen, cl.seen, "%q", tc.args)
		require.Equal(t, tc.values, cl.values, "%q", tc.args)
	}
}
