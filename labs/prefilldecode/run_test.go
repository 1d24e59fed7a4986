package prefilldecode

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// newTestLab returns a lab on a fresh pool (see labtest.OnFreshPool) whose
// run tag is as long as a real one, so the first KV block is as in
// production.
func newTestLab(t *testing.T) (*Lab, *labs.Engines) { return labtest.OnFreshPool(t, New, "0a1b2c3d") }

func mustParse(t *testing.T, v labs.Values) settings {
	t.Helper()
	s, err := parse(t, v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// modelled runs the two requests the lab's first run sends, one after the
// other on one engine on the virtual clock, for exact comparison with what
// the handler measured.
func modelled(t *testing.T, s settings) (first, second engine.RequestResult) {
	t.Helper()
	sess1, sess2 := sessions(1, "0a1b2c3d", s.caching)
	a, err := newJob(s, "a", sess1, 0, s.output)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newJob(s, "b", sess2, 1, min(s.output, secondAnswer))
	if err != nil {
		t.Fatal(err)
	}
	r1, err := simulateOne(s.engine, a.req)
	if err != nil {
		t.Fatal(err)
	}
	b.req.Arrival = r1.End
	res, err := engine.Simulate(s.engine, []engine.Request{a.req, b.req}, engine.SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Requests[0], res.Requests[1]
}

func runLab(t *testing.T, l *Lab, v labs.Values) []labs.Frame {
	t.Helper()
	var frames []labs.Frame
	if err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
		t.Fatal(err)
	}
	if len(frames) == 0 {
		t.Fatal("no frames")
	}
	return frames
}

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		changes labs.Values
	}{
		{"the 3,200-token support prompt", labs.Values{}},
		{"short chat, caching on", labs.Values{knobChunks: 0.0, knobTurns: 2.0, knobCaching: true}},
		{"plain 2,000 tokens on an L4, short answer", labs.Values{knobMode: modePlain, knobPrompt: 2000.0, knobGPU: "l4", knobOutput: 20.0}},
		{"one output token", labs.Values{knobOutput: 1.0}},
		{"small model in INT4 on an A10G", labs.Values{knobModel: "llama-3.2-1b", knobGPU: "a10g", knobPrecision: "int4", knobOutput: 50.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				v := labtest.Values(tc.changes)
				s := mustParse(t, v)
				want1, want2 := modelled(t, s)
				frames := runLab(t, l, v)
				for i, f := range frames[:len(frames)-1] {
					if f.Final || f.Error != "" {
						t.Fatalf("frame %d: Final %v, Error %q before the end", i, f.Final, f.Error)
					}
				}
				final := frames[len(frames)-1]
				if !final.Final || final.Error != "" {
					t.Fatalf("last frame: Final %v, Error %q (%s)", final.Final, final.Error, final.Status)
				}
				st := labtest.StatMap(t, final)
				keys := []string{statTTFT, statDecode, statPrompt, statPrefillI, statRidge,
					statCached, statSecondTTFT, statPer1kPrompt, statPerOutputTok}
				if s.output > 1 {
					keys = append(keys, statTPOT, statDecodeI)
				} else if _, ok := st[statDecodeI]; ok {
					t.Error("a one-token answer has no decode step, yet decode intensity is reported")
				}
				for _, k := range keys {
					if _, ok := st[k]; !ok {
						t.Errorf("final frame lacks stat %q", k)
					}
				}
				// The handler's times equal the modelled times exactly: the
				// synctest bubble lets it read the time as each token arrives.
				if got, w := st[statTTFT], labs.Millis(want1.TTFT()); !labtest.Near(got, w) {
					t.Errorf("ttft %v ms, modelled %v ms", got, w)
				}
				if got, w := st[statDecode], labs.Millis(want1.E2E()-want1.TTFT()); !labtest.Near(got, w) {
					t.Errorf("decode %v ms, modelled %v ms", got, w)
				}
				if s.output > 1 {
					if got, w := st[statTPOT], st[statDecode]/float64(s.output-1); math.Abs(got-w) > 1e-3 {
						t.Errorf("tpot %v ms, want decode ÷ (n − 1) = %v", got, w)
					}
				}
				if got, w := st[statSecondTTFT], labs.Millis(want2.TTFT()); !labtest.Near(got, w) {
					t.Errorf("second ttft %v ms, modelled %v ms", got, w)
				}
				if int(st[statCached]) != want2.Usage.CachedTokens {
					t.Errorf("cached %v, modelled %d", st[statCached], want2.Usage.CachedTokens)
				}
				if int(st[statPrompt]) != want1.Usage.PromptTokens {
					t.Errorf("prompt %v tokens, engine counted %d", st[statPrompt], want1.Usage.PromptTokens)
				}
				checkCharts(t, final, st)
			})
		})
	}
}

