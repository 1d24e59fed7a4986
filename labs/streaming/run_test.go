package streaming

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// newTestLab returns a lab on a fresh pool (see labtest.OnFreshPool).
func newTestLab(t *testing.T) (*Lab, *labs.Engines) { return labtest.OnFreshPool(t, New, "test") }

// modelled runs the request the lab's first run builds on the virtual
// clock, for exact comparison with what the handler measured.
func modelled(t *testing.T, s settings) engine.RequestResult {
	t.Helper()
	p, err := buildPrompt(s.promptTokens, "Session streaming-test-1")
	if err != nil {
		t.Fatal(err)
	}
	ans := composeAnswer(p, s.answerTokens)
	req := engine.Request{ID: "m", PromptTokens: p.ids, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}
	res, err := engine.Simulate(s.engine, []engine.Request{req}, engine.SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Requests[0]
}

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		changes labs.Values
	}{
		{"streaming on an H100", labs.Values{}},
		{"blocking on an H100", labs.Values{knobStreaming: false}},
		{"streaming, short answer, tiny prompt on an L4", labs.Values{knobAnswer: 50.0, knobPrompt: 50.0, knobGPU: "l4"}},
		{"blocking, huge prompt, small model", labs.Values{knobStreaming: false, knobPrompt: 8000.0, knobModel: "llama-3.2-1b"}},
		{"streaming, long answer on an A10G, slow reader", labs.Values{knobAnswer: 1000.0, knobGPU: "a10g", knobReading: 3.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				v := labtest.Values(tc.changes)
				s, err := parse(t, v)
				if err != nil {
					t.Fatal(err)
				}
				want := modelled(t, s)

				var frames []labs.Frame
				if err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
					t.Fatal(err)
				}
				checkFrames(t, s, frames, want)
			})
		})
	}
}

// checkFrames checks a whole run against the request's modelled timing.
func checkFrames(t *testing.T, s settings, frames []labs.Frame, want engine.RequestResult) {
	t.Helper()
	n := s.answerTokens
	// One frame when the request is sent, one per token, one at the end.
	if len(frames) != n+2 {
		t.Fatalf("%d frames, want %d", len(frames), n+2)
	}
	for i, f := range frames[:len(frames)-1] {
		if f.Final || f.Error != "" {
			t.Fatalf("frame %d: Final %v, Error %q before the end", i, f.Final, f.Error)
		}
	}
	final := frames[len(frames)-1]
	if !final.Final || final.Error != "" {
		t.Fatalf("last frame: Final %v, Error %q", final.Final, final.Error)
	}
	st := labtest.StatMap(t, final)
	for _, k := range []string{statFirstWord, statTTFT, statTPOT, statTotal, statTokens, statTokPerS, statReading} {
		if _, ok := st[k]; !ok {
			t.Errorf("final frame lacks stat %q", k)
		}
	}
	if _, ok := st[info().PredictionStat]; !ok {
		t.Error("final frame lacks the prediction stat")
	}

	// Handler times equal the modelled times: the synctest bubble lets the
	// handler read the time exactly when each event is delivered.
	if got, w := st[statTTFT], labs.Millis(want.TTFT()); !labtest.Near(got, w) {
		t.Errorf("ttft %v ms, modelled %v ms", got, w)
	}
	if got, w := st[statTotal], labs.Millis(want.E2E()); !labtest.Near(got, w) {
		t.Errorf("total %v ms, modelled %v ms", got, w)
	}
	if int(st[statTokens]) != n || want.Usage.CompletionTokens != n {
		t.Errorf("tokens %v (modelled %d), want %d", st[statTokens], want.Usage.CompletionTokens, n)
	}
	tpot := (st[statTotal] - st[statTTFT]) / float64(n-1)
	if !labtest.Near(st[statTPOT], tpot) || !(tpot > 0) {
		t.Errorf("tpot %v, want (total − ttft)/(tokens − 1) = %v", st[statTPOT], tpot)
	}
	if !labtest.Near(st[statTokPerS], 1000/tpot) {
		t.Errorf("tokens/s %v, want %v", st[statTokPerS], 1000/tpot)
	}
	words := countWords(final.Text.Body)
	if !labtest.Near(st[statReading], float64(words)/s.readingSpeed*1000) {
		t.Errorf("reading %v ms for %d words at %v words/s", st[statReading], words, s.readingSpeed)
	}
	if words < n/2 {
		t.Errorf("final text has %d words for %d tokens", words, n)
	}

	// What the learner saw, frame by frame.
	changes := 0
	prev := ""
	for i, f := range frames {
		body := f.Text.Body
		if !strings.HasPrefix(body, prev) {
			t.Fatalf("frame %d: text %q does not extend %q", i, tail(body), tail(prev))
		}
		if body != prev {
			changes++
		}
		prev = body
	}
	if s.streaming {
		if changes < n/2 {
			t.Errorf("streaming: text grew %d times over %d tokens", changes, n)
		}
		if st[statFirstWord] != st[statTTFT] {
			t.Errorf("streaming: first word %v ms, first token %v ms", st[statFirstWord], st[statTTFT])
		}
	} else {
		if changes != 1 {
			t.Errorf("blocking: text changed %d times, want once", changes)
		}
		if st[statFirstWord] != st[statTotal] {
			t.Errorf("blocking: first word %v ms, total %v ms", st[statFirstWord], st[statTotal])
		}
	}
	checkMarks(t, final, st)
	checkChart(t, s, frames, words)
}

