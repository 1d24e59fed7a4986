package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/web/e2e"
)

// newStreamingServer is a server on a temp DB whose catalogue holds the
// real streaming lab on its own engine pool, with room for a class's runs,
// served on a loopback port; it returns the server and its base URL.
func newStreamingServer(tb testing.TB, mod func(*Config)) (*Server, string) {
	tb.Helper()
	pool := labs.NewEngines(labs.EnginesConfig{})
	tb.Cleanup(func() { pool.Close() })
	lab, err := streaming.New(streaming.Config{Engines: pool})
	if err != nil {
		tb.Fatal(err)
	}
	cat, err := labs.NewCatalog(lab)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(tb.TempDir(), "room.db"), Catalog: cat, Lessons: newFakeLessons(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	cfg.Limits.MaxRunsTotal, cfg.Limits.MaxRunsPerAddr = 4000, 4000
	cfg.RateBurst, cfg.Limits.AddrRateBurst, cfg.Limits.AddrRatePerSecond = 100, 20000, 5000
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	tb.Cleanup(func() { cancel(); <-done })
	return s, "http://" + ln.Addr().String()
}

// participant is one person in a separate browser context (own cookies).
func participant(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	return ctx
}

// TestBrowserWorkshop plays a whole session with four browser contexts:
// the instructor opens a room, three learners join by code, the
// instructor pushes the streaming lab's "Huge prompt" preset, each learner
// sees it with an empty guess, guesses and runs; the board shows three
// names, three guesses, three results and a moving load panel; the load
// dial goes up and a rerun's time to first token grows with the shared
// batch noted; the export has the rows; a learner gets 403 for the board.
func TestBrowserWorkshop(t *testing.T) {
	e2e.Require(t)
	_, base := newStreamingServer(t, func(c *Config) { c.Workshops.MaxLoadRPS = 60 })
	browser := e2e.NewBrowser(t, e2e.Options{})

	inst := participant(t, browser)
	e2e.Do(t, inst, "open /workshops/new", 15*time.Second, chromedp.Navigate(base+"/workshops/new"), chromedp.WaitVisible(chromedp.ID("ws-name")))
	e2e.Do(t, inst, "create", 15*time.Second, e2e.SetInput("ws-name", "Latency <b>cohort</b>"), chromedp.Click(chromedp.ID("ws-create")),
		chromedp.WaitVisible(chromedp.ID("ws-code")))
	code := strings.TrimSpace(e2e.Eval[string](t, inst, `document.getElementById("ws-code").textContent`))
	if !validCode(code) {
		t.Fatalf("board shows code %q", code)
	}
	if h1 := e2e.Eval[string](t, inst, `document.querySelector("h1").innerHTML`); !strings.Contains(h1, "&lt;b&gt;") {
		t.Errorf("workshop name not escaped: %q", h1)
	}
	names := []string{"Ana", "Bo", "Ana"}
	learners := make([]context.Context, len(names))
	for i, name := range names {
		l := participant(t, browser)
		learners[i] = l
		e2e.Do(t, l, "open the join link", 15*time.Second, chromedp.Navigate(base+"/join/"+code), chromedp.WaitVisible(chromedp.ID("join-name")))
		e2e.Do(t, l, "join", 15*time.Second, e2e.SetInput("join-name", name), chromedp.Click(chromedp.ID("join-go")), chromedp.WaitVisible(chromedp.ID("ws-banner")))
	}
	e2e.WaitFor(t, inst, "three joined on the board", `document.getElementById("ws-joined").textContent === "3"`, 5*time.Second)
	if roster := e2e.Eval[string](t, inst, `document.getElementById("ws-roster").textContent`); !strings.Contains(roster, "Ana 2") || !strings.Contains(roster, "Bo") {
		t.Errorf("roster %q lacks the suffixed twin", roster)
	}

	pushed := time.Now()
	e2e.Do(t, inst, "push Huge prompt", 15*time.Second,
		chromedp.SetValue(chromedp.ID("ws-preset-streaming"), "Huge prompt"),
		chromedp.Click(chromedp.ID("ws-push-streaming")), chromedp.WaitVisible(chromedp.ID("ws-now")))
	e2e.WaitFor(t, inst, "the board reloaded on the new round", `document.getElementById("ws-now").textContent.includes("Huge prompt")`, 5*time.Second)
	e2e.Eval[bool](t, inst, watchText("ws-load-panel")) // the push reloaded the board
	for i, l := range learners {
		e2e.WaitFor(t, l, "the push arrives", `!!document.getElementById("lab-streaming-run")`, 5*time.Second)
		if i == 0 {
			t.Logf("push reached the first learner in %v", time.Since(pushed).Round(time.Millisecond))
		}
		if v := e2e.Eval[string](t, l, `document.getElementById("lab-streaming-k-promptTokens").value`); v != "8000" {
			t.Errorf("learner %d: prompt knob %q after the push, want the preset's 8000", i, v)
		}
		if g := e2e.Eval[string](t, l, `document.getElementById("lab-streaming-guess").value`); g != "" {
			t.Errorf("learner %d: prediction box holds %q, want empty", i, g)
		}
	}
	e2e.Screenshot(t, learners[0], "workshop-learner-pushed")

	guesses := []string{"300", "900", "150"}
	for i, l := range learners {
		// The streaming lab asks for two numbers (first word, total): Run
		// unlocks once both are typed.
		e2e.Do(t, l, "guess and run", 5*time.Second, e2e.SetInput("lab-streaming-guess", guesses[i]),
			e2e.SetInput("lab-streaming-guess2", "3000"), chromedp.Click(chromedp.ID("lab-streaming-run")))
	}
	for _, l := range learners {
		e2e.WaitFor(t, l, "run done", `document.querySelector("#lab-streaming-status").classList.contains("status-done")`, 30*time.Second)
	}
	e2e.WaitFor(t, inst, "three guesses and results on the board",
		`document.getElementById("ws-guesses")?.textContent === "3" && document.getElementById("ws-measured")?.textContent === "3"`, 5*time.Second)
	if n := e2e.Eval[int](t, inst, `document.querySelectorAll("#ws-runs tr.ws-run").length`); n != 3 {
		t.Errorf("%d runs on the board, want 3", n)
	}
	if n := e2e.Eval[int](t, inst, `document.querySelectorAll("#ws-results svg").length`); n != 1 {
		t.Errorf("%d histograms on the board, want 1", n)
	}
	if csv := fetchIn[string](t, inst, `fetch("/workshops/`+code+`/export.csv").then(r => r.text())`); strings.Count(strings.TrimSpace(csv), "\n") != 3 {
		t.Errorf("export after the first round:\n%s\nwant a header and three rows", csv)
	}
	e2e.WaitFor(t, inst, "the load panel moved", `(window.__seen["ws-load-panel"] || []).length >= 2`, 5*time.Second)
	e2e.Screenshot(t, inst, "workshop-board")

	ttft := func(l context.Context) float64 {
		txt := e2e.Eval[string](t, l, `document.querySelector('#lab-streaming-stats .stat[data-stat="ttft_ms"] .stat-value').firstChild.textContent`)
		v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(txt), ",", ""), 64)
		if err != nil {
			t.Fatalf("TTFT %q: %v", txt, err)
		}
		return v
	}
	// rerun runs learner l again and waits for that run's result: the old
	// status element is morphed away by the new run's first patch, taking
	// the marker with it, so "done" after that is the rerun's.
	rerun := func(l context.Context, what string) {
		e2e.Eval[bool](t, l, `(document.getElementById("lab-streaming-status").dataset.old = "1") === "1"`)
		e2e.Do(t, l, what, 5*time.Second, chromedp.Click(chromedp.ID("lab-streaming-run")))
		e2e.WaitFor(t, l, what+" done", `(s => !s.dataset.old && s.classList.contains("status-done"))(document.getElementById("lab-streaming-status"))`, 60*time.Second)
	}
	// A run alone on the engine is the baseline (in the round the three
	// learners queued behind each other's prompts).
	rerun(learners[1], "rerun alone")
	quiet := ttft(learners[1])
	e2e.WaitFor(t, learners[1], "the quiet run's note", `document.getElementById("ws-note").textContent.includes("room's shared engine")`, 5*time.Second)
	firstNote := e2e.Eval[string](t, learners[1], `document.getElementById("ws-note").textContent`)
	// Letting go of the dial sets the load: no button to press.
	e2e.Do(t, inst, "raise the load dial", 15*time.Second, e2e.SetInput("ws-load", "60"))
	e2e.WaitFor(t, inst, "the board reloaded with the load set", `document.querySelector(".help") && document.getElementById("ws-load-panel").textContent.includes("other tenants 60 requests/s")`, 15*time.Second)
	e2e.WaitFor(t, inst, "tenants fill the batch", `Number(document.getElementById("ws-batch")?.textContent) >= 5`, 15*time.Second)
	rerun(learners[1], "rerun under load")
	loaded := ttft(learners[1])
	if loaded <= quiet {
		t.Errorf("TTFT under load %v ms, quiet %v ms: want it longer", loaded, quiet)
	}
	e2e.WaitFor(t, learners[1], "the rerun's note", `document.getElementById("ws-note").textContent !== `+strconv.Quote(firstNote), 5*time.Second)
	note := e2e.Eval[string](t, learners[1], `document.getElementById("ws-note").textContent`)
	if !strings.Contains(note, "60 requests/s") {
		t.Errorf("rerun note %q: want it to name the load dial's 60 requests/s", note)
	}
	t.Logf("TTFT quiet %v ms, with the dial at 60/s %v ms; first note %q; rerun note %q", quiet, loaded, firstNote, note)
	e2e.Screenshot(t, learners[1], "workshop-learner-loaded")
	e2e.WaitFor(t, inst, "the reruns on the board", `document.querySelectorAll("#ws-runs tr.ws-run").length === 5`, 5*time.Second)
	ranOn := e2e.Eval[string](t, inst, `document.querySelector("#ws-runs tr.ws-run td:last-child").textContent`)
	var shared int
	if _, err := fmt.Sscanf(ranOn, "room engine (llama-3.1-8b on h100-sxm), up to %d other", &shared); err != nil || shared < 5 {
		t.Errorf("the loaded rerun ran on %q: want the room's engine, its batch shared with the tenants (5 or more)", ranOn)
	}
	e2e.Screenshot(t, inst, "workshop-board-loaded")

	// "Everyone runs now": each open learner page starts a run by itself.
	for _, l := range learners {
		e2e.Eval[bool](t, l, `(document.getElementById("lab-streaming-status").dataset.old = "1") === "1"`)
	}
	e2e.Do(t, inst, "everyone runs now", 15*time.Second, chromedp.Click(chromedp.ID("ws-runall")), chromedp.WaitVisible(chromedp.ID("ws-code")))
	for i, l := range learners {
		e2e.WaitFor(t, l, fmt.Sprintf("learner %d ran on the board's signal", i),
			`(s => !s.dataset.old && s.classList.contains("status-done"))(document.getElementById("lab-streaming-status"))`, 60*time.Second)
	}
	e2e.WaitFor(t, inst, "eight runs on the board", `document.querySelectorAll("#ws-runs tr.ws-run").length === 8`, 10*time.Second)

	// Revealing shows every learner the room's results.
	e2e.Do(t, inst, "reveal", 15*time.Second, chromedp.Click(chromedp.ID("ws-reveal-btn")), chromedp.WaitVisible(chromedp.ID("ws-hide")))
	e2e.WaitFor(t, learners[2], "results revealed", `!document.getElementById("ws-reveal").classList.contains("hidden") && document.querySelectorAll("#ws-reveal svg").length === 1`, 5*time.Second)
	e2e.Screenshot(t, learners[2], "workshop-learner-revealed")

	// Closing predictions changes what the round asks of a learner.
	e2e.Do(t, inst, "close predictions", 15*time.Second, chromedp.Click(chromedp.ID("ws-lock")), chromedp.WaitVisible(chromedp.ID("ws-open")))
	e2e.WaitFor(t, learners[0], "the round line follows the lock", `document.getElementById("ws-round").textContent.includes("no longer counts")`, 5*time.Second)

	// A hosted preset leaves the room's engine: the page and the board say
	// where it ran, and nothing claims the room's engine for it.
	e2e.Do(t, inst, "push the hosted tier", 15*time.Second,
		chromedp.SetValue(chromedp.ID("ws-preset-streaming"), "Hosted tier as in the lesson"),
		chromedp.Click(chromedp.ID("ws-push-streaming")), chromedp.WaitVisible(chromedp.ID("ws-provider-note")))
	e2e.WaitFor(t, learners[0], "the hosted push arrives", `document.getElementById("ws-round").textContent.includes("hosted provider")`, 5*time.Second)
	e2e.Eval[bool](t, learners[0], `(document.getElementById("lab-streaming-status").dataset.old = "1") === "1"`)
	e2e.Do(t, learners[0], "run the hosted tier", 5*time.Second, chromedp.Click(chromedp.ID("lab-streaming-run")))
	e2e.WaitFor(t, learners[0], "hosted run done", `(s => !s.dataset.old && s.classList.contains("status-done"))(document.getElementById("lab-streaming-status"))`, 60*time.Second)
	e2e.WaitFor(t, learners[0], "the hosted run's note", `document.getElementById("ws-note").textContent.includes("hosted provider")`, 5*time.Second)
	if page := e2e.Eval[string](t, learners[0], `document.querySelector("main").textContent`); strings.Contains(page, "to itself") || strings.Contains(page, "shared the engine's batch") {
		t.Error("the hosted run's page still claims the room's engine for it")
	}
	e2e.WaitFor(t, inst, "the board lists the hosted run apart",
		`document.querySelector("#ws-runs tr.ws-run td:last-child").textContent.includes("hosted provider") && !!document.getElementById("ws-provider-runs")`, 5*time.Second)
	e2e.Screenshot(t, inst, "workshop-board-hosted")

	if st := fetchIn[int](t, learners[0], `fetch("/workshops/`+code+`/board").then(r => r.status)`); st != 403 {
		t.Errorf("a learner's request for the board: %d, want 403", st)
	}
}

// fetchIn evaluates a promise in the page (a fetch with its cookies).
func fetchIn[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}
