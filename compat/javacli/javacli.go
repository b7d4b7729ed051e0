// Package javacli parses command lines as Apache commons-cli 1.2's
// PosixParser does for RocketMQ 4.9.8's ServerUtil.parseCmdLine (mqnamesrv,
// mqbroker): bundled short flags (-pm), attached values (-cFILE,
// --configFile=FILE), long options matched exactly (also after a single
// dash, -configFile), "--" ending the options, stray arguments kept aside,
// values stripped of one leading and one trailing double quote; and prints
// HelpFormatter's usage text (width 110).
package javacli

import (
	"errors"
	"fmt"
	"strings"
)

// Option is one commons-cli Option.
type Option struct {
	Short  string
	Long   string
	HasArg bool
	Desc   string
}

// Options is an Options set, in the order HelpFormatter lists them (by
// short name, ignoring case).
type Options []Option

// Help is HelpFormatter.printHelp(cmd, options, true).
func (opts Options) Help(cmd string) string {
	var b strings.Builder
	b.WriteString("usage: " + cmd)
	left := make([]string, len(opts))
	width := 0
	for i, o := range opts {
		arg := ""
		if o.HasArg {
			arg = " <arg>"
		}
		fmt.Fprintf(&b, " [-%s%s]", o.Short, arg)
		left[i] = "-" + o.Short + ",--" + o.Long + arg
		width = max(width, len(left[i]))
	}
	b.WriteByte('\n')
	for i, o := range opts {
		fmt.Fprintf(&b, " %-*s   %s\n", width, left[i], o.Desc)
	}
	return b.String()
}

// ErrBadCommandLine stands for commons-cli's ParseException.
var ErrBadCommandLine = errors.New("bad command line")

// CommandLine is the parse result: options in order with their values.
type CommandLine struct {
	seen   []string            // short names of the options given, in order
	values map[string][]string // short name → values
	args   []string
}

// Args are the arguments that are not options.
func (c *CommandLine) Args() []string { return c.args }

// Has is CommandLine.hasOption.
func (c *CommandLine) Has(short string) bool {
	for _, s := range c.seen {
		if s == short {
			return true
		}
	}
	return false
}

// Value is CommandLine.getOptionValue: the first value given.
func (c *CommandLine) Value(short string) (string, bool) {
	if v := c.values[short]; len(v) > 0 {
		return v[0], true
	}
	return "", false
}

// lookup is Options.getOption after Util.stripLeadingHyphens.
func (opts Options) lookup(token string) *Option {
	name := strings.TrimPrefix(token, "-")
	if strings.HasPrefix(token, "--") {
		name = token[2:]
	}
	for i := range opts {
		if o := &opts[i]; o.Short == name || o.Long == name {
			return o
		}
	}
	return nil
}

// flatten is PosixParser.flatten (stopAtNonOption false).
func (opts Options) flatten(args []string) []string {
	var tokens []string
	for _, tok := range args {
		switch {
		case strings.HasPrefix(tok, "--"):
			opt, val, hasVal := strings.Cut(tok, "=")
			if opts.lookup(opt) == nil {
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
			if len(tok) == 2 || opts.lookup(tok) != nil {
				tokens = append(tokens, tok)
			} else {
				tokens = opts.burst(tokens, tok)
			}
		default:
			tokens = append(tokens, tok)
		}
	}
	return tokens
}

// burst is PosixParser.burstToken: "-pm" → "-p" "-m"; "-cFILE" → "-c"
// "FILE"; an unknown letter keeps the whole token (which then fails).
func (opts Options) burst(tokens []string, tok string) []string {
	for i := 1; i < len(tok); i++ {
		o := opts.lookup(tok[i : i+1])
		if o == nil {
			return append(tokens, tok)
		}
		tokens = append(tokens, "-"+o.Short)
		if o.HasArg && i+1 < len(tok) {
			return append(tokens, tok[i+1:])
		}
	}
	return tokens
}

// Parse is Parser.parse over the flattened tokens.
func (opts Options) Parse(args []string) (*CommandLine, error) {
	cl := &CommandLine{values: map[string][]string{}}
	tokens := opts.flatten(args)
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
			o := opts.lookup(t)
			if o == nil {
				return nil, fmt.Errorf("%w: unrecognized option %s", ErrBadCommandLine, t)
			}
			cl.seen = append(cl.seen, o.Short)
			if !o.HasArg {
				continue
			}
			// processArgs: one value, unless the next token is an option.
			if i+1 >= len(tokens) || (strings.HasPrefix(tokens[i+1], "-") && opts.lookup(tokens[i+1]) != nil) {
				return nil, fmt.Errorf("%w: missing argument for option %s", ErrBadCommandLine, o.Short)
			}
			i++
			cl.values[o.Short] = append(cl.values[o.Short], stripQuotes(tokens[i]))
		}
	}
	return cl, nil
}

// stripQuotes is commons-cli 1.2's Util.stripLeadingAndTrailingQuotes.
func stripQuotes(s string) string {
	s = strings.TrimPrefix(s, `"`)
	return strings.TrimSuffix(s, `"`)
}
