package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/lessons"
	"github.com/latencylab/latencylab/web/e2e"
)

// a11yViews are the ways every page is checked: a laptop and a phone
// window in the light theme, and the laptop in the dark theme (rooms
// project either).
var a11yViews = []a11yView{{1280, false}, {390, false}, {1280, true}}

// a11yView is a window width and theme a page is checked in.
type a11yView struct {
	width int
	dark  bool
}

// scheme is the view's prefers-color-scheme value.
func (v a11yView) scheme() string {
	if v.dark {
		return "dark"
	}
	return "light"
}

// chartsWithoutText lists the charts (by id) that screen readers could
// not read: each must be one image with a name and a description that
// says what it shows.
const chartsWithoutText = `[...document.querySelectorAll("svg.ch")].filter(s => {
	const desc = document.getElementById(s.getAttribute("aria-describedby") || "");
	return s.getAttribute("role") !== "img" || !(s.getAttribute("aria-label") || "").trim() || !desc || !desc.textContent.trim();
}).map(s => s.id || "(no id)")`

// chartTextContrast lists chart text (titles, ticks, labels, legends)
// whose colour, faded by its fill-opacity, has less than 4.5:1 contrast
// on the chart's background: axe does not look inside SVG. Each entry is
// "chart id: text (ratio)".
const chartTextContrast = `(() => {
	const rgb = s => (s.match(/[\d.]+/g) || []).map(Number);
	const lum = c => { const l = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 });
		return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2] };
	const bgOf = el => { for (let n = el; n; n = n.parentElement) { const c = rgb(getComputedStyle(n).backgroundColor);
		if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3) } return [255, 255, 255] };
	const out = [];
	for (const svg of document.querySelectorAll("svg.ch")) {
		if (!svg.getClientRects().length) continue;
		const bg = bgOf(svg);
		for (const tx of svg.querySelectorAll("text")) {
			const words = tx.textContent.trim();
			if (!words || !tx.getClientRects().length) continue;
			const cs = getComputedStyle(tx), fg = rgb(cs.fill), a = Number(cs.fillOpacity) * (fg.length === 4 ? fg[3] : 1);
			const seen = fg.slice(0, 3).map((v, i) => a * v + (1 - a) * bg[i]);
			const [hi, lo] = [lum(seen), lum(bg)].sort((x, y) => y - x), ratio = (hi + 0.05) / (lo + 0.05);
			if (ratio < 4.5) out.push(svg.id + ": " + words.slice(0, 40) + " (" + ratio.toFixed(2) + ")");
		}
	}
	return [...new Set(out)];
})()`

// chartsWiderThan lists the visible charts (by id and viewBox width)
// drawn for a window wider than px.
func chartsWiderThan(px int) string {
	return fmt.Sprintf(`[...document.querySelectorAll("svg.ch")].filter(s => s.getClientRects().length && s.viewBox.baseVal.width > %d)
		.map(s => (s.id || "(no id)") + " " + s.viewBox.baseVal.width)`, px)
}

// a11yQuickKnobs shorten the labs whose default run takes many seconds of
// modelled GPU time (a run here is only there to put charts, stats and
// tables on the page): fewer and shorter requests.
var a11yQuickKnobs = map[string][]struct{ name, value string }{
	"batching": {{"requests", "4"}, {"outputMean", "32"}},
	"timeouts": {{"requests", "10"}, {"answerTokens", "60"}, {"slowBy", "2"}},
	"levers":   {{"answerTokens", "100"}, {"shortTokens", "20"}},
}

// openDisclosures opens every <details> (the "Why this number"
// explanations), so axe checks the text they hide too.
const openDisclosures = `(() => { document.querySelectorAll("details").forEach(d => d.open = true); return true })()`

