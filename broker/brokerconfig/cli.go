package brokerconfig

import "github.com/sputnikmq/sputnik/compat/javacli"

// cliOptions are ServerUtil.buildCommandlineOptions (-h, -n) plus
// BrokerStartup.buildCommandlineOptions (-c, -p, -m), in the order
// HelpFormatter lists them (by short name, ignoring case).
var cliOptions = javacli.Options{
	{Short: "c", Long: "configFile", HasArg: true, Desc: "Broker config properties file"},
	{Short: "h", Long: "help", Desc: "Print help"},
	{Short: "m", Long: "printImportantConfig", Desc: "Print important config item"},
	{Short: "n", Long: "namesrvAddr", HasArg: true, Desc: "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
	{Short: "p", Long: "printConfigItem", Desc: "Print all config item"},
}

// HelpText is what commons-cli's HelpFormatter (width 110) prints for
// printHelp("mqbroker", options, true): on -h (exit 0) and on a command
// line it cannot parse (exit 1).
var HelpText = cliOptions.Help("mqbroker")

// errBadCommandLine stands for commons-cli's ParseException.
var errBadCommandLine = javacli.ErrBadCommandLine

type commandLine = javacli.CommandLine

// parseCommandLine is ServerUtil.parseCmdLine's parse.
func parseCommandLine(args []string) (*commandLine, error) { return cliOptions.Parse(args) }
