package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserOriginCheck drives a real browser: its own pages' POSTs (a
// Datastar lab run and a plain form) pass the origin check under either
// loopback name, and a form on a page at another port of the same host,
// which SameSite=Lax would let carry the cookie, is refused with a reason.
func TestBrowserOriginCheck(t *testing.T) {
	e2e.Require(t)
	s := newTestServer(t, nil)
	base, _ := serveReal(t, s)
	u, _ := url.Parse(base)
	viaLocalhost := "http://localhost:" + u.Port()
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t, "status of 403") // the foreign form's refusal

	e2e.Do(t, ctx, "open the lesson as localhost", 15*time.Second,
		chromedp.Navigate(viaLocalhost+"/lessons/first-token"), chromedp.WaitVisible(chromedp.ID("lab-ticker-run")))
	e2e.Do(t, ctx, "run", 5*time.Second, chromedp.Click(chromedp.ID("lab-ticker-preset-0")),
		e2e.SetInput("lab-ticker-guess", "0"), // 0 is a guess: Run unlocks
		chromedp.Click(chromedp.ID("lab-ticker-run")))
	e2e.WaitFor(t, ctx, "run done", `document.querySelector("#lab-ticker-status").classList.contains("status-done")`, 15*time.Second)
	e2e.WaitFor(t, ctx, "run saved in the list", `document.querySelector("#lab-ticker-runs").textContent.includes("Latest")`, 5*time.Second)
	e2e.Do(t, ctx, "mark done", 10*time.Second, chromedp.Click(chromedp.CSS(".done-form button")))
	e2e.WaitFor(t, ctx, "marked done", `document.querySelector(".done-form") && document.querySelector(".done-form").textContent.includes("Mark as not done")`, 10*time.Second)

	// Another server on the same host: same site, another origin.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<form id="f" method="post" action="%s/lessons/first-token/done"><input name="done" value="0"></form>
<script>document.getElementById("f").submit()</script>`, viaLocalhost)
	}))
	defer evil.Close()
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)
	e2e.Do(t, ctx, "foreign page posts", 15*time.Second, chromedp.Navigate(evilURL), chromedp.WaitVisible(chromedp.CSS("main")))
	e2e.WaitFor(t, ctx, "refusal shown", `document.body.textContent.includes("Changes can only be made from this site's own pages")`, 10*time.Second)
	e2e.Do(t, ctx, "back to the lesson", 15*time.Second,
		chromedp.Navigate(viaLocalhost+"/lessons/first-token"), chromedp.WaitVisible(chromedp.CSS(".done-form")))
	if txt := e2e.Eval[string](t, ctx, `document.querySelector(".done-form").textContent`); !strings.Contains(txt, "Mark as not done") {
		t.Errorf("the foreign form changed progress: the form says %q", txt)
	}
}
