package zzuser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/latencylab/latencylab/web/e2e"
)

const base = "http://127.0.0.1:8080"

func TestUser(t *testing.T) {
	inst := e2e.NewBrowser(t, e2e.Options{Width: 1280, Height: 1000})
	e2e.Do(t, inst, "new", 20*time.Second, chromedp.Navigate(base+"/workshops/new"), chromedp.WaitVisible(chromedp.CSS("form")))
	e2e.Do(t, inst, "create", 20*time.Second, e2e.SetInput("ws-name", "Tuesday cohort"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("form").submit()`), chromedp.WaitVisible(chromedp.CSS("body")))
	time.Sleep(2 * time.Second)
	url := e2e.Eval[string](t, inst, `location.href`)
	code := url[strings.Index(url, "/workshops/")+11 : strings.Index(url, "/board")]
	t.Log("code", code)
	ph := e2e.NewBrowser(t, e2e.Options{Width: 390, Height: 1600})
	e2e.Do(t, ph, "join", 20*time.Second, chromedp.Navigate(base+"/join/"+code), chromedp.WaitVisible(chromedp.CSS("form")))
	e2e.Do(t, ph, "name", 10*time.Second, chromedp.Evaluate[chromedp.Void](`(() => { const n = document.querySelector("input[name=name]"); n.value = "Ana"; n.form.submit() })()`))
	time.Sleep(2 * time.Second)
	e2e.Do(t, inst, "push", 20*time.Second, chromedp.Navigate(base+"/workshops/"+code+"/board"), chromedp.WaitVisible(chromedp.CSS("body")))
	e2e.Do(t, inst, "push streaming", 10*time.Second, chromedp.Click(chromedp.ID("ws-push-streaming")))
	time.Sleep(3 * time.Second)
	e2e.WaitFor(t, ph, "pushed lab on the learner page", `!!document.querySelector("#lab-streaming-run")`, 10*time.Second)
	e2e.Do(t, ph, "knob and guess", 10*time.Second, e2e.SetInput("lab-streaming-k-answerTokens", "120"), e2e.SetInput("lab-streaming-guess", "250"))
	e2e.Do(t, ph, "run", 5*time.Second, chromedp.Click(chromedp.ID("lab-streaming-run")))
	e2e.WaitFor(t, ph, "done", `document.querySelector("#lab-streaming-status").classList.contains("status-done")`, 60*time.Second)
	time.Sleep(2 * time.Second)
	e2e.Screenshot(t, ph, "u-learner-phone")
	e2e.Do(t, inst, "reload board", 20*time.Second, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("body")))
	time.Sleep(2 * time.Second)
	e2e.Screenshot(t, inst, "u-board-1280")
	if w := e2e.Eval[int](t, ph, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("learner page %d px wide on a phone", w)
	}
	_ = context.Background
}
