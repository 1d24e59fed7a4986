package batching

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/web/e2e"
)

// fastClock is the wall clock sped up: live runs take a tenth of their
// modelled time, so a browser test sees frames arrive and charts fill in
// without waiting a minute for the sequential preset.
type fastClock struct {
	start time.Time
	speed float64
	mu    sync.Mutex
}

func (c *fastClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.start.Add(time.Duration(float64(time.Since(c.start)) * c.speed))
}

func (c *fastClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		time.Sleep(time.Duration(float64(d) / c.speed))
		ch <- c.Now()
	}()
	return ch
}

// TestBrowserBatchingPresets runs every preset of the lab in headless
// Chromium: the live presets' timeline, batch, KV, throughput and ITL
// charts fill in while the run goes and end with a row per request and the
// stats; the sweep fills its three charts and the results table; the
// prediction shows on the p95 TTFT card.
func TestBrowserBatchingPresets(t *testing.T) {
	e2e.Require(t)
	clk := &fastClock{start: time.Now(), speed: 10}
	pool := labs.NewEngines(labs.EnginesConfig{Clock: clk})
	defer pool.Close()
	lab := mustNew(t, Config{Engines: pool, Clock: clk})
	base := labtest.ServeLabs(t, lab)

	b := e2e.NewBrowser(t, e2e.Options{})
	e2e.Do(t, b, "open the lab", 20*time.Second, chromedp.Navigate(base+"/labs/batching"), chromedp.WaitVisible(chromedp.ID("lab-batching-run")))
	pg := e2e.Lab{Tab: b, Prefix: "lab-" + Slug}
	for i, p := range lab.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			pg.ClickPreset(t, i)
			e2e.WaitFor(t, b, "preset applied", fmt.Sprintf(`document.querySelector("#lab-batching-k-mode").value === %q`, p.Values[knobMode].(string)), 5*time.Second)
			pg.Guess(t, "500")
			pg.WatchChanges(t, "charts")
			// Forget the previous run's end, so "done" below is this run's.
			pg.Run(t, 60*time.Second)
			if n := pg.Changes(t); n < 3 {
				t.Errorf("charts changed %d times during the run, want them to fill in", n)
			}
			if p.Values[knobMode].(string) == modeSweep {
				for _, id := range []string{chartSweepThroughput, chartSweepTTFT, chartSweepGoodput} {
					if n := e2e.Eval[int](t, b, fmt.Sprintf(`document.querySelectorAll("#lab-batching-%s path").length`, id)); n < 3 {
						t.Errorf("sweep chart %s draws %d paths", id, n)
					}
				}
				if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-batching-tables tr").length`); n != 25 {
					t.Errorf("sweep table has %d rows, want a header and 24", n)
				}
				e2e.Screenshot(t, b, fmt.Sprintf("batching-preset-%d", i))
				return
			}
			want := int(p.Values[knobRequests].(float64))
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-batching-timeline .ch-data rect").length`); n < want {
				t.Errorf("timeline draws %d spans for %d requests", n, want)
			}
			for _, id := range []string{chartBatch, chartKV, chartThroughput, chartITL} {
				if !e2e.Eval[bool](t, b, fmt.Sprintf(`!!document.getElementById("lab-batching-%s")`, id)) {
					t.Errorf("chart %s missing", id)
				}
			}
			card := e2e.Eval[string](t, b, `document.querySelector("#lab-batching-stats .stat.has-guess").textContent`)
			if !strings.Contains(card, "TTFT p95") || !strings.Contains(card, "You predicted") {
				t.Errorf("prediction card = %q", card)
			}
			e2e.Screenshot(t, b, fmt.Sprintf("batching-preset-%d", i))
		})
	}
}
