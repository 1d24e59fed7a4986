package levers

import (
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

var knobs = []labs.Knob{
	{Name: knobQuestion, Label: "Question", Kind: labs.KnobEnum, Default: pipelinelab.Questions[0].Value,
		Options: pipelinelab.Questions, Help: "The customer question every row answers."},
	{Name: knobTier, Label: "Baseline model tier", Kind: labs.KnobEnum, Default: pipelinelab.TierMedium,
		Options: []labs.Option{pipelinelab.TierOptions()[1], pipelinelab.TierOptions()[2]},
		Help:    "The smaller-model lever moves to the small tier from here."},
	{Name: knobAnswer, Label: "Baseline answer length", Kind: labs.KnobRange, Unit: "tokens", Min: 100, Max: 1000, Step: 50,
		Default: 300.0, Help: "Tokens every row writes, except the shorter-answer lever."},
	{Name: knobShort, Label: "Shorter answer", Kind: labs.KnobRange, Unit: "tokens", Min: 20, Max: 500, Step: 10,
		Default: 100.0, Help: "Tokens the shorter-answer lever asks for."},
	{Name: knobHelpers, Label: "Model calls before the answer", Kind: labs.KnobRange, Unit: "calls", Min: 1, Max: 3, Step: 1,
		Default: 1.0, Help: "Extra calls in a row in the baseline (rewrite the question, classify it, plan); the lever removes them."},
}

var presets = []labs.Preset{
	{Name: "Default: the lesson's baseline", Note: "A blocking 300-token answer on the medium tier, lookups one after another, no cache, one rewrite call first.",
		Values: labs.Values{}},
	{Name: "Long answers on the large tier", Note: "A 600-token answer on the 70B model: writing time dwarfs everything before it. This set runs on the virtual clock.",
		Values: labs.Values{knobTier: pipelinelab.TierLarge, knobAnswer: 600.0}},
}

// settings are validated values.
type settings struct {
	question     string
	tier         string
	answerTokens int
	shortTokens  int
	helpers      int
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
	s := settings{question: q, tier: clean.String(knobTier), answerTokens: clean.Int(knobAnswer),
		shortTokens: clean.Int(knobShort), helpers: clean.Int(knobHelpers)}
	if s.shortTokens >= s.answerTokens {
		return settings{}, labs.FieldError{Knob: knobShort, Message: "The shorter answer must be shorter than the baseline answer."}
	}
	return s, nil
}

// Check reports cross-knob problems next to the knob (the web runner calls
// it before running).
func (l *Lab) Check(v labs.Values) []labs.FieldError {
	if _, err := parse(v); err != nil {
		if fe, ok := err.(labs.FieldError); ok {
			return []labs.FieldError{fe}
		}
	}
	return nil
}
