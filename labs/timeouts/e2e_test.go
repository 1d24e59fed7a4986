package timeouts

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserTimeoutsLab runs two presets in headless Chromium on the wall
// clock: the timeline fills in while the batch runs (one row per request,
// the backup tier's colour appearing on the slowed rows), and the run ends
// with the stats, the prediction on the p95 card and both tables.
func TestBrowserTimeoutsLab(t *testing.T) {
	lab, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab {
		return mustNew(t, Config{Engines: pool, Retriever: labtest.NewFakeStore()})
	})
	b := pg.Tab
	play := labtest.Play{Knobs: []string{knobOverall}, Guess: "5000", Changes: 5, Timeout: 90 * time.Second}
	play.Check = func(t *testing.T, _ int, _ labs.Preset) {
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-timeouts-timeline .ch-data rect").length`); n < 40 {
			t.Errorf("timeline draws %d spans for 20 requests", n)
		}
		card := e2e.Eval[string](t, b, `document.querySelector("#lab-timeouts-stats .stat.has-guess").textContent`)
		if !strings.Contains(card, "First word, p95") || !strings.Contains(card, "You predicted") {
			t.Errorf("prediction card = %q", card)
		}
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-timeouts-tables table").length`); n < 1 {
			t.Errorf("%d tables, want the comparison", n)
		}
		status := e2e.Eval[string](t, b, `document.querySelector("#lab-timeouts-status").textContent`)
		if !strings.Contains(status, "Wall clock") {
			t.Errorf("status %q does not say how the batch was timed", status)
		}
	}
	labtest.PlayPresets(t, lab, pg, play, 1, 2)
}
