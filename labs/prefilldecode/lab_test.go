package prefilldecode

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

func TestInfoAndKnobs(t *testing.T) {
	l := labtest.Inert(t, define)
	labtest.CheckDeclaration(t, l, labtest.Entry{Slug: "prefill-decode", Lesson: "prefill-vs-decode", PredictionStat: statTTFT, PredictionUnit: "ms",
		Presets: []string{"The 3,200-token support prompt", "Short chat prompt", "Long document (16k)",
			"Slow GPU (L4)", "70B on H200 FP8", "Prefix caching: shared system prompt", "70B in BF16 on one MI300X"}})
	if l.Info().Prediction == "" {
		t.Error("no prediction")
	}
	byName := map[string]labs.Knob{}
	for _, k := range l.Knobs() {
		byName[k.Name] = k
	}
	if k := byName[knobModel]; len(k.Options) != len(engine.ModelNames()) {
		t.Errorf("model knob lists %d of %d models", len(k.Options), len(engine.ModelNames()))
	}
	if k := byName[knobGPU]; len(k.Options) != len(engine.HardwareNames()) {
		t.Errorf("GPU knob lists %d of %d GPUs", len(k.Options), len(engine.HardwareNames()))
	}
	if k := byName[knobOutput]; k.Min != 1 || k.Max != 1000 {
		t.Errorf("answer length %v..%v, want 1..1000", k.Min, k.Max)
	}
}

// The first preset is the default view; the 70B preset sits where it fits.
// (CheckDeclaration in TestInfoAndKnobs checks every preset's name, note
// and values.)
func TestPresets(t *testing.T) {
	l := labtest.Inert(t, define)
	ps := l.Presets()
	for k, d := range labtest.Defaults(l) {
		if ps[0].Values[k] != d {
			t.Errorf("the first preset sets %s = %v, the default is %v", k, ps[0].Values[k], d)
		}
	}
	// The 70B preset is on an H100 only if the engine says it fits there
	// with room for the support prompt; otherwise it must have moved.
	h100 := labtest.Values(labs.Values{knobModel: "llama-3.1-70b", knobPrecision: "fp8"})
	if errs := labtest.FieldErrors(l, h100); errs == nil && ps[4].Values[knobGPU] != "h100-sxm" {
		t.Error("70B in FP8 fits on an H100 with the support prompt now: move the preset back to the H100")
	}
}

// TestEveryPresetRuns runs each preset to its final frame in a synctest bubble.
func TestEveryPresetRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every preset")
	}
	for _, p := range labtest.Inert(t, define).Presets() {
		t.Run(p.Name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l, _ := newTestLab(t)
				frames := runLab(t, l, p.Values)
				final := frames[len(frames)-1]
				if !final.Final || final.Error != "" {
					t.Fatalf("final %v, error %q", final.Final, final.Error)
				}
				st := labtest.StatMap(t, final)
				if st[statTTFT] <= 0 || st[statDecode] <= 0 || st[statTPOT] <= 0 {
					t.Errorf("stats %v", st)
				}
				if p.Values[knobCaching] == true && st[statCached] == 0 {
					t.Error("prefix caching on, but the second customer reused nothing")
				}
			})
		})
	}
}

// TestEveryFittingProfileRuns runs, on every model, GPU and precision the
// lab accepts, the largest requests a run can make: the learner's longest
// prompt with its answer, and the sweep's longest prompt and longest
// answer. An accepted choice must never fail at the engine.
func TestEveryFittingProfileRuns(t *testing.T) {
	ran := 0
	for _, m := range engine.ModelNames() {
		for _, h := range engine.HardwareNames() {
			for _, prec := range []string{"bf16", "fp8", "int4"} {
				v := labtest.Values(labs.Values{knobModel: m, knobGPU: h, knobPrecision: prec, knobMode: modePlain, knobPrompt: 16384.0, knobOutput: 1000.0})
				s, err := parse(t, v)
				if err != nil {
					// Too long for this profile: the longest built prompt.
					v = labtest.Values(labs.Values{knobModel: m, knobGPU: h, knobPrecision: prec, knobSystem: 4000.0, knobOutput: 1000.0})
					if s, err = parse(t, v); err != nil {
						continue
					}
				}
				fp, _ := s.engine.Footprint()
				room := min(s.engine.Model.MaxContextLen, fp.KVTokens)
				j, err := newJob(s, "x", "Session x", 0, s.output)
				if err != nil {
					t.Fatal(err)
				}
				longest := promptLengths(room - s.output)
				p, err := buildPrompt(promptSpec{plain: true, total: longest[len(longest)-1], system: s.spec.system}, "Sweep", 0)
				if err != nil {
					t.Fatal(err)
				}
				outs := outputLengths(min(sweepMaxOutput, room-len(j.req.PromptTokens)))
				for _, req := range []engine.Request{
					j.req,
					{ID: "p", PromptTokens: p.ids, MaxTokens: s.output, IgnoreEOS: true},
					{ID: "o", PromptTokens: j.req.PromptTokens, MaxTokens: outs[len(outs)-1], IgnoreEOS: true},
				} {
					if _, err := simulateOne(s.engine, req); err != nil {
						t.Errorf("%s on %s in %s: %v", m, h, prec, err)
					}
				}
				ran++
			}
		}
	}
	if ran < 40 {
		t.Errorf("only %d profiles accepted", ran)
	}
}

func TestRoomMessage(t *testing.T) {
	tests := []struct {
		name    string
		changes labs.Values
		prompt  int
		want    string
	}{
		{"fits", labs.Values{}, 3200, ""},
		{"beyond the context", labs.Values{knobModel: "mistral-7b", knobMode: modePlain, knobPrompt: 2000.0}, 32700, "context of 32,768"},
		{"beyond the KV cache", labs.Values{knobModel: "llama-3.1-70b", knobPrecision: "fp8", knobChunks: 1.0, knobTurns: 1.0}, 3300, "KV cache"},
	}
	for _, tc := range tests {
		s := mustParse(t, labtest.Values(tc.changes))
		got := roomMessage(s, tc.prompt)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
