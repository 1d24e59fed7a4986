package labs_test

import (
	"slices"
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

// budgetStages is how many stages the latency-budget waterfall draws, a
// row each: guardrail, history, retrieval, order lookup, prompt +
// gateway, first token, writing.
const budgetStages = 7

// walkBudget runs the latency-budget lab as a learner does: the default
// preset's waterfall fills in stage by stage on the wall clock, then the
// batch's histogram arrives with its percentile marks; the sequential
// preset's context lookups take their sum (about 210 ms), the parallel
// preset's the slowest one (about 120 ms).
func walkBudget(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	// countRows counts the waterfall's rows that hold at least one span.
	const countRows = `() => { const svg = document.getElementById("lab-latency-budget-waterfall"); if (!svg) return 0;
		return new Set([...svg.querySelectorAll(".ch-data rect")].filter(r => +r.getAttribute("width") > 0).map(r => r.getAttribute("y"))).size }`
	const rowsDrawn = "(" + countRows + ")()"
	lookups := map[string]float64{}
	play := labtest.Play{Knobs: []string{"lookups"}, Timeout: 2 * time.Minute}
	// Record every row count the waterfall shows and when the
	// histogram first appears, as the page changes.
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
		mode := p.Values["lookups"].(string)
		seen := e2e.Eval[[]int](t, b, `window.__rows`)
		if n := e2e.Eval[int](t, b, rowsDrawn); n < budgetStages {
			t.Errorf("waterfall draws spans on %d rows, want all %d stages", n, budgetStages)
		}
		if labtest.Rises(seen) < 2 {
			t.Errorf("waterfall row counts seen during the run %v: want it to fill in stage by stage", seen)
		}
		if at := e2e.Eval[int](t, b, `window.__rowsAtHist`); at < budgetStages {
			t.Errorf("the histogram appeared when the waterfall had %d rows, want it after the live request (%d)", at, budgetStages)
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
		lookups[mode] = statMS(t, pg, "lookups_ms")
		t.Logf("%s: lookups %.1f ms, first word p95 %.1f ms; rows seen %v", mode, lookups[mode], statMS(t, pg, "p95_ms"), seen)
	}
	labtest.PlayPresets(t, lab, pg, play, 0, 1)
	// The stage times are 30, 120 and 60 ms plus real SQLite work and
	// a loaded machine's scheduling, so the bounds allow for a slow run.
	if v, ok := lookups["parallel"]; ok && (v < 100 || v > 200) {
		t.Errorf("parallel lookups took %.1f ms, want about 120 (the slowest lookup)", v)
	}
	if v, ok := lookups["sequential"]; ok && (v < 190 || v > 300) {
		t.Errorf("sequential lookups took %.1f ms, want about 210 (their sum)", v)
	}
}

// walkCancellation runs every cancellation preset on the wall clock:
// the token chart fills in, the reader's text shows the stop or the error,
// the prediction sits on the tokens-after card when a disconnect happened,
// and both conversation tables arrive.
func walkCancellation(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	labtest.PlayPresets(t, lab, pg, labtest.Play{Knobs: []string{"failAfter"}, Guess: "5", Changes: 3, Timeout: 60 * time.Second,
		Check: func(t *testing.T, _ int, p labs.Preset) {
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-cancellation-tokens path").length`); n < 2 {
				t.Errorf("token chart draws %d paths, want both lines", n)
			}
			text := e2e.Eval[string](t, b, `document.querySelector("#lab-cancellation-text").textContent`)
			stop, fail := int(p.Values["stopAfter"].(float64)), int(p.Values["failAfter"].(float64))
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

// leverRows is how many rows the levers lab measures: the baseline, each
// of the six levers alone and all of them at once.
const leverRows = 8

// walkLevers runs the default set of the levers lab against a seeded
// support desk: the table gains rows as each lever is measured, ending with
// the baseline and every lever, the bar chart draws a bar per row, and the
// prediction sits on the shorter-answer card.
func walkLevers(t *testing.T, _ labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	start := time.Now()
	pg.Guess(t, "1500")
	// Record every row count the table shows while the run goes.
	e2e.Eval[bool](t, b, `(() => { window.__rows = [];
		const count = () => document.querySelectorAll("#lab-levers-tables tbody tr").length;
		new MutationObserver(() => { const n = count(); if (window.__rows[window.__rows.length - 1] !== n) window.__rows.push(n) })
			.observe(document.getElementById("lab-levers"), {subtree: true, childList: true});
		return true })()`)
	pg.Run(t, 2*time.Minute)
	seen := e2e.Eval[[]int](t, b, `window.__rows`)
	if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-levers-tables tbody tr").length`); n != leverRows {
		t.Errorf("table has %d rows, want the baseline and every lever (%d)", n, leverRows)
	}
	if labtest.Rises(seen) < 2 {
		t.Errorf("row counts seen during the run %v: want the table to grow row by row", seen)
	}
	if n := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-levers-levers .ch-data rect")].filter(r => +r.getAttribute("height") > 0).length`); n < leverRows {
		t.Errorf("bar chart draws %d bar segments for %d rows", n, leverRows)
	}
	card := e2e.Eval[string](t, b, `(document.querySelector('#lab-levers-stats [data-stat="shorter_saves_ms"]') || {textContent: ""}).textContent`)
	if !strings.Contains(card, "You predicted") {
		t.Errorf("shorter-answer card = %q, want the prediction", card)
	}
	status := e2e.Eval[string](t, b, `document.querySelector("#lab-levers-status").textContent`)
	t.Logf("run took %v; rows seen %v; %s", time.Since(start).Round(time.Millisecond), seen, strings.Join(strings.Fields(status), " "))
	e2e.Screenshot(t, b, "levers-default")
}

// ragSweepPoints is how many chunk counts the RAG lab's sweep times (0, 2,
// 5, 10 and 20).
const ragSweepPoints = 5

// walkRAG runs the RAG lab's "Top-20 + long history" preset against a
// seeded support desk: twenty passages are listed, the prompt's parts are
// drawn as stacked bars, the time to first token is measured with the
// prediction beside it, and the answer is on the page.
func walkRAG(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	i := slices.IndexFunc(lab.Presets(), func(p labs.Preset) bool { return p.Name == "Top-20 + long history" })
	if i < 0 {
		t.Fatal("no Top-20 + long history preset")
	}
	p := lab.Presets()[i]
	start := time.Now()
	labtest.ApplyPreset(t, pg, i, p, "topK", "historyTurns")
	pg.Guess(t, "400")
	pg.Run(t, 2*time.Minute)
	passages := e2e.Eval[int](t, b, `(() => { const t = [...document.querySelectorAll("#lab-rag-tables table")].find(t =>
		(t.querySelector("caption") || {textContent: ""}).textContent.startsWith("Retrieved passages")); return t ? t.querySelectorAll("tbody tr").length : -1 })()`)
	if want := int(p.Values["topK"].(float64)); passages != want {
		t.Errorf("retrieved-passages table has %d rows, want %d", passages, want)
	}
	if n := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-rag-prompt-parts .ch-data rect")].filter(r => +r.getAttribute("height") > 0).length`); n < 3 {
		t.Errorf("prompt-parts chart draws %d bar segments", n)
	}
	if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-rag-ttft-vs-prompt .ch-data circle").length`); n < ragSweepPoints {
		t.Errorf("TTFT-vs-prompt chart draws %d points, want the sweep's %d and this run", n, ragSweepPoints)
	}
	card := e2e.Eval[string](t, b, `(document.querySelector('#lab-rag-stats [data-stat="ttft_ms"]') || {textContent: ""}).textContent`)
	if !strings.Contains(card, "Time to first token") || !strings.Contains(card, "You predicted") {
		t.Errorf("TTFT card = %q, want the measurement and the prediction", card)
	}
	answer := e2e.Eval[string](t, b, `(document.querySelector("#lab-rag-text .text-body") || {textContent: ""}).textContent`)
	if len(strings.Fields(answer)) < 5 {
		t.Errorf("answer %q: want the written answer on the page", answer)
	}
	ttft := e2e.Eval[string](t, b, `document.querySelector('#lab-rag-stats [data-stat="ttft_ms"] .stat-value').textContent`)
	t.Logf("run took %v; TTFT %s; %d passages; answer %d words", time.Since(start).Round(time.Millisecond), ttft, passages, len(strings.Fields(answer)))
	e2e.Screenshot(t, b, "rag-top20-long-history")
}

// walkTimeouts runs two timeouts presets on the wall clock: the
// timeline fills in while the batch runs (one row per request, the backup
// tier's colour appearing on the slowed rows), and the run ends with the
// stats, the prediction on the p95 card and both tables.
func walkTimeouts(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	play := labtest.Play{Knobs: []string{"overallTimeout"}, Guess: "5000", Changes: 5, Timeout: 90 * time.Second}
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
