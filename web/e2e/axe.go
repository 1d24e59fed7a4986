package e2e

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core's browser bundle (MPL-2.0, see
// testdata/AXE-LICENSE), a test asset: only test binaries import this
// package, so the served app never carries it. testdata/README.md says
// how to refresh it.
//
//go:embed testdata/axe.min.js
var axeSource string

// AxeViolation is one axe rule broken on a page, with the elements that
// break it.
type AxeViolation struct {
	Rule    string   `json:"id"`
	Impact  string   `json:"impact"` // "minor", "moderate", "serious" or "critical"
	Help    string   `json:"help"`
	Targets []string `json:"targets"` // CSS selectors of the offending elements
	Summary string   `json:"summary"` // axe's explanation for the first element
}

// Blocking reports whether the violation is serious or critical: the
// impacts an accessibility check fails on.
func (v AxeViolation) Blocking() bool { return v.Impact == "serious" || v.Impact == "critical" }

// String names the rule, its impact, where it breaks (at most five
// elements) and axe's explanation for the first of them.
func (v AxeViolation) String() string {
	targets := v.Targets
	more := ""
	if len(targets) > 5 {
		targets, more = targets[:5], fmt.Sprintf(" and %d more", len(v.Targets)-5)
	}
	return fmt.Sprintf("%s (%s): %s at %s%s; %s", v.Rule, v.Impact, v.Help,
		strings.Join(targets, ", "), more, strings.Join(strings.Fields(v.Summary), " "))
}

// axeRun injects axe once per document and runs it over the whole page.
// Only violations are collected (passes and incomplete results are large
// and not acted on). A target inside a frame or shadow root is a list of
// selectors; it is joined with " >> ".
const axeRun = `(async () => {
	if (!window.axe) { (0, eval)(%s); }
	const r = await axe.run(document, {resultTypes: ["violations"]});
	return r.violations.map(v => ({
		id: v.id, impact: v.impact || "", help: v.help,
		targets: v.nodes.map(n => [].concat(n.target).join(" >> ")),
		summary: v.nodes.length ? (v.nodes[0].failureSummary || "") : "",
	}));
})()`

// Axe runs axe-core on the tab's current page and returns its violations,
// sorted by rule. It fails t if axe cannot run.
func Axe(t testing.TB, ctx context.Context) []AxeViolation {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	js := fmt.Sprintf(axeRun, jsString(axeSource))
	vs, err := chromedp.Run(tctx, chromedp.Evaluate[[]AxeViolation](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("run axe: %v", err)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Rule < vs[j].Rule })
	return vs
}

// CheckAxe runs axe on the tab's page, fails t for every serious or
// critical violation (naming the page, the rule and its targets) and logs
// the moderate and minor ones.
func CheckAxe(t testing.TB, ctx context.Context, page string) {
	t.Helper()
	for _, v := range Axe(t, ctx) {
		if v.Blocking() {
			t.Errorf("%s: %s", page, v)
		} else {
			t.Logf("%s: %s", page, v)
		}
	}
}

// jsString quotes s as a JavaScript string literal: JSON's quoting is
// valid JavaScript, and encoding/json escapes U+2028 and U+2029, which a
// JavaScript string may not hold raw in older engines.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a Go string always marshals
	return string(b)
}
