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

func TestCommandHelpShowsItsOwnFlags(t *testing.T) {
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"serve", "-h"}, "-addr"},
		{[]string{"sim", "-h"}, "-num-requests"},
		{[]string{"bench", "--help"}, "-base-url"},
		{[]string{"profiles", "-h"}, "-json"},
		{[]string{"backup", "-h"}, "-to"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := runCLI(c.args...)
			if code != 0 {
				t.Fatalf("exit %d; stderr %q", code, stderr)
			}
			if help := out + stderr; !strings.Contains(help, c.flag) {
				t.Errorf("help does not mention %s:\n%s", c.flag, help)
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