func checkMarks(t *testing.T, final labs.Frame, st map[string]float64) {
	t.Helper()
	want := []labs.Mark{{Label: markSent, At: 0}, {Label: markFirstWord, At: st[statFirstWord]}, {Label: markComplete, At: st[statTotal]}}
	got := final.Text.Marks
	if len(got) != len(want) {
		t.Fatalf("text marks %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Label != want[i].Label || !labtest.Near(got[i].At, want[i].At) {
			t.Errorf("text mark %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func checkChart(t *testing.T, s settings, frames []labs.Frame, words int) {
	t.Helper()
	xmax := frames[0].Charts[0].XMax
	if !(xmax > 0) {
		t.Fatalf("first frame XMax %v, want a fixed axis", xmax)
	}
	for i, f := range frames {
		if len(f.Charts) != 1 || f.Charts[0].ID != chartID {
			t.Fatalf("frame %d: charts %v", i, f.Charts)
		}
		c := f.Charts[0]
		if c.XMax != xmax {
			t.Errorf("frame %d: XMax changed from %v to %v on an idle engine", i, xmax, c.XMax)
		}
		pts := c.Series[0].Points
		for j := 1; j < len(pts); j++ {
			if pts[j].X < pts[j-1].X || pts[j].Y < pts[j-1].Y {
				t.Fatalf("frame %d: words line goes back at point %d: %v then %v", i, j, pts[j-1], pts[j])
			}
		}
	}
	c := frames[len(frames)-1].Charts[0]
	st := labtest.StatMap(t, frames[len(frames)-1])
	pts := c.Series[0].Points
	if last := pts[len(pts)-1]; !labtest.Near(last.X, st[statTotal]) || int(last.Y) != words {
		t.Errorf("words line ends at %v, want (%v ms, %d words)", last, st[statTotal], words)
	}
	if st[statTotal] > xmax {
		t.Errorf("run took %v ms, beyond the estimated axis %v ms", st[statTotal], xmax)
	}
	if len(c.Series) != 2 || c.Series[1].Name != seriesReading || !c.Series[1].Dashed {
		t.Fatalf("final chart series %+v, want words and a dashed reading line", c.Series)
	}
	r := c.Series[1].Points
	if r[0].X != st[statFirstWord] || r[0].Y != 0 {
		t.Errorf("reading line starts at %v, want the first word (%v ms)", r[0], st[statFirstWord])
	}
	if slope := (r[1].Y - r[0].Y) / (r[1].X - r[0].X) * 1000; r[1].X > r[0].X && !labtest.Near(slope, s.readingSpeed) {
		t.Errorf("reading line slope %v words/s, want %v", slope, s.readingSpeed)
	}
	if len(c.Marks) != 2 || c.Marks[0].Label != markFirstWord || c.Marks[1].Label != markComplete {
		t.Errorf("chart marks %v, want first word and complete", c.Marks)
	}
}

func tail(s string) string {
	if len(s) > 40 {
		return "…" + s[len(s)-40:]
	}
	return s
}

func TestRunCancel(t *testing.T) {
	for _, streaming := range []bool{true, false} {
		t.Run(map[bool]string{true: "streaming", false: "blocking"}[streaming], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, pool := newTestLab(t)
				v := labtest.Values(labs.Values{knobStreaming: streaming, knobAnswer: 1000.0})
				s, _ := parse(t, v)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var returned atomic.Bool
				var late atomic.Int32
				const stopAt = 20
				emit := func(f labs.Frame) {
					if returned.Load() {
						late.Add(1)
					}
					if st := labtest.StatMap(t, f); st[statTokens] == stopAt {
						cancel()
					}
				}
				err := l.Run(ctx, v, emit)
				returned.Store(true)
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Run returned %v, want context.Canceled", err)
				}

				// Let the engine step on at a slow trickle (the handler no
				// longer reads the clock): the abort must reach it, free the
				// request's KV blocks and stop its generation.
				es := waitIdle(t, pool, s, 1)
				if es.GenerationTokens >= int64(s.answerTokens) || es.GenerationTokens < stopAt {
					t.Errorf("engine generated %d tokens, want between %d and %d (stopped early)", es.GenerationTokens, stopAt, s.answerTokens)
				}
				if es.FinishedRequests != 1 { // the aborted request, ended early
					t.Errorf("%d requests ended, want 1", es.FinishedRequests)
				}
				if late.Load() != 0 {
					t.Errorf("%d frames emitted after Run returned", late.Load())
				}
			})
		})
	}
}

