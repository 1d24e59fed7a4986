package rag

import (
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names (Datastar signals).
const (
	knobTopK     = "topK"
	knobHistory  = "historyTurns"
	knobSystem   = "systemTokens"
	knobQuestion = "question"
	knobTier     = "tier"
)

var knobs = []labs.Knob{
	{Name: knobTopK, Label: "Retrieved passages (top-k)", Kind: labs.KnobRange, Unit: "chunks", Min: 0, Max: 20, Step: 1,
		Default: 5.0, Help: "How many knowledge-base chunks the search adds to the prompt."},
	{Name: knobHistory, Label: "History turns", Kind: labs.KnobRange, Unit: "turns", Min: 0, Max: float64(pipelinelab.MaxHistoryTurns),
		Step: 1, Default: 4.0, Help: "How many earlier messages of the conversation go into the prompt."},
	{Name: knobSystem, Label: "System prompt size", Kind: labs.KnobRange, Unit: "tokens", Min: 50, Max: 3000, Step: 50,
		Default: 200.0, Help: "Instructions at the top of the prompt, padded with more rules to reach this size."},
	{Name: knobQuestion, Label: "Question", Kind: labs.KnobEnum, Default: pipelinelab.Questions[1].Value,
		Options: pipelinelab.Questions, Help: "A customer question the knowledge base can answer."},
	{Name: knobTier, Label: "Model tier", Kind: labs.KnobEnum, Default: pipelinelab.TierMedium,
		Options: pipelinelab.TierOptions(), Help: "Each tier is a model on its GPUs in the bundled engine."},
}

var presets = []labs.Preset{
	{Name: "Top-5", Note: "A typical setting: five passages and a short history.", Values: labs.Values{knobTopK: 5.0, knobHistory: 4.0}},
	{Name: "No context", Note: "No passages and no history: the fastest start, and an answer with nothing to go on.",
		Values: labs.Values{knobTopK: 0.0, knobHistory: 0.0}},
	{Name: "Top-20 + long history", Note: "Everything in: watch the prompt grow and the first token wait for it.",
		Values: labs.Values{knobTopK: 20.0, knobHistory: 20.0, knobSystem: 600.0}},
}

// settings are validated values in the lab's own types.
type settings struct {
	topK, history, system int
	question, tier        string
	questionText          string
}

func parse(v labs.Values) (settings, error) {
	clean, errs := labs.Validate(knobs, v)
	if len(errs) > 0 {
		return settings{}, errs[0]
	}
	q, err := pipelinelab.Question(clean.String(knobQuestion))
	if err != nil {
		return settings{}, labs.FieldError{Knob: knobQuestion, Message: err.Error()}
	}
	return settings{topK: clean.Int(knobTopK), history: clean.Int(knobHistory), system: clean.Int(knobSystem),
		question: clean.String(knobQuestion), tier: clean.String(knobTier), questionText: q}, nil
}
