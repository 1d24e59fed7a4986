package rag

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserRAGLab runs the "Top-20 + long history" preset in headless
// Chromium against a seeded support desk: twenty passages are listed, the
// prompt's parts are drawn as stacked bars, the time to first token is
// measured with the prediction beside it, and the answer is on the page.
func TestBrowserRAGLab(t *testing.T) {
	lab, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab {
		return mustNew(t, Config{Engines: pool, Retriever: labtest.SupportDesk(t)})
	})
	b := pg.Tab

	i := slices.IndexFunc(lab.Presets(), func(p labs.Preset) bool { return p.Name == "Top-20 + long history" })
	if i < 0 {
		t.Fatal("no Top-20 + long history preset")
	}
	p := lab.Presets()[i]
	start := time.Now()
	labtest.ApplyPreset(t, pg, i, p, knobTopK, knobHistory)
	pg.Guess(t, "400")
	pg.Run(t, 2*time.Minute)
	passages := e2e.Eval[int](t, b, `(() => { const t = [...document.querySelectorAll("#lab-rag-tables table")].find(t =>
		(t.querySelector("caption") || {textContent: ""}).textContent.startsWith("Retrieved passages")); return t ? t.querySelectorAll("tbody tr").length : -1 })()`)
	if want := int(p.Values[knobTopK].(float64)); passages != want {
		t.Errorf("retrieved-passages table has %d rows, want %d", passages, want)
	}
	if n := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-rag-prompt-parts .ch-data rect")].filter(r => +r.getAttribute("height") > 0).length`); n < 3 {
		t.Errorf("prompt-parts chart draws %d bar segments", n)
	}
	if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-rag-ttft-vs-prompt .ch-data circle").length`); n < len(sweepK) {
		t.Errorf("TTFT-vs-prompt chart draws %d points, want the sweep's %d and this run", n, len(sweepK))
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
