package budget

import (
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
)

func stageKnob(name, label, help string, def float64) labs.Knob {
	return labs.Knob{Name: name, Label: label, Help: help, Kind: labs.KnobRange, Unit: "ms",
		Min: 0, Max: 2000, Step: 5, Default: def}
}

var knobs = []labs.Knob{
	{Name: knobLookups, Label: "Context lookups", Kind: labs.KnobEnum, Default: "parallel",
		Help:    "Load history, retrieve passages and look up the order together or one after another.",
		Options: []labs.Option{{Value: "parallel", Label: "Together (parallel)"}, {Value: "sequential", Label: "One after another"}}},
	{Name: knobGuardAlong, Label: "Safety check alongside the lookups", Kind: labs.KnobBool, Default: false,
		Help: "Run the input guardrail at the same time as the lookups instead of before them."},
	stageKnob(knobGuardMS, "Guardrail service time", "Simulated time of the input safety check, on top of the real classifier.", 80),
	stageKnob(knobHistoryMS, "History lookup time", "Simulated service time of loading the conversation.", 30),
	stageKnob(knobRetrievalMS, "Retrieval time", "Simulated service time of the search, on top of the real FTS5 query.", 120),
	stageKnob(knobOrderMS, "Order lookup time", "Simulated service time of the order system.", 60),
	stageKnob(knobGatewayMS, "Prompt and gateway time", "Simulated hop through the model gateway, after the real prompt assembly.", 15),
	{Name: knobTier, Label: "Model tier", Kind: labs.KnobEnum, Default: pipelinelab.TierMedium,
		Help: "Each tier is a model on its GPUs in the bundled engine.", Options: pipelinelab.TierOptions()},
	{Name: knobAnswer, Label: "Answer length", Kind: labs.KnobRange, Unit: "tokens", Min: 20, Max: 1000, Step: 10,
		Default: 300.0, Help: "Tokens the model writes; sets the writing time."},
	{Name: knobRequests, Label: "Requests in the batch run", Kind: labs.KnobRange, Unit: "requests", Min: 10, Max: 500,
		Step: 10, Default: 200.0, Help: "How many requests to time on the virtual clock for the histogram."},
	{Name: knobRate, Label: "Arrival rate", Kind: labs.KnobRange, Unit: "req/s", Min: 0.5, Max: 50, Step: 0.5,
		Default: 2.0, Help: "Requests per second reaching the engine (random arrivals), so they share the GPU."},
	{Name: knobSpread, Label: "Stage time spread", Kind: labs.KnobRange, Min: 0, Max: 1.5, Step: 0.05,
		Default: 0.3, Help: "How much each stage's time varies from request to request (0: never; 1: a long tail)."},
	{Name: knobSlowChance, Label: "Chance of a slow stage", Kind: labs.KnobRange, Unit: "%", Min: 0, Max: 25, Step: 0.5,
		Default: 1.0, Help: "Percent of requests where one stage stalls (a cold cache, a retry, a slow replica)."},
	{Name: knobSlowMS, Label: "Stall length", Kind: labs.KnobRange, Unit: "ms", Min: 0, Max: 20000, Step: 100,
		Default: 3000.0, Help: "Extra time a stalled stage takes."},
	{Name: knobBudgetMS, Label: "Budget: first word within", Kind: labs.KnobRange, Unit: "ms", Min: 50, Max: 20000,
		Step: 50, Default: 1000.0, Help: "Your target for the time to first word."},
	{Name: knobPercentile, Label: "… for this share of requests", Kind: labs.KnobEnum, Default: "95",
		Options: []labs.Option{{Value: "50", Label: "50% (p50)"}, {Value: "90", Label: "90% (p90)"},
			{Value: "95", Label: "95% (p95)"}, {Value: "99", Label: "99% (p99)"}}},
}

var presets = []labs.Preset{
	{Name: "Seed example: parallel lookups", Note: "The lesson's stage times with the three lookups together: the context stage takes as long as the slowest lookup.",
		Values: labs.Values{knobLookups: "parallel"}},
	{Name: "Sequential lookups", Note: "The same lookups one after another: the context stage becomes their sum.",
		Values: labs.Values{knobLookups: "sequential"}},
	{Name: "Heavy tail: one in twenty slow", Note: "About one request in twenty stalls for 12 s, judged at p99. The mean and p50 look healthy; the tail does not.",
		Values: labs.Values{knobSlowChance: 5.0, knobSlowMS: 12000.0, knobSpread: 0.5, knobPercentile: "99"}},
}

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
	slowChance    float64 // 0..1
	slow          time.Duration
	budgetMS      float64
	percentile    float64
	percentileTag string // "p95"
}

func msKnob(v labs.Values, name string) time.Duration {
	return time.Duration(v.Float(name) * float64(time.Millisecond))
}

// parse converts validated values; it rejects values Validate would have
// (so a direct caller with raw values gets a clear error, not a panic).
func parse(v labs.Values) (settings, error) {
	clean, errs := labs.Validate(knobs, v)
	if len(errs) > 0 {
		return settings{}, errs[0]
	}
	pct, err := strconv.ParseFloat(clean.String(knobPercentile), 64)
	if err != nil {
		return settings{}, fmt.Errorf("percentile: %w", err)
	}
	return settings{
		parallel: clean.String(knobLookups) == "parallel", guardAlong: clean.Bool(knobGuardAlong),
		guard: msKnob(clean, knobGuardMS), history: msKnob(clean, knobHistoryMS),
		retrieval: msKnob(clean, knobRetrievalMS), order: msKnob(clean, knobOrderMS),
		gateway: msKnob(clean, knobGatewayMS), tier: clean.String(knobTier),
		answerTokens: clean.Int(knobAnswer), requests: clean.Int(knobRequests), rate: clean.Float(knobRate),
		spread: clean.Float(knobSpread), slowChance: clean.Float(knobSlowChance) / 100, slow: msKnob(clean, knobSlowMS),
		budgetMS: clean.Float(knobBudgetMS), percentile: pct, percentileTag: "p" + clean.String(knobPercentile),
	}, nil
}
