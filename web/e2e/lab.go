package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Lab drives one lab's page in a browser tab. The page's element ids all
// start with "lab-" and the lab's slug, e.g. "lab-streaming-run".
type Lab struct {
	Tab    context.Context // the browser tab showing the page
	Prefix string          // "lab-" + slug
}

// OpenLab starts a browser (NewBrowser with default Options) that watches
// its console, opens base+"/labs/"+slug and waits for the Run button. When
// the test ends it fails t for any console error that contains none of the
// allowed substrings (see Console.Clean).
func OpenLab(t testing.TB, base, slug string, allowed ...string) Lab {
	t.Helper()
	b := NewBrowser(t, Options{})
	console := WatchConsole(t, b)
	t.Cleanup(func() { console.Clean(t, allowed...) })
	l := Lab{Tab: b, Prefix: "lab-" + slug}
	l.Open(t, "open the lab", base+"/labs/"+slug)
	return l
}

// Open navigates the tab to url and waits for the Run button.
func (l Lab) Open(t testing.TB, what, url string) {
	t.Helper()
	Do(t, l.Tab, what, 30*time.Second, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID(l.ID("run"))))
}

// ID is the id of the page's element part, e.g. "run" → "lab-streaming-run".
func (l Lab) ID(part string) string { return l.Prefix + "-" + part }

// WatchChanges starts counting DOM changes (children, attributes, at any
// depth) below the element part, e.g. "charts"; Changes reads the count.
// Only one element is watched at a time: a second call restarts the count.
func (l Lab) WatchChanges(t testing.TB, part string) {
	t.Helper()
	Eval[bool](t, l.Tab, fmt.Sprintf(`(() => { window.__changes = 0; const el = document.getElementById(%q);
		new MutationObserver(() => { window.__changes++ }).observe(el, {subtree: true, childList: true, attributes: true}); return true })()`, l.ID(part)))
}

// Changes is how many DOM changes WatchChanges has counted so far.
func (l Lab) Changes(t testing.TB) int {
	t.Helper()
	return Eval[int](t, l.Tab, `window.__changes`)
}

// ForgetDone clears the status's done mark, so a wait for "done" after the
// next click is that run's, not the previous one's.
func (l Lab) ForgetDone(t testing.TB) {
	t.Helper()
	Eval[bool](t, l.Tab, fmt.Sprintf(`(() => { document.querySelector("#%s").classList.remove("status-done"); return true })()`, l.ID("status")))
}

// ClickRun presses the Run button. Run stays locked until there is a
// guess; a test that typed none skips it first, as a learner repeating a
// run would.
func (l Lab) ClickRun(t testing.TB) {
	t.Helper()
	Do(t, l.Tab, "run", 5*time.Second, SkipGuessIfAsked(l.Prefix), chromedp.Click(chromedp.ID(l.ID("run"))))
}

// SkipGuessIfAsked presses the lab's "skip the guess" button when it shows
// (no guess typed yet), so a test that does not predict can press Run.
// prefix is the lab's DOM id prefix, e.g. "lab-streaming".
func SkipGuessIfAsked(prefix string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.querySelector("#%s-skip");
		if (s && getComputedStyle(s).display !== "none") s.click() })()`, prefix))
}

// Run forgets the previous run's end, presses Run, waits up to timeout for
// the status to show done, and stops the test if the page shows an error.
func (l Lab) Run(t testing.TB, timeout time.Duration) {
	t.Helper()
	l.ForgetDone(t)
	l.ClickRun(t)
	WaitFor(t, l.Tab, "run done", fmt.Sprintf(`document.querySelector("#%s").classList.contains("status-done")`, l.ID("status")), timeout)
	l.NoError(t)
}

// NoError stops the test if the page's error panel shows a message.
func (l Lab) NoError(t testing.TB) {
	t.Helper()
	if msg := Eval[string](t, l.Tab, fmt.Sprintf(`document.querySelector("#%s").textContent`, l.ID("error"))); strings.TrimSpace(msg) != "" {
		t.Fatalf("run failed: %s", msg)
	}
}

// ClickPreset presses the i-th preset's button (0 is the first).
func (l Lab) ClickPreset(t testing.TB, i int) {
	t.Helper()
	Do(t, l.Tab, "preset", 10*time.Second, chromedp.Click(chromedp.ID(fmt.Sprintf("%s-preset-%d", l.Prefix, i))))
}

// Guess types the learner's prediction: first into the prediction box
// and, where the lab asks for a second number, second into its box. It
// stops t when the page's boxes and the values given do not match (a lab
// that asks two numbers must get both, as a learner would type them), and
// waits until the typed guesses, not a skip, have unlocked Run.
func (l Lab) Guess(t testing.TB, first string, second ...string) {
	t.Helper()
	asksTwo := Eval[bool](t, l.Tab, fmt.Sprintf(`!!document.getElementById(%q)`, l.ID("guess2")))
	switch {
	case asksTwo && len(second) != 1:
		t.Fatalf("guess: the lab asks two numbers; give both, not %d", 1+len(second))
	case !asksTwo && len(second) > 0:
		t.Fatalf("guess: the lab asks one number, got %d", 1+len(second))
	}
	actions := []chromedp.Action[chromedp.Void]{SetInput(l.ID("guess"), first)}
	if asksTwo {
		actions = append(actions, SetInput(l.ID("guess2"), second[0]))
	}
	Do(t, l.Tab, "guess", 5*time.Second, actions...)
	WaitFor(t, l.Tab, "the guesses unlock Run", fmt.Sprintf(`(() => { const s = document.getElementById(%q);
		return !s || getComputedStyle(s).display === "none" })()`, l.ID("skip")), 5*time.Second)
}
