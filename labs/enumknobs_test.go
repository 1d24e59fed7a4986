package labs

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/latencylab/latencylab/engine"
)

func TestModelAndGPUKnobsOfferEveryChoice(t *testing.T) {
	for _, tc := range []struct {
		k     Knob
		label string
		names []string
	}{
		{ModelKnob("model", "h"), "Model", engine.ModelNames()},
		{GPUKnob("gpu", "h"), "GPU", engine.HardwareNames()},
	} {
		if tc.k.Label != tc.label || tc.k.Kind != KnobEnum || tc.k.Help != "h" {
			t.Errorf("%s knob = %+v", tc.label, tc.k)
		}
		var got []string
		for _, o := range tc.k.Options {
			if o.Value != o.Label {
				t.Errorf("%s option %+v: value and label differ", tc.label, o)
			}
			got = append(got, o.Value)
		}
		if !slices.Equal(got, tc.names) {
			t.Errorf("%s options %v, want %v", tc.label, got, tc.names)
		}
		for _, n := range tc.names {
			if _, err := coerce(tc.k, n); err != nil {
				t.Errorf("%s option %s does not validate: %v", tc.label, n, err)
			}
		}
	}
}

func TestCheckErr(t *testing.T) {
	fe := FieldError{Knob: "prompt", Message: "too long"}
	tests := []struct {
		name string
		err  error
		want []FieldError
	}{
		{"nil", nil, nil},
		{"field error", fe, []FieldError{fe}},
		{"wrapped field error", fmt.Errorf("parse: %w", fe), []FieldError{fe}},
		{"other error", errors.New("no engine"), []FieldError{{Knob: "gpu", Message: "no engine"}}},
	}
	for _, tc := range tests {
		if got := CheckErr(tc.err, "gpu"); !slices.Equal(got, tc.want) {
			t.Errorf("%s: CheckErr = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFitsWith(t *testing.T) {
	p := Profile{Hardware: "l4", Model: "llama-3.1-70b"}
	models, gpus := FitsWith(p)
	for _, m := range models {
		if _, err := (Profile{Hardware: p.Hardware, Model: m}).Config(); err != nil {
			t.Errorf("FitsWith lists model %s, which does not fit on %s: %v", m, p.Hardware, err)
		}
	}
	for _, h := range gpus {
		if _, err := (Profile{Hardware: h, Model: p.Model}).Config(); err != nil {
			t.Errorf("FitsWith lists GPU %s, which does not hold %s: %v", h, p.Model, err)
		}
	}
	if len(models) == 0 || slices.Contains(models, p.Model) {
		t.Errorf("models fitting on %s = %v, want smaller models and not %s", p.Hardware, models, p.Model)
	}
	if slices.Contains(gpus, p.Hardware) {
		t.Errorf("GPUs holding %s = %v, should not list %s", p.Model, gpus, p.Hardware)
	}
	// In a smaller precision more fits.
	_, gpus4 := FitsWith(Profile{Hardware: p.Hardware, Model: p.Model, Precision: engine.INT4})
	if len(gpus4) < len(gpus) {
		t.Errorf("INT4 fits on %v, fewer GPUs than BF16's %v", gpus4, gpus)
	}
}

func TestCheckFit(t *testing.T) {
	for _, tc := range []struct {
		p    Profile
		want int // field errors
	}{
		{Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}, 0},
		{Profile{Hardware: "l4", Model: "llama-3.1-70b"}, 1},
	} {
		errs := CheckFit("gpu", tc.p)
		if len(errs) != tc.want {
			t.Errorf("CheckFit(%+v) = %v, want %d errors", tc.p, errs, tc.want)
		}
		if len(errs) == 1 && errs[0] != FitError("gpu", tc.p) {
			t.Errorf("CheckFit(%+v) = %v, want FitError's", tc.p, errs[0])
		}
	}
}
