package prefilldecode

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// sweepFor runs the sweep for settings v as Run would.
func sweepFor(t *testing.T, v labs.Values) (settings, sweep) {
	t.Helper()
	s := mustParse(t, v)
	j, err := newJob(s, "x", "Session x", 0, s.output)
	if err != nil {
		t.Fatal(err)
	}
	sw, err := runSweep(context.Background(), s, j.req, s.spec.system)
	if err != nil {
		t.Fatal(err)
	}
	return s, sw
}

// TestSweepShapes: on several profiles, TTFT rises with every longer
// prompt and its fitted slope is positive; decode time rises with every
// longer answer, a straight line whose slope is the time per output token.
func TestSweepShapes(t *testing.T) {
	tests := []struct {
		name    string
		changes labs.Values
	}{
		{"8B on an H100", labs.Values{}},
		{"8B on an L4, short answer", labs.Values{knobGPU: "l4", knobOutput: 10.0}},
		{"70B on an H200 in FP8", labs.Values{knobModel: "llama-3.1-70b", knobGPU: "h200", knobPrecision: "fp8"}},
		{"1B in INT4 on an A10G", labs.Values{knobModel: "llama-3.2-1b", knobGPU: "a10g", knobPrecision: "int4"}},
		{"Qwen on an L40S, long answer", labs.Values{knobModel: "qwen2.5-7b", knobGPU: "l40s", knobOutput: 1000.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, sw := sweepFor(t, labtest.Values(tc.changes))
			if len(sw.ttft) != sweepPoints || len(sw.decode) != sweepPoints {
				t.Fatalf("%d TTFT and %d decode samples, want %d each", len(sw.ttft), len(sw.decode), sweepPoints)
			}
			for i := 1; i < len(sw.ttft); i++ {
				a, b := sw.ttft[i-1], sw.ttft[i]
				if !(b.tokens > a.tokens && b.ms > a.ms) {
					t.Errorf("TTFT not rising: %+v then %+v", a, b)
				}
			}
			if !(sw.ttftFit.ok && sw.ttftFit.slope > 0) {
				t.Errorf("TTFT fit %+v, want a positive slope", sw.ttftFit)
			}
			if sw.decode[0].tokens != 1 || sw.decode[0].ms != 0 {
				t.Errorf("a one-token answer has decode time %+v, want 0", sw.decode[0])
			}
			for i := 1; i < len(sw.decode); i++ {
				a, b := sw.decode[i-1], sw.decode[i]
				if !(b.tokens > a.tokens && b.ms > a.ms) {
					t.Errorf("decode time not rising: %+v then %+v", a, b)
				}
			}
			f := sw.decodeFit
			last := sw.decode[len(sw.decode)-1]
			for _, s := range sw.decode {
				if r := math.Abs(f.at(float64(s.tokens)) - s.ms); r > 0.02*last.ms {
					t.Errorf("decode time %+v is %.1f ms off the fitted line: not linear", s, r)
				}
			}
			tpot := last.ms / float64(last.tokens-1)
			if math.Abs(f.slope-tpot) > 0.05*tpot {
				t.Errorf("decode slope %.3f ms/token, average time per output token %.3f", f.slope, tpot)
			}
		})
	}
}

// TestComputeVsMemoryBound: on the default profile the prefill's intensity
// sits far above the GPU's ridge point (compute-bound) and the decode's far
// below it (memory-bandwidth-bound).
func TestComputeVsMemoryBound(t *testing.T) {
	_, sw := sweepFor(t, labtest.Values(nil))
	ridge := sw.work.ridge()
	if want := 989e12 / 3350e9; math.Abs(ridge-want) > 1e-9*want {
		t.Errorf("H100 ridge %v FLOPs/byte, want 989 TFLOP/s ÷ 3.35 TB/s = %v", ridge, want)
	}
	pre, dec := sw.prefill.intensity(), sw.decodeWork.intensity()
	if !(pre > 5*ridge) {
		t.Errorf("prefill intensity %v, want far above the ridge %v", pre, ridge)
	}
	if !(dec < ridge/50) {
		t.Errorf("decode intensity %v, want far below the ridge %v", dec, ridge)
	}
	if sw.prefill.steps != 1 || sw.decodeWork.steps != defaults.output-1 {
		t.Errorf("%d prefill and %d decode steps, want 1 and %d", sw.prefill.steps, sw.decodeWork.steps, defaults.output-1)
	}
	// Prefill nears the compute roof; decode is pinned under the memory roof.
	if a := sw.prefill.achieved(); !(a > 0.3*sw.work.peakFLOPS && a <= sw.work.roof(pre)) {
		t.Errorf("prefill reaches %v FLOP/s, roof %v", a, sw.work.roof(pre))
	}
	if a := sw.decodeWork.achieved(); !(a > 0.3*sw.work.roof(dec) && a <= sw.work.roof(dec)) {
		t.Errorf("decode reaches %v FLOP/s, roof %v", a, sw.work.roof(dec))
	}
}

