package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/lessons"
	"github.com/latencylab/latencylab/web/e2e"
)

// startServe runs the real serve command on port 0 with a temp database and
// any extra flags, and returns its base URL; the server stops when the test
// ends.
func startServe(t *testing.T, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	db := filepath.Join(t.TempDir(), "e2e.db")
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...), pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("read the startup line: %v", err)
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("startup line %q has no URL", line)
	}
	return strings.Fields(line[i:])[0]
}

// TestBrowserCoursePages opens every page of the real app in headless
// Chromium — home, the lesson index, every lesson, the lab index and every
// lab — checks each rendered its main content, and takes screenshots
// (LATENCYLAB_SCREENSHOTS=dir), including a phone-sized lesson and the
// home page in dark mode.
func TestBrowserCoursePages(t *testing.T) {
	e2e.Require(t)
	base := startServe(t)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t)

	e2e.Do(t, ctx, "home", 15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(".hero")))
	e2e.Screenshot(t, ctx, "app-home")
	e2e.Do(t, ctx, "lesson index", 15*time.Second, chromedp.Navigate(base+"/lessons"), chromedp.WaitVisible(chromedp.CSS(".lesson-list")))
	e2e.Screenshot(t, ctx, "app-lessons")
	all := lessons.All()
	if len(all) == 0 {
		t.Fatal("no lessons")
	}
	for _, l := range all {
		e2e.Do(t, ctx, "lesson "+l.Slug, 15*time.Second, chromedp.Navigate(base+"/lessons/"+l.Slug), chromedp.WaitVisible(chromedp.CSS(".prose")))
		if got := e2e.Eval[string](t, ctx, `document.querySelector("h1").textContent`); got != l.Title {
			t.Errorf("lesson %s heading %q, want %q", l.Slug, got, l.Title)
		}
		if dup := e2e.Eval[[]string](t, ctx, duplicateIDs); len(dup) > 0 {
			t.Errorf("lesson %s repeats element ids %q", l.Slug, dup)
		}
		if l.Drill.Question != "" && !e2e.Eval[bool](t, ctx, `!!document.querySelector("#drill textarea")`) {
			t.Errorf("lesson %s has no drill form", l.Slug)
		}
		e2e.Screenshot(t, ctx, "app-lesson-"+l.Slug)
	}
	e2e.Do(t, ctx, "lab index", 15*time.Second, chromedp.Navigate(base+"/labs"), chromedp.WaitVisible(chromedp.CSS(".page-head")))
	e2e.Screenshot(t, ctx, "app-labs")
	slugs := e2e.Eval[[]string](t, ctx, `[...document.querySelectorAll(".cards .card-title a")].map(a => a.getAttribute("href"))`)
	for _, href := range slugs {
		e2e.Do(t, ctx, "lab "+href, 15*time.Second, chromedp.Navigate(base+href), chromedp.WaitVisible(chromedp.CSS(".lab .run")))
		e2e.Screenshot(t, ctx, "app-lab-"+strings.TrimPrefix(href, "/labs/"))
	}

	phone := e2e.NewBrowser(t, e2e.Options{Width: 390, Height: 844})
	e2e.Do(t, phone, "lesson on a phone", 15*time.Second, chromedp.Navigate(base+"/lessons/"+all[0].Slug), chromedp.WaitVisible(chromedp.CSS(".prose")))
	if w := e2e.Eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("lesson page is %d px wide on a 390 px phone: something overflows", w)
	}
	e2e.ScreenshotViewport(t, phone, "app-phone-lesson")
	e2e.Do(t, phone, "lab on a phone", 15*time.Second, chromedp.Navigate(base+"/labs/streaming"), chromedp.WaitVisible(chromedp.CSS(".lab .run")))
	if w := e2e.Eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("lab page is %d px wide on a 390 px phone", w)
	}
	e2e.Screenshot(t, phone, "app-phone-lab")
	if clipped := e2e.Eval[bool](t, phone, `[...document.querySelectorAll(".site-nav a")].some(a => a.getBoundingClientRect().right > window.innerWidth)`); clipped {
		t.Error("a header link is cut off on a 390 px phone")
	}
	e2e.Do(t, phone, "not found", 15*time.Second, chromedp.Navigate(base+"/lessons/no-such-lesson"), chromedp.WaitVisible(chromedp.CSS(".error-page")))
	e2e.ScreenshotViewport(t, phone, "app-phone-404")

	dark := e2e.NewBrowser(t, e2e.Options{Dark: true})
	e2e.Do(t, dark, "home in dark mode", 15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(".hero")))
	e2e.Screenshot(t, dark, "app-home-dark")
}

