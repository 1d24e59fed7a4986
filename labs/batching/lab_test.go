package batching

import (
	"context"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/labtest"
)

// The web layer refuses a lab whose knob names are not camelCase, whose
// defaults do not validate, or whose presets do not: check all three here.
func TestKnobsAndPresetsValidate(t *testing.T) {
	l := mustNew(t, Config{})
	labtest.CheckDeclaration(t, l, labtest.Entry{Slug: "batching", Lesson: "batching", PredictionStat: statTTFTP95})
	if len(l.Presets()) != 7 {
		t.Errorf("%d presets, want 7", len(l.Presets()))
	}
}

// Bad settings end the run with a message the learner can act on (and a
// nil error), and Check names the knob to change.
func TestValidationErrors(t *testing.T) {
	labtest.ExpectRefusals(t, mustNew(t, Config{}), []labtest.Refusal{
		{Name: "model too big", Vals: labs.Values{knobModel: "llama-3.1-70b", knobGPU: "l4"}, Knob: knobGPU, Want: "does not fit"},
		{Name: "request bigger than the budget", Vals: labs.Values{knobPolicy: "continuous", knobChunked: false, knobBudget: 512.0, knobPrompt: 1000.0}, Knob: knobBudget, Want: "chunked prefill"},
		{Name: "long prompt bigger than the budget", Vals: labs.Values{knobPolicy: "continuous", knobChunked: false, knobBudget: 4096.0, knobLongPrompt: 8000.0}, Knob: knobBudget, Want: "budget"},
		{Name: "too many requests", Vals: labs.Values{knobRequests: 65.0}, Knob: knobRequests, Want: "between 1 and 64"},
		{Name: "unknown policy", Vals: labs.Values{knobPolicy: "fifo"}, Knob: knobPolicy, Want: "not one of"},
		{Name: "rate not a number", Vals: labs.Values{knobRate: "fast"}, Knob: knobRate, Want: "number"},
		{Name: "zero batch", Vals: labs.Values{knobMaxBatch: 0.0}, Knob: knobMaxBatch, Want: "between 1 and 256"},
		{Name: "sweep needs the budget too", Vals: labs.Values{knobMode: modeSweep, knobPolicy: "static", knobChunked: false, knobBudget: 512.0}, Knob: knobBudget, Want: "chunked prefill"},
	})
}

// A live run that would outlast the web runner's limit is refused up
// front with a way out, instead of being cut off after minutes.
func TestLiveTooLong(t *testing.T) {
	l := mustNew(t, Config{})
	v := labtest.Defaults(l)
	v[knobPolicy], v[knobMaxBatch], v[knobRequests], v[knobOutputMean], v[knobSpread] = "sequential", 1.0, 64.0, 1024.0, 1.0
	var frames []labs.Frame
	if err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
		t.Fatal(err)
	}
	if len(frames) != 1 || !frames[0].Final || !strings.Contains(frames[0].Error, "sweep") {
		t.Fatalf("frames %+v, want one final frame pointing to the sweep", frames)
	}
}

// The shared-engine choice needs the pool; without one the run fails on
// our side, not the learner's.
func TestSharedWithoutPool(t *testing.T) {
	l := mustNew(t, Config{})
	v := labtest.Defaults(l)
	v[knobShared] = true
	err := l.Run(context.Background(), v, func(labs.Frame) {})
	if err == nil || !strings.Contains(err.Error(), "pool") {
		t.Errorf("Run = %v, want an error about the missing pool", err)
	}
}
