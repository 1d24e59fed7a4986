package batching

import (
	"context"
	"fmt"
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

// maxLiveRequests caps a live run.
const maxLiveRequests = 64

// params are the lab's settings, one field per knob (the page's signals).
type params struct {
	mode                  string
	shared                bool
	policy                string
	maxBatch, batchWaitMS int
	budget                int
	chunked               bool
	arrivals              string
	rate                  float64
	requests, prompt      int
	outputMean            int
	spread                float64
	longPrompt            int
	model, gpu            string
	ttftSLOMS, tpotSLOMS  float64
}

// defaults are the settings of the first preset.
var defaults = params{mode: modeLive, policy: string(engine.Static), maxBatch: 8, batchWaitMS: 50, budget: 8192, chunked: true,
	arrivals: arriveBurst, rate: 4, requests: 32, prompt: 512, outputMean: 256, spread: 8, model: "llama-3.1-8b", gpu: "h100-sxm",
	ttftSLOMS: 1000, tpotSLOMS: 50}

// define declares the lab: its knobs, bound to params' fields, and presets.
func define(run func(context.Context, params, func(labs.Frame)) error) (*labs.Kit[params], error) {
	return labs.Define(labs.Spec[params]{
		Info:     info(),
		Defaults: defaults,
		Knobs: []labs.Field[params]{
			labs.Bind(labs.Knob{Name: knobMode, Label: "Mode",
				Options: []labs.Option{{Value: modeLive, Label: "Live run (watch it happen)"}, {Value: modeSweep, Label: "Sweep (3 policies × 16 request rates)"}},
				Help:    "A live run plays the requests on a modelled GPU in real time; a sweep runs 1,000 requests per point on a virtual clock, each policy at rates around what it can serve, in a second or two."}, func(p *params) *string { return &p.mode }),
			labs.Bind(labs.Knob{Name: knobShared, Label: "Shared engine",
				Help: "Live run only. On: send the requests to the one engine every learner on this model and GPU shares, so you see each other's load; it always runs continuous batching with vLLM's defaults, so the policy and batch knobs below do not apply."}, func(p *params) *bool { return &p.shared }),
			labs.Bind(labs.Knob{Name: knobPolicy, Label: "Batching policy",
				Options: []labs.Option{
					{Value: string(engine.Sequential), Label: "Sequential (one request at a time)"},
					{Value: string(engine.Static), Label: "Static (fill a batch, run it to the end)"},
					{Value: string(engine.Continuous), Label: "Continuous (join and leave every step)"},
				},
				Help: "How the server groups requests into forward passes. The sweep runs all three."}, func(p *params) *string { return &p.policy }),
			labs.Bind(labs.Knob{Name: knobMaxBatch, Label: "Max batch size", Unit: "requests", Min: 1, Max: 256, Step: 1,
				Help: "Most requests in one batch: a static batch's size, continuous batching's max_num_seqs."}, func(p *params) *int { return &p.maxBatch }),
			labs.Bind(labs.Knob{Name: knobBatchWait, Label: "Static batch wait", Unit: "ms", Min: 0, Max: 500, Step: 10,
				Help: "Static only: how long the first waiting request holds the batch open for others to join."}, func(p *params) *int { return &p.batchWaitMS }),
			labs.Bind(labs.Knob{Name: knobBudget, Label: "Token budget", Unit: "tokens", Min: 512, Max: 16384, Step: 256,
				Help: "Continuous only: max_num_batched_tokens, the prompt and decode tokens one step may compute. With chunked prefill it is also the largest prompt chunk."}, func(p *params) *int { return &p.budget }),
			labs.Bind(labs.Knob{Name: knobChunked, Label: "Chunked prefill",
				Help: "Continuous only. On: a long prompt is read in budget-sized chunks mixed with other requests' decode steps. Off: it is read in one step while everyone else waits."}, func(p *params) *bool { return &p.chunked }),
			labs.Bind(labs.Knob{Name: knobArrivals, Label: "Arrivals",
				Options: []labs.Option{{Value: arrivePoisson, Label: "Poisson at the request rate"}, {Value: arriveBurst, Label: "Burst: all at once"}},
				Help:    "Live run only: random arrivals at an average rate, or every request at the same moment. The sweep always uses Poisson arrivals."}, func(p *params) *string { return &p.arrivals }),
			labs.Bind(labs.Knob{Name: knobRate, Label: "Request rate", Unit: "req/s", Min: 0.5, Max: 100, Step: 0.5,
				Help: "Average arrivals per second for Poisson arrivals (live run)."}, func(p *params) *float64 { return &p.rate }),
			labs.Bind(labs.Knob{Name: knobRequests, Label: "Requests", Unit: "requests", Min: 1, Max: maxLiveRequests, Step: 1,
				Help: "How many requests a live run sends (the sweep sends 1,000 per point)."}, func(p *params) *int { return &p.requests }),
			labs.Bind(labs.Knob{Name: knobPrompt, Label: "Prompt length", Unit: "tokens", Min: 16, Max: 8000, Step: 16,
				Help: "Tokens each request's prompt holds."}, func(p *params) *int { return &p.prompt }),
			labs.Bind(labs.Knob{Name: knobOutputMean, Label: "Mean answer length", Unit: "tokens", Min: 8, Max: 1024, Step: 8,
				Help: "Average tokens per answer."}, func(p *params) *int { return &p.outputMean }),
			labs.Bind(labs.Knob{Name: knobSpread, Label: "Answer length spread", Unit: "× longest/shortest", Min: 1, Max: 16, Step: 0.5,
				Help: "Short and long answers mixed: lengths are spread evenly between a shortest and a longest this many times longer (1: all the same)."}, func(p *params) *float64 { return &p.spread }),
			labs.Bind(labs.Knob{Name: knobLongPrompt, Label: "Late long prompt", Unit: "tokens", Min: 0, Max: 16000, Step: 250,
				Help: "Live run only: one extra request with a prompt this long arrives once the others are all generating (0: none)."}, func(p *params) *int { return &p.longPrompt }),
			labs.Bind(labs.ModelKnob(knobModel, "Served in BF16 on a single GPU."), func(p *params) *string { return &p.model }),
			labs.Bind(labs.GPUKnob(knobGPU, "One GPU of this type serves the model."), func(p *params) *string { return &p.gpu }),
			labs.Bind(labs.Knob{Name: knobTTFTSLO, Label: "TTFT limit (goodput)", Unit: "ms", Min: 50, Max: 10000, Step: 50,
				Help: "Sweep only: a request counts toward goodput when its time to first token is at most this …"}, func(p *params) *float64 { return &p.ttftSLOMS }),
			labs.Bind(labs.Knob{Name: knobTPOTSLO, Label: "TPOT limit (goodput)", Unit: "ms", Min: 5, Max: 500, Step: 5,
				Help: "… and its time per output token is at most this (as vllm bench serve --goodput counts)."}, func(p *params) *float64 { return &p.tpotSLOMS }),
		},
		Presets: presets(),
		Run:     run,
	})
}

// presets are settings worth trying; the first is the default view.
func presets() []labs.Example[params] {
	poisson, sequential, sweep, batch32 := defaults, defaults, defaults, defaults
	poisson.policy, poisson.maxBatch, poisson.arrivals, poisson.rate, poisson.requests = string(engine.Continuous), 64, arrivePoisson, 8, 64
	sequential.policy, sequential.maxBatch, sequential.arrivals, sequential.rate, sequential.requests = string(engine.Sequential), 1, arrivePoisson, 2, 16
	sweep.mode, sweep.policy, sweep.maxBatch, sweep.spread = modeSweep, string(engine.Continuous), 64, 4
	batch32.policy, batch32.maxBatch, batch32.spread = string(engine.Continuous), 32, 1
	return []labs.Example[params]{
		{Name: "Static vs continuous: burst of 32", Params: defaults,
			Note: "32 requests at once, batches of 8, answers from short to 8× longer. Static: each batch's short answers sit idle until its longest is done, and the next batch waits. Then switch the policy to continuous and run again."},
		{Name: "Continuous batching under Poisson load", Params: poisson,
			Note: "Requests arrive at random, about 8 a second; each joins the running batch at the next step and leaves the moment its answer is done."},
		{Name: "Sequential (one at a time)", Params: sequential,
			Note: "One request at a time: each answer is quick once started, but the queue grows and time to first token climbs with every arrival."},
		{Name: "Chunked prefill off: ITL spike", Params: chunkedParams(false),
			Note: "16 short requests are generating when an 8,000-token prompt arrives. Without chunking it is read in one long step, and every other answer stalls for it: watch the gap between tokens spike."},
		{Name: "Chunked prefill on", Params: chunkedParams(true),
			Note: "The same workload with chunked prefill and a 2,048-token budget: the long prompt is read in chunks between decode steps, so the stall is spread thin."},
		{Name: "Sweep: find the knee", Params: sweep,
			Note: "Three policies, each at sixteen request rates from light load to twice what it can serve, 1,000 requests per point. Find each policy's knee, the rate where p95 TTFT shoots up: continuous batching moves it far to the right."},
		{Name: "A batch of 32 (then try 1)", Params: batch32,
			Note: "32 equal requests at once, all decoding in one batch: about 2,900 output tokens a second, each token taking about 10 ms. Set the max batch size to 1 and run again: about 130 tokens a second, some 22 times fewer, though each token then takes 7.7 ms. Compare the two runs from your run list."},
	}
}

func chunkedParams(on bool) params {
	p := defaults
	p.policy, p.maxBatch, p.arrivals, p.requests = string(engine.Continuous), 64, arriveBurst, 16
	p.prompt, p.outputMean, p.spread, p.longPrompt = 512, 64, 1, 8000
	p.chunked, p.budget = on, 16384
	if on {
		p.budget = 2048
	}
	return p
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

// Check reports the rules that span knobs: the model must fit, and
// without chunked prefill a whole request must fit in one step's budget.
func (p params) Check() []labs.FieldError { _, err := p.settings(); return labs.CheckErr(err, knobGPU) }

// settings converts params and checks the knobs against each other.
func (p params) settings() (settings, error) {
	s := settings{
		live:       p.mode == modeLive,
		shared:     p.shared,
		policy:     engine.Policy(p.policy),
		maxBatch:   p.maxBatch,
		batchWait:  time.Duration(p.batchWaitMS) * time.Millisecond,
		budget:     p.budget,
		chunked:    p.chunked,
		burst:      p.arrivals == arriveBurst,
		rate:       p.rate,
		requests:   p.requests,
		prompt:     p.prompt,
		outputMean: p.outputMean,
		spread:     p.spread,
		longPrompt: p.longPrompt,
		profile:    labs.Profile{Hardware: p.gpu, Model: p.model},
		ttftSLO:    time.Duration(p.ttftSLOMS * float64(time.Millisecond)),
		tpotSLO:    time.Duration(p.tpotSLOMS * float64(time.Millisecond)),
	}
	if !s.live {
		s.shared, s.longPrompt = false, 0
	}
	cfg, err := s.profile.Config()
	if err != nil {
		return settings{}, labs.FitError(knobGPU, s.profile)
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
			"The longest request (%s prompt tokens plus a %s-token answer) exceeds %s's %s-token context; shorten the prompt or the answers.",
			labs.Thousands(max(s.prompt, s.longPrompt)), labs.Thousands(hi), s.profile.Model, labs.Thousands(ctx))}
	}
	if s.tooBigForBudget(longest) {
		return settings{}, labs.FieldError{Knob: knobBudget, Message: fmt.Sprintf(
			"With chunked prefill off, one step must hold a whole request: the longest needs %s tokens (prompt plus answer) but the budget is %s. Raise the token budget or turn chunked prefill on.",
			labs.Thousands(longest), labs.Thousands(s.budget))}
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