// checkCharts checks that the final frame's charts carry the run's figures.
func checkCharts(t *testing.T, final labs.Frame, st map[string]float64) {
	t.Helper()
	byID := map[string]labs.Chart{}
	for _, c := range final.Charts {
		byID[c.ID] = c
	}
	for _, id := range []string{chartPrompt, chartTTFT, chartDecode, chartRoofline, chartCaching} {
		if _, ok := byID[id]; !ok {
			t.Errorf("final frame lacks chart %q", id)
		}
	}
	series := func(c labs.Chart, name string) labs.Series {
		for _, s := range c.Series {
			if s.Name == name {
				return s
			}
		}
		t.Errorf("chart %s lacks series %q", c.ID, name)
		return labs.Series{Points: []labs.Point{{}}}
	}
	you := series(byID[chartTTFT], seriesYours).Points[0]
	if you.X != st[statPrompt] || you.Y != st[statTTFT] {
		t.Errorf("your point on the TTFT chart %+v, stats say (%v, %v)", you, st[statPrompt], st[statTTFT])
	}
	if fit := series(byID[chartTTFT], seriesFit); !fit.Dashed || len(fit.Points) != 2 {
		t.Errorf("TTFT fit %+v", fit)
	}
	if sweep := series(byID[chartTTFT], seriesSweep); len(sweep.Points) != sweepPoints {
		t.Errorf("TTFT sweep has %d points", len(sweep.Points))
	}
	if you := series(byID[chartDecode], seriesYours).Points[0]; you.Y != st[statDecode] {
		t.Errorf("your point on the decode chart %+v, decode %v", you, st[statDecode])
	}
	roof := byID[chartRoofline]
	if !roof.LogX || len(roof.Marks) == 0 || roof.Marks[0].Label != "ridge" || !labtest.Near(roof.Marks[0].At, st[statRidge]) {
		t.Errorf("roofline: LogX %v marks %+v, ridge %v", roof.LogX, roof.Marks, st[statRidge])
	}
	if p := series(roof, seriesPrefill).Points[0]; !labtest.Near(p.X, st[statPrefillI]) {
		t.Errorf("prefill point at %v, intensity %v", p.X, st[statPrefillI])
	}
	names := []string{seriesPrefill}
	if _, ok := st[statDecodeI]; ok {
		names = append(names, seriesDecode)
		if p := series(roof, seriesDecode).Points[0]; !labtest.Near(p.X, st[statDecodeI]) {
			t.Errorf("decode point at %v, intensity %v", p.X, st[statDecodeI])
		}
	}
	// No point sits above the roof.
	for _, name := range names {
		p := series(roof, name).Points[0]
		w := roofAt(series(roof, seriesRoof).Points, p.X)
		if p.Y > w*(1+1e-9) {
			t.Errorf("%s at %v TFLOP/s, above the roof's %v", name, p.Y, w)
		}
	}
	parts := byID[chartPrompt].Bars[0]
	sum := 0.0
	for _, s := range parts.Segments {
		sum += s.Value
	}
	if sum != st[statPrompt] {
		t.Errorf("prompt parts sum to %v, prompt is %v", sum, st[statPrompt])
	}
	if len(final.Tables) != 1 || len(final.Tables[0].Rows) != 2 {
		t.Errorf("caching table %+v", final.Tables)
	}
}

// roofAt interpolates the roof's drawn points (log X) at x.
func roofAt(ps []labs.Point, x float64) float64 {
	for i := 1; i < len(ps); i++ {
		if ps[i].X >= x {
			a, b := ps[i-1], ps[i]
			f := (math.Log(x) - math.Log(a.X)) / (math.Log(b.X) - math.Log(a.X))
			return a.Y + f*(b.Y-a.Y)
		}
	}
	return ps[len(ps)-1].Y
}

// TestPrefixCachingLowersSecondTTFT runs the caching preset twice, with
// caching on and off: on, the second customer reuses the cached system
// prompt (the engine reports those tokens as cached) and gets its first
// token sooner than with caching off, where nothing is reused.
func TestPrefixCachingLowersSecondTTFT(t *testing.T) {
	preset := labtest.Inert(t, define).Presets()[5]
	if !strings.HasPrefix(preset.Name, "Prefix caching") {
		t.Fatalf("preset 5 is %q", preset.Name)
	}
	got := map[bool]map[string]float64{}
	for _, on := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			l, _ := newTestLab(t)
			v := labtest.Values(preset.Values)
			v[knobCaching] = on
			frames := runLab(t, l, v)
			final := frames[len(frames)-1]
			if final.Error != "" {
				t.Fatal(final.Error)
			}
			got[on] = labtest.StatMap(t, final)
		})
	}
	on, off := got[true], got[false]
	system := 2000.0
	if on[statCached] < system-2*engine.BlockSize || on[statCached] > system+engine.BlockSize {
		t.Errorf("caching on: %v cached tokens, want about the %v-token system prompt", on[statCached], system)
	}
	if off[statCached] != 0 {
		t.Errorf("caching off: %v cached tokens, want 0", off[statCached])
	}
	if !(on[statSecondTTFT] < 0.6*off[statSecondTTFT]) {
		t.Errorf("second TTFT %v ms with caching, %v ms without: want a clear drop", on[statSecondTTFT], off[statSecondTTFT])
	}
	if !(on[statSecondTTFT] < on[statTTFT]) {
		t.Errorf("with caching the second customer waited %v ms, the first %v ms", on[statSecondTTFT], on[statTTFT])
	}
	if on[statTTFT] != off[statTTFT] {
		t.Errorf("the first request's TTFT changed with caching: %v vs %v ms (it never finds a cached prefix)", on[statTTFT], off[statTTFT])
	}
}

