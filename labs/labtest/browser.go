package labtest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/e2e"
)

// Journey is one lab's browser test: the lab and what a learner does on
// its page and must see there.
type Journey struct {
	Lab labs.Lab
	// Allowed are console errors the page may log (see e2e.OpenLab).
	Allowed []string
	// Walk plays the learner on the lab's open page.
	Walk func(t *testing.T, lab labs.Lab, pg e2e.Lab)
}

// BrowseLabs walks journeys as subtests named after each lab's slug. It
// skips t unless browser tests are enabled, gives journeys a fresh engine
// pool (closed when t ends) to build the labs on, serves the labs together
// in the web app and starts one headless Chromium for all of them: each
// journey gets a tab of its own, closed when its subtest ends, and fails
// for any console error its page logs that Allowed does not name.
func BrowseLabs(t *testing.T, journeys func(pool *labs.Engines) []Journey) {
	t.Helper()
	e2e.Require(t)
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	js := journeys(pool)
	built := make([]labs.Lab, len(js))
	for i, j := range js {
		built[i] = j.Lab
	}
	base := ServeLabs(t, built...)
	browser := e2e.NewBrowser(t, e2e.Options{})
	for _, j := range js {
		slug := j.Lab.Info().Slug
		t.Run(slug, func(t *testing.T) { j.Walk(t, j.Lab, openTab(t, browser, base, slug, j.Allowed...)) })
	}
}

// openTab opens base's page of the lab slug in a new tab of browser that
// watches its console (failing t at its end for errors allowed does not
// name) and is closed when t ends.
func openTab(t *testing.T, browser context.Context, base, slug string, allowed ...string) e2e.Lab {
	t.Helper()
	tab, closeTab := chromedp.NewContext(browser)
	t.Cleanup(closeTab)
	// The tab opens on its first action, which must not carry a timeout.
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	console := e2e.WatchConsole(t, tab)
	t.Cleanup(func() { console.Clean(t, allowed...) })
	pg := e2e.Lab{Tab: tab, Prefix: "lab-" + slug}
	pg.Open(t, "open the lab", base+"/labs/"+slug)
	return pg
}

// ApplyPreset presses preset i's button (p is that preset) and waits until
// the input of each named knob shows the preset's value, so the run that
// follows uses it.
func ApplyPreset(t testing.TB, pg e2e.Lab, i int, p labs.Preset, knobs ...string) {
	t.Helper()
	pg.ClickPreset(t, i)
	checks := make([]string, len(knobs))
	for j, k := range knobs {
		checks[j] = fmt.Sprintf(`document.querySelector("#%s").value == %q`, pg.ID("k-"+k), fmt.Sprint(p.Values[k]))
	}
	e2e.WaitFor(t, pg.Tab, "preset applied", strings.Join(checks, " && "), 5*time.Second)
}

// ShownStat reads the stat card key as the page shows it: its number
// (thousands separators dropped) and its unit. It stops t when the card
// has no number.
func ShownStat(t testing.TB, pg e2e.Lab, key string) (float64, string) {
	t.Helper()
	card := fmt.Sprintf(`#%s [data-stat=%q]`, pg.ID("stats"), key)
	num := shownText(t, pg.Tab, card+" .stat-value", ".firstChild")
	unit := shownText(t, pg.Tab, card+" .stat-unit", "")
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(num), ",", ""), 64)
	if err != nil {
		t.Fatalf("stat %s reads %q: %v", key, num, err)
	}
	return v, strings.TrimSpace(unit)
}

// shownText is the text of the element selector finds (of its part, e.g.
// ".firstChild"), or "" when there is none.
func shownText(t testing.TB, tab context.Context, selector, part string) string {
	t.Helper()
	return e2e.Eval[string](t, tab, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e%s.textContent : "" })()`, selector, part))
}

// Rises counts the steps of counts seen during a run at which the count
// went up: how often a table or chart grew rather than arriving whole.
func Rises(counts []int) int {
	n := 0
	for i := 1; i < len(counts); i++ {
		if counts[i] > counts[i-1] {
			n++
		}
	}
	return n
}

// Play is how a browser test runs each preset it picks.
type Play struct {
	Knobs []string // knobs whose inputs must show the preset's values before the run
	Guess string   // typed into the prediction box; "" types nothing
	// Guess2 is typed into the second prediction box of a lab that asks
	// two numbers (streaming, batching, moderation): Guess without it
	// fails there, as a learner must give both to unlock Run.
	Guess2  string
	Changes int           // DOM changes below the charts the run must at least make (they fill in); 0: not counted
	Timeout time.Duration // how long a run may take
	Until   string        // a script condition that must also hold before the run counts as done; "" for none
	// Before runs just before the Run button is pressed, e.g. to start
	// recording what the page shows during the run; nil for nothing.
	Before func(t *testing.T)
	// Check looks at the page once the run is done; nil for nothing more.
	Check func(t *testing.T, i int, p labs.Preset)
}

// PlayPresets runs the presets of lab picked by index (every one when
// which is empty) on its page, each as a subtest named after it: it
// applies the preset, types the guess (both numbers where the lab asks
// two), runs it, checks that the charts
// filled in and what Check wants, and takes a screenshot named after the
// slug and the preset's index.
func PlayPresets(t *testing.T, lab labs.Lab, pg e2e.Lab, play Play, which ...int) {
	t.Helper()
	presets := lab.Presets()
	if len(which) == 0 {
		for i := range presets {
			which = append(which, i)
		}
	}
	for _, i := range which {
		p := presets[i]
		t.Run(p.Name, func(t *testing.T) {
			start := time.Now()
			ApplyPreset(t, pg, i, p, play.Knobs...)
			switch {
			case play.Guess2 != "":
				pg.Guess(t, play.Guess, play.Guess2)
			case play.Guess != "":
				pg.Guess(t, play.Guess)
			}
			if play.Changes > 0 {
				pg.WatchChanges(t, "charts")
			}
			if play.Before != nil {
				play.Before(t)
			}
			pg.ForgetDone(t)
			pg.ClickRun(t)
			done := fmt.Sprintf(`document.querySelector("#%s").classList.contains("status-done")`, pg.ID("status"))
			if play.Until != "" {
				done += " && (" + play.Until + ")"
			}
			e2e.WaitFor(t, pg.Tab, "run done", done, play.Timeout)
			pg.NoError(t)
			if play.Changes > 0 {
				if n := pg.Changes(t); n < play.Changes {
					t.Errorf("the charts changed %d times during the run, want at least %d as they fill in", n, play.Changes)
				}
			}
			if play.Check != nil {
				play.Check(t, i, p)
			}
			t.Logf("%s: run took %v", p.Name, time.Since(start).Round(time.Millisecond))
			e2e.Screenshot(t, pg.Tab, fmt.Sprintf("%s-preset-%d", lab.Info().Slug, i))
		})
	}
}
