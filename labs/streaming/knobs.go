package streaming

import (
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// Knob names; they double as the Datastar signal names.
const (
	knobStreaming = "streaming"
	knobAnswer    = "answerTokens"
	knobPrompt    = "promptTokens"
	knobModel     = "model"
	knobGPU       = "gpu"
	knobReading   = "readingSpeed"
)

// Defaults of the default preset.
const (
	defaultModel = "llama-3.1-8b"
	defaultGPU   = "h100-sxm"
)

// Knobs lists the lab's settings.
func (l *Lab) Knobs() []labs.Knob { return knobs() }

func knobs() []labs.Knob {
	return []labs.Knob{
		{Name: knobStreaming, Label: "Streaming", Kind: labs.KnobBool, Default: true,
			Help: "On: each token is shown as it arrives. Off: the answer is shown once it is complete."},
		{Name: knobAnswer, Label: "Answer length", Kind: labs.KnobRange, Unit: "tokens",
			Min: 50, Max: 1000, Step: 10, Default: 300.0,
			Help: "How many tokens the model writes; a token is about three quarters of a word."},
		{Name: knobPrompt, Label: "Prompt length", Kind: labs.KnobRange, Unit: "tokens",
			Min: 50, Max: 8000, Step: 50, Default: 1000.0,
			Help: "System prompt, support notes and the question, as the model reads them."},
		labs.ModelKnob(knobModel, defaultModel, "Served in BF16 on a single GPU."),
		labs.GPUKnob(knobGPU, defaultGPU, "One GPU of this type serves the model; other learners on the same choice share it."),
		{Name: knobReading, Label: "Reading speed", Kind: labs.KnobRange, Unit: "words/s",
			Min: 3, Max: 6, Step: 0.1, Default: 4.5,
			Help: "How fast the reader gets through the text; adults read about four to five words a second."},
	}
}

// Presets lists settings worth trying; the first is the default view.
func (l *Lab) Presets() []labs.Preset {
	preset := func(name, note string, streaming bool, answer, prompt float64, gpu string) labs.Preset {
		return labs.Preset{Name: name, Note: note, Values: labs.Values{
			knobStreaming: streaming, knobAnswer: answer, knobPrompt: prompt,
			knobModel: defaultModel, knobGPU: gpu, knobReading: 4.5,
		}}
	}
	return []labs.Preset{
		preset("Streaming on an H100",
			"The first word appears after the prompt is read, and the text then outruns any reader.",
			true, 300, 1000, defaultGPU),
		preset("Blocking on an H100",
			"Same request, same GPU: the first word now waits for the last token.",
			false, 300, 1000, defaultGPU),
		preset("Long answer on an L4",
			"A slower GPU and a 1,000-token answer: the whole answer takes long, but streaming makes the wait bearable.",
			true, 1000, 1000, "l4"),
		preset("Huge prompt",
			"An 8,000-token prompt: reading it takes the GPU longer, so time to first token grows.",
			true, 300, 8000, defaultGPU),
	}
}

// settings are one run's parsed knob values.
type settings struct {
	streaming    bool
	answerTokens int
	promptTokens int
	profile      labs.Profile
	readingSpeed float64 // words per second
	engine       engine.Config
}

// Check reports problems that span knobs, which labs.Validate cannot see:
// the chosen model must fit on the chosen GPU. Values must already have
// passed labs.Validate. The message names the choices that would work.
func (l *Lab) Check(v labs.Values) []labs.FieldError {
	_, err := parse(v)
	return labs.CheckErr(err, knobGPU)
}

// parse validates v against the knobs (so out-of-range values are refused
// even when a caller skipped labs.Validate) and checks that the model fits.
func parse(v labs.Values) (settings, error) {
	vals, errs := labs.Validate(knobs(), v)
	if len(errs) > 0 {
		return settings{}, labs.JoinFieldErrors(errs)
	}
	s := settings{
		streaming:    vals.Bool(knobStreaming),
		answerTokens: vals.Int(knobAnswer),
		promptTokens: vals.Int(knobPrompt),
		profile:      labs.Profile{Hardware: vals.String(knobGPU), Model: vals.String(knobModel)},
		readingSpeed: vals.Float(knobReading),
	}
	cfg, err := s.profile.Config()
	if err != nil {
		return settings{}, labs.FieldError{Knob: knobGPU, Message: fitMessage(s.profile)}
	}
	s.engine = cfg
	return s, nil
}

// fitMessage explains a model that does not fit on a GPU and names the
// choices that do.
func fitMessage(p labs.Profile) string {
	models, gpus := labs.FitsWith(p)
	msg := fmt.Sprintf("%s does not fit on one %s in BF16 (weights plus working memory exceed the GPU's memory).", p.Model, p.Hardware)
	if len(gpus) > 0 {
		msg += fmt.Sprintf(" Pick a larger GPU for it: %s.", strings.Join(gpus, ", "))
	} else {
		msg += " No single GPU in this lab holds it."
	}
	if len(models) > 0 {
		msg += fmt.Sprintf(" Or keep %s and pick a smaller model: %s.", p.Hardware, strings.Join(models, ", "))
	}
	return msg
}
