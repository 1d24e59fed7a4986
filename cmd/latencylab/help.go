package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand as the help lists it.
type command struct {
	name  string
	args  string // what follows the name on its usage line
	about string // one line: what the command does
}

// commands are every subcommand, in the order the top-level help lists
// them; a command's own -h starts with the same line, so the two never
// disagree.
var commands = []command{
	{"serve", "[flags]", "serve the web app on http://127.0.0.1:8080 (the default command)"},
	{"sim", "[flags]", "run a workload on the bundled engine's virtual clock"},
	{"bench", "--base-url URL [flags]", "run the same workload against an OpenAI-compatible server"},
	{"profiles", "[--json]", "list hardware and model profiles with derived figures"},
	{"backup", "--to FILE [--db FILE]", "copy the database to a new file, safe while serve runs"},
}

// usage is the top-level help: every command with one line, as Go CLIs print.
var usage = func() string {
	var b strings.Builder
	b.WriteString("Latency Lab: an interactive teaching lab on LLM serving latency.\n\nusage: latencylab [command] [flags]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.about)
	}
	b.WriteString("\nWith no command, latencylab serves. Run \"latencylab COMMAND -h\" for a\ncommand's flags.")
	return b.String()
}()

// commandHelp prints a command's usage line, what it does and its flags.
func commandHelp(w io.Writer, fs *flag.FlagSet) {
	c := command{name: fs.Name(), args: "[flags]"}
	for _, known := range commands {
		if known.name == fs.Name() {
			c = known
			break
		}
	}
	fmt.Fprintf(w, "usage: latencylab %s %s\n\n", c.name, c.args)
	if c.about != "" {
		fmt.Fprintf(w, "%s.\n\n", strings.ToUpper(c.about[:1])+c.about[1:])
	}
	fmt.Fprintln(w, "Flags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// parseFlags parses args, printing the command's help to stdout for -h and
// mapping every other parse failure to one line of bad input (the flag
// package would print the whole flag list to stderr instead).
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (help bool, err error) {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			commandHelp(stdout, fs)
			return true, nil
		}
		return false, badf("%v (run with -h for the flags)", err)
	}
	if fs.NArg() > 0 {
		return false, badf("unexpected argument %q (flags start with --; run with -h)", fs.Arg(0))
	}
	return false, nil
}

// componentPrefixes name the parts of the program that refused a value
// ("config: unknown policy"). The user set a flag, not a component, so
// the CLI drops these names from what it prints.
var componentPrefixes = []string{"web config: ", "config: "}

// plainMessage is err's text on one line without component names.
func plainMessage(err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	for _, p := range componentPrefixes {
		msg = strings.ReplaceAll(strings.TrimPrefix(msg, p), ": "+p, ": ")
	}
	return msg
}
