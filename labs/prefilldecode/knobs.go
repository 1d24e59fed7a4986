package prefilldecode

import (
	"context"
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// Knob names; they double as the Datastar signal names.
const (
	knobModel     = "model"
	knobGPU       = "gpu"
	knobPrecision = "precision"
	knobMode      = "promptMode"
	knobPrompt    = "promptTokens"
	knobSystem    = "systemTokens"
	knobChunks    = "ragChunks"
	knobTurns     = "historyTurns"
	knobOutput    = "outputTokens"
	knobCaching   = "prefixCaching"
)

// Prompt modes.
const (
	modeParts = "parts"
	modePlain = "plain"
)

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	model, gpu, precision, mode           string
	prompt, system, chunks, turns, output int
	caching                               bool
}

// defaults are the default preset: the lesson's 3,200-token support prompt.
var defaults = params{model: "llama-3.1-8b", gpu: "h100-sxm", precision: string(engine.BF16), mode: modeParts,
	prompt: 3200, system: 200, chunks: 20, turns: 20, output: 200}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: []labs.Field[params]{
			labs.Bind(labs.ModelKnob(knobModel, "Bigger models do more arithmetic per prompt token and read more bytes per output token."),
				func(p *params) *string { return &p.model }),
			labs.Bind(labs.GPUKnob(knobGPU, "One GPU of this type; learners who pick the same model, GPU and precision share it."),
				func(p *params) *string { return &p.gpu }),
			labs.Bind(labs.Knob{Name: knobPrecision, Label: "Weight precision",
				Options: []labs.Option{{Value: string(engine.BF16), Label: "BF16 (2 bytes a weight)"},
					{Value: string(engine.FP8), Label: "FP8 (1 byte; needs FP8 tensor cores)"},
					{Value: string(engine.INT4), Label: "INT4 (about half a byte)"}},
				Help: "Fewer bytes per weight make each decode step read less memory."}, func(p *params) *string { return &p.precision }),
			labs.Bind(labs.Knob{Name: knobMode, Label: "Prompt",
				Options: []labs.Option{{Value: modeParts, Label: "Built like the support bot"},
					{Value: modePlain, Label: "A plain prompt length"}},
				Help: "Built from parts: system prompt, retrieved chunks, earlier turns and the question."}, func(p *params) *string { return &p.mode }),
			labs.Bind(labs.Knob{Name: knobPrompt, Label: "Prompt length", Unit: "tokens", Min: 128, Max: 16384, Step: 1,
				Help: "Used with a plain prompt length: the system prompt, a document and the question."}, func(p *params) *int { return &p.prompt }),
			labs.Bind(labs.Knob{Name: knobSystem, Label: "System prompt", Unit: "tokens", Min: 50, Max: 4000, Step: 10,
				Help: "The fixed instructions every request starts with; about 200 tokens is typical."}, func(p *params) *int { return &p.system }),
			labs.Bind(labs.Knob{Name: knobChunks, Label: "Retrieved chunks", Unit: "chunks", Min: 0, Max: 20, Step: 1,
				Help: "Help-centre passages of about 100 tokens each (built prompts only)."}, func(p *params) *int { return &p.chunks }),
			labs.Bind(labs.Knob{Name: knobTurns, Label: "Earlier turns", Unit: "turns", Min: 0, Max: 20, Step: 1,
				Help: "Messages of the conversation so far, about 50 tokens each (built prompts only)."}, func(p *params) *int { return &p.turns }),
			labs.Bind(labs.Knob{Name: knobOutput, Label: "Answer length", Unit: "tokens", Min: 1, Max: 1000, Step: 1,
				Help: "How many tokens the model writes, one decode step each."}, func(p *params) *int { return &p.output }),
			labs.Bind(labs.Knob{Name: knobCaching, Label: "Prefix caching",
				Help: "On: a second customer's request reuses the cached system prompt. Off: it is computed again."}, func(p *params) *bool { return &p.caching }),
		},
		Presets: presets(),
		Run:     run,
	})
}

// presets are settings worth trying; the first is the default view.
func presets() []labs.Example[params] {
	short, long, l4, big, amd, cached := defaults, defaults, defaults, defaults, defaults, defaults
	short.chunks, short.turns = 0, 2
	long.mode, long.prompt = modePlain, 16384
	l4.gpu, l4.output = "l4", 100
	big.model, big.gpu, big.precision = "llama-3.1-70b", "h200", string(engine.FP8)
	amd.model, amd.gpu = "llama-3.1-70b", "mi300x"
	cached.system, cached.chunks, cached.turns, cached.caching = 2000, 5, 4, true
	return []labs.Example[params]{
		{Name: "The 3,200-token support prompt", Params: defaults,
			Note: "System prompt, 20 chunks, 20 turns and a question: guess the time to first token, then run it."},
		{Name: "Short chat prompt", Params: short,
			Note: "No retrieval and two earlier turns: the prompt shrinks tenfold, the answer streams just as fast."},
		{Name: "Long document (16k)", Params: long,
			Note: "A 16,384-token document: prefill grows about sixfold to around 0.6 s, yet 200 output tokens still take longer, and each one about as long as before."},
		{Name: "Slow GPU (L4)", Params: l4,
			Note: "The same request on an L4, with about an eleventh of the H100's memory bandwidth: watch the time per output token."},
		{Name: "70B on H200 FP8", Params: big,
			Note: "Nine times the parameters: prefill and decode both slow down. (On an H100 the 70B model in FP8 leaves " +
				"room for too few tokens of cache to hold this prompt, so it runs on an H200.)"},
		{Name: "Prefix caching: shared system prompt", Params: cached,
			Note: "A 2,000-token system prompt shared by two customers: the second one's first token comes much sooner."},
		{Name: "70B in BF16 on one MI300X", Params: amd,
			Note: "The 70B model's 141 GB of BF16 weights fit on one GPU only with the MI300X's 192 GB. Every decode step reads all of them, " +
				"so compare its time per token with the H200's FP8 run, which reads half as many bytes."},
	}
}

