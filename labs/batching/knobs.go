package batching

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// Knob names; they double as the Datastar signal names.
const (
	knobMode       = "mode"
	knobShared     = "sharedEngine"
	knobPolicy     = "policy"
	knobMaxBatch   = "maxBatch"
	knobBatchWait  = "batchWait"
	knobBudget     = "tokenBudget"
	knobChunked    = "chunkedPrefill"
	knobArrivals   = "arrivals"
	knobRate       = "rate"
	knobRequests   = "requests"
	knobPrompt     = "promptTokens"
	knobOutputMean = "outputMean"
	knobSpread     = "outputSpread"
	knobLongPrompt = "longPrompt"
	knobModel      = "model"
	knobGPU        = "gpu"
	knobTTFTSLO    = "ttftSLO"
	knobTPOTSLO    = "tpotSLO"
)

// Enum values.
const (
	modeLive      = "live"
	modeSweep     = "sweep"
	arrivePoisson = "poisson"
	arriveBurst   = "burst"
)

// Defaults of the knobs (the first preset's values).
const (
	defaultModel = "llama-3.1-8b"
	defaultGPU   = "h100-sxm"
)

// maxLiveRequests caps a live run; sweepRequests is every sweep point's size.
const (
	maxLiveRequests = 64
	sweepRequests   = 200
)

// Knobs lists the lab's settings.
func (l *Lab) Knobs() []labs.Knob { return knobs() }

func knobs() []labs.Knob {
	return []labs.Knob{
		{Name: knobMode, Label: "Mode", Kind: labs.KnobEnum, Default: modeLive,
			Options: []labs.Option{{Value: modeLive, Label: "Live run (watch it happen)"}, {Value: modeSweep, Label: "Sweep (3 policies × 8 request rates)"}},
			Help:    "A live run plays the requests on a modelled GPU in real time; a sweep runs 200 requests per point on a virtual clock in a moment."},
		{Name: knobShared, Label: "Shared engine", Kind: labs.KnobBool, Default: false,
			Help: "Live run only. On: send the requests to the one engine every learner on this model and GPU shares, so you see each other's load; it always runs continuous batching with vLLM's defaults, so the policy and batch knobs below do not apply."},
		{Name: knobPolicy, Label: "Batching policy", Kind: labs.KnobEnum, Default: string(engine.Static),
			Options: []labs.Option{
				{Value: string(engine.Sequential), Label: "Sequential (one request at a time)"},
				{Value: string(engine.Static), Label: "Static (fill a batch, run it to the end)"},
				{Value: string(engine.Continuous), Label: "Continuous (join and leave every step)"},
			},
			Help: "How the server groups requests into forward passes. The sweep runs all three."},
		{Name: knobMaxBatch, Label: "Max batch size", Kind: labs.KnobRange, Unit: "requests", Min: 1, Max: 256, Step: 1, Default: 8.0,
			Help: "Most requests in one batch: a static batch's size, continuous batching's max_num_seqs."},
		{Name: knobBatchWait, Label: "Static batch wait", Kind: labs.KnobRange, Unit: "ms", Min: 0, Max: 500, Step: 10, Default: 50.0,
			Help: "Static only: how long the first waiting request holds the batch open for others to join."},
		{Name: knobBudget, Label: "Token budget", Kind: labs.KnobRange, Unit: "tokens", Min: 512, Max: 16384, Step: 256, Default: 8192.0,
			Help: "Continuous only: max_num_batched_tokens, the prompt and decode tokens one step may compute. With chunked prefill it is also the largest prompt chunk."},
		{Name: knobChunked, Label: "Chunked prefill", Kind: labs.KnobBool, Default: true,
			Help: "Continuous only. On: a long prompt is read in budget-sized chunks mixed with other requests' decode steps. Off: it is read in one step while everyone else waits."},
		{Name: knobArrivals, Label: "Arrivals", Kind: labs.KnobEnum, Default: arriveBurst,
			Options: []labs.Option{{Value: arrivePoisson, Label: "Poisson at the request rate"}, {Value: arriveBurst, Label: "Burst: all at once"}},
			Help:    "Live run only: random arrivals at an average rate, or every request at the same moment. The sweep always uses Poisson arrivals."},
		{Name: knobRate, Label: "Request rate", Kind: labs.KnobRange, Unit: "req/s", Min: 0.5, Max: 100, Step: 0.5, Default: 4.0,
			Help: "Average arrivals per second for Poisson arrivals (live run)."},
		{Name: knobRequests, Label: "Requests", Kind: labs.KnobRange, Unit: "requests", Min: 1, Max: maxLiveRequests, Step: 1, Default: 32.0,
			Help: "How many requests a live run sends (the sweep sends 200 per point)."},
		{Name: knobPrompt, Label: "Prompt length", Kind: labs.KnobRange, Unit: "tokens", Min: 16, Max: 8000, Step: 16, Default: 512.0,
			Help: "Tokens each request's prompt holds."},
		{Name: knobOutputMean, Label: "Mean answer length", Kind: labs.KnobRange, Unit: "tokens", Min: 8, Max: 1024, Step: 8, Default: 256.0,
			Help: "Average tokens per answer."},
		{Name: knobSpread, Label: "Answer length spread", Kind: labs.KnobRange, Unit: "× longest/shortest", Min: 1, Max: 16, Step: 0.5, Default: 8.0,
			Help: "Short and long answers mixed: lengths are spread evenly between a shortest and a longest this many times longer (1: all the same)."},
		{Name: knobLongPrompt, Label: "Late long prompt", Kind: labs.KnobRange, Unit: "tokens", Min: 0, Max: 16000, Step: 250, Default: 0.0,
			Help: "Live run only: one extra request with a prompt this long arrives once the others are all generating (0: none)."},
		labs.ModelKnob(knobModel, defaultModel, "Served in BF16 on a single GPU."),
		labs.GPUKnob(knobGPU, defaultGPU, "One GPU of this type serves the model."),
		{Name: knobTTFTSLO, Label: "TTFT limit (goodput)", Kind: labs.KnobRange, Unit: "ms", Min: 50, Max: 10000, Step: 50, Default: 1000.0,
			Help: "Sweep only: a request counts toward goodput when its time to first token is at most this …"},
		{Name: knobTPOTSLO, Label: "TPOT limit (goodput)", Kind: labs.KnobRange, Unit: "ms", Min: 5, Max: 500, Step: 5, Default: 50.0,
			Help: "… and its time per output token is at most this (as vllm bench serve --goodput counts)."},
	}
}

