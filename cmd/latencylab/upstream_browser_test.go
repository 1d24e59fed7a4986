package main

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/engine/upstream/upstreamtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// With --upstream-url naming a server that replays a recorded real run,
// the streaming and batching labs offer "Engine: that server"; a run on it
// shows the measured figures beside the bundled engine's for the same
// settings, each with its error, and both runs' series on shared charts.
// Screenshots at 1280 and 390 px with LATENCYLAB_SCREENSHOTS=dir.
func TestBrowserLabsAgainstARecordedServer(t *testing.T) {
	e2e.Require(t)
	replay := upstreamtest.New(upstreamtest.Recorded(), nil)
	fake := httptest.NewServer(replay)
	defer fake.Close()
	base := startServe(t, "--upstream-url", fake.URL+"/v1", "--upstream-model-profile", "llama-3.1-8b", "--upstream-hardware", "h100-sxm")

	for _, c := range []struct {
		slug, prefix string
		setup        []chromedp.Action[chromedp.Void]
	}{
		{"streaming", "lab-streaming", []chromedp.Action[chromedp.Void]{e2e.SetInput("lab-streaming-k-answerTokens", "50")}},
		{"batching", "lab-batching", []chromedp.Action[chromedp.Void]{
			e2e.SetInput("lab-batching-k-requests", "3"), e2e.SetInput("lab-batching-k-outputMean", "16"),
			e2e.SetInput("lab-batching-k-promptTokens", "64"),
			chromedp.Evaluate[chromedp.Void](`(() => { const b = document.getElementById("lab-batching-k-sharedEngine"); if (!b.checked) b.click(); })()`)}},
	} {
		for _, width := range []int{1280, 390} {
			t.Run(c.slug+"/"+strconv.Itoa(width), func(t *testing.T) {
				ctx := e2e.NewBrowser(t, e2e.Options{Width: width, Height: 900})
				console := e2e.WatchConsole(t, ctx)
				defer console.Clean(t)
				e2e.Do(t, ctx, "open the lab", 15*time.Second, chromedp.Navigate(base+"/labs/"+c.slug), chromedp.WaitVisible(chromedp.ID(c.prefix+"-run")))
				if got := e2e.Eval[string](t, ctx, `document.getElementById("`+c.prefix+`-k-engine").selectedOptions[0].textContent`); got != "Bundled engine" {
					t.Fatalf("engine choice starts at %q", got)
				}
				served := replay.Served()
				steps := append([]chromedp.Action[chromedp.Void]{e2e.SetInput(c.prefix+"-k-engine", "server")}, c.setup...)
				e2e.Do(t, ctx, "settings", 5*time.Second, steps...)
				if e2e.Eval[bool](t, ctx, `!!document.getElementById("`+c.prefix+`-skip") && document.getElementById("`+c.prefix+`-skip").offsetParent !== null`) {
					e2e.Do(t, ctx, "skip the guess", 5*time.Second, chromedp.Click(chromedp.ID(c.prefix+"-skip")))
				}
				e2e.Do(t, ctx, "run", 5*time.Second, chromedp.Click(chromedp.ID(c.prefix+"-run")))
				e2e.WaitFor(t, ctx, "both engines side by side", `document.querySelectorAll("#`+c.prefix+`-engines tbody tr").length > 0`, 60*time.Second)
				if replay.Served() == served {
					t.Error("the run never reached the recorded server")
				}
				heads := e2e.Eval[string](t, ctx, `document.querySelector("#`+c.prefix+`-engines thead").textContent`)
				if !strings.Contains(heads, "That server (measured)") || !strings.Contains(heads, "Bundled engine (modelled)") || !strings.Contains(heads, "Error") {
					t.Errorf("table head %q", heads)
				}
				// Each stat row has both figures and, where both have one, the error.
				rows := e2e.Eval[[][]string](t, ctx, `[...document.querySelectorAll("#`+c.prefix+`-engines tbody tr")].map(r => [...r.cells].map(c => c.textContent.trim()))`)
				withError := 0
				for _, r := range rows {
					if len(r) != 4 || r[1] == "" || r[2] == "" {
						t.Errorf("row %q", r)
					}
					if r[3] != "" {
						withError++
					}
				}
				if withError == 0 {
					t.Errorf("no stat has an error: %q", rows)
				}
				legend := e2e.Eval[string](t, ctx, `document.querySelector("#`+c.prefix+`-eng-charts").textContent`)
				if !strings.Contains(legend, "that server") || !strings.Contains(legend, "bundled engine") {
					t.Errorf("the shared charts do not name both engines: %.300q", legend)
				}
				if !e2e.Eval[bool](t, ctx, `!!document.querySelector("#`+c.prefix+`-engines a[href*='/compare?a=']")`) {
					t.Error("no link to both saved runs on the comparison page")
				}
				e2e.Do(t, ctx, "scroll to the comparison", 5*time.Second, chromedp.Evaluate[chromedp.Void](`document.getElementById("`+c.prefix+`-engines").scrollIntoView()`))
				e2e.Screenshot(t, ctx, "upstream-"+c.slug+"-"+strconv.Itoa(width))
			})
		}
	}
}
