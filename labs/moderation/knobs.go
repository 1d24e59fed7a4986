package moderation

import (
	"fmt"
	"strings"
	"time"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// Knob names; they double as the Datastar signal names.
const (
	knobPolicy      = "policy"
	knobPromptCheck = "promptCheck"
	knobWindow      = "windowTokens"
	knobUnit        = "windowUnit"
	knobOverlap     = "overlapTokens"
	knobLatency     = "latencyMs"
	knobScenario    = "scenario"
	knobModel       = "model"
	knobGPU         = "gpu"
)

// policyCompare runs every policy at once on the same scenario.
const policyCompare = "compare"

// Defaults of the default preset.
const (
	defaultModel = "llama-3.1-8b"
	defaultGPU   = "h100-sxm"
)

// policyLabels are the policy knob's choices, in the seeds' order of
// sophistication after the two naive options.
var policyLabels = []labs.Option{
	{Value: string(mod.NoModeration), Label: "No moderation"},
	{Value: string(mod.StreamThenModerate), Label: "Stream, then moderate"},
	{Value: string(mod.ModerateThenSend), Label: "Moderate, then send"},
	{Value: string(mod.BufferedWindow), Label: "Buffered window"},
	{Value: string(mod.AbortMidStream), Label: "Buffered window + abort mid-stream"},
	{Value: policyCompare, Label: "Compare all policies"},
}

// policyLabel is the display name of a policy.
func policyLabel(p string) string {
	for _, o := range policyLabels {
		if o.Value == p {
			return o.Label
		}
	}
	return p
}

// Knobs lists the lab's settings.
func (l *Lab) Knobs() []labs.Knob { return knobs() }

func knobs() []labs.Knob {
	sc := make([]labs.Option, 0, len(scenarios))
	for _, name := range scenarioOptions() {
		sc = append(sc, labs.Option{Value: name, Label: scenarios[name].label})
	}
	return []labs.Knob{
		{Name: knobPolicy, Label: "Policy", Kind: labs.KnobEnum, Options: policyLabels, Default: string(mod.StreamThenModerate),
			Help: "Where the safety check sits between the model and the reader."},
		{Name: knobPromptCheck, Label: "Check the prompt first", Kind: labs.KnobBool, Default: false,
			Help: "Run the injection and policy checks on the customer's message before the model starts."},
		{Name: knobWindow, Label: "Window", Kind: labs.KnobRange, Min: 1, Max: 100, Step: 1, Default: 20.0,
			Help: "New tokens (or sentences) per check; a sentence is about 20 tokens. Stream-then-moderate checks behind in windows this size too."},
		{Name: knobOverlap, Label: "Overlap", Kind: labs.KnobRange, Min: 0, Max: 40, Step: 1, Default: 10.0,
			Help: "Tokens (or sentences) held back at the end of each window and checked again with the next, so text split across two windows is seen whole."},
		{Name: knobUnit, Label: "Window unit", Kind: labs.KnobEnum, Default: string(mod.Tokens),
			Options: []labs.Option{{Value: string(mod.Tokens), Label: "tokens"}, {Value: string(mod.Sentences), Label: "sentences"}},
			Help:    "Count the window and overlap in tokens, or in whole sentences (a window then never ends mid-sentence)."},
		{Name: knobLatency, Label: "Moderation latency", Kind: labs.KnobRange, Unit: "ms", Min: 0, Max: 500, Step: 10, Default: 50.0,
			Help: "What each call to the moderation model costs on top of the detectors' own time."},
		{Name: knobScenario, Label: "Scenario", Kind: labs.KnobEnum, Options: sc, Default: scenarioLeak,
			Help: "What the retrieved notes and the customer's message contain."},
		labs.ModelKnob(knobModel, defaultModel, "Served in BF16 on a single GPU."),
		labs.GPUKnob(knobGPU, defaultGPU, "One GPU of this type serves the model; other learners on the same choice share it."),
	}
}

// Presets lists settings worth trying; the first is the default view.
func (l *Lab) Presets() []labs.Preset {
	preset := func(name, note, policy, scenario string, promptCheck bool) labs.Preset {
		return labs.Preset{Name: name, Note: note, Values: labs.Values{
			knobPolicy: policy, knobPromptCheck: promptCheck, knobWindow: 20.0, knobOverlap: 10.0, knobUnit: string(mod.Tokens),
			knobLatency: 50.0, knobScenario: scenario, knobModel: defaultModel, knobGPU: defaultGPU,
		}}
	}
	return []labs.Preset{
		preset("Leak: stream then moderate",
			"Words appear at once, but the e-mail address is on screen before the check behind the stream catches it.",
			string(mod.StreamThenModerate), scenarioLeak, false),
		preset("Moderate then send",
			"Nothing unsafe is shown, and nothing at all until the whole answer is written and checked.",
			string(mod.ModerateThenSend), scenarioLeak, false),
		preset("Buffered window",
			"The reader trails the model by about one window; the window holding the e-mail never leaves the server.",
			string(mod.BufferedWindow), scenarioLeak, false),
		preset("Abort mid-stream",
			"The failed window also cancels generation: watch the generated line stop and the tokens after the problem drop.",
			string(mod.AbortMidStream), scenarioLeak, false),
		preset("Prompt injection",
			"The check on the way in refuses the message before the model runs: no tokens generated at all. Turn it off to see the output check catch it instead.",
			string(mod.AbortMidStream), scenarioInjection, true),
		preset("Compare all policies",
			"Every policy on the same answer at the same time, on the same engine: read the table from top to bottom.",
			policyCompare, scenarioLeak, false),
	}
}

// settings are one run's parsed knob values.
type settings struct {
	policy      mod.Policy
	compare     bool
	promptCheck bool
	window      int
	overlap     int
	unit        mod.Unit
	latency     time.Duration
	scenario    string
	profile     labs.Profile
}

// Check reports problems that span knobs, which labs.Validate cannot see
// (the model must fit on the GPU). Values must have passed labs.Validate.
func (l *Lab) Check(v labs.Values) []labs.FieldError {
	_, err := parse(v)
	return labs.CheckErr(err, knobGPU)
}

// parse validates v against the knobs (so a caller that skipped
// labs.Validate is still refused) and checks that the model fits.
func parse(v labs.Values) (settings, error) {
	vals, errs := labs.Validate(knobs(), v)
	if len(errs) > 0 {
		return settings{}, labs.JoinFieldErrors(errs)
	}
	s := settings{
		policy:      mod.Policy(vals.String(knobPolicy)),
		promptCheck: vals.Bool(knobPromptCheck),
		window:      vals.Int(knobWindow),
		overlap:     vals.Int(knobOverlap),
		unit:        mod.Unit(vals.String(knobUnit)),
		latency:     time.Duration(vals.Int(knobLatency)) * time.Millisecond,
		scenario:    vals.String(knobScenario),
		profile:     labs.Profile{Hardware: vals.String(knobGPU), Model: vals.String(knobModel)},
	}
	if s.policy == policyCompare {
		s.compare = true
	}
	if _, err := s.profile.Config(); err != nil {
		return settings{}, labs.FieldError{Knob: knobGPU, Message: fitMessage(s.profile)}
	}
	return s, nil
}

// filter is the moderation filter for policy p with these settings.
func (s settings) filter(p mod.Policy) mod.FilterConfig {
	return mod.FilterConfig{Policy: p, Unit: s.unit, Window: s.window, Overlap: s.overlap}
}

// fitMessage explains a model that does not fit on a GPU and names the
// choices that do.
func fitMessage(p labs.Profile) string {
	models, gpus := labs.FitsWith(p)
	msg := fmt.Sprintf("%s does not fit on one %s in BF16.", p.Model, p.Hardware)
	if len(gpus) > 0 {
		msg += fmt.Sprintf(" Pick a larger GPU for it: %s.", strings.Join(gpus, ", "))
	}
	if len(models) > 0 {
		msg += fmt.Sprintf(" Or keep %s and pick a smaller model: %s.", p.Hardware, strings.Join(models, ", "))
	}
	return msg
}