// TestBrowserAccessibility runs axe-core over every kind of page of the
// real app — course pages, each lab before and after a run, a saved run,
// a comparison, chat, practice drills, a mock interview, a workshop's
// board, join form and learner page, the fidelity page and a 404 — at
// 1280 and 390 px in the light theme and 1280 px in the dark one, with
// every "Why this number" open. A serious or critical violation fails the
// test with its rule, its elements and the page; moderate and minor ones
// are logged. Each page must also repeat no id, give every chart a name
// and a description, and keep chart text at 4.5:1 contrast in both
// themes (axe does not look inside SVG).
func TestBrowserAccessibility(t *testing.T) {
	e2e.Require(t)
	base := startServe(t)
	tab := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, tab)
	defer console.Clean(t, "status of 404")

	// auditIn checks the page the tab shows in each of views, then puts the
	// tab back to the first of them for the next page.
	auditIn := func(t *testing.T, page string, views []a11yView) {
		t.Helper()
		e2e.Eval[bool](t, tab, openDisclosures)
		if dup := e2e.Eval[[]string](t, tab, duplicateIDs); len(dup) > 0 {
			t.Errorf("%s repeats element ids %q", page, dup)
		}
		if bare := e2e.Eval[[]string](t, tab, chartsWithoutText); len(bare) > 0 {
			t.Errorf("%s: charts without a name and description: %q", page, bare)
		}
		for _, scheme := range []string{"light", "dark"} {
			setView(t, tab, views[0].width, scheme)
			if faint := e2e.Eval[[]string](t, tab, chartTextContrast); len(faint) > 0 {
				t.Errorf("%s, %s: chart text under 4.5:1 contrast: %q", page, scheme, faint)
			}
		}
		for _, v := range views {
			setView(t, tab, v.width, v.scheme())
			e2e.CheckAxe(t, tab, fmt.Sprintf("%s at %d px, %s", page, v.width, v.scheme()))
			e2e.Screenshot(t, tab, fmt.Sprintf("a11y-%s-%d-%s", strings.ReplaceAll(page, " ", "-"), v.width, v.scheme()))
		}
		setView(t, tab, views[0].width, views[0].scheme())
	}
	audit := func(t *testing.T, page string) { t.Helper(); auditIn(t, page, a11yViews) }
	open := func(t *testing.T, url, ready string) {
		t.Helper()
		e2e.Do(t, tab, "open "+url, 20*time.Second, chromedp.Navigate(base+url), chromedp.WaitVisible(chromedp.CSS(ready)))
	}

	all := lessons.All()
	if len(all) == 0 {
		t.Fatal("no lessons")
	}
	for _, p := range []struct{ name, url, ready string }{
		{"home", "/", ".hero"},
		{"lessons", "/lessons", ".lesson-list"},
		{"lesson", "/lessons/" + all[0].Slug, ".prose"},
		{"labs", "/labs", ".cards"},
		{"fidelity", "/engine/fidelity", "h1"},
		{"not found", "/lessons/no-such-lesson", ".error-page"},
		{"practice", "/practice", ".practice-list"},
		{"estimate drill", "/practice/estimate/decode-tpot?seed=11", "#estimate-answer"},
		{"open question", "/practice/open/batching-static", "#open-answer"},
		{"new workshop", "/workshops/new", "#ws-create"},
	} {
		t.Run(p.name, func(t *testing.T) {
			open(t, p.url, p.ready)
			audit(t, p.name)
		})
	}

	// Lessons differ in what their prose holds (tables, worked sums, code,
	// guess boxes), so every one is checked, not only the first.
	for _, l := range all[1:] {
		t.Run("lesson/"+l.Slug, func(t *testing.T) {
			open(t, "/lessons/"+l.Slug, ".prose")
			audit(t, "lesson "+l.Slug)
		})
	}

	open(t, "/labs", ".cards")
	hrefs := e2e.Eval[[]string](t, tab, `[...document.querySelectorAll(".cards .card-title a")].map(a => a.getAttribute("href"))`)
	if len(hrefs) == 0 {
		t.Fatal("no labs installed")
	}
	for _, href := range hrefs {
		slug := strings.TrimPrefix(href, "/labs/")
		t.Run("lab/"+slug, func(t *testing.T) {
			lab := e2e.Lab{Tab: tab, Prefix: "lab-" + slug}
			lab.Open(t, "open the lab", base+href)
			audit(t, "lab "+slug+" before a run")
			runQuickly(t, lab, slug)
			audit(t, "lab "+slug+" after a run")
			// A run's charts are drawn for the width the page had when Run
			// was pressed: the phone view above shows a laptop's run
			// narrowed, so a run started on the phone is checked too.
			phone := []a11yView{a11yViews[1]}
			setView(t, tab, phone[0].width, phone[0].scheme())
			runQuickly(t, lab, slug)
			if wide := e2e.Eval[[]string](t, tab, chartsWiderThan(phone[0].width)); len(wide) > 0 {
				t.Errorf("lab %s run on a phone drew charts for a wider window: %q", slug, wide)
			}
			auditIn(t, "lab "+slug+" after a run on a phone", phone)
			setView(t, tab, a11yViews[0].width, a11yViews[0].scheme())
		})
	}

	// The moderation lab is quick and shows text, tables and charts, so
	// its second run gives a comparison with all three on both sides.
	t.Run("saved run and comparison", func(t *testing.T) {
		const slug = "moderation"
		if !slices.Contains(hrefs, "/labs/"+slug) {
			t.Fatalf("the %s lab is not installed; pick another for the comparison", slug)
		}
		lab := e2e.Lab{Tab: tab, Prefix: "lab-" + slug}
		lab.Open(t, "open the lab again", base+"/labs/"+slug)
		runQuickly(t, lab, slug)
		e2e.WaitFor(t, tab, "two runs listed", fmt.Sprintf(`!!document.getElementById(%q)`, lab.ID("compare")), 30*time.Second)
		e2e.Do(t, tab, "compare", 20*time.Second, chromedp.Click(chromedp.ID(lab.ID("compare"))), chromedp.WaitVisible(chromedp.CSS(".compare-page")))
		audit(t, "comparison of two "+slug+" runs")
		e2e.Do(t, tab, "open a run", 20*time.Second, chromedp.Click(chromedp.CSS(".compare-page .lede a")), chromedp.WaitVisible(chromedp.CSS(".run-page")))
		audit(t, "saved "+slug+" run")
	})

	t.Run("chat", func(t *testing.T) {
		open(t, "/chat", "#chat-input")
		audit(t, "chat before a message")
		e2e.Do(t, tab, "ask", 5*time.Second, e2e.SetInput("chat-input", "How long do refunds take?"), chromedp.Click(chromedp.ID("chat-send")))
		e2e.WaitFor(t, tab, "answer complete", `!!document.querySelector('#chat-log li.msg-assistant[data-status="complete"]')`, 60*time.Second)
		audit(t, "chat after a message")
	})

	t.Run("mock interview", func(t *testing.T) {
		open(t, "/practice", "#mock-start")
		e2e.Do(t, tab, "start a mock", 20*time.Second, e2e.SetInput("mock-minutes", "5"),
			chromedp.Click(chromedp.ID("mock-start")), chromedp.WaitVisible(chromedp.ID("mock-form")))
		audit(t, "mock interview")
	})

	t.Run("workshop", func(t *testing.T) {
		open(t, "/workshops/new", "#ws-create")
		e2e.Do(t, tab, "open a room", 20*time.Second, e2e.SetInput("ws-name", "Accessibility check"),
			chromedp.Click(chromedp.ID("ws-create")))
		// The form's page has an h1 too: wait for the board's address.
		e2e.WaitFor(t, tab, "the board", `location.pathname.endsWith("/board") && !!document.querySelector("h1")`, 20*time.Second)
		if !strings.HasSuffix(e2e.Eval[string](t, tab, `location.pathname`), "/board") {
			t.Fatalf("creating a room led to %s, not its board", e2e.Eval[string](t, tab, `location.pathname`))
		}
		audit(t, "workshop board")
		code := strings.Split(e2e.Eval[string](t, tab, `location.pathname`), "/")[2]
		open(t, "/join/"+code, "#join-go")
		audit(t, "join a workshop")
		e2e.Do(t, tab, "join the room", 20*time.Second, e2e.SetInput("join-name", "Ada"),
			chromedp.Click(chromedp.ID("join-go")), chromedp.WaitVisible(chromedp.ID("ws-learner")))
		audit(t, "workshop learner page")
	})
}

// setView sizes the tab's window and sets the colour scheme it reports.
// It asks for reduced motion too, so a button's colour transition after
// the theme switch has ended (the site turns transitions off) before axe
// measures its contrast.
func setView(t *testing.T, tab context.Context, width int, scheme string) {
	t.Helper()
	e2e.Do(t, tab, fmt.Sprintf("%d px, %s", width, scheme), 5*time.Second,
		chromedp.EmulateViewport(int64(width), 900), e2e.EmulateMedia(
			e2e.MediaFeature{Name: "prefers-color-scheme", Value: scheme},
			e2e.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"}))
}

// runQuickly runs the lab with its a11yQuickKnobs set.
func runQuickly(t *testing.T, lab e2e.Lab, slug string) {
	t.Helper()
	for _, k := range a11yQuickKnobs[slug] {
		e2e.Do(t, lab.Tab, "set "+k.name, 5*time.Second, e2e.SetInput(lab.ID("k-"+k.name), k.value))
	}
	lab.Run(t, 2*time.Minute)
}
