package cancellation

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names (Datastar signals).
const (
	knobStopAfter = "stopAfter"
	knobFailAfter = "failAfter"
	knobAnswer    = "answerTokens"
	knobTier      = "tier"
	knobPropagate = "propagate"
)

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	stopAfter, failAfter, answer int
	tier                         string
	propagate                    bool
}

// defaults are the settings of the default preset.
var defaults = params{stopAfter: 20, failAfter: 0, answer: 400, tier: pipelinelab.TierMedium, propagate: true}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	preset := func(stop, fail int, propagate bool) params {
		p := defaults
		p.stopAfter, p.failAfter, p.propagate = stop, fail, propagate
		return p
	}
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: []labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobStopAfter, Label: "Stop reading after", Unit: "tokens", Min: 0, Max: 1000, Step: 1, ZeroLabel: "never",
				Help: "The client goes away (a closed tab) after this many tokens; 0 reads to the end."}, func(p *params) *int { return &p.stopAfter }),
			labs.Bind(labs.Knob{Name: knobFailAfter, Label: "Break the stream after", Unit: "tokens", Min: 0, Max: 1000, Step: 1, ZeroLabel: "never",
				Help: "The provider's stream fails with an error after this many tokens; 0 never."}, func(p *params) *int { return &p.failAfter }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Answer length", Unit: "tokens", Min: 50, Max: 1000, Step: 10,
				Help: "Tokens the full answer has."}, func(p *params) *int { return &p.answer }),
			labs.Bind(labs.Knob{Name: knobTier, Label: "Model tier", Options: pipelinelab.TierOptions(),
				Help: "Each tier is a model on its GPUs in the bundled engine, with its price."}, func(p *params) *string { return &p.tier }),
			labs.Bind(labs.Knob{Name: knobPropagate, Label: "Pass the disconnect upstream",
				Help: "On: leaving cancels the model call. Off: the server stops reading but never tells the model."},
				func(p *params) *bool { return &p.propagate }),
		},
		Presets: []labs.Example[params]{
			{Name: "Leave after 20 tokens", Params: preset(20, 0, true),
				Note: "The disconnect reaches the engine, which stops within a step; the 20 tokens shown are saved as cancelled."},
			{Name: "Leave without propagating cancellation", Params: preset(20, 0, false),
				Note: "The server stops reading but the engine writes all 400 tokens, and every one is billed."},
			{Name: "Error mid-stream", Params: preset(0, 60, true),
				Note: "The stream breaks after 60 tokens: the reader is told, and the partial answer is saved with status error."},
			{Name: "Read to the end", Params: preset(0, 0, true),
				Note: "Nothing goes wrong: every token generated is shown, and the answer is saved complete."},
		},
		Run: run,
	})
}

// Check has no rule across knobs: each knob's own range suffices.
func (p params) Check() []labs.FieldError { return nil }

// settings are one run's params with the tier looked up.
type settings struct {
	stopAfter int // 0: read to the end
	failAfter int // 0: no error
	answer    int
	tier      pipelinelab.TierSpec
	propagate bool
}

// settings looks up the tier.
func (p params) settings() (settings, error) {
	spec, err := pipelinelab.LookupTier(p.tier)
	if err != nil {
		return settings{}, fmt.Errorf("cancellation: %w", err)
	}
	return settings{stopAfter: p.stopAfter, failAfter: p.failAfter, answer: p.answer, tier: spec, propagate: p.propagate}, nil
}
