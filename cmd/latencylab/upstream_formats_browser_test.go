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

// Against a server that ends answers early (Ollama ignores ignore_eos), a
// lab run on it says so in one message with what to do instead of showing
// a shorter answer's figures, on its cards or beside the bundled engine's.
// Screenshots at 1280 and 390 px with LATENCYLAB_SCREENSHOTS=dir.
func TestBrowserLabSaysTheServerWroteFewerTokens(t *testing.T) {
	e2e.Require(t)
	fake := httptest.NewServer(&upstreamtest.Fake{Format: upstreamtest.Ollama, TTFT: 30 * time.Millisecond, Gap: 5 * time.Millisecond, NaturalLength: 12})
	defer fake.Close()
	base := startServe(t, "--upstream-url", fake.URL+"/v1", "--upstream-model-profile", "llama-3.1-8b")
	const prefix = "lab-streaming"
	for _, width := range []int{1280, 390} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			ctx := e2e.NewBrowser(t, e2e.Options{Width: width, Height: 900})
			console := e2e.WatchConsole(t, ctx)
			defer console.Clean(t)
			e2e.Do(t, ctx, "open the lab", 15*time.Second, chromedp.Navigate(base+"/labs/streaming"), chromedp.WaitVisible(chromedp.ID(prefix+"-run")))
			e2e.Do(t, ctx, "settings", 5*time.Second, e2e.SetInput(prefix+"-k-engine", "server"), e2e.SetInput(prefix+"-k-answerTokens", "50"))
			if e2e.Eval[bool](t, ctx, `!!document.getElementById("`+prefix+`-skip") && document.getElementById("`+prefix+`-skip").offsetParent !== null`) {
				e2e.Do(t, ctx, "skip the guess", 5*time.Second, chromedp.Click(chromedp.ID(prefix+"-skip")))
			}
			e2e.Do(t, ctx, "run", 5*time.Second, chromedp.Click(chromedp.ID(prefix+"-run")))
			e2e.WaitFor(t, ctx, "the reason", `document.body.textContent.includes("wrote 12 tokens where this run asks for 50")`, 30*time.Second)
			text := e2e.Eval[string](t, ctx, `document.body.textContent`)
			if strings.Contains(text, "upstream http") || strings.Contains(text, "ShortAnswer") {
				t.Errorf("the page shows the client's internals")
			}
			if !strings.Contains(text, "goes no lower than 50 tokens") {
				t.Errorf("the page does not say what to do about it")
			}
			if cards := e2e.Eval[int](t, ctx, `document.querySelectorAll("#`+prefix+`-stats .stat").length`); cards > 0 {
				t.Errorf("the failed run still shows %d stat cards", cards)
			}
			e2e.Screenshot(t, ctx, "upstream-short-answer-"+strconv.Itoa(width))
		})
	}
}
