package labtest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/e2e"
)

// BrowseLab is the start of every lab's browser test: it skips t unless
// browser tests are enabled, builds the lab with newLab on a fresh engine
// pool (closed when the test ends), serves it alone in the web app and
// opens its page in headless Chromium. allowed are console errors the page
// may log (see e2e.OpenLab). It returns the lab and its page.
func BrowseLab[L labs.Lab](t *testing.T, newLab func(*labs.Engines) L, allowed ...string) (L, e2e.Lab) {
	t.Helper()
	e2e.Require(t)
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	lab := newLab(pool)
	base := ServeLabs(t, lab)
	return lab, e2e.OpenLab(t, base, lab.Info().Slug, allowed...)
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