// TestRepeatRunsDoNotShareCache: a second run of the same settings on the
// same engines must not find any of the first run's prompt in the cache.
func TestRepeatRunsDoNotShareCache(t *testing.T) {
	for _, caching := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			l, _ := newTestLab(t)
			v := labtest.Values(labs.Values{knobCaching: caching})
			var ttft []float64
			for run := range 3 {
				frames := runLab(t, l, v)
				final := frames[len(frames)-1]
				ttft = append(ttft, labtest.StatMap(t, final)[statTTFT])
				if got := final.Tables[0].Rows[0][2]; got != "0" {
					t.Errorf("caching %v, run %d: your request found %s cached tokens", caching, run, got)
				}
			}
			if ttft[0] != ttft[1] || ttft[1] != ttft[2] {
				t.Errorf("caching %v: repeat runs' TTFT %v ms", caching, ttft)
			}
		})
	}
}

// Check blames the knob to change, and Run refuses the same settings with
// the same message and no engine work (the lab has no pool: it must not
// need one).
func TestValidation(t *testing.T) {
	labtest.ExpectRefusals(t, labtest.Inert(t, define), []labtest.Refusal{
		{Name: "fp8 on an A100", Vals: labs.Values{knobGPU: "a100-80g", knobPrecision: "fp8"}, Knob: knobPrecision, Want: "no FP8 tensor cores"},
		{Name: "fp8 on an A10G", Vals: labs.Values{knobGPU: "a10g", knobPrecision: "fp8"}, Knob: knobPrecision, Want: "h100-sxm"},
		{Name: "70B in BF16 on an H100", Vals: labs.Values{knobModel: "llama-3.1-70b"}, Knob: knobGPU, Want: "does not fit"},
		{Name: "70B on an L4 in INT4", Vals: labs.Values{knobModel: "llama-3.1-70b", knobGPU: "l4", knobPrecision: "int4"}, Knob: knobGPU, Want: "does not fit"},
		{Name: "70B in FP8 on an H100: too little KV cache", Vals: labs.Values{knobModel: "llama-3.1-70b", knobPrecision: "fp8"}, Knob: knobChunks, Want: "KV cache"},
		{Name: "a 16k prompt for Mistral on an L4 is accepted", Vals: labs.Values{knobModel: "mistral-7b", knobGPU: "l4", knobMode: modePlain, knobPrompt: 16384.0, knobSystem: 4000.0}},
		{Name: "answer of 0 tokens", Vals: labs.Values{knobOutput: 0.0}, Knob: knobOutput, Want: "between 1 and 1,000"},
		{Name: "unknown model", Vals: labs.Values{knobModel: "gpt-9"}, Knob: knobModel, Want: "not one of the listed choices"},
	})
}

func TestCancel(t *testing.T) {
	for _, at := range []string{"sweep", "prefill", "decode"} {
		t.Run(at, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var frames []labs.Frame
				err := l.Run(ctx, labtest.Values(nil), func(f labs.Frame) {
					frames = append(frames, f)
					st := labtest.StatMap(t, f)
					_, first := st[statTTFT]
					switch {
					case at == "sweep" && len(frames) == 2,
						at == "prefill" && len(frames) == 3,
						at == "decode" && first:
						cancel()
					}
				})
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Run: %v, want context.Canceled", err)
				}
				if slices.ContainsFunc(frames, func(f labs.Frame) bool { return f.Final }) {
					t.Error("a cancelled run emitted a final frame")
				}
			})
		})
	}
}

// TestEveryFrameIsConsistent: no frame of a run shows a figure that the
// run has not measured yet or a prompt bar that does not add up.
func TestEveryFrameIsConsistent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, _ := newTestLab(t)
		frames := runLab(t, l, labtest.Values(labs.Values{knobCaching: true}))
		for i, f := range frames {
			for _, c := range f.Charts {
				for _, g := range c.Bars {
					for _, s := range g.Segments {
						if !(s.Value > 0) {
							t.Errorf("frame %d, chart %s, %s: segment %s = %v", i, c.ID, g.Label, s.Name, s.Value)
						}
					}
				}
			}
			for _, tb := range f.Tables {
				for _, r := range tb.Rows {
					if r[1] == "0" {
						t.Errorf("frame %d: table row %v has an empty prompt", i, r)
					}
				}
			}
		}
	})
}
