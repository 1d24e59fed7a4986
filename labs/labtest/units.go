package labtest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

var (
	// timeValue is a measured time at the start of a table cell: "412 ms",
	// "4.57 s", "18.2 s: first-token timeout".
	timeValue = regexp.MustCompile(`^[−+-]?\d[\d,]*(\.\d+)? (ms|s)\b`)
	// pluralOfOne is "1 tokens" and its kind: a count of one in the plural.
	pluralOfOne = regexp.MustCompile(`(^|[^\d.,])1 (tokens|requests|turns|chunks|passages|errors|timeouts|checks|calls|steps)\b`)
	// zeroRate is a rate unit on a bare number, such as "0 $/1M".
	zeroRate = regexp.MustCompile(`\d \$/`)
)

// CheckUnits fails t when a frame breaks the house rules for units: a table
// whose time cells mix milliseconds and seconds, a count of one written in
// the plural, a dollar sign used as a unit after the number, or a figure
// of four or more digits without its thousands grouped (CheckGrouping).
func CheckUnits(t testing.TB, name string, f labs.Frame) {
	t.Helper()
	CheckGrouping(t, name, f)
	for _, tb := range f.Tables {
		units := map[string]string{}
		for _, c := range tb.Columns { // "TTFT p95 (ms)", "Duration (s)"
			for _, u := range []string{"ms", "s"} {
				if strings.HasSuffix(c, "("+u+")") {
					units[u] = c
				}
			}
		}
		for _, r := range tb.Rows {
			for _, c := range r {
				if m := timeValue.FindStringSubmatch(strings.TrimSpace(c)); m != nil {
					units[m[2]] = c
				}
			}
		}
		if len(units) > 1 {
			t.Errorf("%s: table %q mixes units: %q beside %q", name, tb.Title, units["ms"], units["s"])
		}
	}
	for _, s := range f.Stats {
		if zeroRate.MatchString(s.Unit) || strings.HasPrefix(s.Unit, "$/") {
			t.Errorf("%s: stat %q has the unit %q; write dollars as the unit \"$\"", name, s.Label, s.Unit)
		}
	}
	for _, s := range VisibleText(f) {
		if m := pluralOfOne.FindString(s); m != "" {
			t.Errorf("%s: %q says %q", name, s, strings.TrimSpace(m))
		}
		if zeroRate.MatchString(s) {
			t.Errorf("%s: %q writes a dollar rate after a number", name, s)
		}
	}
}
