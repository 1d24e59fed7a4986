package labs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine"
)

// nameOptions makes an enum's options from names that are both value and
// label, e.g. engine.ModelNames().
func nameOptions(names []string) []Option {
	out := make([]Option, len(names))
	for i, n := range names {
		out[i] = Option{Value: n, Label: n}
	}
	return out
}

// ModelKnob is an enum knob named name offering every model the engine
// knows; help says how the lab serves it. Bind it to a string field.
func ModelKnob(name, help string) Knob {
	return Knob{Name: name, Label: "Model", Kind: KnobEnum, Options: nameOptions(engine.ModelNames()), Help: help}
}

// GPUKnob is an enum knob named name offering every GPU the engine knows;
// help says how the lab uses it. Bind it to a string field.
func GPUKnob(name, help string) Knob {
	return Knob{Name: name, Label: "GPU", Kind: KnobEnum, Options: nameOptions(engine.HardwareNames()), Help: help}
}

// CheckErr turns a lab's parse error into the field errors its Check
// returns: nil for nil, the FieldError itself when err wraps one, and
// otherwise err's message under the knob named fallback (the one a
// deployment error is best shown beside, usually the GPU).
func CheckErr(err error, fallback string) []FieldError {
	if err == nil {
		return nil
	}
	var fe FieldError
	if errors.As(err, &fe) {
		return []FieldError{fe}
	}
	return []FieldError{{Knob: fallback, Message: err.Error()}}
}

// FitsWith lists what would hold p's model in p's precision on one GPU:
// the smaller models that fit on p's GPU, and the GPUs that fit p's model,
// in the engine's order. Labs build their "does not fit" advice from it.
func FitsWith(p Profile) (models, gpus []string) {
	for _, m := range engine.ModelNames() {
		if _, err := (Profile{Hardware: p.Hardware, Model: m, Precision: p.Precision}).Config(); err == nil {
			models = append(models, m)
		}
	}
	for _, h := range engine.HardwareNames() {
		if _, err := (Profile{Hardware: h, Model: p.Model, Precision: p.Precision}).Config(); err == nil {
			gpus = append(gpus, h)
		}
	}
	return models, gpus
}

// CheckFit is the rule across knobs of a lab that runs one model on one
// GPU: no error when the model fits in BF16, else FitError under knob.
func CheckFit(knob string, p Profile) []FieldError {
	if _, err := p.Config(); err != nil {
		return []FieldError{FitError(knob, p)}
	}
	return nil
}

// FitError is the field error, under knob, for a BF16 deployment whose model
// does not fit on one GPU: it names the larger GPUs that hold the model and
// the smaller models that fit the GPU, so the learner knows what to pick.
func FitError(knob string, p Profile) FieldError {
	models, gpus := FitsWith(p)
	msg := fmt.Sprintf("%s does not fit on one %s in BF16 (weights plus working memory exceed the GPU's memory).", p.Model, p.Hardware)
	if len(gpus) > 0 {
		msg += fmt.Sprintf(" Pick a larger GPU for it: %s.", strings.Join(gpus, ", "))
	} else {
		msg += " No single GPU in this lab holds it."
	}
	if len(models) > 0 {
		msg += fmt.Sprintf(" Or keep %s and pick a smaller model: %s.", p.Hardware, strings.Join(models, ", "))
	}
	return FieldError{Knob: knob, Message: msg}
}
