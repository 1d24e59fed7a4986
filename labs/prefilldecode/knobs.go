package prefilldecode

import (
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

// Defaults of the default preset: the lesson's 3,200-token support prompt.
const (
	defaultModel  = "llama-3.1-8b"
	defaultGPU    = "h100-sxm"
	defaultOutput = 200.0
)

// Knobs lists the lab's settings.
func (l *Lab) Knobs() []labs.Knob { return knobs() }

func knobs() []labs.Knob {
	return []labs.Knob{
		labs.ModelKnob(knobModel, defaultModel, "Bigger models do more arithmetic per prompt token and read more bytes per output token."),
		labs.GPUKnob(knobGPU, defaultGPU, "One GPU of this type; learners who pick the same model, GPU and precision share it."),
		{Name: knobPrecision, Label: "Weight precision", Kind: labs.KnobEnum, Default: string(engine.BF16),
			Options: []labs.Option{{Value: string(engine.BF16), Label: "BF16 (2 bytes a weight)"},
				{Value: string(engine.FP8), Label: "FP8 (1 byte; needs FP8 tensor cores)"},
				{Value: string(engine.INT4), Label: "INT4 (about half a byte)"}},
			Help: "Fewer bytes per weight make each decode step read less memory."},
		{Name: knobMode, Label: "Prompt", Kind: labs.KnobEnum, Default: modeParts,
			Options: []labs.Option{{Value: modeParts, Label: "Built like the support bot"},
				{Value: modePlain, Label: "A plain prompt length"}},
			Help: "Built from parts: system prompt, retrieved chunks, earlier turns and the question."},
		{Name: knobPrompt, Label: "Prompt length", Kind: labs.KnobRange, Unit: "tokens",
			Min: 128, Max: 16384, Step: 1, Default: 3200.0,
			Help: "Used with a plain prompt length: the system prompt, a document and the question."},
		{Name: knobSystem, Label: "System prompt", Kind: labs.KnobRange, Unit: "tokens",
			Min: 50, Max: 4000, Step: 10, Default: 200.0,
			Help: "The fixed instructions every request starts with; about 200 tokens is typical."},
		{Name: knobChunks, Label: "Retrieved chunks", Kind: labs.KnobRange, Unit: "chunks",
			Min: 0, Max: 20, Step: 1, Default: 20.0,
			Help: "Help-centre passages of about 100 tokens each (built prompts only)."},
		{Name: knobTurns, Label: "Earlier turns", Kind: labs.KnobRange, Unit: "turns",
			Min: 0, Max: 20, Step: 1, Default: 20.0,
			Help: "Messages of the conversation so far, about 50 tokens each (built prompts only)."},
		{Name: knobOutput, Label: "Answer length", Kind: labs.KnobRange, Unit: "tokens",
			Min: 1, Max: 1000, Step: 1, Default: defaultOutput,
			Help: "How many tokens the model writes, one decode step each."},
		{Name: knobCaching, Label: "Prefix caching", Kind: labs.KnobBool, Default: false,
			Help: "On: a second customer's request reuses the cached system prompt. Off: it is computed again."},
	}
}

// Presets lists settings worth trying; the first is the default view.
func (l *Lab) Presets() []labs.Preset {
	base := func(changes labs.Values) labs.Values {
		v := labs.Defaults(knobs())
		for k, x := range changes {
			v[k] = x
		}
		return v
	}
	return []labs.Preset{
		{Name: "The 3,200-token support prompt",
			Note:   "System prompt, 20 chunks, 20 turns and a question: guess the time to first token, then run it.",
			Values: base(nil)},
		{Name: "Short chat prompt",
			Note:   "No retrieval and two earlier turns: the prompt shrinks tenfold, the answer streams just as fast.",
			Values: base(labs.Values{knobChunks: 0.0, knobTurns: 2.0})},
		{Name: "Long document (16k)",
			Note:   "A 16,384-token document: prefill now dominates, yet each output token still takes about as long.",
			Values: base(labs.Values{knobMode: modePlain, knobPrompt: 16384.0})},
		{Name: "Slow GPU (L4)",
			Note:   "The same request on an L4, with a ninth of the H100's memory bandwidth: watch the time per output token.",
			Values: base(labs.Values{knobGPU: "l4", knobOutput: 100.0})},
		{Name: "70B on H200 FP8",
			Note: "Nine times the parameters: prefill and decode both slow down. (On an H100 the 70B model in FP8 leaves " +
				"room for too few tokens of cache to hold this prompt, so it runs on an H200.)",
			Values: base(labs.Values{knobModel: "llama-3.1-70b", knobGPU: "h200", knobPrecision: string(engine.FP8)})},
		{Name: "Prefix caching: shared system prompt",
			Note:   "A 2,000-token system prompt shared by two customers: the second one's first token comes much sooner.",
			Values: base(labs.Values{knobSystem: 2000.0, knobChunks: 5.0, knobTurns: 4.0, knobCaching: true})},
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

// Check reports problems that span knobs, which labs.Validate cannot see:
// FP8 on a GPU without FP8 tensor cores, a model that does not fit, a
// prompt and answer that exceed the context or the KV cache. Values must
// already have passed labs.Validate.
func (l *Lab) Check(v labs.Values) []labs.FieldError {
	_, err := parse(v)
	return labs.CheckErr(err, knobGPU)
}

// parse validates v against the knobs (so out-of-range values are refused
// even when a caller skipped labs.Validate) and checks the deployment.
func parse(v labs.Values) (settings, error) {
	vals, errs := labs.Validate(knobs(), v)
	if len(errs) > 0 {
		return settings{}, labs.JoinFieldErrors(errs)
	}
	prec := engine.Precision(vals.String(knobPrecision))
	s := settings{
		profile: labs.Profile{Hardware: vals.String(knobGPU), Model: vals.String(knobModel), Precision: prec},
		spec: promptSpec{
			plain:  vals.String(knobMode) == modePlain,
			total:  vals.Int(knobPrompt),
			system: vals.Int(knobSystem),
			chunks: vals.Int(knobChunks),
			turns:  vals.Int(knobTurns),
		},
		output:  vals.Int(knobOutput),
		caching: vals.Bool(knobCaching),
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
			thousands(need), s.engine.Model.Name, thousands(ctx))
	}
	fp, err := s.engine.Footprint()
	if err != nil {
		return fitMessage(s.profile)
	}
	if need > fp.KVTokens {
		return fmt.Sprintf("The prompt and the answer come to about %s tokens, but %s leaves room in the KV cache for only %s tokens. "+
			"Shorten the prompt, or pick a lower precision or a bigger GPU.",
			thousands(need), s.profile, thousands(fp.KVTokens))
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
