package prefilldecode

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserPrefillDecodeLab is a learner's first visit in headless
// Chromium: guess the time to first token, run the default prompt, watch
// the five charts arrive with data and the guess sit on the TTFT card; then
// ask for FP8 on an A100, which has no FP8 tensor cores, and see the
// message under the precision knob with no run started.
func TestBrowserPrefillDecodeLab(t *testing.T) {
	// The refused FP8 run answers 422.
	_, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab { return mustNew(t, Config{Engines: pool}) }, "422")
	b := pg.Tab
	page := e2e.Eval[string](t, b, `location.href`)

	t.Run("default run", func(t *testing.T) {
		start := time.Now()
		pg.Guess(t, "300")
		pg.WatchChanges(t, "charts")
		pg.Run(t, 2*time.Minute)
		if n := pg.Changes(t); n < 3 {
			t.Errorf("the charts changed %d times during the run, want them to fill in", n)
		}
		for _, id := range []string{chartTTFT, chartDecode, chartRoofline, chartPrompt, chartCaching} {
			// Drawn content: a line with points, a dot or a bar with area.
			n := e2e.Eval[int](t, b, fmt.Sprintf(`(() => { const svg = document.getElementById("lab-prefill-decode-%s"); if (!svg) return -1;
				return [...svg.querySelectorAll(".ch-data path, .ch-data circle, .ch-data rect")].filter(e =>
					e.tagName === "path" ? (e.getAttribute("d") || "").length > 4 :
					e.tagName === "circle" ? +e.getAttribute("r") > 0 : +e.getAttribute("width") > 0 && +e.getAttribute("height") > 0).length })()`, id))
			switch {
			case n < 0:
				t.Errorf("chart %s missing", id)
			case n == 0:
				t.Errorf("chart %s is drawn empty", id)
			}
		}
		card := e2e.Eval[string](t, b, `(document.querySelector('#lab-prefill-decode-stats [data-stat="ttft_ms"]') || {textContent: ""}).textContent`)
		if !strings.Contains(card, "Time to first token") || !strings.Contains(card, "You predicted") || !strings.Contains(card, "300") {
			t.Errorf("TTFT card = %q, want the measurement and the 300 ms prediction", card)
		}
		status := e2e.Eval[string](t, b, `document.querySelector("#lab-prefill-decode-status").textContent`)
		if !strings.Contains(status, "first token") {
			t.Errorf("final status %q does not report the first token", status)
		}
		t.Logf("default run took %v: %s", time.Since(start).Round(time.Millisecond), strings.Join(strings.Fields(status), " "))
		e2e.Screenshot(t, b, "prefill-decode-default")
	})

	t.Run("fp8 on an A100", func(t *testing.T) {
		pg.Open(t, "reload", page)
		runs := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-prefill-decode-runs thead th").length`)
		e2e.Do(t, b, "pick the GPU and FP8", 5*time.Second,
			e2e.SetInput("lab-prefill-decode-k-gpu", "a100-80g"),
			e2e.SetInput("lab-prefill-decode-k-precision", string(engine.FP8)))
		pg.ClickRun(t)
		e2e.WaitFor(t, b, "the knob's error", `document.querySelector("#lab-prefill-decode-err-precision").textContent.trim() !== ""`, 30*time.Second)
		msg := e2e.Eval[string](t, b, `document.querySelector("#lab-prefill-decode-err-precision").textContent`)
		if !strings.Contains(msg, "FP8") || !strings.Contains(msg, "a100-80g") {
			t.Errorf("precision error %q does not say the A100 lacks FP8", msg)
		}
		if !e2e.Eval[bool](t, b, `document.querySelector("#lab-prefill-decode-status").classList.contains("status-failed")`) {
			t.Errorf("status %q, want the refusal", e2e.Eval[string](t, b, `document.querySelector("#lab-prefill-decode-status").className`))
		}
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-prefill-decode-stats .stat, #lab-prefill-decode-charts svg").length`); n != 0 {
			t.Errorf("a refused run drew %d stats and charts", n)
		}
		e2e.Screenshot(t, b, "prefill-decode-fp8-refused")
		pg.Open(t, "reload", page)
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-prefill-decode-runs thead th").length`); n != runs {
			t.Errorf("run list has %d header cells after the refused run, %d before: a run was saved", n, runs)
		}
	})
}