// Presets lists settings worth trying; the first is the default view.
func (l *Lab) Presets() []labs.Preset {
	return []labs.Preset{
		preset("Static vs continuous: burst of 32",
			"32 requests at once, batches of 8, answers from short to 8× longer. Static: each batch's short answers sit idle until its longest is done, and the next batch waits. Then switch the policy to continuous and run again.",
			nil),
		preset("Continuous batching under Poisson load",
			"Requests arrive at random, about 8 a second; each joins the running batch at the next step and leaves the moment its answer is done.",
			labs.Values{knobPolicy: string(engine.Continuous), knobMaxBatch: 64.0, knobArrivals: arrivePoisson, knobRate: 8.0, knobRequests: 64.0}),
		preset("Sequential (one at a time)",
			"One request at a time: each answer is quick once started, but the queue grows and time to first token climbs with every arrival.",
			labs.Values{knobPolicy: string(engine.Sequential), knobMaxBatch: 1.0, knobArrivals: arrivePoisson, knobRate: 2.0, knobRequests: 16.0}),
		preset("Chunked prefill off: ITL spike",
			"16 short requests are generating when an 8,000-token prompt arrives. Without chunking it is read in one long step, and every other answer stalls for it: watch the gap between tokens spike.",
			chunkedValues(false)),
		preset("Chunked prefill on",
			"The same workload with chunked prefill and a 2,048-token budget: the long prompt is read in chunks between decode steps, so the stall is spread thin.",
			chunkedValues(true)),
		preset("Sweep: find the knee",
			"Three policies, eight request rates from light to overload, 200 requests each. Find the rate where p95 TTFT shoots up; continuous batching moves that knee far to the right.",
			labs.Values{knobMode: modeSweep, knobPolicy: string(engine.Continuous), knobMaxBatch: 64.0, knobSpread: 4.0}),
	}
}

func chunkedValues(on bool) labs.Values {
	v := labs.Values{
		knobPolicy: string(engine.Continuous), knobMaxBatch: 64.0, knobArrivals: arriveBurst, knobRequests: 16.0,
		knobPrompt: 512.0, knobOutputMean: 64.0, knobSpread: 1.0, knobLongPrompt: 8000.0,
		knobChunked: on, knobBudget: 16384.0,
	}
	if on {
		v[knobBudget] = 2048.0
	}
	return v
}

// preset is the defaults with some knobs changed.
func preset(name, note string, change labs.Values) labs.Preset {
	v := labs.Defaults(knobs())
	for k, x := range change {
		v[k] = x
	}
	return labs.Preset{Name: name, Note: note, Values: v}
}

// settings are one run's parsed knob values.
type settings struct {
	live       bool
	shared     bool
	policy     engine.Policy
	maxBatch   int
	batchWait  time.Duration
	budget     int
	chunked    bool
	burst      bool
	rate       float64 // req/s
	requests   int
	prompt     int
	outputMean int
	spread     float64
	longPrompt int
	profile    labs.Profile
	ttftSLO    time.Duration
	tpotSLO    time.Duration
	engine     engine.Config // the profile with this run's policy and limits
}

