package labs_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/batching"
	"github.com/latencylab/latencylab/labs/budget"
	"github.com/latencylab/latencylab/labs/cancellation"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/levers"
	"github.com/latencylab/latencylab/labs/moderation"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"github.com/latencylab/latencylab/labs/prefilldecode"
	"github.com/latencylab/latencylab/labs/rag"
	"github.com/latencylab/latencylab/labs/stack"
	"github.com/latencylab/latencylab/labs/streaming"
	"github.com/latencylab/latencylab/labs/timeouts"
	"github.com/latencylab/latencylab/web/e2e"
)

// TestBrowserLabs walks every lab's page in one headless Chromium, a tab
// per lab, as a learner does: each walk below says what it plays and what
// the page must show. Run one with -run 'TestBrowserLabs/<slug>'. The
// pipeline labs look up either a seeded support desk (real SQLite) or the
// fake one.
func TestBrowserLabs(t *testing.T) {
	labtest.BrowseLabs(t, func(pool *labs.Engines) []labtest.Journey {
		must := labtest.Must[labs.Lab](t)
		live := labs.LiveConfig{Engines: pool}
		desk := labtest.SupportDesk(t)
		onDesk := pipelinelab.Config{Engines: pool, Retriever: desk, Orders: desk}
		onFakeDesk := pipelinelab.Config{Engines: pool, Retriever: labtest.NewFakeStore()}
		return []labtest.Journey{
			{Lab: fastBatching(t), Walk: walkBatching},
			{Lab: must(prefilldecode.New(live)), Walk: walkPrefillDecode, Allowed: []string{"422"}}, // the refused FP8 run answers 422
			{Lab: must(moderation.New(live)), Walk: withSeedPreset(walkModeration)},
			{Lab: must(budget.New(onDesk)), Walk: withSeedPreset(walkBudget)},
			{Lab: must(cancellation.New(onFakeDesk)), Walk: walkCancellation},
			{Lab: must(levers.New(onDesk)), Walk: withSeedPreset(walkLevers)},
			{Lab: must(rag.New(onDesk)), Walk: walkRAG},
			{Lab: must(timeouts.New(onFakeDesk)), Walk: withSeedPreset(walkTimeouts)},
			{Lab: must(stack.New(live)), Walk: walkStack},
			{Lab: must(streaming.New(live)), Walk: withSeedPreset(nil)},
		}
	})
}

// seedFigure is a figure a lesson states that a lab's seed preset must
// reproduce, within 15%, because of what it models (the network to a
// hosted provider, other tenants' traffic on its engine, its GPU).
type seedFigure struct {
	stat string  // the stat card's key
	want float64 // the lesson's figure, in the card's base unit (ms, tok/s)
}

// seedPresets are each lab's seed preset and the figures it must show:
// the lessons' hosted tier (first token 600 ms, 80 tokens/s), its 815 ms
// first word, its 4.4 / 2.3 / 1.9 s model calls, checking a whole
// 300-token answer before sending it costing that answer's whole time, and
// a 5 s first-token timeout's fallback starting at 5 s plus that first word.
var seedPresets = map[string]struct {
	preset  string
	figures []seedFigure
}{
	streaming.Slug:  {"Hosted tier as in the lesson", []seedFigure{{"ttft_ms", 600}, {"tokens_per_s", 80}}},
	budget.Slug:     {"Hosted tier as in the lesson", []seedFigure{{"first_word_ms", 815}}},
	levers.Slug:     {"Hosted tiers as in the lesson", []seedFigure{{"answer_call_ms", 4400}, {"answer_small_ms", 2300}, {"answer_short_ms", 1900}}},
	moderation.Slug: {"Moderate then send on a hosted tier", []seedFigure{{"first_word_ms", 4400}}},
	// The 5 s first-token timeout plus the hosted tier's 815 ms first
	// word: where a slowed call's answer starts after its fallback.
	timeouts.Slug: {"5 s first-token timeout on hosted tiers", []seedFigure{{"first_word_p95_ms", 5815}}},
}

