package e2e

import (
	"os"
	"strings"
	"testing"
)

// The vendored axe is the release testdata/README.md names, whole, with
// its licences beside it.
func TestVendoredAxe(t *testing.T) {
	const version = "4.14.1"
	if !strings.HasPrefix(axeSource, "/*! axe v"+version+"\n") {
		t.Errorf("testdata/axe.min.js starts %q, want axe v%s", axeSource[:min(len(axeSource), 20)], version)
	}
	if !strings.Contains(axeSource, `axe.version="`+version+`"`) {
		t.Errorf("testdata/axe.min.js does not set axe.version to %s", version)
	}
	for _, f := range []string{"testdata/AXE-LICENSE", "testdata/AXE-LICENSE-3RD-PARTY.txt", "testdata/README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Errorf("read %s: %v", f, err)
			continue
		}
		if f == "testdata/README.md" && !strings.Contains(string(b), version) {
			t.Errorf("%s does not name axe %s", f, version)
		}
	}
}

func TestAxeViolationString(t *testing.T) {
	for _, c := range []struct {
		name string
		v    AxeViolation
		want string
	}{
		{"few targets", AxeViolation{Rule: "label", Impact: "critical", Help: "Form elements must have labels", Targets: []string{"#a", "#b"}, Summary: "Fix  any\n of"},
			"label (critical): Form elements must have labels at #a, #b; Fix any of"},
		{"more than five are counted", AxeViolation{Rule: "r", Impact: "minor", Help: "h", Targets: []string{"1", "2", "3", "4", "5", "6", "7"}},
			"r (minor): h at 1, 2, 3, 4, 5 and 2 more; "},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.v.String(); got != c.want {
				t.Errorf("String() = %q, want %q", got, c.want)
			}
		})
	}
	for impact, blocking := range map[string]bool{"critical": true, "serious": true, "moderate": false, "minor": false, "": false} {
		if got := (AxeViolation{Impact: impact}).Blocking(); got != blocking {
			t.Errorf("impact %q blocking = %v, want %v", impact, got, blocking)
		}
	}
}
