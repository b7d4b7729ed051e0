package main

import "github.com/sputnikmq/sputnik/compat/javacli"

// cliOptions are ServerUtil.buildCommandlineOptions (-h, -n) plus
// NamesrvStartup.buildCommandlineOptions (-c, -p).
var cliOptions = javacli.Options{
	{Short: "c", Long: "configFile", HasArg: true, Desc: "Name server config properties file"},
	{Short: "h", Long: "help", Desc: "Print help"},
	{Short: "n", Long: "namesrvAddr", HasArg: true, Desc: "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
	{Short: "p", Long: "printConfigItem", Desc: "Print all config items"},
}

// helpText is what commons-cli's HelpFormatter (width 110) prints for
// `printHelp("mqnamesrv", options, true)`.
var helpText = cliOptions.Help("mqnamesrv")

type commandLine = javacli.CommandLine

// parseCommandLine is ServerUtil.parseCmdLine's parse.
func parseCommandLine(args []string) (*commandLine, error) { return cliOptions.Parse(args) }
