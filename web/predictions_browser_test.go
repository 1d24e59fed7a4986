package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/web/e2e"
)

// In a browser, a lab that asks for two numbers keeps Run locked until
// both are typed, 0 counting as a guess, and shows each guess on its
// stat's card after the run.
func TestBrowserTwoGuesses(t *testing.T) {
	e2e.Require(t)
	base, _ := serveReal(t, twoGuessServer(t))
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t)

	e2e.Do(t, ctx, "open the lab", 15*time.Second, chromedp.Navigate(base+"/labs/ticker"), chromedp.WaitVisible(chromedp.ID("lab-ticker-guess2")))
	e2e.Do(t, ctx, "first guess only", 5*time.Second, e2e.SetInput("lab-ticker-k-steps", "3"), e2e.SetInput("lab-ticker-guess", "120"))
	e2e.WaitFor(t, ctx, "still locked with one of two", `document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.Do(t, ctx, "second guess", 5*time.Second, e2e.SetInput("lab-ticker-guess2", "0"))
	e2e.WaitFor(t, ctx, "unlocked with both", `!document.querySelector("#lab-ticker-run").disabled`, 5*time.Second)
	e2e.Do(t, ctx, "run", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "run done", `document.querySelector("#lab-ticker-status").classList.contains("status-done")`, 15*time.Second)
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#lab-ticker-stats .stat.has-guess").length`); n != 2 {
		t.Errorf("%d cards carry a guess, want 2", n)
	}
}
