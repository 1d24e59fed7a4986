package rag

import (
	"context"
	"fmt"

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

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	topK, history, system int
	question, tier        string
}

// defaults are the settings of the default preset.
var defaults = params{topK: 5, history: 4, system: 200, question: pipelinelab.Questions[1].Value, tier: pipelinelab.TierMedium}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	none, all := defaults, defaults
	none.topK, none.history = 0, 0
	all.topK, all.history, all.system = 20, 20, 600
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: []labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobTopK, Label: "Retrieved passages (top-k)", Unit: "chunks", Min: 0, Max: 20, Step: 1,
				Help: "How many knowledge-base chunks the search adds to the prompt."}, func(p *params) *int { return &p.topK }),
			labs.Bind(labs.Knob{Name: knobHistory, Label: "History turns", Unit: "turns", Min: 0, Max: float64(pipelinelab.MaxHistoryTurns),
				Step: 1, Help: "How many earlier messages of the conversation go into the prompt."}, func(p *params) *int { return &p.history }),
			labs.Bind(labs.Knob{Name: knobSystem, Label: "System prompt size", Unit: "tokens", Min: 50, Max: 3000, Step: 50,
				Help: "Instructions at the top of the prompt, padded with more rules to reach this size."}, func(p *params) *int { return &p.system }),
			labs.Bind(labs.Knob{Name: knobQuestion, Label: "Question", Options: pipelinelab.Questions,
				Help: "A customer question the knowledge base can answer."}, func(p *params) *string { return &p.question }),
			labs.Bind(labs.Knob{Name: knobTier, Label: "Model tier", Options: pipelinelab.TierOptions(),
				Help: "Each tier is a model on its GPUs in the bundled engine."}, func(p *params) *string { return &p.tier }),
		},
		Presets: []labs.Example[params]{
			{Name: "Top-5", Note: "A typical setting: five passages and a short history.", Params: defaults},
			{Name: "No context", Note: "No passages and no history: the fastest start, and an answer with nothing to go on.", Params: none},
			{Name: "Top-20 + long history", Note: "Everything in: watch the prompt grow and the first token wait for it.", Params: all},
		},
		Run: run,
	})
}

// Check has no rule across knobs: each knob's own range suffices.
func (p params) Check() []labs.FieldError { return nil }

// settings are a run's params with the question's text.
type settings struct {
	params
	questionText string
}

// settings looks up the question's text.
func (p params) settings() (settings, error) {
	q, err := pipelinelab.Question(p.question)
	if err != nil {
		return settings{}, fmt.Errorf("rag: %w", err)
	}
	return settings{params: p, questionText: q}, nil
}
