package streaming

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// runSide runs the lab with vals in a synctest bubble on a fresh pool.
func runSide(t *testing.T, vals labs.Values) []labs.Frame {
	t.Helper()
	return labtest.RunInBubble(t, func(pool *labs.Engines) labs.Lab {
		return mustNew(t, Config{Engines: pool, Tick: -1})
	}, vals, nil)
}

// modelledPair runs the side-by-side requests for s together on the
// virtual clock: the same prompt and answer lengths, so the same timing.
func modelledPair(t *testing.T, s settings) [2]engine.RequestResult {
	t.Helper()
	var reqs []engine.Request
	for i, n := range []int{s.answerTokens, blockedTokens(s.answerTokens)} {
		p, err := buildPrompt(s.promptTokens, "Session model "+[]string{"streamed", "blocked"}[i])
		if err != nil {
			t.Fatal(err)
		}
		ans := composeAnswer(p, n)
		reqs = append(reqs, engine.Request{ID: string(rune('a' + i)), PromptTokens: p.ids, OutputTokens: ans.Tokens, MaxTokens: n})
	}
	res, err := engine.Simulate(s.engine, reqs, engine.SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return [2]engine.RequestResult{res.Requests[0], res.Requests[1]}
}

// Both answers run on the engine at once and every figure is the GPU's:
// the streamed answer's first word comes long before the blocked one's,
// which appears whole at its end, although the streamed one ends later.
func TestSideBySide(t *testing.T) {
	tests := []struct {
		name string
		vals labs.Values
	}{
		{"as fast as the GPU goes", labs.Values{knobSide: true}},
		{"held to 80 tok/s", labs.Values{knobSide: true, knobSpeedCap: 80.0}},
		{"long answers on an L4", labs.Values{knobSide: true, knobAnswer: 400.0, knobGPU: "l4", knobStreaming: false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vals := labtest.Values(tc.vals)
			s, err := parse(t, vals)
			if err != nil {
				t.Fatal(err)
			}
			want := modelledPair(t, s)
			frames := runSide(t, vals)
			final := frames[len(frames)-1]
			if final.Error != "" {
				t.Fatalf("run failed: %s", final.Error)
			}
			st := labtest.StatMap(t, final)
			pace := func(i int) float64 { // the cap's pace after the first token, in ms
				n := float64([]int{s.answerTokens, blockedTokens(s.answerTokens)}[i] - 1)
				return labs.Millis(want[i].TTFT()) + n*1000/float64(max(s.speedCap, 1))
			}
			ends := [2]float64{labs.Millis(want[0].E2E()), labs.Millis(want[1].E2E())}
			if s.speedCap > 0 {
				ends = [2]float64{max(ends[0], pace(0)), max(ends[1], pace(1))}
			}
			if got := st[statStreamedComplete]; !labtest.Near(got, ends[0]) {
				t.Errorf("streamed complete %v ms, modelled %v ms", got, ends[0])
			}
			if got := st[statBlockedComplete]; !labtest.Near(got, ends[1]) {
				t.Errorf("blocked complete %v ms, modelled %v ms", got, ends[1])
			}
			if st[statBlockedFirstWord] != st[statBlockedComplete] {
				t.Errorf("blocked first word %v ms before its answer was complete (%v ms)", st[statBlockedFirstWord], st[statBlockedComplete])
			}
			if fw, ttft := st[statFirstWord], labs.Millis(want[0].TTFT()); fw < ttft-1e-6 || fw > ttft+labs.Millis(50*time.Millisecond) {
				t.Errorf("streamed first word %v ms, its first token at %v ms", fw, ttft)
			}
			if !(st[statFirstWord] < st[statBlockedFirstWord] && st[statStreamedComplete] > st[statBlockedComplete]) {
				t.Errorf("streamed: first word %v, complete %v; blocked: %v, %v; want the streamed one readable first and done last",
					st[statFirstWord], st[statStreamedComplete], st[statBlockedFirstWord], st[statBlockedComplete])
			}
			if got, w := st[statHeadStart], st[statBlockedFirstWord]-st[statFirstWord]; !labtest.Near(got, w) {
				t.Errorf("head start %v ms, want %v", got, w)
			}
			for _, key := range []string{statFirstWord, statStreamedComplete, statBlockedFirstWord, statBlockedComplete, statHeadStart} {
				labtest.CheckFormula(t, labtest.StatOf(t, final, key), 0.005) // exact splits of the run's own times
			}
			c := labtest.Chart(t, final, chartID)
			if len(c.Series) != 3 || c.Series[0].Name != seriesStreamed || c.Series[1].Name != seriesBlocked {
				t.Fatalf("chart series %+v, want streamed, blocked and reading speed", c.Series)
			}
			for _, p := range c.Series[1].Points {
				if p.Y > 0 && p.X < st[statBlockedComplete] {
					t.Errorf("blocked answer shows %v words at %v ms, before it was complete", p.Y, p.X)
				}
			}
			labtest.CheckUnits(t, tc.name, final)
		})
	}
}

// The preset's note states figures; this holds them: a first word after
// about a quarter of a second, the streamed answer done at about 4 s, the
// blocked one shown at about 2.1 s, almost 2 s before the streamed one
// ends.
func TestSideBySidePreset(t *testing.T) {
	l := mustNew(t, Config{Engines: labs.NewEngines(labs.EnginesConfig{})})
	var vals labs.Values
	for _, p := range l.Presets() {
		if p.Name == sideBySidePreset().Name {
			vals = p.Values
		}
	}
	if vals == nil {
		t.Fatal("no side-by-side preset")
	}
	frames := runSide(t, vals)
	st := labtest.StatMap(t, frames[len(frames)-1])
	labtest.CheckRanges(t, "ms", []labtest.Range{
		{What: "streamed first word (about a quarter of a second)", Got: st[statFirstWord], Lo: 200, Hi: 300},
		{What: "streamed complete (about 4 s)", Got: st[statStreamedComplete], Lo: 3800, Hi: 4200},
		{What: "blocked first word (about 2.1 s)", Got: st[statBlockedFirstWord], Lo: 2000, Hi: 2200},
		{What: "blocked done sooner (almost 2 s)", Got: st[statStreamedComplete] - st[statBlockedComplete], Lo: 1700, Hi: 2000},
	})
	// The streamed first token is a whole word here: the formula says so
	// rather than adding nothing to it.
	word := labtest.StatOf(t, frames[len(frames)-1], statFirstWord)
	labtest.CheckFormula(t, word, 0.005)
	if !strings.Contains(word.Why, "already held a whole word") {
		t.Errorf("the streamed first word is its first token; the formula reads: %s", word.Why)
	}
}

// Stopping a side-by-side run ends both requests on the engine at once:
// their KV blocks are freed and no frame comes after Run returns.
func TestSideBySideCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, pool := newTestLab(t)
		v := labtest.Values(labs.Values{knobSide: true, knobAnswer: 1000.0})
		s, _ := parse(t, v)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var returned atomic.Bool
		var frames, late atomic.Int32
		err := l.Run(ctx, v, func(labs.Frame) {
			if returned.Load() {
				late.Add(1)
			}
			if frames.Add(1) == 30 {
				cancel()
			}
		})
		returned.Store(true)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v, want context.Canceled", err)
		}
		if es := waitIdle(t, pool, s, 2); es.GenerationTokens >= int64(s.answerTokens) {
			t.Errorf("engine generated %d tokens after the stop, want fewer than %d", es.GenerationTokens, s.answerTokens)
		}
		if late.Load() != 0 {
			t.Errorf("%d frames emitted after Run returned", late.Load())
		}
	})
}

