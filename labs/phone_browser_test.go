package labs_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/cancellation"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/levers"
	"github.com/latencylab/latencylab/labs/moderation"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/labs/prefilldecode"
	"github.com/latencylab/latencylab/labs/rag"
	"github.com/latencylab/latencylab/labs/stack"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/labs/timeouts"
	"github.com/latencylab/latencylab/web/e2e"
)

// phoneWidth is a common phone's width in CSS pixels.
const phoneWidth = 390

// phoneProblems lists what a learner on a phone could not read after a
// run: the page scrolling sideways, chart text reaching past its chart
// (cut off at the edge) or drawn under 10 px (a layout shrunk to fit),
// mark labels printed over each other, table titles running into the
// part of a table scrolled out of view, a table shown as cards whose
// text still runs off its card, and a results table that scrolls
// sideways without a visible line saying so (every wide table also shows
// an edge shadow, which a script cannot see). Slanted category labels are left out of
// the overlap check: their boxes overlap while the glyphs do not.
const phoneProblems = `(() => {
	const out = [];
	const se = document.scrollingElement;
	if (se.scrollWidth > innerWidth + 1) out.push("the page scrolls sideways: " + se.scrollWidth + " px wide in a " + innerWidth + " px window");
	const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
	for (const svg of document.querySelectorAll("svg.ch")) {
		const box = svg.getBoundingClientRect();
		if (!box.width) continue;
		const name = (svg.closest("[id]") || {}).id || "a chart";
		const scale = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? box.width / svg.viewBox.baseVal.width : 1;
		for (const t of svg.querySelectorAll("text")) {
			const r = t.getBoundingClientRect();
			if (!r.width || !t.textContent.trim()) continue;
			if (r.left < box.left - 1 || r.right > box.right + 1)
				out.push(name + ": " + JSON.stringify(t.textContent.trim()) + " spans " + Math.round(r.left - box.left) + ".." + Math.round(r.right - box.left) + " px of a " + Math.round(box.width) + " px chart");
			const px = parseFloat(getComputedStyle(t).fontSize) * scale;
			if (px < 10) out.push(name + ": " + JSON.stringify(t.textContent.trim()) + " is drawn " + px.toFixed(1) + " px high");
		}
		const marks = [...svg.querySelectorAll(".ch-mark-labels text")].filter(t => t.getBoundingClientRect().width);
		for (let i = 0; i < marks.length; i++) for (let j = i + 1; j < marks.length; j++)
			if (overlap(marks[i].getBoundingClientRect(), marks[j].getBoundingClientRect()))
				out.push(name + ": mark labels " + JSON.stringify(marks[i].textContent.trim()) + " and " + JSON.stringify(marks[j].textContent.trim()) + " overlap");
	}
	for (const c of document.querySelectorAll(".table-wrap caption")) {
		const r = c.getBoundingClientRect(), wrap = c.closest(".table-wrap").getBoundingClientRect();
		if (r.width && r.right > wrap.right + 1) out.push("table title " + JSON.stringify(c.textContent.trim().slice(0, 40)) + " runs " + Math.round(r.right - wrap.right) + " px past the visible table");
	}
	for (const t of document.querySelectorAll(".table-wrap > table")) {
		const wrap = t.parentElement;
		if (getComputedStyle(t).display === "block" && wrap.scrollWidth > wrap.clientWidth + 1)
			out.push("table " + JSON.stringify((t.caption || t).textContent.trim().slice(0, 40)) + " is shown as cards but still scrolls sideways");
		const hint = wrap.querySelector(".scroll-hint"), shown = !!(hint && hint.getBoundingClientRect().height);
		const scrolls = getComputedStyle(t).display !== "block" && wrap.scrollWidth > wrap.clientWidth + 1;
		const name = JSON.stringify((t.caption || t).textContent.trim().slice(0, 40));
		if (scrolls && !shown && (wrap.closest(".tables") || t.querySelectorAll("thead th").length > 2))
			out.push("table " + name + " scrolls sideways without saying so");
		if (shown && !scrolls) out.push("table " + name + " says it scrolls sideways, but it fits");
	}
	return out;
})()`

// TestBrowserPhoneLayout runs every lab once in a phone-wide window and
// checks that what the run drew can be read there: see phoneProblems.
// Screenshots (LATENCYLAB_SCREENSHOTS) are named phone-<slug>.
func TestBrowserPhoneLayout(t *testing.T) {
	e2e.Require(t)
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	must := labtest.Must[labs.Lab](t)
	live := labs.LiveConfig{Engines: pool}
	desk := labtest.SupportDesk(t)
	onDesk := pipelinelab.Config{Engines: pool, Retriever: desk, Orders: desk}
	all := []labs.Lab{
		must(streaming.New(streaming.Config{Engines: pool})),
		must(prefilldecode.New(live)),
		fastBatching(t),
		must(moderation.New(live)),
		must(budget.New(onDesk)),
		must(rag.New(onDesk)),
		must(timeouts.New(onDesk)),
		must(cancellation.New(onDesk)),
		must(stack.New(live)),
		must(levers.New(onDesk)),
	}
	base := labtest.ServeLabs(t, all...)
	tab := e2e.NewBrowser(t, e2e.Options{Width: phoneWidth, Height: 844})
	for _, lab := range all {
		slug := lab.Info().Slug
		t.Run(slug, func(t *testing.T) {
			pg := e2e.Lab{Tab: tab, Prefix: "lab-" + slug}
			pg.Open(t, "open the lab", base+"/labs/"+slug)
			if w := e2e.Eval[int](t, tab, `innerWidth`); w != phoneWidth {
				t.Fatalf("window is %d px wide, want %d", w, phoneWidth)
			}
			pg.Run(t, 2*time.Minute)
			if n := e2e.Eval[int](t, tab, `document.querySelectorAll("svg.ch").length`); n == 0 {
				t.Errorf("the run drew no chart to check")
			}
			for _, p := range e2e.Eval[[]string](t, tab, phoneProblems) {
				t.Error(p)
			}
			e2e.Screenshot(t, tab, "phone-"+slug)
			if i := sweepPreset(lab); i >= 0 {
				// The sweep's ten-column results table must say it scrolls.
				pg.ClickPreset(t, i)
				pg.Run(t, 2*time.Minute)
				for _, p := range e2e.Eval[[]string](t, tab, phoneProblems) {
					t.Error("sweep: " + p)
				}
				e2e.Screenshot(t, tab, "phone-"+slug+"-sweep")
			}
			// The run saved just now, reopened, draws for the phone too.
			e2e.WaitFor(t, tab, "the run list links the saved run", `!!document.querySelector("a.run-open")`, 10*time.Second)
			href := e2e.Eval[string](t, tab, `document.querySelector("a.run-open").href`)
			e2e.Do(t, tab, "open the saved run", 30*time.Second, chromedp.Navigate(href), chromedp.WaitVisible(chromedp.CSS(".run-page svg.ch")))
			for _, p := range e2e.Eval[[]string](t, tab, phoneProblems) {
				t.Error("saved run: " + p)
			}
			e2e.Screenshot(t, tab, "phone-"+slug+"-saved")
		})
	}
}

// sweepPreset is the index of a lab's preset that sweeps the request rate
// (the batching lab's widest table), -1 for none.
func sweepPreset(lab labs.Lab) int {
	for i, p := range lab.Presets() {
		if strings.HasPrefix(p.Name, "Sweep") {
			return i
		}
	}
	return -1
}
