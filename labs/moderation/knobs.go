package moderation

import (
	"context"
	"time"

	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
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
	knobAnswer      = "answerTokens"
)

// policyCompare runs every policy at once on the same scenario.
const policyCompare = "compare"

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

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	policy          string
	promptCheck     bool
	window, overlap int
	unit            string
	latencyMS       int
	scenario        string
	model, gpu      string
	// answerTokens forces the answer's length (0: as long as the notes
	// make it, about a hundred tokens).
	answerTokens int
	// host puts the GPU at a provider: the network to it and other
	// tenants' traffic on its engine (its GPU is the gpu knob).
	host pipelinelab.Hosting
}

// defaults are the settings of the default preset.
var defaults = params{policy: string(mod.StreamThenModerate), window: 20, overlap: 10, unit: string(mod.Tokens),
	latencyMS: 50, scenario: scenarioLeak, model: "llama-3.1-8b", gpu: "h100-sxm", host: pipelinelab.Idle}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	sc := make([]labs.Option, 0, len(scenarios))
	for _, name := range scenarioOptions() {
		sc = append(sc, labs.Option{Value: name, Label: scenarios[name].label})
	}
	preset := func(policy, scenario string, promptCheck bool) params {
		p := defaults
		p.policy, p.scenario, p.promptCheck = policy, scenario, promptCheck
		return p
	}
	hosted := preset(string(mod.ModerateThenSend), scenarioClean, false)
	hosted.answerTokens, hosted.host = 300, pipelinelab.AsInTheLesson
	hostedWindow := hosted
	hostedWindow.policy = string(mod.BufferedWindow)
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: append(append([]labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobPolicy, Label: "Policy", Options: policyLabels,
				Help: "Where the safety check sits between the model and the reader."}, func(p *params) *string { return &p.policy }),
			labs.Bind(labs.Knob{Name: knobPromptCheck, Label: "Check the prompt first",
				Help: "Run the injection and policy checks on the customer's message before the model starts."}, func(p *params) *bool { return &p.promptCheck }),
			labs.Bind(labs.Knob{Name: knobWindow, Label: "Window", Min: 1, Max: 100, Step: 1,
				Help: "New tokens (or sentences) each check adds; a sentence is about 20 tokens. The first word waits for one window (with an overlap shorter than it). Stream-then-moderate checks behind in windows this size too."},
				func(p *params) *int { return &p.window }),
			labs.Bind(labs.Knob{Name: knobOverlap, Label: "Overlap", Min: 0, Max: 40, Step: 1,
				Help: "Tokens (or sentences) at the end of each window held back and checked again at the head of the next, so text split across two windows is seen whole before any of it shows. The first window has no earlier text, so an overlap shorter than the window does not delay the first word."},
				func(p *params) *int { return &p.overlap }),
			labs.Bind(labs.Knob{Name: knobUnit, Label: "Window unit",
				Options: []labs.Option{{Value: string(mod.Tokens), Label: "tokens"}, {Value: string(mod.Sentences), Label: "sentences"}},
				Help:    "Count the window and overlap in tokens, or in whole sentences (a window then never ends mid-sentence)."},
				func(p *params) *string { return &p.unit }),
			labs.Bind(labs.Knob{Name: knobLatency, Label: "Moderation latency", Unit: "ms", Min: 0, Max: 500, Step: 10,
				Help: "How long each call to the moderation model takes; the run counts this, not the detectors' time on this server."}, func(p *params) *int { return &p.latencyMS }),
			labs.Bind(labs.Knob{Name: knobScenario, Label: "Scenario", Options: sc,
				Help: "What the retrieved notes and the customer's message contain."}, func(p *params) *string { return &p.scenario }),
			labs.Bind(labs.ModelKnob(knobModel, "Served in BF16 on a single GPU."), func(p *params) *string { return &p.model }),
			labs.Bind(labs.GPUKnob(knobGPU, "One GPU of this type serves the model; other learners on the same choice share it."),
				func(p *params) *string { return &p.gpu }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Answer length", Unit: "tokens", Min: 0, Max: 1000, Step: 10, ZeroLabel: "as the notes run",
				Help: "0 lets the answer end where the notes run out (about a hundred tokens); more keeps the model writing from them."},
				func(p *params) *int { return &p.answerTokens }),
		}, pipelinelab.NetworkKnobs(hostOf)...), pipelinelab.TenantKnobs(hostOf)...),
		Presets: []labs.Example[params]{
			{Name: "Leak: stream then moderate", Params: preset(string(mod.StreamThenModerate), scenarioLeak, false),
				Note: "Words appear at once, but the e-mail address is on screen before the check behind the stream catches it."},
			{Name: "Moderate then send", Params: preset(string(mod.ModerateThenSend), scenarioLeak, false),
				Note: "Nothing unsafe is shown, and nothing at all until the whole answer is written and checked."},
			{Name: "Buffered window", Params: preset(string(mod.BufferedWindow), scenarioLeak, false),
				Note: "The first word waits for one window and its check, then the reader trails the model by a window plus its overlap; the window holding the e-mail never leaves the server."},
			{Name: "Abort mid-stream", Params: preset(string(mod.AbortMidStream), scenarioLeak, false),
				Note: "The failed window also cancels generation: watch the generated line stop and the tokens after the problem drop."},
			{Name: "Prompt injection", Params: preset(string(mod.AbortMidStream), scenarioInjection, true),
				Note: "The check on the way in refuses the message before the model runs: no tokens generated at all. Turn it off to see the output check catch it instead."},
			{Name: "Compare all policies", Params: preset(policyCompare, scenarioLeak, false),
				Note: "Every policy on the same answer at the same time, on the same engine: read the table from top to bottom."},
			{Name: hostedPreset, Params: hosted,
				Note: "A clean 300-token answer on a hosted tier (190 ms away, a new connection per call, nine other chats a second on the GPU), checked whole before it is sent: " +
					"the reader waits about as long as the lesson's 4.4 s for the whole answer. Switch the policy to a buffered window to get the seconds back."},
			{Name: hostedWindowPreset, Params: hostedWindow,
				Note: "The same hosted answer through a one-sentence window (20 tokens, the last 10 held back for the next check): " +
					"the first word waits for the model's first token, one sentence and one check, close to the lesson's 900 ms " +
					"(later when other chats' prompts are read in the same steps as that sentence; where the request lands in their traffic moves a little from run to run)."},
		},
		Run: run,
	})
}