// Side by side honours the hosting knobs as a single request does: the
// network's legs (a fresh connection's two round trips and the upload
// before the GPU, half a round trip back) move every figure by exactly
// that much, and other tenants' traffic on the provider's engine makes
// the pair slower than alone.
func TestSideBySideHosted(t *testing.T) {
	base := labtest.Values(labs.Values{knobSide: true})
	near := runSide(t, base)
	far := runSide(t, labtest.Values(labs.Values{knobSide: true, pipelinelab.KnobRTT: 190.0, pipelinelab.KnobFresh: true}))
	busy := runSide(t, labtest.Values(labs.Values{knobSide: true, pipelinelab.KnobTenants: 9.0}))
	n, f, b := labtest.StatMap(t, near[len(near)-1]), labtest.StatMap(t, far[len(far)-1]), labtest.StatMap(t, busy[len(busy)-1])
	const network = 2*190 + 95 + 95 // ms: handshakes and upload, then the way back
	for _, key := range []string{statFirstWord, statStreamedComplete, statBlockedComplete, statBlockedFirstWord} {
		if got := f[key] - n[key]; math.Abs(got-network) > 1e-6 {
			t.Errorf("%s: %v ms 190 ms away, %v ms next door: %v ms apart, want the network's %v ms", key, f[key], n[key], got, network)
		}
	}
	if !(b[statFirstWord] > n[statFirstWord] && b[statStreamedComplete] > n[statStreamedComplete]) {
		t.Errorf("with nine other chats a second: first word %v ms, complete %v ms; alone %v, %v: want both later",
			b[statFirstWord], b[statStreamedComplete], n[statFirstWord], n[statStreamedComplete])
	}
}