// TestWorkMatchesEngineCost checks the lab's FLOPs and bytes against the
// engine's own step times without copying its calibration: a single
// sequence's decode steps differ only in the KV context they read, so
// their modelled times must be affine in the bytes the lab computes; and
// one-step prefills of different lengths are compute-bound, so their times
// must be affine in the lab's FLOPs. A wrong formula breaks the line.
func TestWorkMatchesEngineCost(t *testing.T) {
	cfg := mustParse(t, labtest.Values(nil)).engine
	w, err := newWorkModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := recordSteps(cfg, engine.Request{ID: "d", PromptTokens: make([]int, 4000), MaxTokens: 1000, IgnoreEOS: true})
	if err != nil {
		t.Fatal(err)
	}
	var byBytes, byFlops []sample2
	for _, s := range steps[1:] {
		byBytes = append(byBytes, sample2{w.bytes(s.shape), float64(s.dur)})
	}
	for _, n := range []int{1024, 2048, 3000, 4096, 6000, 8000} {
		st, err := recordSteps(cfg, engine.Request{ID: "p", PromptTokens: make([]int, n), MaxTokens: 1, IgnoreEOS: true})
		if err != nil {
			t.Fatal(err)
		}
		byFlops = append(byFlops, sample2{w.flops(st[0].shape), float64(st[0].dur)})
	}
	for name, ss := range map[string][]sample2{"decode time against bytes": byBytes, "prefill time against FLOPs": byFlops} {
		f := fit2(ss)
		for _, s := range ss {
			// Step times are whole nanoseconds: allow rounding only.
			if r := math.Abs(f.at(s.x) - s.y); r > 2 {
				t.Errorf("%s: off the line by %.1f ns at %g", name, r, s.x)
				break
			}
		}
	}
	// And the absolute sizes: a decode step at context c does 2 FLOPs per
	// weight outside the embedding table plus attention, and reads every
	// weight byte plus the KV cache.
	m := cfg.Model
	fp, _ := cfg.Footprint()
	s := steps[1].shape
	embed := float64(m.VocabSize * m.HiddenSize)
	wantFlops := 2*(float64(fp.ParamCount)-embed) + 4*float64(m.NumHeads*m.HeadDim*m.NumLayers)*s.AttnPairs
	if got := w.flops(s); math.Abs(got-wantFlops) > 1e-9*wantFlops {
		t.Errorf("decode step FLOPs %g, want %g", got, wantFlops)
	}
	wantBytes := float64(fp.WeightBytes) + float64(fp.KVBytesPerToken)*float64(s.KVReadTokens+1)
	if got := w.bytes(s); math.Abs(got-wantBytes) > 1e-9*wantBytes {
		t.Errorf("decode step bytes %g, want %g", got, wantBytes)
	}
}

type sample2 struct{ x, y float64 }

func fit2(ss []sample2) line {
	conv := make([]sample, len(ss))
	// fitSamples takes integer x; scale to keep precision.
	for i, s := range ss {
		conv[i] = sample{tokens: int(s.x / 1e3), ms: s.y}
	}
	l := fitSamples(conv)
	l.slope /= 1e3
	return l
}

func TestSweepCancel(t *testing.T) {
	s := mustParse(t, labtest.Values(nil))
	j, err := newJob(s, "x", "Session x", 0, s.output)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := runSweep(ctx, s, j.req, s.spec.system); !errors.Is(err, context.Canceled) {
		t.Errorf("runSweep after cancel: %v", err)
	}
}

func TestSweepLengths(t *testing.T) {
	p := promptLengths(1 << 20)
	want := []int{128, 256, 512, 1024, 2048, 4096, 8192, 16384}
	for i := range want {
		if p[i] != want[i] {
			t.Fatalf("prompt lengths %v, want %v", p, want)
		}
	}
	if p := promptLengths(3000); p[len(p)-1] != 3000 || p[0] != 128 || len(p) != sweepPoints {
		t.Errorf("clamped prompt lengths %v", p)
	}
	if p := promptLengths(100); len(p) != 1 || p[0] != 100 {
		t.Errorf("tiny room: %v", p)
	}
	o := outputLengths(1000)
	if o[0] != 1 || o[len(o)-1] != 1000 || len(o) != sweepPoints {
		t.Errorf("output lengths %v", o)
	}
	if o := outputLengths(3); len(o) != 3 || o[2] != 3 {
		t.Errorf("short output lengths %v", o)
	}
}

func TestFitSamples(t *testing.T) {
	tests := []struct {
		name string
		in   []sample
		want line
	}{
		{"exact line", []sample{{1, 3}, {2, 5}, {4, 9}}, line{intercept: 1, slope: 2, ok: true}},
		{"noisy", []sample{{0, 0}, {1, 1}, {2, 0}, {3, 1}}, line{intercept: 0.2, slope: 0.2, ok: true}},
		{"one point", []sample{{1, 1}}, line{}},
		{"same x", []sample{{2, 1}, {2, 3}}, line{}},
	}
	for _, tc := range tests {
		got := fitSamples(tc.in)
		if got.ok != tc.want.ok || math.Abs(got.slope-tc.want.slope) > 1e-12 || math.Abs(got.intercept-tc.want.intercept) > 1e-12 {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
