package cancellation

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserCancellationLab runs every preset in headless Chromium on the
// wall clock: the token chart fills in, the reader's text shows the stop or
// the error, the prediction sits on the tokens-after card when a
// disconnect happened, and both conversation tables arrive.
func TestBrowserCancellationLab(t *testing.T) {
	lab, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab {
		return mustNew(t, Config{Engines: pool, Retriever: labtest.NewFakeStore()})
	})
	b := pg.Tab
	labtest.PlayPresets(t, lab, pg, labtest.Play{Knobs: []string{knobFailAfter}, Guess: "5", Changes: 3, Timeout: 60 * time.Second,
		Check: func(t *testing.T, _ int, p labs.Preset) {
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-cancellation-tokens path").length`); n < 2 {
				t.Errorf("token chart draws %d paths, want both lines", n)
			}
			text := e2e.Eval[string](t, b, `document.querySelector("#lab-cancellation-text").textContent`)
			stop, fail := int(p.Values[knobStopAfter].(float64)), int(p.Values[knobFailAfter].(float64))
			if stop > 0 && !strings.Contains(text, "stopped reading") {
				t.Errorf("reader's text %q does not show where they stopped", text)
			}
			if fail > 0 && !strings.Contains(text, "broke off") {
				t.Errorf("reader's text %q does not show the error", text)
			}
			if stop > 0 || fail > 0 {
				card := e2e.Eval[string](t, b, `document.querySelector("#lab-cancellation-stats .stat.has-guess").textContent`)
				if !strings.Contains(card, "You predicted") {
					t.Errorf("prediction card = %q", card)
				}
			}
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-cancellation-tables table").length`); n != 2 {
				t.Errorf("%d tables, want the conversation and turn 2's prompt", n)
			}
		}})
}
