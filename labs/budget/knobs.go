package budget

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Knob names (Datastar signals).
const (
	knobLookups     = "lookups"
	knobGuardAlong  = "guardAlongside"
	knobGuardMS     = "guardMs"
	knobHistoryMS   = "historyMs"
	knobRetrievalMS = "retrievalMs"
	knobOrderMS     = "orderMs"
	knobGatewayMS   = "gatewayMs"
	knobTier        = "tier"
	knobAnswer      = "answerTokens"
	knobRequests    = "requests"
	knobRate        = "rate"
	knobSpread      = "spread"
	knobSlowChance  = "slowChance"
	knobSlowMS      = "slowMs"
	knobBudgetMS    = "budgetMs"
	knobPercentile  = "percentile"
	knobModelCalls  = "modelCalls"
)

func stageKnob(name, label, help string) labs.Knob {
	return labs.Knob{Name: name, Label: label, Help: help, Unit: "ms", Min: 0, Max: 2000, Step: 5}
}

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	lookups                                           string
	guardAlong                                        bool
	guardMS, historyMS, retrievalMS, orderMS, gateway float64
	tier                                              string
	answerTokens, requests                            int
	rate, spread, slowChance, slowMS, budgetMS        float64
	percentile                                        string
	modelCalls                                        string
	// host is where the tiers run: next door (Idle) or at a provider.
	host pipelinelab.Hosting
}

// defaults are the lesson's stage times, the default preset.
var defaults = params{lookups: "parallel", guardMS: 80, historyMS: 30, retrievalMS: 120, orderMS: 60, gateway: 15,
	tier: pipelinelab.TierMedium, answerTokens: 300, requests: 200, rate: 2, spread: 0.3, slowChance: 1, slowMS: 3000,
	budgetMS: 1000, percentile: "95", modelCalls: callsOne, host: pipelinelab.Idle}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	sequential, tail := defaults, defaults
	sequential.lookups = "sequential"
	hosted := defaults
	hosted.host = pipelinelab.AsInTheLesson
	tail.slowChance, tail.slowMS, tail.spread, tail.percentile = 5, 12000, 0.5, "95"
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: append([]labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobLookups, Label: "Context lookups",
				Help:    "Load history, retrieve passages and look up the order together or one after another.",
				Options: []labs.Option{{Value: "parallel", Label: "Together (parallel)"}, {Value: "sequential", Label: "One after another"}}},
				func(p *params) *string { return &p.lookups }),
			labs.Bind(labs.Knob{Name: knobGuardAlong, Label: "Safety check alongside the lookups",
				Help: "Run the input guardrail at the same time as the lookups instead of before them."},
				func(p *params) *bool { return &p.guardAlong }),
			labs.Bind(stageKnob(knobGuardMS, "Guardrail service time", "Simulated time of the input safety check, on top of the real classifier."),
				func(p *params) *float64 { return &p.guardMS }),
			labs.Bind(stageKnob(knobHistoryMS, "History lookup time", "Simulated service time of loading the conversation."),
				func(p *params) *float64 { return &p.historyMS }),
			labs.Bind(stageKnob(knobRetrievalMS, "Retrieval time", "Simulated service time of the search, on top of the real FTS5 query."),
				func(p *params) *float64 { return &p.retrievalMS }),
			labs.Bind(stageKnob(knobOrderMS, "Order lookup time", "Simulated service time of the order system."),
				func(p *params) *float64 { return &p.orderMS }),
			labs.Bind(stageKnob(knobGatewayMS, "Prompt and gateway time", "Simulated hop through the model gateway, after the real prompt assembly."),
				func(p *params) *float64 { return &p.gateway }),
			labs.Bind(labs.Knob{Name: knobTier, Label: "Model tier",
				Help: "Each tier is a model on its GPUs in the bundled engine.", Options: pipelinelab.TierOptions()},
				func(p *params) *string { return &p.tier }),
			labs.Bind(labs.Knob{Name: knobAnswer, Label: "Answer length", Unit: "tokens", Min: 20, Max: 1000, Step: 10,
				Help: "Tokens the model writes; sets the writing time."}, func(p *params) *int { return &p.answerTokens }),
			labs.Bind(labs.Knob{Name: knobRequests, Label: "Requests in the batch run", Unit: "requests", Min: 10, Max: 500,
				Step: 10, Help: "How many requests to time on the virtual clock for the histogram."}, func(p *params) *int { return &p.requests }),
			labs.Bind(labs.Knob{Name: knobRate, Label: "Arrival rate", Unit: "req/s", Min: 0.5, Max: 50, Step: 0.5,
				Help: "Requests per second reaching the engine (random arrivals), so they share the GPU."}, func(p *params) *float64 { return &p.rate }),
			labs.Bind(labs.Knob{Name: knobSpread, Label: "Stage time spread", Min: 0, Max: 1.5, Step: 0.05,
				Help: "How much each stage's time varies from request to request (0: never; 1: a long tail)."}, func(p *params) *float64 { return &p.spread }),
			labs.Bind(labs.Knob{Name: knobSlowChance, Label: "Requests with a slow stage", Unit: "%", Min: 0, Max: 25, Step: 0.5,
				Help: "Percent of the batch where one stage stalls (a cold cache, a retry, a slow replica): exactly that share, taking the five stages in turn."}, func(p *params) *float64 { return &p.slowChance }),
			labs.Bind(labs.Knob{Name: knobSlowMS, Label: "Stall length", Unit: "ms", Min: 0, Max: 20000, Step: 100,
				Help: "Extra time a stalled stage takes."}, func(p *params) *float64 { return &p.slowMS }),
			labs.Bind(labs.Knob{Name: knobBudgetMS, Label: "Budget: first word within", Unit: "ms", Min: 50, Max: 20000,
				Step: 50, Help: "Your target for the time to first word."}, func(p *params) *float64 { return &p.budgetMS }),
			labs.Bind(labs.Knob{Name: knobPercentile, Label: "… for this share of requests",
				Options: []labs.Option{{Value: "50", Label: "50% (p50)"}, {Value: "90", Label: "90% (p90)"},
					{Value: "95", Label: "95% (p95)"}, {Value: "99", Label: "99% (p99)"}}},
				func(p *params) *string { return &p.percentile }),
			labs.Bind(labs.Knob{Name: knobModelCalls, Label: "Model calls per request",
				Help: "Add a second model call that does not need the answer, nor the answer it: a one-line case summary for the support queue (60 tokens, over the same conversation). Send it first and wait for it, or send both at once to the same engine, where they share the GPU's batch.",
				Options: []labs.Option{{Value: callsOne, Label: "One: the answer"}, {Value: callsSequence, Label: "Two, in sequence: summary, then answer"},
					{Value: callsTogether, Label: "Two, at the same time"}}},
				func(p *params) *string { return &p.modelCalls }),
		}, pipelinelab.HostingKnobs(func(p *params) *pipelinelab.Hosting { return &p.host })...),
		Presets: []labs.Example[params]{
			{Name: "Seed example: parallel lookups", Note: "The lesson's stage times with the three lookups together: the context stage takes as long as the slowest lookup.",
				Params: defaults},
			{Name: hostedPreset, Note: "The same stages in front of a hosted medium tier: a provider 190 ms away over a new connection per call, " +
				"with nine other chats a second sharing its GPU. The first word lands near the lesson's 815 ms; switch each cause off to see its share.",
				Params: hosted},
			{Name: "Sequential lookups", Note: "The same lookups one after another: the context stage becomes their sum.",
				Params: sequential},
			{Name: tailPreset, Note: "Exactly one request in twenty (10 of 200, two in each stage) stalls for 12 s. " +
				"The p95 is the slowest request that did not stall, so the budget is met while p99 is past 12 s. Set requests with a slow stage to 6% and the p95 leaps to the stalls.",
				Params: tail},
			twoCallsPreset(callsSequence), twoCallsPreset(callsTogether),
		},
		Run: run,
	})
}