// withSeedPreset walks walk (nil for none), then runs the lab's seed
// preset on the wall clock as a learner would and reads its figures off
// the stat cards.
func withSeedPreset(walk func(*testing.T, labs.Lab, e2e.Lab)) func(*testing.T, labs.Lab, e2e.Lab) {
	return func(t *testing.T, lab labs.Lab, pg e2e.Lab) {
		if walk != nil {
			walk(t, lab, pg)
		}
		seed, ok := seedPresets[lab.Info().Slug]
		if !ok {
			t.Fatalf("no seed preset listed for %s", lab.Info().Slug)
		}
		t.Run("seed preset", func(t *testing.T) {
			i := slices.IndexFunc(lab.Presets(), func(p labs.Preset) bool { return p.Name == seed.preset })
			if i < 0 {
				t.Fatalf("no preset %q", seed.preset)
			}
			labtest.ApplyPreset(t, pg, i, lab.Presets()[i], "rttMs", "tenantRate")
			guesses := []string{"1000"}
			if lab.Info().Second.Prediction != "" {
				guesses = append(guesses, "100") // the lab asks two numbers
			}
			pg.Guess(t, guesses[0], guesses[1:]...)
			start := time.Now()
			pg.Run(t, 2*time.Minute)
			pg.NoError(t)
			for _, f := range seed.figures {
				got, unit := labtest.ShownStat(t, pg, f.stat)
				if unit == "s" {
					got *= 1000
				}
				t.Logf("%s: %s = %v (the lesson's %v)", seed.preset, f.stat, got, f.want)
				if got < 0.85*f.want || got > 1.15*f.want {
					t.Errorf("%s shows %v %s, want the lesson's %v within 15%%", f.stat, got, unit, f.want)
				}
			}
			t.Logf("seed preset ran in %v", time.Since(start).Round(time.Millisecond))
			e2e.Screenshot(t, pg.Tab, lab.Info().Slug+"-seed-preset")
		})
	}
}

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

// fastBatching is the batching lab on a pool of its own, on the sped-up
// clock; the pool closes when t ends.
func fastBatching(t *testing.T) *batching.Lab {
	clk := &fastClock{start: time.Now(), speed: 10}
	pool := labs.NewEngines(labs.EnginesConfig{Clock: clk})
	t.Cleanup(func() { pool.Close() })
	return labtest.Must[*batching.Lab](t)(batching.New(batching.Config{Engines: pool, Clock: clk}))
}

// walkBatching runs every preset of the batching lab: the live presets'
// timeline, batch, KV, throughput and ITL charts fill in while the run
// goes and end with a row per request and the stats; the sweep fills its
// three charts and the results table; the prediction shows on the p95
// TTFT card.
func walkBatching(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	for i, p := range lab.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			pg.ClickPreset(t, i)
			e2e.WaitFor(t, b, "preset applied", fmt.Sprintf(`document.querySelector("#lab-batching-k-mode").value === %q`, p.Values["mode"].(string)), 5*time.Second)
			pg.Guess(t, "500", "1000") // p95 TTFT and output throughput
			pg.WatchChanges(t, "charts")
			// Run forgets the previous run's end, so "done" is this run's.
			pg.Run(t, 60*time.Second)
			if n := pg.Changes(t); n < 3 {
				t.Errorf("charts changed %d times during the run, want them to fill in", n)
			}
			if p.Values["mode"].(string) == "sweep" {
				for _, id := range []string{"sweep-throughput", "sweep-ttft", "sweep-goodput"} {
					if n := e2e.Eval[int](t, b, fmt.Sprintf(`document.querySelectorAll("#lab-batching-%s path").length`, id)); n < 3 {
						t.Errorf("sweep chart %s draws %d paths", id, n)
					}
				}
				// A header and 16 rates for each of the three policies.
				if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-batching-tables tr").length`); n != 1+3*16 {
					t.Errorf("sweep table has %d rows, want a header and 48", n)
				}
				e2e.Screenshot(t, b, fmt.Sprintf("batching-preset-%d", i))
				return
			}
			want := int(p.Values["requests"].(float64))
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-batching-timeline .ch-data rect").length`); n < want {
				t.Errorf("timeline draws %d spans for %d requests", n, want)
			}
			for _, id := range []string{"batch", "kv-cache", "throughput", "itl"} {
				if !e2e.Eval[bool](t, b, fmt.Sprintf(`!!document.getElementById("lab-batching-%s")`, id)) {
					t.Errorf("chart %s missing", id)
				}
			}
			card := e2e.Eval[string](t, b, `document.querySelector("#lab-batching-stats .stat.has-guess").textContent`)
			if !strings.Contains(card, "TTFT p95") || !strings.Contains(card, "You predicted") {
				t.Errorf("prediction card = %q", card)
			}
			if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-batching-stats .stat.has-guess").length`); n != 2 {
				t.Errorf("%d cards show a prediction, want both typed guesses (p95 TTFT, throughput)", n)
			}
			e2e.Screenshot(t, b, fmt.Sprintf("batching-preset-%d", i))
		})
	}
}

