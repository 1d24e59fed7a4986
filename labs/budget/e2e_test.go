package budget

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// statMS reads a stat card's value in milliseconds as the page shows it.
func statMS(t *testing.T, pg e2e.Lab, key string) float64 {
	t.Helper()
	v, unit := labtest.ShownStat(t, pg, key)
	if unit == "s" {
		v *= 1000
	}
	return v
}

// TestBrowserLatencyBudgetLab runs the lab as a learner does in headless
// Chromium: the default preset's waterfall fills in stage by stage on the
// wall clock, then the batch's histogram arrives with its percentile
// marks; the sequential preset's context lookups take their sum (about
// 210 ms), the parallel preset's the slowest one (about 120 ms).
func TestBrowserLatencyBudgetLab(t *testing.T) {
	desk := labtest.SupportDesk(t)
	lab, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab {
		return mustNew(t, Config{Engines: pool, Retriever: desk, Orders: desk})
	})
	b := pg.Tab

	// countRows counts the waterfall's rows that hold at least one span.
	const countRows = `() => { const svg = document.getElementById("lab-latency-budget-waterfall"); if (!svg) return 0;
		return new Set([...svg.querySelectorAll(".ch-data rect")].filter(r => +r.getAttribute("width") > 0).map(r => r.getAttribute("y"))).size }`
	const rowsDrawn = "(" + countRows + ")()"
	lookups := map[string]float64{}
	play := labtest.Play{Knobs: []string{knobLookups}, Timeout: 2 * time.Minute}
	// Record every row count the waterfall shows and when the histogram
	// first appears, as the page changes.
	play.Before = func(t *testing.T) {
		e2e.Eval[bool](t, b, `(() => { window.__rows = []; window.__histAt = -1; window.__rowsAtHist = -1;
			const count = `+countRows+`;
			new MutationObserver(() => {
				const n = count(); if (window.__rows[window.__rows.length - 1] !== n) window.__rows.push(n);
				if (window.__histAt < 0 && document.getElementById("lab-latency-budget-first-word-histogram")) {
					window.__histAt = performance.now(); window.__rowsAtHist = n }
			}).observe(document.getElementById("lab-latency-budget"), {subtree: true, childList: true, attributes: true});
			return true })()`)
	}
	play.Check = func(t *testing.T, _ int, p labs.Preset) {
		mode := p.Values[knobLookups].(string)
		seen := e2e.Eval[[]int](t, b, `window.__rows`)
		if n := e2e.Eval[int](t, b, rowsDrawn); n < len(rows) {
			t.Errorf("waterfall draws spans on %d rows, want all %d stages", n, len(rows))
		}
		if labtest.Rises(seen) < 2 {
			t.Errorf("waterfall row counts seen during the run %v: want it to fill in stage by stage", seen)
		}
		if at := e2e.Eval[int](t, b, `window.__rowsAtHist`); at < len(rows) {
			t.Errorf("the histogram appeared when the waterfall had %d rows, want it after the live request (%d)", at, len(rows))
		}
		bins := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-latency-budget-first-word-histogram .ch-data rect").length`)
		if bins < 3 {
			t.Errorf("histogram draws %d bins", bins)
		}
		labels := e2e.Eval[string](t, b, `[...document.querySelectorAll("#lab-latency-budget-first-word-histogram .ch-mark text")].map(e => e.textContent).join(" | ")`)
		for _, m := range []string{"p50", "p95", "p99"} {
			if !strings.Contains(labels, m) {
				t.Errorf("histogram marks %q lack %s", labels, m)
			}
		}
		lookups[mode] = statMS(t, pg, statLookups)
		t.Logf("%s: lookups %.1f ms, first word p95 %.1f ms; rows seen %v", mode, lookups[mode], statMS(t, pg, statP95), seen)
	}
	labtest.PlayPresets(t, lab, pg, play, 0, 1)
	// The stage times are 30, 120 and 60 ms plus real SQLite work and a
	// loaded machine's scheduling, so the bounds allow for a slow run.
	if v, ok := lookups["parallel"]; ok && (v < 100 || v > 200) {
		t.Errorf("parallel lookups took %.1f ms, want about 120 (the slowest lookup)", v)
	}
	if v, ok := lookups["sequential"]; ok && (v < 190 || v > 300) {
		t.Errorf("sequential lookups took %.1f ms, want about 210 (their sum)", v)
	}
}
