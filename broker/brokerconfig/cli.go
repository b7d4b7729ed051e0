package brokerconfig

import (
	"errors"
	"fmt"
	"strings"
)

// Command-line parsing with the semantics of Apache commons-cli 1.2's
// PosixParser, which 4.9.8's BrokerStartup uses through
// ServerUtil.parseCmdLine: bundled short flags (-pm), attached values
// (-cFILE, --configFile=FILE), long options matched exactly (also after a
// single dash, -configFile), "--" ending the options, stray arguments
// ignored, values stripped of one leading and one trailing double quote.

type cliOption struct {
	short  string
	long   string
	hasArg bool
	desc   string
}

// cliOptions are ServerUtil.buildCommandlineOptions (-h, -n) plus
// BrokerStartup.buildCommandlineOptions (-c, -p, -m), in the order
// HelpFormatter lists them (by short name, ignoring case).
var cliOptions = []cliOption{
	{short: "c", long: "configFile", hasArg: true, desc: "Broker config properties file"},
	{short: "h", long: "help", desc: "Print help"},
	{short: "m", long: "printImportantConfig", desc: "Print important config item"},
	{short: "n", long: "namesrvAddr", hasArg: true, desc: "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
	{short: "p", long: "printConfigItem", desc: "Print all config item"},
}

// HelpText is what commons-cli's HelpFormatter (width 110) prints for
// printHelp("mqbroker", options, true): on -h (exit 0) and on a command
// line it cannot parse (exit 1).
var HelpText = helpText()

func helpText() string {
	var b strings.Builder
	b.WriteString("usage: mqbroker")
	left := make([]string, len(cliOptions))
	width := 0
	for i, o := range cliOptions {
		arg := ""
		if o.hasArg {
			arg = " <arg>"
		}
		fmt.Fprintf(&b, " [-%s%s]", o.short, arg)
		left[i] = "-" + o.short + ",--" + o.long + arg
		width = max(width, len(left[i]))
	}
	b.WriteByte('\n')
	for i, o := range cliOptions {
		fmt.Fprintf(&b, " %-*s   %s\n", width, left[i], o.desc)
	}
	return b.String()
}

// errBadCommandLine stands for commons-cli's ParseException.
var errBadCommandLine = errors.New("bad command line")

// commandLine is the parse result: options in order with their values.
type commandLine struct {
	seen   []string            // short names of the options given, in order
	values map[string][]string // short name → values
	args   []string
}

func (c *commandLine) has(short string) bool {
	for _, s := range c.seen {
		if s == short {
			return true
		}
	}
	return false
}

// value is CommandLine.getOptionValue: the first value given.
func (c *commandLine) value(short string) (string, bool) {
	if v := c.values[short]; len(v) > 0 {
		return v[0], true
	}
	return "", false
}

// lookup is Options.getOption after Util.stripLeadingHyphens.
func lookup(token string) *cliOption {
	name := strings.TrimPrefix(token, "-")
	if strings.HasPrefix(token, "--") {
		name = token[2:]
	}
	for i := range cliOptions {
		if o := &cliOptions[i]; o.short == name || o.long == name {
			return o
		}
	}
	return nil
}

// flatten is PosixParser.flatten (stopAtNonOption false).
func flatten(args []string) []string {
	var tokens []string
	for _, tok := range args {
		switch {
		case strings.HasPrefix(tok, "--"):
			opt, val, hasVal := strings.Cut(tok, "=")
			if lookup(opt) == nil {
				tokens = append(tokens, tok)
				continue
			}
			tokens = append(tokens, opt)
			if hasVal {
				tokens = append(tokens, val)
			}
		case tok == "-":
			tokens = append(tokens, tok)
		case strings.HasPrefix(tok, "-"):
			if len(tok) == 2 || lookup(tok) != nil {
				tokens = append(tokens, tok)
			} else {
				tokens = burst(tokens, tok)
			}
		default:
			tokens = append(tokens, tok)
		}
	}
	return tokens
}

// burst is PosixParser.burstToken: "-pm" → "-p" "-m"; "-cFILE" → "-c"
// "FILE"; an unknown letter keeps the whole token (which then fails).
func burst(tokens []string, tok string) []string {
	for i := 1; i < len(tok); i++ {
		o := lookup(tok[i : i+1])
		if o == nil {
			return append(tokens, tok)
		}
		tokens = append(tokens, "-"+o.short)
		if o.hasArg && i+1 < len(tok) {
			return append(tokens, tok[i+1:])
		}
	}
	return tokens
}

// parseCommandLine is Parser.parse over the flattened tokens.
func parseCommandLine(args []string) (*commandLine, error) {
	cl := &commandLine{values: map[string][]string{}}
	tokens := flatten(args)
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t == "--":
			for _, rest := range tokens[i+1:] {
				if rest != "--" {
					cl.args = append(cl.args, rest)
				}
			}
			return cl, nil
		case t == "-" || !strings.HasPrefix(t, "-"):
			cl.args = append(cl.args, t)
		default:
			o := lookup(t)
			if o == nil {
				return nil, fmt.Errorf("%w: unrecognized option %s", errBadCommandLine, t)
			}
			cl.seen = append(cl.seen, o.short)
			if !o.hasArg {
				continue
			}
			// processArgs: one value, unless the next token is an option.
			if i+1 >= len(tokens) || (strings.HasPrefix(tokens[i+1], "-") && lookup(tokens[i+1]) != nil) {
				return nil, fmt.Errorf("%w: missing argument for option %s", errBadCommandLine, o.short)
			}
			i++
			cl.values[o.short] = append(cl.values[o.short], stripQuotes(tokens[i]))
		}
	}
	return cl, nil
}

// stripQuotes is commons-cli 1.2's Util.stripLeadingAndTrailingQuotes.
func stripQuotes(s string) string {
	s = strings.TrimPrefix(s, `"`)
	return strings.TrimSuffix(s, `"`)
}