// walkPrefillDecode is a learner's first visit to the prefill-vs-decode
// lab: guess the time to first token, run the default prompt, watch the
// five charts arrive with data and the guess sit on the TTFT card; then ask
// for FP8 on an A100, which has no FP8 tensor cores, and see the message
// under the precision knob with no run started.
func walkPrefillDecode(t *testing.T, _ labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	page := e2e.Eval[string](t, b, `location.href`)
	t.Run("default run", func(t *testing.T) {
		start := time.Now()
		pg.Guess(t, "300")
		pg.WatchChanges(t, "charts")
		pg.Run(t, 2*time.Minute)
		if n := pg.Changes(t); n < 3 {
			t.Errorf("the charts changed %d times during the run, want them to fill in", n)
		}
		for _, id := range []string{"ttft-vs-prompt", "decode-vs-output", "roofline", "prompt-parts", "prefix-caching"} {
			// Drawn content: a line with points, a dot or a bar with area.
			n := e2e.Eval[int](t, b, fmt.Sprintf(`(() => { const svg = document.getElementById("lab-prefill-decode-%s"); if (!svg) return -1;
				return [...svg.querySelectorAll(".ch-data path, .ch-data circle, .ch-data rect")].filter(e =>
					e.tagName === "path" ? (e.getAttribute("d") || "").length > 4 :
					e.tagName === "circle" ? +e.getAttribute("r") > 0 : +e.getAttribute("width") > 0 && +e.getAttribute("height") > 0).length })()`, id))
			switch {
			case n < 0:
				t.Errorf("chart %s missing", id)
			case n == 0:
				t.Errorf("chart %s is drawn empty", id)
			}
		}
		card := e2e.Eval[string](t, b, `(document.querySelector('#lab-prefill-decode-stats [data-stat="ttft_ms"]') || {textContent: ""}).textContent`)
		if !strings.Contains(card, "Time to first token") || !strings.Contains(card, "You predicted") || !strings.Contains(card, "300") {
			t.Errorf("TTFT card = %q, want the measurement and the 300 ms prediction", card)
		}
		status := e2e.Eval[string](t, b, `document.querySelector("#lab-prefill-decode-status").textContent`)
		if !strings.Contains(status, "first token") {
			t.Errorf("final status %q does not report the first token", status)
		}
		t.Logf("default run took %v: %s", time.Since(start).Round(time.Millisecond), strings.Join(strings.Fields(status), " "))
		e2e.Screenshot(t, b, "prefill-decode-default")
	})
	t.Run("fp8 on an A100", func(t *testing.T) {
		pg.Open(t, "reload", page)
		runs := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-prefill-decode-runs thead th").length`)
		e2e.Do(t, b, "pick the GPU and FP8", 5*time.Second,
			e2e.SetInput("lab-prefill-decode-k-gpu", "a100-80g"),
			e2e.SetInput("lab-prefill-decode-k-precision", string(engine.FP8)))
		pg.ClickRun(t)
		e2e.WaitFor(t, b, "the knob's error", `document.querySelector("#lab-prefill-decode-err-precision").textContent.trim() !== ""`, 30*time.Second)
		msg := e2e.Eval[string](t, b, `document.querySelector("#lab-prefill-decode-err-precision").textContent`)
		if !strings.Contains(msg, "FP8") || !strings.Contains(msg, "a100-80g") {
			t.Errorf("precision error %q does not say the A100 lacks FP8", msg)
		}
		if !e2e.Eval[bool](t, b, `document.querySelector("#lab-prefill-decode-status").classList.contains("status-failed")`) {
			t.Errorf("status %q, want the refusal", e2e.Eval[string](t, b, `document.querySelector("#lab-prefill-decode-status").className`))
		}
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-prefill-decode-stats .stat, #lab-prefill-decode-charts svg").length`); n != 0 {
			t.Errorf("a refused run drew %d stats and charts", n)
		}
		e2e.Screenshot(t, b, "prefill-decode-fp8-refused")
		pg.Open(t, "reload", page)
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-prefill-decode-runs thead th").length`); n != runs {
			t.Errorf("run list has %d header cells after the refused run, %d before: a run was saved", n, runs)
		}
	})
}

