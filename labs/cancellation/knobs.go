package cancellation

import (
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

func knobs() []labs.Knob {
	return []labs.Knob{
		{Name: knobStopAfter, Label: "Stop reading after", Kind: labs.KnobRange, Unit: "tokens", Min: 0, Max: 1000, Step: 1,
			Default: 20.0, Help: "The client goes away (a closed tab) after this many tokens; 0 reads to the end."},
		{Name: knobFailAfter, Label: "Break the stream after", Kind: labs.KnobRange, Unit: "tokens", Min: 0, Max: 1000, Step: 1,
			Default: 0.0, Help: "The provider's stream fails with an error after this many tokens; 0 never."},
		{Name: knobAnswer, Label: "Answer length", Kind: labs.KnobRange, Unit: "tokens", Min: 50, Max: 1000, Step: 10,
			Default: 400.0, Help: "Tokens the full answer has."},
		{Name: knobTier, Label: "Model tier", Kind: labs.KnobEnum, Default: pipelinelab.TierMedium,
			Options: pipelinelab.TierOptions(), Help: "Each tier is a model on its GPUs in the bundled engine, with its price."},
		{Name: knobPropagate, Label: "Pass the disconnect upstream", Kind: labs.KnobBool, Default: true,
			Help: "On: leaving cancels the model call. Off: the server stops reading but never tells the model."},
	}
}

func presets() []labs.Preset {
	p := func(name, note string, stop, fail float64, propagate bool) labs.Preset {
		return labs.Preset{Name: name, Note: note, Values: labs.Values{
			knobStopAfter: stop, knobFailAfter: fail, knobAnswer: 400.0, knobTier: pipelinelab.TierMedium,
			knobPropagate: propagate,
		}}
	}
	return []labs.Preset{
		p("Leave after 20 tokens",
			"The disconnect reaches the engine, which stops within a step; the 20 tokens shown are saved as cancelled.",
			20, 0, true),
		p("Leave without propagating cancellation",
			"The server stops reading but the engine writes all 400 tokens, and every one is billed.",
			20, 0, false),
		p("Error mid-stream",
			"The stream breaks after 60 tokens: the reader is told, and the partial answer is saved with status error.",
			0, 60, true),
		p("Read to the end",
			"Nothing goes wrong: every token generated is shown, and the answer is saved complete.",
			0, 0, true),
	}
}

// settings are one run's parsed knob values.
type settings struct {
	stopAfter int // 0: read to the end
	failAfter int // 0: no error
	answer    int
	tier      pipelinelab.TierSpec
	propagate bool
}

// parse validates v against the knobs and converts it.
func parse(v labs.Values) (settings, error) {
	vals, errs := labs.Validate(knobs(), v)
	if len(errs) > 0 {
		return settings{}, labs.JoinFieldErrors(errs)
	}
	spec, err := pipelinelab.LookupTier(vals.String(knobTier))
	if err != nil {
		return settings{}, labs.FieldError{Knob: knobTier, Message: err.Error()}
	}
	return settings{stopAfter: vals.Int(knobStopAfter), failAfter: vals.Int(knobFailAfter),
		answer: vals.Int(knobAnswer), tier: spec, propagate: vals.Bool(knobPropagate)}, nil
}