// hostedPreset reproduces the lesson's point that checking the whole
// answer first brings back the whole wait.
const hostedPreset = "Moderate then send on a hosted tier"

// hostedWindowPreset reproduces the lesson's one-sentence window on the
// same hosted tier.
const hostedWindowPreset = "One-sentence window on a hosted tier"

func hostOf(p *params) *pipelinelab.Hosting { return &p.host }

// settings are one run's params in the lab's own types.
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
	answer      int
	host        pipelinelab.Hosting
}

func (p params) profile() labs.Profile { return labs.Profile{Hardware: p.gpu, Model: p.model} }

// Check reports the rule that spans knobs: the model must fit on the GPU.
func (p params) Check() []labs.FieldError { return labs.CheckFit(knobGPU, p.profile()) }

// settings converts checked params.
func (p params) settings() (settings, error) {
	return settings{
		policy:      mod.Policy(p.policy),
		compare:     p.policy == policyCompare,
		promptCheck: p.promptCheck,
		window:      p.window,
		overlap:     p.overlap,
		unit:        mod.Unit(p.unit),
		latency:     time.Duration(p.latencyMS) * time.Millisecond,
		scenario:    p.scenario,
		profile:     p.profile(),
		answer:      p.answerTokens,
		host:        p.host,
	}, nil
}

// filter is the moderation filter for policy p with these settings.
func (s settings) filter(p mod.Policy) mod.FilterConfig {
	return mod.FilterConfig{Policy: p, Unit: s.unit, Window: s.window, Overlap: s.overlap}
}