// watchBodies records every distinct non-empty text of the element matched
// by sel into window.__bodies, as the page morphs it.
func watchBodies(sel string) string {
	return `(() => { window.__bodies = []; let last = "";
		const read = () => { const el = document.querySelector(` + "`" + sel + "`" + `); return el ? el.textContent.trim() : ""; };
		new MutationObserver(() => { const t = read(); if (t !== "" && t !== last) { last = t; window.__bodies.push(t); } })
			.observe(document.body, {subtree: true, childList: true, characterData: true});
		return true })()`
}

// TestBrowserStreamingLab is the journey on the real app: home →
// the first lesson → the streaming lab; with streaming on the answer grows
// at least five times before it completes, with streaming off it appears
// once; both runs are listed after a reload.
func TestBrowserStreamingLab(t *testing.T) {
	e2e.Require(t)
	base := startServe(t)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t)

	e2e.Do(t, ctx, "home", 15*time.Second, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(".hero")))
	e2e.Do(t, ctx, "first lesson", 15*time.Second,
		chromedp.Click(chromedp.CSS(".hero-actions a.primary")),
		chromedp.WaitVisible(chromedp.ID("lab-streaming-run")))
	e2e.Screenshot(t, ctx, "streaming-lesson")
	e2e.Do(t, ctx, "lab page", 15*time.Second,
		chromedp.Click(chromedp.CSS(`#lab-streaming a[href="/labs/streaming"]`)),
		chromedp.WaitVisible(chromedp.CSS("h1#lab-streaming-title")))

	body := "#lab-streaming-text .text-body"
	done := `document.querySelector("#lab-streaming-status").classList.contains("status-done")`
	e2e.Do(t, ctx, "settings", 5*time.Second, e2e.SetInput("lab-streaming-k-answerTokens", "200"))
	// The lab asks two numbers (first word, total time): Run unlocks once
	// both are typed.
	e2e.Lab{Tab: ctx, Prefix: "lab-streaming"}.Guess(t, "300", "2000")
	e2e.Eval[bool](t, ctx, watchBodies(body))
	e2e.Do(t, ctx, "run streaming", 5*time.Second, chromedp.Click(chromedp.ID("lab-streaming-run")))
	e2e.WaitFor(t, ctx, "streaming run done", done, 90*time.Second)
	grew := e2e.Eval[[]string](t, ctx, `window.__bodies`)
	if len(grew) < 5 {
		t.Errorf("with streaming the answer changed %d times, want at least 5", len(grew))
	}
	for i := 1; i < len(grew); i++ {
		if !strings.HasPrefix(grew[i], grew[i-1]) {
			t.Errorf("streamed text %d does not extend the one before", i)
			break
		}
	}
	e2e.Screenshot(t, ctx, "streaming-on")

	e2e.Do(t, ctx, "streaming off", 5*time.Second, chromedp.Click(chromedp.ID("lab-streaming-k-streaming")))
	e2e.WaitFor(t, ctx, "checkbox off", `!document.querySelector("#lab-streaming-k-streaming").checked`, 5*time.Second)
	e2e.Eval[bool](t, ctx, watchBodies(body))
	e2e.Do(t, ctx, "run blocking", 5*time.Second, chromedp.Click(chromedp.ID("lab-streaming-run")))
	e2e.WaitFor(t, ctx, "blocking run started", `!`+done, 10*time.Second)
	e2e.WaitFor(t, ctx, "blocking run done", done, 90*time.Second)
	once := e2e.Eval[[]string](t, ctx, `window.__bodies`)
	if len(once) != 1 {
		t.Errorf("without streaming the answer changed %d times, want once", len(once))
	}
	e2e.Screenshot(t, ctx, "streaming-off")

	e2e.Do(t, ctx, "reload", 15*time.Second, chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("lab-streaming-runs")))
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#lab-streaming-runs thead th").length - 1`); n != 2 {
		t.Errorf("run list shows %d runs after reload, want 2", n)
	}
	e2e.Screenshot(t, ctx, "streaming-runs")
}

