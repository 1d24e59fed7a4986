package main

import (
	"strings"
	"testing"
)

// The top-level help lists every command with one line each and exits 0,
// whichever spelling asks for it; a command's own -h still shows its flags.
func TestTopLevelHelpListsCommands(t *testing.T) {
	commands := []string{"serve", "sim", "bench", "profiles", "backup"}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"--h"}, {"help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, stderr := runCLI(args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			for _, c := range commands {
				if !strings.Contains(out, "\n  "+c+" ") {
					t.Errorf("help has no line for %q:\n%s", c, out)
				}
			}
			if strings.Contains(out, "-addr") {
				t.Errorf("top-level help shows serve's flags:\n%s", out)
			}
		})
	}
}

// A command's -h starts with its usage line and what it does, the same
// line the top-level help gives it, then lists its own flags, all on
// stdout.
func TestCommandHelpShowsItsOwnFlags(t *testing.T) {
	cases := []struct {
		args             []string
		usage, about, fl string
	}{
		{[]string{"serve", "-h"}, "usage: latencylab serve [flags]\n", "Serve the web app on", "-addr"},
		{[]string{"sim", "-h"}, "usage: latencylab sim [flags]\n", "Run a workload on the bundled engine's virtual clock.", "-num-requests"},
		{[]string{"bench", "--help"}, "usage: latencylab bench --base-url URL [flags]\n", "Run the same workload against an OpenAI-compatible server.", "-base-url"},
		{[]string{"profiles", "-h"}, "usage: latencylab profiles [--json]\n", "List hardware and model profiles", "-json"},
		{[]string{"backup", "-h"}, "usage: latencylab backup --to FILE [--db FILE]\n", "Copy the database to a new file", "-to"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := runCLI(c.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			if !strings.HasPrefix(out, c.usage) {
				t.Errorf("help does not start with %q:\n%s", c.usage, out)
			}
			if !strings.Contains(out, c.about) || !strings.Contains(out, c.fl) {
				t.Errorf("help lacks %q or the flag %s:\n%s", c.about, c.fl, out)
			}
		})
	}
}

func TestUnknownCommandExitsTwoWithOneLine(t *testing.T) {
	code, _, stderr := runCLI("serv")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `"serv"`) {
		t.Errorf("exit %d, stderr %q; want 2 and one line naming the command", code, stderr)
	}
}
