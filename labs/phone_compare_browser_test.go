package labs_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserPhoneComparedCharts opens two budget-lab runs side by side
// in a phone-wide window: the comparison draws both runs' percentile
// marks on one histogram, bunched together, and every label must still
// be readable (see phoneProblems), none printed over another or cut off
// at the chart's edge. Screenshot (LATENCYLAB_SCREENSHOTS): phone-compare.
func TestBrowserPhoneComparedCharts(t *testing.T) {
	e2e.Require(t)
	pool := labs.NewEngines(labs.EnginesConfig{})
	t.Cleanup(func() { pool.Close() })
	desk := labtest.SupportDesk(t)
	lab := labtest.Must[labs.Lab](t)(budget.New(pipelinelab.Config{Engines: pool, Retriever: desk, Orders: desk}))
	base := labtest.ServeLabs(t, lab)
	tab := e2e.NewBrowser(t, e2e.Options{Width: phoneWidth, Height: 844})
	slug := lab.Info().Slug
	pg := e2e.Lab{Tab: tab, Prefix: "lab-" + slug}
	pg.Open(t, "open the lab", base+"/labs/"+slug)
	for _, preset := range []int{0, 2} { // parallel, then sequential lookups: close percentiles
		pg.ClickPreset(t, preset)
		pg.Run(t, 2*time.Minute)
		pg.NoError(t)
		pg.ForgetDone(t)
	}
	e2e.Do(t, tab, "open the comparison", 30*time.Second,
		chromedp.Navigate(base+"/labs/"+slug+"/compare?a=1&b=2"), chromedp.WaitVisible(chromedp.CSS("svg.ch")))
	if n := e2e.Eval[int](t, tab, `[...document.querySelectorAll("svg.ch text")].filter(t => /· run #2/.test(t.textContent)).length`); n == 0 {
		t.Fatal("the comparison drew no mark of the second run to check")
	}
	for _, p := range e2e.Eval[[]string](t, tab, phoneProblems) {
		t.Error(p)
	}
	e2e.Screenshot(t, tab, "phone-compare")
}