func TestRunRefusesBadSettings(t *testing.T) {
	tests := []struct {
		name    string
		changes labs.Values
		want    []string // substrings of the error message
	}{
		{"answer too short", labs.Values{knobAnswer: 49.0}, []string{"Answer length", "50", "1,000"}},
		{"answer too long", labs.Values{knobAnswer: 1001.0}, []string{"Answer length"}},
		{"prompt too long", labs.Values{knobPrompt: 9000.0}, []string{"Prompt length", "8,000"}},
		{"reading too slow", labs.Values{knobReading: 2.0}, []string{"Reading speed"}},
		{"unknown GPU", labs.Values{knobGPU: "tpu-v5"}, []string{"GPU"}},
		{"not a number", labs.Values{knobAnswer: "lots"}, []string{"number"}},
		// Only an MI300X holds the 70B model in BF16: on an H200 the lab
		// says which GPU would.
		{"70b on an H200", labs.Values{knobModel: "llama-3.1-70b", knobGPU: "h200"},
			[]string{"llama-3.1-70b", "h200", "mi300x"}},
		{"8b does not fit an A10G", labs.Values{knobModel: "llama-3.1-8b", knobGPU: "a10g"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, pool := newTestLab(t)
				v := labtest.Values(tc.changes)
				_, perr := parse(t, v)
				var frames []labs.Frame
				err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) })
				if err != nil {
					t.Fatalf("Run returned %v; a settings problem must end in a final frame, not an error", err)
				}
				if tc.want == nil { // a case that may fit: check consistency only
					if perr == nil && (len(frames) == 0 || frames[len(frames)-1].Error != "") {
						t.Fatalf("settings accepted by parse but the run failed")
					}
					return
				}
				if len(frames) != 1 || !frames[0].Final || frames[0].Error == "" {
					t.Fatalf("frames %+v, want one final frame with an error", frames)
				}
				for _, w := range tc.want {
					if !strings.Contains(frames[0].Error, w) {
						t.Errorf("error %q does not mention %q", frames[0].Error, w)
					}
				}
				if pool.Len() != 0 {
					t.Errorf("a refused run started %d engines", pool.Len())
				}
			})
		})
	}
}