// shortest and longest answer lengths: evenly spread with the chosen mean
// and ratio, at least one token.
func (s settings) outputRange() (lo, hi int) {
	short := 2 * float64(s.outputMean) / (1 + s.spread)
	lo = max(1, int(short+0.5))
	hi = max(lo, int(short*s.spread+0.5))
	return lo, hi
}

// Check reports problems that span knobs, which labs.Validate cannot see.
// Values must already have passed labs.Validate.
func (l *Lab) Check(v labs.Values) []labs.FieldError {
	_, err := parse(v)
	return labs.CheckErr(err, knobGPU)
}

// parse validates v against the knobs (so out-of-range values are refused
// even when a caller skipped labs.Validate) and the knobs against each
// other: the model must fit, and without chunked prefill a whole request
// must fit in one step's token budget.
func parse(v labs.Values) (settings, error) {
	vals, errs := labs.Validate(knobs(), v)
	if len(errs) > 0 {
		es := make([]error, len(errs))
		for i, e := range errs {
			es[i] = e
		}
		return settings{}, errors.Join(es...)
	}
	s := settings{
		live:       vals.String(knobMode) == modeLive,
		shared:     vals.Bool(knobShared),
		policy:     engine.Policy(vals.String(knobPolicy)),
		maxBatch:   vals.Int(knobMaxBatch),
		batchWait:  time.Duration(vals.Int(knobBatchWait)) * time.Millisecond,
		budget:     vals.Int(knobBudget),
		chunked:    vals.Bool(knobChunked),
		burst:      vals.String(knobArrivals) == arriveBurst,
		rate:       vals.Float(knobRate),
		requests:   vals.Int(knobRequests),
		prompt:     vals.Int(knobPrompt),
		outputMean: vals.Int(knobOutputMean),
		spread:     vals.Float(knobSpread),
		longPrompt: vals.Int(knobLongPrompt),
		profile:    labs.Profile{Hardware: vals.String(knobGPU), Model: vals.String(knobModel)},
		ttftSLO:    time.Duration(vals.Float(knobTTFTSLO) * float64(time.Millisecond)),
		tpotSLO:    time.Duration(vals.Float(knobTPOTSLO) * float64(time.Millisecond)),
	}
	if !s.live {
		s.shared, s.longPrompt = false, 0
	}
	cfg, err := s.profile.Config()
	if err != nil {
		return settings{}, labs.FieldError{Knob: knobGPU, Message: fitMessage(s.profile)}
	}
	if !s.shared { // the shared engine keeps the pool's own configuration
		cfg.Policy = s.policy
		cfg.MaxNumSeqs, cfg.BatchSize = s.maxBatch, s.maxBatch
		cfg.BatchWait = s.batchWait
		cfg.MaxNumBatchedTokens = s.budget
		cfg.ChunkedPrefill = s.chunked
	}
	s.engine = cfg
	_, hi := s.outputRange()
	longest := max(s.prompt, s.longPrompt) + hi
	if ctx := cfg.Model.MaxContextLen; longest > ctx {
		knob := knobPrompt
		if s.longPrompt > s.prompt {
			knob = knobLongPrompt
		}
		return settings{}, labs.FieldError{Knob: knob, Message: fmt.Sprintf(
			"The longest request (%d prompt tokens plus a %d-token answer) exceeds %s's %d-token context; shorten the prompt or the answers.",
			max(s.prompt, s.longPrompt), hi, s.profile.Model, ctx)}
	}
	if s.tooBigForBudget(longest) {
		return settings{}, labs.FieldError{Knob: knobBudget, Message: fmt.Sprintf(
			"With chunked prefill off, one step must hold a whole request: the longest needs %d tokens (prompt plus answer) but the budget is %d. Raise the token budget or turn chunked prefill on.",
			longest, s.budget)}
	}
	return s, nil
}

// tooBigForBudget mirrors the engine's rule for continuous batching
// without chunked prefill: a request must fit one step's budget. A sweep
// always runs continuous batching, whatever policy is picked.
func (s settings) tooBigForBudget(tokens int) bool {
	c := s.engine
	continuous := c.Policy == engine.Continuous || !s.live
	return continuous && !c.ChunkedPrefill && tokens > c.MaxNumBatchedTokens
}

// fitMessage explains a model that does not fit on a GPU and names the
// choices that do.
func fitMessage(p labs.Profile) string {
	models, gpus := labs.FitsWith(p)
	msg := fmt.Sprintf("%s does not fit on one %s in BF16 (weights plus working memory exceed the GPU's memory).", p.Model, p.Hardware)
	if len(gpus) > 0 {
		msg += fmt.Sprintf(" Pick a larger GPU for it: %s.", strings.Join(gpus, ", "))
	}
	if len(models) > 0 {
		msg += fmt.Sprintf(" Or keep %s and pick a smaller model: %s.", p.Hardware, strings.Join(models, ", "))
	}
	return msg
}