// walkModeration runs the three moderation presets a learner compares
// first, on the wall clock: streaming first lets unsafe tokens reach the
// screen, holding the answer (whole or by window) lets none through and no
// e-mail address shows; the generated-vs-delivered chart draws both fronts.
func walkModeration(t *testing.T, lab labs.Lab, pg e2e.Lab) {
	b := pg.Tab
	play := labtest.Play{Knobs: []string{"policy"}, Guess: "3", Guess2: "400", Changes: 3, Timeout: 2 * time.Minute,
		Until: `!!document.querySelector('#lab-moderation-stats [data-stat="total_ms"]')`}
	// Record whether the reader's text ever showed an e-mail address,
	// not just at the end: a leak is later replaced.
	play.Before = func(t *testing.T) {
		e2e.Eval[bool](t, b, `(() => { window.__sawAt = false;
			new MutationObserver(() => { const el = document.querySelector("#lab-moderation-text .text-body");
				if (el && el.textContent.includes("@")) window.__sawAt = true })
				.observe(document.getElementById("lab-moderation"), {subtree: true, childList: true, characterData: true}); return true })()`)
	}
	play.Check = func(t *testing.T, i int, p labs.Preset) {
		policy := p.Values["policy"].(string)
		leaked, _ := labtest.ShownStat(t, pg, "leaked_tokens")
		shown := e2e.Eval[string](t, b, `(document.querySelector("#lab-moderation-text .text-body") || {textContent: ""}).textContent`)
		sawAt := e2e.Eval[bool](t, b, `window.__sawAt`)
		if i == 0 {
			if leaked <= 0 {
				t.Errorf("stream-then-moderate: %v unsafe tokens shown, want some to leak before the check catches up", leaked)
			}
			if !sawAt {
				t.Errorf("stream-then-moderate: the e-mail address never appeared in the reader's text")
			}
		} else {
			if leaked != 0 {
				t.Errorf("%s: %v unsafe tokens shown, want 0", policy, leaked)
			}
			if sawAt || strings.Contains(shown, "@") {
				t.Errorf("%s: the reader's text showed an e-mail address (now %q)", policy, shown)
			}
		}
		if strings.TrimSpace(shown) == "" {
			t.Errorf("%s: the reader saw no text at all", policy)
		}
		paths := e2e.Eval[int](t, b, `[...document.querySelectorAll("#lab-moderation-fronts .ch-data path")].filter(p => (p.getAttribute("d") || "").length > 4).length`)
		if paths < 2 {
			t.Errorf("generated-vs-delivered chart draws %d paths, want both fronts", paths)
		}
		card := e2e.Eval[string](t, b, `(document.querySelector("#lab-moderation-stats .stat.has-guess") || {textContent: ""}).textContent`)
		if !strings.Contains(card, "You predicted") {
			t.Errorf("prediction card = %q", card)
		}
		if n := e2e.Eval[int](t, b, `document.querySelectorAll("#lab-moderation-stats .stat.has-guess").length`); n != 2 {
			t.Errorf("%d cards show a prediction, want both typed guesses (unsafe tokens, first word)", n)
		}
		t.Logf("%s: %v unsafe tokens shown", policy, leaked)
	}
	labtest.PlayPresets(t, lab, pg, play, 0, 1, 2)
}
