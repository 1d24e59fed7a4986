package web

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/e2e"
)

// watchText installs a MutationObserver that records every distinct text
// the element with id shows, in window.__seen[id].
func watchText(id string) string {
	return `(() => { window.__seen = window.__seen || {}; const seen = window.__seen["` + id + `"] = [];
		const el = () => document.getElementById("` + id + `");
		let last = el() ? el().textContent : "";
		new MutationObserver(() => { const t = el() ? el().textContent : ""; if (t !== last) { last = t; seen.push(t); } })
			.observe(document.body, {subtree: true, childList: true, characterData: true});
		return true })()`
}

// TestBrowserJourney walks home → lesson → lab with the fake lab in
// headless Chromium: the run's text grows several times while it streams,
// the prediction shows beside the result, the run is listed after a
// reload, bad settings show next to their knob, and the lab inline in the
// lesson runs too.
func TestBrowserJourney(t *testing.T) {
	e2e.Require(t)
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t, "status of 422") // the bad-input step is answered with 422

	e2e.Do(t, ctx, "open home", 15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(".lesson-list")))
	e2e.Screenshot(t, ctx, "home")
	if txt := e2e.Eval[string](t, ctx, `document.querySelector(".progress-text").textContent`); !strings.Contains(txt, "0 of 2 lessons done") {
		t.Errorf("home progress = %q", txt)
	}

	e2e.Do(t, ctx, "open the lesson", 15*time.Second,
		chromedp.Click(chromedp.CSS(`.lesson-list a[href="/lessons/first-token"]`)),
		chromedp.WaitVisible(chromedp.ID("lab-ticker-run")))
	e2e.Screenshot(t, ctx, "lesson")

	// The inline lab runs on the lesson page; a preset sets the knobs.
	e2e.Do(t, ctx, "preset", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-preset-0")))
	e2e.WaitFor(t, ctx, "preset applied", `document.querySelector("#lab-ticker-k-steps").value === "3"`, 5*time.Second)
	e2e.WaitFor(t, ctx, "preset note shown", `document.querySelector("#lab-ticker .preset-note").textContent === "few steps"`, 5*time.Second)
	// Run waits for a prediction; skipping it is a visible choice.
	e2e.WaitFor(t, ctx, "run locked until a guess", `document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.Do(t, ctx, "skip the guess", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-skip")))
	e2e.WaitFor(t, ctx, "run unlocked", `!document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.Do(t, ctx, "run inline", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "inline run done", `document.querySelector("#lab-ticker-status").classList.contains("status-done")`, 15*time.Second)
	if txt := e2e.Eval[string](t, ctx, `document.querySelector("#lab-ticker-text .text-body").textContent`); !strings.Contains(txt, "word3") || strings.Contains(txt, "word4") {
		t.Errorf("inline run text = %q, want three words", txt)
	}

	e2e.Do(t, ctx, "open the lab page", 15*time.Second,
		chromedp.Click(chromedp.CSS(`a[href="/labs/ticker"]`)),
		chromedp.WaitVisible(chromedp.CSS("h1#lab-ticker-title")))
	e2e.Do(t, ctx, "set knobs", 5*time.Second,
		e2e.SetInput("lab-ticker-k-steps", "10"),
		e2e.SetInput("lab-ticker-k-gapMs", "250"),
		e2e.SetInput("lab-ticker-guess", "120"))
	e2e.WaitFor(t, ctx, "readout follows the slider", `document.querySelector("#lab-ticker-k-steps").closest(".knob").querySelector("output").textContent === "10"`, 5*time.Second)
	// A moved slider's readout groups thousands as the served page does.
	for _, v := range []float64{1500, 2000, 999, 250} {
		want := labs.Fixed(v, 0)
		e2e.Do(t, ctx, "move the gap slider", 5*time.Second, e2e.SetInput("lab-ticker-k-gapMs", strconv.FormatFloat(v, 'f', -1, 64)))
		e2e.WaitFor(t, ctx, "gap readout reads "+want, `(() => { const k = document.querySelector("#lab-ticker-k-gapMs");
			return k.closest(".knob").querySelector("output").textContent === "`+want+`" && k.getAttribute("aria-valuetext") === "`+want+` ms" })()`, 5*time.Second)
	}
	e2e.Eval[bool](t, ctx, watchText("lab-ticker-text"))
	start := time.Now()
	e2e.Do(t, ctx, "run", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "button shows it is running", `document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.WaitFor(t, ctx, "run done", `document.querySelector("#lab-ticker-status").classList.contains("status-done")`, 20*time.Second)
	took := time.Since(start)
	seen := e2e.Eval[[]string](t, ctx, `window.__seen["lab-ticker-text"]`)
	if len(seen) < 5 {
		t.Errorf("the text panel changed %d times, want at least 5: %q", len(seen), seen)
	}
	if took < time.Second {
		t.Errorf("a 10×250 ms run finished in %v", took)
	}
	guess := e2e.Eval[string](t, ctx, `document.querySelector("#lab-ticker-stats .stat.has-guess").textContent`)
	if !strings.Contains(guess, "You predicted") || !strings.Contains(guess, "120 ms") || !strings.Contains(guess, "250 ms") {
		t.Errorf("prediction card = %q", guess)
	}
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#lab-ticker-charts svg").length`); n != 1 {
		t.Errorf("%d charts drawn, want 1", n)
	}
	e2e.WaitFor(t, ctx, "button enabled again", `!document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.Screenshot(t, ctx, "lab-after-run")

	// A long run stops at once with Stop, and Run works again after it
	// (the busy signal is the button's own, not a one-shot indicator).
	e2e.Do(t, ctx, "long run", 5*time.Second,
		e2e.SetInput("lab-ticker-k-steps", "400"),
		chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "stop offered while running", `getComputedStyle(document.querySelector("#lab-ticker-stop")).display !== "none"`, 5*time.Second)
	e2e.Do(t, ctx, "stop", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-stop")))
	e2e.WaitFor(t, ctx, "run stopped", `document.querySelector("#lab-ticker-status").classList.contains("status-stopped")`, 5*time.Second)
	e2e.WaitFor(t, ctx, "run enabled after stop", `!document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.WaitFor(t, ctx, "stop hidden again", `getComputedStyle(document.querySelector("#lab-ticker-stop")).display === "none"`, 5*time.Second)
	e2e.Screenshot(t, ctx, "lab-stopped")
	e2e.Do(t, ctx, "short run again", 5*time.Second,
		e2e.SetInput("lab-ticker-k-steps", "10"),
		chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "second run shows it is running", `document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.WaitFor(t, ctx, "second run done", `document.querySelector("#lab-ticker-status").classList.contains("status-done")`, 20*time.Second)

	e2e.Do(t, ctx, "reload", 15*time.Second, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("lab-ticker-runs")))
	runs := e2e.Eval[string](t, ctx, `document.querySelector("#lab-ticker-runs").textContent`)
	if !strings.Contains(runs, "Latest") || !strings.Contains(runs, "120 ms") || !strings.Contains(runs, "10 frames") {
		t.Errorf("run list after reload = %q", runs)
	}
	e2e.Screenshot(t, ctx, "lab")

	// Out-of-range settings: widen the slider past the knob's range so the
	// browser sends it; the server answers with a message under the knob.
	e2e.Do(t, ctx, "bad value", 5*time.Second,
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#lab-ticker-k-steps").max = "9999"`),
		e2e.SetInput("lab-ticker-k-steps", "9999"),
		e2e.SetInput("lab-ticker-guess", "120"), // a reload clears the guess, which locks Run
		chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "field error", `document.querySelector("#lab-ticker-err-steps").textContent.includes("between 1 and 400")`, 10*time.Second)
	e2e.Screenshot(t, ctx, "lab-bad-input")
}