// TestBrowserEveryLabRuns runs every installed lab once with its default
// settings through the generic runner in Chromium: the run must end with
// the done status and no error box, with stats on the page, and the
// browser must report no errors. Screenshots: lab-run-<slug>.png.
func TestBrowserEveryLabRuns(t *testing.T) {
	e2e.Require(t)
	base := startServe(t)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t)

	e2e.Do(t, ctx, "lab index", 15*time.Second, chromedp.Navigate(base+"/labs"), chromedp.WaitVisible(chromedp.CSS(".page-head")))
	hrefs := e2e.Eval[[]string](t, ctx, `[...document.querySelectorAll(".cards .card-title a")].map(a => a.getAttribute("href"))`)
	if len(hrefs) == 0 {
		t.Fatal("no labs installed")
	}
	for _, href := range hrefs {
		slug := strings.TrimPrefix(href, "/labs/")
		t.Run(slug, func(t *testing.T) {
			pre := "#lab-" + slug
			e2e.Do(t, ctx, "open "+href, 15*time.Second, chromedp.Navigate(base+href), chromedp.WaitVisible(chromedp.CSS(pre+" .run")))
			e2e.Do(t, ctx, "run "+slug, 5*time.Second, e2e.SkipGuessIfAsked("lab-"+slug), chromedp.Click(chromedp.CSS(pre+" .run")))
			e2e.WaitFor(t, ctx, slug+" finished", `(() => { const s = document.querySelector("`+pre+`-status");
				return s.classList.contains("status-done") || s.classList.contains("status-failed") })()`, 3*time.Minute)
			status := e2e.Eval[string](t, ctx, `document.querySelector("`+pre+`-status").className + ": " + document.querySelector("`+pre+`-status").textContent.trim()`)
			if !strings.Contains(status, "status-done") {
				t.Errorf("%s ended %q; error box: %q", slug, status,
					e2e.Eval[string](t, ctx, `document.querySelector("`+pre+`-error").textContent`))
			}
			if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("`+pre+`-stats .stat").length`); n == 0 {
				t.Errorf("%s shows no stats after its run", slug)
			}
			e2e.Screenshot(t, ctx, "lab-run-"+slug)
		})
	}
}

// duplicateIDs lists element ids used more than once on the page.
const duplicateIDs = `(() => { const seen = {}, dup = [];
	for (const el of document.querySelectorAll("[id]")) { if (seen[el.id]) dup.push(el.id); seen[el.id] = true; }
	return dup })()`

// TestBrowserTwoLabsOnALesson runs both labs of a lesson that embeds two
// at the same time: each streams into its own panels and both finish.
func TestBrowserTwoLabsOnALesson(t *testing.T) {
	e2e.Require(t)
	var lesson string
	for _, l := range lessons.All() {
		if len(l.Labs) >= 2 {
			lesson = l.Slug
			break
		}
	}
	if lesson == "" {
		t.Skip("no lesson embeds two labs")
	}
	base := startServe(t)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t)
	e2e.Do(t, ctx, "lesson", 15*time.Second, chromedp.Navigate(base+"/lessons/"+lesson), chromedp.WaitVisible(chromedp.CSS(".lab .run")))
	ids := e2e.Eval[[]string](t, ctx, `[...document.querySelectorAll("section.lab")].map(s => s.id)`)
	if len(ids) < 2 {
		t.Fatalf("lesson %s shows %d labs, want 2", lesson, len(ids))
	}
	if dup := e2e.Eval[[]string](t, ctx, duplicateIDs); len(dup) > 0 {
		t.Fatalf("repeated ids %q", dup)
	}
	for _, id := range ids[:2] {
		e2e.Do(t, ctx, "run "+id, 5*time.Second, e2e.SkipGuessIfAsked(id), chromedp.Click(chromedp.CSS("#"+id+" .run")))
	}
	for _, id := range ids[:2] {
		e2e.WaitFor(t, ctx, id+" done", `document.querySelector("#`+id+`-status").classList.contains("status-done")`, 3*time.Minute)
		if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#`+id+`-stats .stat").length`); n == 0 {
			t.Errorf("%s shows no stats", id)
		}
		// The run list is patched after the run is saved, which can land a
		// moment after the final frame marks the status done.
		e2e.WaitFor(t, ctx, id+" lists its run", `document.querySelectorAll("#`+id+`-runs thead th").length - 1 >= 1`, 30*time.Second)
		if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#`+id+`-runs thead th").length - 1`); n != 1 {
			t.Errorf("%s lists %d runs, want 1", id, n)
		}
	}
	e2e.Screenshot(t, ctx, "two-labs-"+lesson)
}
