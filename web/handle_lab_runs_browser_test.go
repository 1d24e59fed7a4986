package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserReopenCompareReflect runs the ticker lab twice, saves a
// reflection from the run list without leaving the lab, reopens the first
// run with its chart, and compares both runs on one chart.
func TestBrowserReopenCompareReflect(t *testing.T) {
	e2e.Require(t)
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	l := e2e.OpenLab(t, base, "ticker", "status of 422") // the too-long reflection is answered with 422
	// Datastar has started once it shows the skip link (no guess typed
	// yet); a click on Run before that does nothing.
	e2e.WaitFor(t, l.Tab, "lab ready", `getComputedStyle(document.querySelector("#lab-ticker-skip")).display !== "none"`, 10*time.Second)
	for _, steps := range []string{"4", "8"} {
		e2e.Do(t, l.Tab, "set steps", 5*time.Second, e2e.SetInput(l.ID("k-steps"), steps), e2e.SetInput(l.ID("k-gapMs"), "20"))
		l.Run(t, 20*time.Second)
	}
	e2e.WaitFor(t, l.Tab, "both runs listed", `document.querySelector("#lab-ticker-runs").textContent.includes("Open run #2")`, 10*time.Second)

	// The reflection box of the newest run saves in place.
	e2e.Do(t, l.Tab, "write a reflection", 5*time.Second,
		e2e.SetInput(l.ID("reflect-text"), "  the chart grew   one word a step "),
		chromedp.Click(chromedp.CSS("#lab-ticker-reflect button")))
	e2e.WaitFor(t, l.Tab, "reflection saved", `document.querySelector("#lab-ticker-runs .reflection-saved")?.textContent.includes("Saved")`, 10*time.Second)
	// Too long for the limit (typed past maxlength by a script): refused in place with the limit.
	e2e.Do(t, l.Tab, "too long", 5*time.Second,
		e2e.SetInput(l.ID("reflect-text"), strings.Repeat("x", 300)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#lab-ticker-reflect-text").removeAttribute("maxlength")`),
		e2e.SetInput(l.ID("reflect-text"), strings.Repeat("x", 300)),
		chromedp.Click(chromedp.CSS("#lab-ticker-reflect button")))
	e2e.WaitFor(t, l.Tab, "limit shown", `document.querySelector("#lab-ticker-reflect .field-error").textContent.includes("at most 280")`, 10*time.Second)
	e2e.Do(t, l.Tab, "write it again", 5*time.Second,
		e2e.SetInput(l.ID("reflect-text"), "  the chart grew   one word a step "),
		chromedp.Click(chromedp.CSS("#lab-ticker-reflect button")))
	e2e.WaitFor(t, l.Tab, "reflection saved again", `document.querySelector("#lab-ticker-runs .reflection-saved")?.textContent.includes("Saved")`, 10*time.Second)
	if got := e2e.Eval[string](t, l.Tab, `location.pathname`); got != "/labs/ticker" {
		t.Errorf("saving the reflection left the lab for %s", got)
	}
	e2e.Do(t, l.Tab, "reload", 15*time.Second, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID(l.ID("runs"))))
	if got := e2e.Eval[string](t, l.Tab, `document.querySelector("#lab-ticker-runs .row-reflection").textContent`); !strings.Contains(got, "the chart grew one word a step") {
		t.Errorf("reflection row after reload = %q", got)
	}
	if got := e2e.Eval[string](t, l.Tab, `document.querySelector("#lab-ticker-reflect-text").value`); got != "the chart grew one word a step" {
		t.Errorf("reflection box after reload = %q", got)
	}

	e2e.Screenshot(t, l.Tab, "lab-runs")

	// The first run reopens with its chart.
	e2e.Do(t, l.Tab, "open run #1", 15*time.Second,
		chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll("#lab-ticker-runs a.run-open")].find(a => a.textContent.includes("run #1")).click()`),
		chromedp.WaitVisible(chromedp.CSS(".run-page svg.ch")))
	if got := e2e.Eval[string](t, l.Tab, `document.querySelector("h1").textContent`); !strings.Contains(got, "run #1") {
		t.Errorf("reopened page heading = %q", got)
	}
	if n := e2e.Eval[int](t, l.Tab, `document.querySelectorAll(".run-page svg.ch path[stroke]").length`); n != 1 {
		t.Errorf("reopened chart draws %d lines, want 1", n)
	}
	if got := e2e.Eval[string](t, l.Tab, `document.querySelector(".run-settings").textContent`); !strings.Contains(got, "4 frames") {
		t.Errorf("reopened settings = %q", got)
	}
	e2e.Screenshot(t, l.Tab, "reopened-run")
	// The reopened run's own box saves in place too, twice in a row (the
	// patched box keeps posting in place), and a blank removes it.
	for _, tc := range []struct{ text, note string }{{"only four words", "Saved."}, {" ", "Removed."}} {
		e2e.Do(t, l.Tab, "reflect on the reopened run", 5*time.Second,
			e2e.SetInput("run-reflection-text", tc.text), chromedp.Click(chromedp.CSS("#run-reflection button")))
		e2e.WaitFor(t, l.Tab, "box says "+tc.note, `document.querySelector("#run-reflection .reflection-saved")?.textContent.includes("`+tc.note+`")`, 10*time.Second)
	}
	if got := e2e.Eval[string](t, l.Tab, `location.pathname`); !strings.HasPrefix(got, "/labs/ticker/runs/") {
		t.Errorf("saving on the reopened run went to %s", got)
	}

	// Compare the two: one chart, two series, the second dashed.
	e2e.Do(t, l.Tab, "back to the lab", 15*time.Second, chromedp.Navigate(base+"/labs/ticker"), chromedp.WaitVisible(chromedp.ID(l.ID("compare"))))
	e2e.Do(t, l.Tab, "compare", 15*time.Second, chromedp.Click(chromedp.ID(l.ID("compare"))), chromedp.WaitVisible(chromedp.CSS("svg#cmp-words")))
	if n := e2e.Eval[int](t, l.Tab, `document.querySelectorAll(".compare-page svg.ch").length`); n != 1 {
		t.Errorf("compare page draws %d charts, want 1", n)
	}
	lines := e2e.Eval[[]string](t, l.Tab, `[...document.querySelectorAll("svg#cmp-words .ch-data path[stroke]")].map(p => p.getAttribute("stroke") + " " + (p.getAttribute("stroke-dasharray") || "solid"))`)
	if len(lines) != 2 || lines[0] == lines[1] || !strings.HasSuffix(lines[0], "solid") || strings.HasSuffix(lines[1], "solid") {
		t.Errorf("compare chart lines = %q, want two, the second dashed in another colour", lines)
	}
	legend := e2e.Eval[string](t, l.Tab, `document.querySelector("svg#cmp-words .ch-legend").textContent`)
	if !strings.Contains(legend, "words · run #1") || !strings.Contains(legend, "words · run #2") {
		t.Errorf("legend = %q", legend)
	}
	if got := e2e.Eval[string](t, l.Tab, `document.querySelector(".compare-table").textContent`); !strings.Contains(got, "the chart grew one word a step") || !strings.Contains(got, "+4") {
		t.Errorf("compare table = %q", got)
	}
	e2e.Screenshot(t, l.Tab, "compare")
}
