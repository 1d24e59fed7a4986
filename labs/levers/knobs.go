package levers

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names (Datastar signals).
const (
	knobQuestion = "question"
	knobTier     = "tier"
	knobAnswer   = "answerTokens"
	knobShort    = "shortTokens"
	knobHelpers  = "helperCalls"
)

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	question, tier                     string
	answerTokens, shortTokens, helpers int
	// host is where the tiers run: next door (Idle) or at a provider.
	host pipelinelab.Hosting
}

// defaults are the lesson's baseline, the default preset.
var defaults = params{question: pipelinelab.Questions[0].Value, tier: pipelinelab.TierMedium,
	answerTokens: 300, shortTokens: 100, helpers: 1, host: pipelinelab.Idle}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	large := defaults
	large.tier, large.answerTokens = pipelinelab.TierLarge, 600
	hosted := defaults
	hosted.host = pipelinelab.AsInTheLesson
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: append([]labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobQuestion, Label: "Question", Options: pipelinelab.Questions,
				Help: "The customer question every row answers."}, func(p *params) *string { return &p.question }),
			labs.Bind(labs.Knob{Name: knobTier, Label: "Baseline model tier",
				Options: []labs.Option{pipelinelab.TierOptions()[1], pipelinelab.TierOptions()[2]},
				Help:    "The smaller-model lever moves to the small tier from here."}, func(p *params) *string { return &p.tier }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Baseline answer length", Unit: "tokens", Min: 100, Max: 1000, Step: 50,
				Help: "Tokens every row writes, except the shorter-answer lever."}, func(p *params) *int { return &p.answerTokens }),
			labs.Bind(labs.Knob{Name: knobShort, Label: "Shorter answer", Unit: "tokens", Min: 20, Max: 500, Step: 10,
				Help: "Tokens the shorter-answer lever asks for."}, func(p *params) *int { return &p.shortTokens }),
			labs.Bind(labs.Knob{Name: knobHelpers, Label: "Model calls before the answer", Unit: "calls", Min: 1, Max: 3, Step: 1,
				Help: "Extra calls in a row in the baseline (rewrite the question, classify it, plan); the lever removes them."},
				func(p *params) *int { return &p.helpers }),
		}, pipelinelab.HostingKnobs(func(p *params) *pipelinelab.Hosting { return &p.host })...),
		Presets: []labs.Example[params]{
			{Name: "Default: the lesson's baseline", Note: "A blocking 300-token answer on the medium tier, lookups one after another, no cache, one rewrite call first.",
				Params: defaults},
			{Name: hostedPreset, Note: "The baseline on hosted tiers: a provider 190 ms away, a new connection per call, nine other chats a second on each GPU. " +
				"The model calls take about what the lesson quotes for 300 tokens on the medium and small tiers and 100 on the medium; switch each cause off to see its share.",
				Params: hosted},
			{Name: "Long answers on the large tier", Note: "A 600-token answer on the 70B model: writing time dwarfs everything before it. This set runs on the virtual clock.",
				Params: large},
		},
		Run: run,
	})
}

// hostedPreset is the preset that reproduces the lesson's model-call times.
const hostedPreset = "Hosted tiers as in the lesson"

// Check reports the rule across knobs: the shorter answer must be shorter.
func (p params) Check() []labs.FieldError {
	if p.shortTokens >= p.answerTokens {
		return []labs.FieldError{{Knob: knobShort, Message: "The shorter answer must be shorter than the baseline answer."}}
	}
	return nil
}

// settings are a run's params with the question's text.
type settings struct {
	question     string // the question's text
	tier         string
	answerTokens int
	shortTokens  int
	helpers      int
	host         pipelinelab.Hosting
}

// settings looks up the question's text.
func (p params) settings() (settings, error) {
	q, err := pipelinelab.Question(p.question)
	if err != nil {
		return settings{}, fmt.Errorf("levers: %w", err)
	}
	return settings{question: q, tier: p.tier, answerTokens: p.answerTokens, shortTokens: p.shortTokens, helpers: p.helpers, host: p.host}, nil
}