// tailPreset puts the p95 on the budget lesson's cliff: exactly 5% of the
// batch stalls.
const tailPreset = "Heavy tail: one in twenty slow"

// hostedPreset is the preset that reproduces the lesson's 815 ms.
const hostedPreset = "Hosted tier as in the lesson"

// Check has no rule across knobs: each knob's own range suffices.
func (p params) Check() []labs.FieldError { return nil }

// settings are validated knob values in the lab's own types.
type settings struct {
	parallel      bool
	guardAlong    bool
	guard         time.Duration
	history       time.Duration
	retrieval     time.Duration
	order         time.Duration
	gateway       time.Duration
	tier          string
	answerTokens  int
	requests      int
	rate          float64
	spread        float64
	slowShare     float64 // 0..1 of the batch
	slow          time.Duration
	budgetMS      float64
	percentile    float64
	percentileTag string // "p95"
	calls         string // callsOne, callsSequence or callsTogether
	host          pipelinelab.Hosting
}

func millis(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// settings converts checked params into the lab's own types.
func (p params) settings() (settings, error) {
	pct, err := strconv.ParseFloat(p.percentile, 64)
	if err != nil {
		return settings{}, fmt.Errorf("percentile: %w", err)
	}
	return settings{
		parallel: p.lookups == "parallel", guardAlong: p.guardAlong,
		guard: millis(p.guardMS), history: millis(p.historyMS),
		retrieval: millis(p.retrievalMS), order: millis(p.orderMS),
		gateway: millis(p.gateway), tier: p.tier,
		answerTokens: p.answerTokens, requests: p.requests, rate: p.rate,
		spread: p.spread, slowShare: p.slowChance / 100, slow: millis(p.slowMS),
		budgetMS: p.budgetMS, percentile: pct, percentileTag: "p" + p.percentile,
		calls: p.modelCalls, host: p.host,
	}, nil
}
