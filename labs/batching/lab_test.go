package batching

import (
	"context"
	"github.com/latencylab/latencylab/labs/labtest"
	"regexp"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// The web layer refuses a lab whose knob names are not camelCase, whose
// defaults do not validate, or whose presets do not: check all three here.
func TestKnobsAndPresetsValidate(t *testing.T) {
	l := mustNew(t, Config{})
	camel := regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	seen := map[string]bool{}
	for _, k := range l.Knobs() {
		if !camel.MatchString(k.Name) || seen[k.Name] {
			t.Errorf("knob %q: not camelCase or duplicate", k.Name)
		}
		seen[k.Name] = true
		if k.Help == "" {
			t.Errorf("knob %q has no help", k.Name)
		}
	}
	if errs := labtest.FieldErrors(l, map[string]any(labtest.Defaults(l))); len(errs) > 0 {
		t.Errorf("defaults do not validate: %v", errs)
	}
	if len(l.Presets()) != 6 {
		t.Errorf("%d presets, want 6", len(l.Presets()))
	}
	for _, p := range l.Presets() {
		if fe := labtest.FieldErrors(l, p.Values); len(fe) > 0 {
			t.Errorf("preset %q: %v", p.Name, fe)
		}
		if len(p.Values) != len(l.Knobs()) {
			t.Errorf("preset %q sets %d of %d knobs", p.Name, len(p.Values), len(l.Knobs()))
		}
	}
	info := l.Info()
	if info.Slug != "batching" || info.Lesson != "batching" || info.PredictionStat != statTTFTP95 {
		t.Errorf("info %+v", info)
	}
}

// Bad settings end the run with a message the learner can act on (and a
// nil error), and Check names the knob to change.
func TestValidationErrors(t *testing.T) {
	tests := []struct {
		name     string
		change   labs.Values
		knob     string
		contains string
	}{
		{"model too big", labs.Values{knobModel: "llama-3.1-70b", knobGPU: "l4"}, knobGPU, "does not fit"},
		{"request bigger than the budget", labs.Values{knobPolicy: "continuous", knobChunked: false, knobBudget: 512.0, knobPrompt: 1000.0}, knobBudget, "chunked prefill"},
		{"long prompt bigger than the budget", labs.Values{knobPolicy: "continuous", knobChunked: false, knobBudget: 4096.0, knobLongPrompt: 8000.0}, knobBudget, "budget"},
		{"too many requests", labs.Values{knobRequests: 65.0}, knobRequests, "between 1 and 64"},
		{"unknown policy", labs.Values{knobPolicy: "fifo"}, knobPolicy, "not one of"},
		{"rate not a number", labs.Values{knobRate: "fast"}, knobRate, "number"},
		{"zero batch", labs.Values{knobMaxBatch: 0.0}, knobMaxBatch, "between 1 and 256"},
		{"sweep needs the budget too", labs.Values{knobMode: modeSweep, knobPolicy: "static", knobChunked: false, knobBudget: 512.0}, knobBudget, "chunked prefill"},
	}
	l := mustNew(t, Config{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := labtest.Defaults(l)
			for k, x := range tc.change {
				v[k] = x
			}
			var frames []labs.Frame
			if err := l.Run(context.Background(), v, func(f labs.Frame) { frames = append(frames, f) }); err != nil {
				t.Fatalf("Run returned %v; a learner's mistake must not be an internal error", err)
			}
			if len(frames) != 1 || !frames[0].Final || !strings.Contains(frames[0].Error, tc.contains) {
				t.Fatalf("frames %+v, want one final frame whose error mentions %q", frames, tc.contains)
			}
			errs := labtest.FieldErrors(l, v)
			if len(errs) != 1 || errs[0].Knob != tc.knob {
				t.Errorf("field errors %v, want one on %q", errs, tc.knob)
			}
		})
	}
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
