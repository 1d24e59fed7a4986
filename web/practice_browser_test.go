package web

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/lessons/practice"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserPractice answers an estimation drill wrongly, reads the
// worked solution, answers rightly and sees the score change; then answers
// an open question too briefly, properly, ticks rubric points and sees
// the score and both kinds of history.
func TestBrowserPractice(t *testing.T) {
	e2e.Require(t)
	s := newTestServer(t, func(c *Config) { c.Lessons = PackageLessons{} })
	base, _ := serveReal(t, s)
	ctx := e2e.NewBrowser(t, e2e.Options{})
	console := e2e.WatchConsole(t, ctx)
	defer console.Clean(t, "status of 422") // the too-short answer is refused with 422

	e2e.Do(t, ctx, "open practice from the nav", 15*time.Second, chromedp.Navigate(base+"/"),
		chromedp.Click(chromedp.CSS(`.site-nav a[href="/practice"]`)), chromedp.WaitVisible(chromedp.CSS(".practice-list")))
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll(".practice-list li").length`); n < 40 {
		t.Errorf("/practice lists %d drills, want at least 40", n)
	}

	tm, _ := practice.LookupTemplate("decode-tpot")
	prob, err := tm.Draw(11)
	if err != nil {
		t.Fatal(err)
	}
	e2e.Do(t, ctx, "open a seeded drill", 15*time.Second, chromedp.Navigate(base+"/practice/estimate/decode-tpot?seed=11"),
		chromedp.WaitVisible(chromedp.ID("estimate-answer")))
	if q := e2e.Eval[string](t, ctx, `document.getElementById("question").textContent`); q != prob.Question {
		t.Errorf("question = %q, want the seed's %q", q, prob.Question)
	}
	e2e.Do(t, ctx, "answer wrongly", 15*time.Second, e2e.SetInput("estimate-answer", "40 s"),
		chromedp.Click(chromedp.ID("estimate-submit")), chromedp.WaitVisible(chromedp.ID("steps")))
	if v := e2e.Eval[string](t, ctx, `document.getElementById("verdict").textContent`); !strings.HasPrefix(v, "No marks") {
		t.Errorf("verdict after a wrong answer = %q", v)
	}
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#steps li").length`); n != len(prob.Steps) {
		t.Errorf("worked solution has %d steps, want %d", n, len(prob.Steps))
	}
	right := e2e.Eval[string](t, ctx, `document.getElementById("correct-answer").textContent`)
	e2e.Screenshot(t, ctx, "practice-estimate-wrong")
	e2e.Do(t, ctx, "answer with the figure read off the page", 15*time.Second, e2e.SetInput("estimate-answer", right),
		chromedp.Click(chromedp.ID("estimate-submit")))
	e2e.WaitFor(t, ctx, "full marks after "+right, `document.getElementById("verdict")?.textContent.startsWith("Full marks")`, 15*time.Second)
	scores := e2e.Eval[[]string](t, ctx, `[...document.querySelectorAll("#history td.score")].map(td => td.textContent)`)
	if strings.Join(scores, ",") != "100%,0%" {
		t.Errorf("history scores = %q, want 100%% then 0%%", scores)
	}

	e2e.Do(t, ctx, "open an open question", 15*time.Second, chromedp.Navigate(base+"/practice/open/batching-static"),
		chromedp.WaitVisible(chromedp.ID("open-answer")))
	e2e.Do(t, ctx, "too short", 15*time.Second, e2e.SetInput("open-answer", "The batch waits to fill."),
		chromedp.Click(chromedp.ID("open-submit")), chromedp.WaitVisible(chromedp.ID("answer-error")))
	if msg := e2e.Eval[string](t, ctx, `document.getElementById("answer-error").textContent`); !strings.Contains(msg, "35 more") {
		t.Errorf("short-answer message = %q", msg)
	}
	answer := strings.Repeat("Early requests wait for the batch to fill and short answers hold their slot until the longest one ends. ", 3)
	e2e.Do(t, ctx, "a real attempt", 15*time.Second, e2e.SetInput("open-answer", answer),
		chromedp.Click(chromedp.ID("open-submit")), chromedp.WaitVisible(chromedp.ID("model-answer")))
	e2e.Do(t, ctx, "tick two points", 15*time.Second, chromedp.Click(chromedp.ID("tick-0")), chromedp.Click(chromedp.ID("tick-1")),
		chromedp.Click(chromedp.ID("score-submit")), chromedp.WaitVisible(chromedp.ID("open-score")))
	if sc := e2e.Eval[string](t, ctx, `document.getElementById("open-score").textContent`); !strings.Contains(sc, "50%") {
		t.Errorf("open score = %q, want 50%%", sc)
	}
	e2e.Screenshot(t, ctx, "practice-open-compare")
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#history tbody tr").length`); n != 1 {
		t.Errorf("open history rows = %d, want 1", n)
	}
	e2e.Do(t, ctx, "back to the list", 15*time.Second, chromedp.Navigate(base+"/practice"), chromedp.WaitVisible(chromedp.CSS(".practice-list")))
	body := e2e.Eval[string](t, ctx, `document.body.textContent`)
	if !strings.Contains(body, "last score 100%") || !strings.Contains(body, "last score 50%") {
		t.Error("the list does not show the last scores of both drills")
	}

	// A whole mock on a one-minute timer: the countdown ticks in the page,
	// estimates are answered with their unit's example, then the scorecard.
	e2e.Do(t, ctx, "start a short mock", 15*time.Second, e2e.SetInput("mock-minutes", "1"),
		chromedp.Click(chromedp.ID("mock-start")), chromedp.WaitVisible(chromedp.ID("mock-form")))
	e2e.WaitFor(t, ctx, "countdown ticks", `/^0:5\d$/.test(document.getElementById("countdown").textContent)`, 5*time.Second)
	e2e.Eval[bool](t, ctx, `(() => { document.querySelectorAll("#mock-form textarea").forEach(el => el.value = "Prefill sets the first token and decode the pace.");
		document.querySelectorAll("#mock-form input[type=text]").forEach(el => el.value = el.placeholder.replace(/^for example /, "").split(" or ")[0]); return true })()`)
	e2e.Do(t, ctx, "finish the mock", 15*time.Second, chromedp.Click(chromedp.ID("mock-submit")), chromedp.WaitVisible(chromedp.ID("mock-areas")))
	if n := e2e.Eval[int](t, ctx, `document.querySelectorAll("#mock-areas tbody tr").length`); n < 2 {
		t.Errorf("scorecard has %d areas, want several", n)
	}
	// The open answers are not ticked yet, so the figure is only so far.
	if o := e2e.Eval[string](t, ctx, `document.getElementById("mock-overall").textContent`); !strings.Contains(o, "So far:") || !strings.Contains(o, "to finish") {
		t.Errorf("overall = %q, want a partial figure with what is left to tick", o)
	}
	e2e.Screenshot(t, ctx, "practice-mock-scorecard")
}