func TestCheck(t *testing.T) {
	l, _ := newTestLab(t)
	if errs := labtest.FieldErrors(l, labtest.Values(nil)); errs != nil {
		t.Fatalf("defaults: %v", errs)
	}
	errs := labtest.FieldErrors(l, labtest.Values(labs.Values{knobModel: "llama-3.1-70b", knobGPU: "h200"}))
	if len(errs) != 1 || errs[0].Knob != knobGPU || !strings.Contains(errs[0].Error(), "mi300x") {
		t.Fatalf("70b on h200: %v, want one error on the GPU knob naming the GPU that holds it", errs)
	}
	errs = labtest.FieldErrors(l, labtest.Values(labs.Values{knobModel: "qwen2.5-7b", knobGPU: "nope"}))
	if len(errs) != 1 || errs[0].Knob != knobGPU {
		t.Errorf("unknown GPU: %v", errs)
	}
}

func TestRepeatRunsMissThePrefixCache(t *testing.T) {
	// Runs share an engine with prefix caching on; each prompt opens with
	// its own session line, so a repeat run is as slow as the first.
	synctest.Test(t, func(t *testing.T) {
		l, pool := newTestLab(t)
		v := labtest.Values(nil)
		var ttft []float64
		for range 2 {
			var final labs.Frame
			if err := l.Run(context.Background(), v, func(f labs.Frame) { final = f }); err != nil {
				t.Fatal(err)
			}
			ttft = append(ttft, labtest.StatMap(t, final)[statTTFT])
		}
		if ttft[0] != ttft[1] {
			t.Errorf("ttft %v ms then %v ms, want the same", ttft[0], ttft[1])
		}
		s, _ := parse(t, v)
		le, err := pool.Get(s.profile)
		if err != nil {
			t.Fatal(err)
		}
		if es := le.Stats(); es.PrefixCacheHits != 0 || es.FinishedRequests != 2 {
			t.Errorf("engine stats %+v, want 2 requests and no prefix cache hits", es)
		}
	})
}

func TestRunWithoutPool(t *testing.T) {
	_, err := New(Config{})
	if err == nil {
		t.Fatal("a lab without an engine pool was built")
	}
}

// TestWaitRefreshesWhileThePromptIsRead: while a long prompt is read
// nothing arrives, yet the panels refresh on the lab's ticker, which runs
// on the pool's clock (virtual in the bubble).
func TestWaitRefreshesWhileThePromptIsRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		l, err := New(Config{Engines: pool, Tick: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}

		waits := 0
		var frames []labs.Frame
		emit := func(f labs.Frame) {
			frames = append(frames, f)
			if strings.HasPrefix(f.Status, "Waiting for the first token") {
				waits++
				if pts := f.Charts[0].Series[0].Points; pts[len(pts)-1].X <= 0 {
					t.Errorf("waiting frame's words line does not reach the present: %v", pts)
				}
			}
		}
		if err := l.Run(context.Background(), labtest.Values(labs.Values{knobAnswer: 50.0, knobPrompt: 8000.0}), emit); err != nil {
			t.Fatal(err)
		}
		if waits < 3 {
			t.Fatalf("%d waiting frames, want at least 3", waits)
		}
		if !frames[len(frames)-1].Final || labtest.StatMap(t, frames[len(frames)-1])[statTokens] != 50 {
			t.Errorf("run did not complete after the wait: %+v", frames[len(frames)-1].Status)
		}
	})
}

// waitIdle lets the engine step on at a slow trickle after a stopped run
// (the handler no longer reads the clock) until the aborts have reached it:
// nothing runs or waits, no KV block is held and finished requests have
// ended. It fails t after five seconds of bubble time.
func waitIdle(t *testing.T, pool *labs.Engines, s settings, finished int64) engine.Stats {
	t.Helper()
	le, err := pool.Get(s.profile)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		es := le.Stats()
		if es.Running == 0 && es.Waiting == 0 && es.KVUsage == 0 && es.FinishedRequests >= finished {
			return es
		}
		if time.Now().After(deadline) {
			t.Fatalf("engine still busy after cancel: %+v", es)
		}
		time.Sleep(time.Millisecond)
	}
}
