package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserKeyboardLabRun drives the streaming lab with the keyboard
// alone, as a learner who cannot use a mouse would: Tab to a preset and
// press Enter, nudge a slider with the arrow keys, type both guesses, Tab
// to Run and press Enter, stop that run from the keyboard, run again and
// open a "Why this number" explanation with Space. Every stop shows a
// focus ring, and a Tab walk over the finished page reaches every control.
// Then an estimate drill is answered and a chat message sent the same way.
func TestBrowserKeyboardLabRun(t *testing.T) {
	e2e.Require(t)
	base := startServe(t)
	tab := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, tab)
	defer console.Clean(t)
	// A learner who asked for reduced motion gets no spinning or pulsing.
	e2e.Do(t, tab, "ask for reduced motion", 5*time.Second, e2e.EmulateMedia(e2e.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"}))
	lab := e2e.Lab{Tab: tab, Prefix: "lab-streaming"}
	lab.Open(t, "open the lab", base+"/labs/streaming")
	// Datastar is running once the skip link shows (no guess typed yet).
	e2e.WaitFor(t, tab, "lab ready", `getComputedStyle(document.getElementById("lab-streaming-skip")).display !== "none"`, 10*time.Second)
	const presses = 80 // far more Tab stops than a lab page has

	e2e.TabUntil(t, tab, "the first preset", `el.id === "lab-streaming-preset-0"`, presses)
	e2e.ScreenshotViewport(t, tab, "keyboard-lab-preset-focus")
	e2e.Press(t, tab, kb.Enter)
	e2e.WaitFor(t, tab, "the preset's note", `document.querySelector("#lab-streaming .preset-note").textContent.trim() !== ""`, 5*time.Second)

	slider := e2e.TabUntil(t, tab, "the answer length slider", `el.id === "lab-streaming-k-answerTokens"`, presses)
	before := e2e.Eval[string](t, tab, `document.getElementById("lab-streaming-k-answerTokens").value`)
	e2e.Press(t, tab, kb.ArrowRight)
	if after := e2e.Eval[string](t, tab, `document.getElementById("lab-streaming-k-answerTokens").value`); after == before {
		t.Errorf("ArrowRight on %s left it at %s", slider, before)
	}
	if vt := e2e.Eval[string](t, tab, `document.getElementById("lab-streaming-k-answerTokens").getAttribute("aria-valuetext") || ""`); !strings.HasSuffix(vt, " tokens") {
		t.Errorf("slider aria-valuetext = %q, want the value with its unit", vt)
	}

	e2e.TabUntil(t, tab, "the first guess", `el.id === "lab-streaming-guess"`, presses)
	e2e.Press(t, tab, "300")
	e2e.TabUntil(t, tab, "the second guess", `el.id === "lab-streaming-guess2"`, presses)
	e2e.Press(t, tab, "2500")
	e2e.TabUntil(t, tab, "Run", `el.id === "lab-streaming-run"`, presses)
	e2e.ScreenshotViewport(t, tab, "keyboard-lab-run-focus")
	lab.ForgetDone(t)
	e2e.Press(t, tab, kb.Enter)
	e2e.WaitFor(t, tab, "the run started", `document.getElementById("lab-streaming-status").classList.contains("status-running")`, 10*time.Second)
	if busy := e2e.Eval[string](t, tab, `document.getElementById("lab-streaming-status").getAttribute("aria-busy") || ""`); busy != "true" {
		t.Errorf("a running status has aria-busy=%q, want true (no announcement per frame)", busy)
	}
	if moving := e2e.Eval[[]string](t, tab, `document.getAnimations().filter(a => a.playState === "running").map(a => a.animationName || a.transitionProperty || "?")`); len(moving) > 0 {
		t.Errorf("with reduced motion asked for, a run still animates %q", moving)
	}

	// Run is disabled while it runs and Stop shows in its place: focus
	// moves to Stop, so one key stops the run, and back to Run after.
	focusOn(t, tab, "lab-streaming-stop")
	e2e.Press(t, tab, kb.Enter)
	e2e.WaitFor(t, tab, "the run stopped", `!document.getElementById("lab-streaming-status").classList.contains("status-running")`, 10*time.Second)
	focusOn(t, tab, "lab-streaming-run")
	lab.ForgetDone(t)
	e2e.Press(t, tab, kb.Enter)
	focusOn(t, tab, "lab-streaming-stop")
	e2e.WaitFor(t, tab, "the run finished", `document.getElementById("lab-streaming-status").classList.contains("status-done")`, 60*time.Second)
	lab.NoError(t)
	focusOn(t, tab, "lab-streaming-run") // the run ended by itself
	if n := e2e.Eval[int](t, tab, `document.querySelectorAll("#lab-streaming-stats .stat").length`); n == 0 {
		t.Fatal("no stats after the keyboard run")
	}
	// The live status was busy while frames streamed; now it announces the end.
	if busy := e2e.Eval[bool](t, tab, `document.getElementById("lab-streaming-status").hasAttribute("aria-busy")`); busy {
		t.Error("the finished run's status is still marked busy, so a screen reader never announces it")
	}
	if got := e2e.Eval[string](t, tab, `document.querySelector("#lab-streaming-stats .stat-guess")?.textContent || ""`); !strings.Contains(got, "You predicted") {
		t.Errorf("the typed guess is not shown beside its stat: %q", got)
	}

	e2e.TabUntil(t, tab, `a "Why this number" disclosure`, `el.matches(".stat-why summary")`, presses)
	e2e.Press(t, tab, " ")
	if !e2e.Eval[bool](t, tab, `document.activeElement.parentElement.open`) {
		t.Error(`Space did not open "Why this number"`)
	}
	e2e.Screenshot(t, tab, "keyboard-lab-why")

	// Every control of the finished lab is a Tab stop, with a ring.
	stops := e2e.TabWalk(t, tab, 200)
	reached := map[string]bool{}
	for _, s := range stops {
		if s.ID != "" {
			reached[s.ID] = true
		}
		if !s.Ring {
			t.Errorf("%s shows no focus ring", s)
		}
	}
	controls := e2e.Eval[[]string](t, tab, `[...document.querySelectorAll("#lab-streaming :is(button, input, select, textarea, summary, a[href], [tabindex='0'])")]
		.filter(el => el.id && !el.disabled && el.offsetParent !== null && el.type !== "hidden").map(el => el.id)`)
	for _, id := range controls {
		if !reached[id] {
			t.Errorf("Tab never reaches #%s", id)
		}
	}
	if len(controls) < 10 {
		t.Errorf("only %d controls with ids found on the lab: the selector is off", len(controls))
	}

	// An estimate drill: type the answer, Tab to its button, Enter.
	e2e.Do(t, tab, "open a drill", 15*time.Second, chromedp.Navigate(base+"/practice/estimate/decode-tpot?seed=11"), chromedp.WaitVisible(chromedp.ID("estimate-answer")))
	e2e.TabUntil(t, tab, "the answer box", `el.id === "estimate-answer"`, presses)
	e2e.Press(t, tab, "40 ms")
	e2e.TabUntil(t, tab, "Check", `el.id === "estimate-submit"`, 5)
	e2e.Press(t, tab, kb.Enter)
	e2e.Do(t, tab, "the worked answer", 15*time.Second, chromedp.WaitVisible(chromedp.ID("steps")))

	// The chat: Tab to the box, type, Enter sends.
	e2e.Do(t, tab, "open the chat", 15*time.Second, chromedp.Navigate(base+"/chat"), chromedp.WaitVisible(chromedp.ID("chat-input")))
	e2e.WaitFor(t, tab, "chat ready", `!!document.querySelector("#chat-send:not([disabled])")`, 10*time.Second)
	e2e.TabUntil(t, tab, "the message box", `el.id === "chat-input"`, presses)
	e2e.ScreenshotViewport(t, tab, "keyboard-chat-focus")
	e2e.Press(t, tab, "How long do refunds take?")
	e2e.Press(t, tab, kb.Enter)
	e2e.WaitFor(t, tab, "the answer", `!!document.querySelector('#chat-log li.msg-assistant[data-status="complete"]')`, 60*time.Second)
	e2e.TabUntil(t, tab, "Send", `el.id === "chat-send"`, 5)
}

// TestBrowserKeyboardSkipMovesFocusToRun: Enter on "Skip the guess this
// time" hides that button and unlocks Run, and focus goes to Run, not to
// the page body, so the next Enter runs.
func TestBrowserKeyboardSkipMovesFocusToRun(t *testing.T) {
	e2e.Require(t)
	base := startServe(t)
	tab := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, tab)
	defer console.Clean(t)
	lab := e2e.Lab{Tab: tab, Prefix: "lab-streaming"}
	lab.Open(t, "open the lab", base+"/labs/streaming")
	e2e.WaitFor(t, tab, "lab ready", `getComputedStyle(document.getElementById("lab-streaming-skip")).display !== "none"`, 10*time.Second)
	e2e.TabUntil(t, tab, "Skip", `el.id === "lab-streaming-skip"`, 80)
	e2e.Press(t, tab, kb.Enter)
	focusOn(t, tab, "lab-streaming-run")
	e2e.Press(t, tab, kb.Enter)
	e2e.WaitFor(t, tab, "the run started", `document.getElementById("lab-streaming-status").classList.contains("status-running")`, 10*time.Second)
	focusOn(t, tab, "lab-streaming-stop")
	e2e.Press(t, tab, kb.Enter)
	e2e.WaitFor(t, tab, "the run stopped", `!document.getElementById("lab-streaming-status").classList.contains("status-running")`, 10*time.Second)
	focusOn(t, tab, "lab-streaming-run")
}

// focusOn waits for keyboard focus to land on the enabled element with
// the given id, and checks it shows a focus ring there.
func focusOn(t *testing.T, tab context.Context, id string) {
	t.Helper()
	e2e.WaitFor(t, tab, "focus on #"+id, `document.activeElement?.id === "`+id+`" && !document.activeElement.disabled`, 5*time.Second)
	if f := e2e.FocusedElement(t, tab); !f.Ring {
		t.Errorf("%s has focus but shows no focus ring", f)
	}
}
