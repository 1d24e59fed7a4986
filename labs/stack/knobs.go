package stack

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names; they double as the Datastar signal names.
const (
	knobFormat    = "format"
	knobTier      = "tier"
	knobAnswer    = "answerTokens"
	knobProxy     = "proxy"
	knobBuffering = "buffering"
	knobBuffer    = "bufferBytes"
	knobFlush     = "flushMS"
)

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	format           string
	tier             string
	answer           int
	proxy, buffering bool
	bufferBytes      int
	flushMS          int
}

// defaults are the settings of the default preset: a laptop, no proxy.
var defaults = params{format: pipeline.OpenAIFormat.Name, tier: pipelinelab.TierMedium, answer: 300,
	buffering: true, bufferBytes: 64 << 10}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	behind := func(change func(*params)) params {
		p := defaults
		p.proxy = true
		change(&p)
		return p
	}
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: []labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobFormat, Label: "Provider's stream format", Options: formatOptions(),
				Help: "How the model provider frames its stream; the gateway reads either into the app's own events."},
				func(p *params) *string { return &p.format }),
			labs.Bind(labs.Knob{Name: knobTier, Label: "Model tier", Options: pipelinelab.TierOptions(),
				Help: "The model and GPUs in the bundled engine that write the answer."}, func(p *params) *string { return &p.tier }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Answer length", Unit: "tokens", Min: 20, Max: 1000, Step: 10,
				Help: "Tokens the answer has; each one is an event on every hop."}, func(p *params) *int { return &p.answer }),
			labs.Bind(labs.Knob{Name: knobProxy, Label: "Reverse proxy in front of the app",
				Help: "Off: the browser talks to the app directly, as on a laptop. On: a proxy or load balancer sits in between, as in production."},
				func(p *params) *bool { return &p.proxy }),
			labs.Bind(labs.Knob{Name: knobBuffering, Label: "Proxy buffers the response",
				Help: "Off is the fix: buffering switched off for the streaming route (nginx honours an X-Accel-Buffering: no header from the app)."},
				func(p *params) *bool { return &p.buffering }),
			labs.Bind(labs.Knob{Name: knobBuffer, Label: "Proxy buffer size", Unit: "bytes", Min: 1024, Max: 256 << 10, Step: 1024,
				Help: "The proxy passes bytes on when this many have piled up, a buffer at a time."},
				func(p *params) *int { return &p.bufferBytes }),
			labs.Bind(labs.Knob{Name: knobFlush, Label: "Proxy flush timer", Unit: "ms", Min: 0, Max: 5000, Step: 50,
				Help: "The proxy also passes on whatever it holds this often (0: never, only when full or at the end)."},
				func(p *params) *int { return &p.flushMS }),
		},
		Presets: []labs.Example[params]{
			{Name: "Works on my laptop", Params: defaults,
				Note: "No proxy: every token's event reaches the browser the moment the GPU makes it."},
			{Name: "In production behind a buffering proxy", Params: behind(func(*params) {}),
				Note: "The proxy holds the whole answer in its buffer: the reader stares at nothing, then gets everything in one burst. " +
					"The model runs alone on an idle GPU here, with no stages or network before it, so the wait is its 2.3 s of writing rather than the budget lesson's 4.6 s."},
			{Name: "A smaller proxy buffer", Params: behind(func(p *params) { p.bufferBytes = 4 << 10 }),
				Note: "A 4 KB buffer fills again and again: the text lands in a few lumps, each cut wherever the buffer ended, even mid-event."},
			{Name: "A proxy that flushes on a timer", Params: behind(func(p *params) { p.flushMS = 500 }),
				Note: "The buffer never fills, but the proxy lets go of what it holds every half second: lumps on a beat."},
			{Name: "Fixed: buffering off for the stream route", Params: behind(func(p *params) { p.buffering = false }),
				Note: "Same proxy, buffering switched off for this route: the browser sees what the laptop saw."},
			{Name: "Fixed, with the other provider", Params: behind(func(p *params) {
				p.buffering, p.format = false, pipeline.AnthropicFormat.Name
			}), Note: "A provider with another event format: the provider's bytes differ, the gateway's stream does not."},
		},
		Run: run,
	})
}

// formatOptions are the provider formats as enum options.
func formatOptions() []labs.Option {
	var out []labs.Option
	for _, f := range pipeline.WireFormats() {
		out = append(out, labs.Option{Value: f.Name, Label: f.Label})
	}
	return out
}

// Check has no rule across knobs: the buffer knobs simply do nothing while
// the proxy is off or passes the stream through.
func (p params) Check() []labs.FieldError { return nil }

// settings are one run's params with the tier and format looked up.
type settings struct {
	params
	tier   pipelinelab.TierSpec
	format pipeline.WireFormat
	proxy  proxy
}

// settings looks the tier and format up.
func (p params) settings() (settings, error) {
	tier, err := pipelinelab.LookupTier(p.tier)
	if err != nil {
		return settings{}, fmt.Errorf("stack: %w", err)
	}
	f, err := pipeline.LookupWireFormat(p.format)
	if err != nil {
		return settings{}, fmt.Errorf("stack: %w", err)
	}
	return settings{params: p, tier: tier, format: f,
		proxy: proxy{on: p.proxy, buffering: p.buffering, size: p.bufferBytes, flush: time.Duration(p.flushMS) * time.Millisecond}}, nil
}