// settings are one run's parsed knob values.
type settings struct {
	profile labs.Profile
	engine  engine.Config
	spec    promptSpec
	output  int
	caching bool
}

// promptTokens is the nominal prompt length of the settings: exact for a
// plain prompt, the sum of the nominal parts otherwise.
func (s settings) promptTokens() int {
	if s.spec.plain {
		return s.spec.total
	}
	return s.spec.system + s.spec.chunks*chunkTokens + s.spec.turns*turnTokens + nominalQuestion
}

// nominalQuestion is the question's share of a prompt in the checks made
// before the prompt is built (its real size is counted once built).
const nominalQuestion = 40

// Check reports the rules that span knobs: FP8 on a GPU without FP8
// tensor cores, a model that does not fit, a prompt and answer that exceed
// the context or the KV cache.
func (p params) Check() []labs.FieldError { _, err := p.settings(); return labs.CheckErr(err, knobGPU) }

// settings converts params and checks the deployment.
func (p params) settings() (settings, error) {
	prec := engine.Precision(p.precision)
	s := settings{
		profile: labs.Profile{Hardware: p.gpu, Model: p.model, Precision: prec},
		spec: promptSpec{
			plain:  p.mode == modePlain,
			total:  p.prompt,
			system: p.system,
			chunks: p.chunks,
			turns:  p.turns,
		},
		output:  p.output,
		caching: p.caching,
	}
	hw, err := engine.LookupHardware(s.profile.Hardware)
	if err != nil {
		return settings{}, labs.FieldError{Knob: knobGPU, Message: err.Error()}
	}
	if prec == engine.FP8 && hw.FP8TFLOPS == 0 {
		return settings{}, labs.FieldError{Knob: knobPrecision, Message: fmt.Sprintf(
			"The %s has no FP8 tensor cores, so FP8 is not offered on it. Pick BF16 or INT4, or a GPU with FP8: %s.",
			hw.Name, strings.Join(fp8GPUs(), ", "))}
	}
	cfg, err := s.profile.Config()
	if err != nil {
		return settings{}, labs.FieldError{Knob: knobGPU, Message: fitMessage(s.profile)}
	}
	s.engine = cfg
	if msg := roomMessage(s, s.promptTokens()); msg != "" {
		return settings{}, labs.FieldError{Knob: promptKnob(s), Message: msg}
	}
	return s, nil
}

// roomMessage explains a prompt of n tokens that, with the answer, does
// not fit the model's context or the KV cache; "" when it fits. parse
// checks the nominal length, and the run checks the built prompt again.
func roomMessage(s settings, n int) string {
	need := n + s.output
	if ctx := s.engine.Model.MaxContextLen; need > ctx {
		return fmt.Sprintf("The prompt and the answer come to about %s tokens, more than %s's context of %s tokens.",
			labs.Thousands(need), s.engine.Model.Name, labs.Thousands(ctx))
	}
	fp, err := s.engine.Footprint()
	if err != nil {
		return fitMessage(s.profile)
	}
	if need > fp.KVTokens {
		return fmt.Sprintf("The prompt and the answer come to about %s tokens, but %s leaves room in the KV cache for only %s tokens. "+
			"Shorten the prompt, or pick a lower precision or a bigger GPU.",
			labs.Thousands(need), s.profile, labs.Thousands(fp.KVTokens))
	}
	return ""
}

// promptKnob is the knob to blame for a prompt that is too long.
func promptKnob(s settings) string {
	if s.spec.plain {
		return knobPrompt
	}
	return knobChunks
}

// fp8GPUs lists the GPUs with FP8 tensor cores.
func fp8GPUs() []string {
	var out []string
	for _, h := range engine.HardwareProfiles() {
		if h.FP8TFLOPS > 0 {
			out = append(out, h.Name)
		}
	}
	return out
}

// fitMessage explains a model that does not fit on a GPU at a precision
// and names choices that do.
func fitMessage(p labs.Profile) string {
	prec := p.Precision
	if prec == "" {
		prec = engine.BF16
	}
	_, gpus := labs.FitsWith(labs.Profile{Hardware: p.Hardware, Model: p.Model, Precision: prec})
	var precs []string
	for _, q := range []engine.Precision{engine.BF16, engine.FP8, engine.INT4} {
		if q == prec {
			continue
		}
		if _, err := (labs.Profile{Hardware: p.Hardware, Model: p.Model, Precision: q}).Config(); err == nil {
			precs = append(precs, strings.ToUpper(string(q)))
		}
	}
	msg := fmt.Sprintf("%s does not fit on one %s in %s (weights plus working memory exceed the GPU's memory).",
		p.Model, p.Hardware, strings.ToUpper(string(prec)))
	if len(precs) > 0 {
		msg += fmt.Sprintf(" It fits there in %s.", strings.Join(precs, " or "))
	}
	if len(gpus) > 0 {
		msg += fmt.Sprintf(" In %s it fits on: %s.", strings.ToUpper(string(prec)), strings.Join(gpus, ", "))
	}
	return msg
}
