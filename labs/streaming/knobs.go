package streaming

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names; they double as the Datastar signal names.
const (
	knobStreaming = "streaming"
	knobAnswer    = "answerTokens"
	knobPrompt    = "promptTokens"
	knobModel     = "model"
	knobGPU       = "gpu"
	knobReading   = "readingSpeed"
	knobSpeedCap  = "speedCap"
	knobSide      = "sideBySide"
)

// params are the lab's settings, one field per knob; they double as the
// page's Datastar signals.
type params struct {
	streaming    bool
	answerTokens int
	promptTokens int
	model        string
	gpu          string
	readingSpeed float64 // words per second
	speedCap     int     // most tokens a second the model may write; 0: as fast as the GPU goes
	sideBySide   bool    // send a streamed answer and a blocked one half as long together
	// host puts the GPU at a provider: the network to it and other
	// tenants' traffic on its engine (its GPU is the gpu knob).
	host pipelinelab.Hosting
}

// defaults are the settings of the default preset.
var defaults = params{streaming: true, answerTokens: 300, promptTokens: 1000,
	model: "llama-3.1-8b", gpu: "h100-sxm", readingSpeed: 4.5, host: pipelinelab.Idle}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	blocking, longL4, huge := defaults, defaults, defaults
	blocking.streaming = false
	longL4.answerTokens, longL4.gpu = 1000, "l4"
	huge.promptTokens = 8000
	hosted := defaults
	hosted.host = pipelinelab.AsInTheLesson
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: append(append([]labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobStreaming, Label: "Streaming",
				Help: "On: each token is shown as it arrives. Off: the answer is shown once it is complete."},
				func(p *params) *bool { return &p.streaming }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Answer length", Unit: "tokens", Min: 50, Max: 1000, Step: 10,
				Help: "How many tokens the model writes; a token is about three quarters of a word."},
				func(p *params) *int { return &p.answerTokens }),
			labs.Bind(labs.Knob{Name: knobPrompt, Label: "Prompt length", Unit: "tokens", Min: 50, Max: 8000, Step: 50,
				Help: "System prompt, support notes and the question, as the model reads them."},
				func(p *params) *int { return &p.promptTokens }),
			labs.Bind(servableModelKnob(),
				func(p *params) *string { return &p.model }),
			labs.Bind(labs.GPUKnob(knobGPU, "One GPU of this type serves the model; other learners on the same choice share it."),
				func(p *params) *string { return &p.gpu }),
			labs.Bind(labs.Knob{Name: knobReading, Label: "Reading speed", Unit: "words/s", Min: 3, Max: 6, Step: 0.1,
				Help: "How fast the reader gets through the text; adults read about four to five words a second."},
				func(p *params) *float64 { return &p.readingSpeed }),
			labs.Bind(labs.Knob{Name: knobSpeedCap, Label: "Model speed cap", Unit: "tokens/s", Min: 0, Max: 300, Step: 10, ZeroLabel: "off",
				Help: "Hold the model to at most this many tokens a second, as a busy hosted API does (0: as fast as the GPU goes)."},
				func(p *params) *int { return &p.speedCap }),
			labs.Bind(labs.Knob{Name: knobSide, Label: "Side by side",
				Help: "Send two requests at once: one answer of the chosen length, streamed, and one half as long, shown only when complete. Both go to the same GPU, so they share its batch. The Streaming knob does not apply."},
				func(p *params) *bool { return &p.sideBySide }),
		}, pipelinelab.NetworkKnobs(hostOf)...), pipelinelab.TenantKnobs(hostOf)...),
		Presets: []labs.Example[params]{
			{Name: "Streaming on an H100", Params: defaults,
				Note: "The first word appears after the prompt is read, and the text then outruns any reader."},
			{Name: "Blocking on an H100", Params: blocking,
				Note: "Same request, same GPU: the first word now waits for the last token."},
			{Name: longL4Preset, Params: longL4,
				Note: "A slower GPU and a 1,000-token answer: the whole answer takes long, but streaming makes the wait bearable. " +
					"At about 13 tokens a second this card sits well under the 30 to 200 a single stream usually gets, " +
					"because each token reads all 16 GB of weights through 300 GB/s of memory, under a tenth of an H100's 3,350."},
			{Name: "Huge prompt", Params: huge,
				Note: "An 8,000-token prompt: reading it takes the GPU longer, so time to first token grows."},
			sideBySidePreset(),
			{Name: hostedPreset, Params: hosted,
				Note: "The H100 as a hosted provider: 190 ms away over a new connection per call, with nine other chats a second on it. " +
					"The first token comes near the lesson's 600 ms and the text at about its 80 tokens a second; switch each cause off to see its share."},
		},
		Run: run,
	})
}

// longL4Preset is the preset whose speed falls below the lesson's usual
// range; its note's figures are held by a test.
const longL4Preset = "Long answer on an L4"

// hostedPreset is the preset that reproduces the lesson's hosted tier.
const hostedPreset = "Hosted tier as in the lesson"

func hostOf(p *params) *pipelinelab.Hosting { return &p.host }

// settings are one run's params with what they imply: the deployment and
// its engine configuration.
type settings struct {
	params
	profile labs.Profile
	engine  engine.Config
}

func (p params) profile() labs.Profile { return labs.Profile{Hardware: p.gpu, Model: p.model} }

// Check reports the rule that spans knobs: the chosen model must fit on
// the chosen GPU. The message names the choices that would work.
func (p params) Check() []labs.FieldError { return labs.CheckFit(knobGPU, p.profile()) }

// settings derives a run's deployment from checked params.
func (p params) settings() (settings, error) {
	cfg, err := p.profile().Config()
	if err != nil {
		return settings{}, fmt.Errorf("streaming: %w", err)
	}
	return settings{params: p, profile: p.profile(), engine: cfg}, nil
}

// servableModelKnob offers only the models that fit on at least one of the
// lab's GPUs in BF16: a model no choice of GPU can hold is a dead end.
func servableModelKnob() labs.Knob {
	k := labs.ModelKnob(knobModel, "Served in BF16 on a single GPU; models too large for every GPU here are not offered.")
	var fits []labs.Option
	for _, o := range k.Options {
		if _, gpus := labs.FitsWith(labs.Profile{Model: o.Value}); len(gpus) > 0 {
			fits = append(fits, o)
		}
	}
	k.Options = fits
	return k
}
