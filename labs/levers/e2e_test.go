package levers

import (
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserLeversLab runs the default set in headless Chromium against a
// seeded support desk: the table gains rows as each lever is measured,
// ending with the baseline and every lever, the bar chart draws a bar per
// row, and the prediction sits on the shorter-answer card.
func TestBrowserLeversLab(t *testing.T) {
	desk := labtest.SupportDesk(t)
	_, pg := labtest.BrowseLab(t, func(pool *labs.Engines) *Lab {
		return mustNew(t, Config{Engines: pool, Retriever: desk, Orders: desk})
	})
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
	if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-levers-tables tbody tr").length`); n != len(levers) {
		t.Errorf("table has %d rows, want the baseline and every lever (%d)", n, len(levers))
	}
	if labtest.Rises(seen) < 2 {
		t.Errorf("row counts seen during the run %v: want the table to grow row by row", seen)
	}
	if n := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-levers-levers .ch-data rect")].filter(r => +r.getAttribute("height") > 0).length`); n < len(levers) {
		t.Errorf("bar chart draws %d bar segments for %d rows", n, len(levers))
	}
	card := e2e.Eval[string](t, b, `(document.querySelector('#lab-levers-stats [data-stat="shorter_saves_ms"]') || {textContent: ""}).textContent`)
	if !strings.Contains(card, "You predicted") {
		t.Errorf("shorter-answer card = %q, want the prediction", card)
	}
	status := e2e.Eval[string](t, b, `document.querySelector("#lab-levers-status").textContent`)
	t.Logf("run took %v; rows seen %v; %s", time.Since(start).Round(time.Millisecond), seen, strings.Join(strings.Fields(status), " "))
	e2e.Screenshot(t, b, "levers-default")
}
