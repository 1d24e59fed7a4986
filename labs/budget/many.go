package budget

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
)

// batchSeed fixes the batch's random draws, so the same settings always
// give the same histogram and a learner can change one knob and compare.
const batchSeed = 20261202

// sample is one request of the batch.
type sample struct {
	guard, history, retrieval, order, gateway time.Duration
	lookups                                   time.Duration // the context stage as the pipeline composes it
	pre                                       time.Duration // request start → prompt at the engine
	ttft, decode                              time.Duration // from the engine simulation
	second                                    time.Duration // the second model call, arrival to last token (0: none)
	firstWord, complete                       time.Duration
	slowStage                                 string // the stage that stalled, if any
}

// batch is the timed requests.
type batch struct {
	samples []sample
}

// firstWords is every request's time to first word in ms, in request order.
func (b batch) firstWords() []float64 {
	out := make([]float64, len(b.samples))
	for i, s := range b.samples {
		out[i] = float64(s.firstWord) / float64(time.Millisecond)
	}
	return out
}

// draw is one stage's time: base scaled by a mean-one lognormal factor
// (spread is its sigma), so the typical request keeps the stage time the
// learner set and a wider spread stretches the tail to the right.
func draw(rng *rand.Rand, base time.Duration, spread float64) time.Duration {
	if spread == 0 || base == 0 {
		return base
	}
	f := math.Exp(spread*rng.NormFloat64() - spread*spread/2)
	return time.Duration(float64(base) * f)
}

// simulateMany times s.requests requests on the virtual clock.
//
// Why not run the pipeline itself N times? Its waits are real sleeps on a
// clock, and its lookups run in goroutines; outside a test there is no
// clock that can jump ahead safely while several goroutines sleep at once.
// So the batch keeps the pipeline's rules and drops the sleeping: each
// request draws its stage times (spread from a fixed seed; stalls from
// stallPlan),
// composes them exactly as the pipeline does (guardrail, then the lookups
// as their slowest or their sum, then prompt and gateway), and arrives at
// the engine then. The model's time comes from engine.Simulate running
// every request on the tier's engine configuration at once, with the real
// prompt the live request sent (answer of exactly the chosen length), so
// requests that overlap share the GPU and queue as they would. The single
// live request above checks these rules against the real pipeline.
//
// Prefix caching is off in the simulation: the requests stand for
// different customers whose prompts differ after the system prompt, while
// here they share one prompt and would otherwise reuse each other's KV
// blocks and look faster than they are.
//
// With two model calls, second is the other call every request makes,
// sent beside the answer or before it (see simulateCalls).
func simulateMany(s settings, cfg engine.Config, req, second engine.Request) (batch, error) {
	if s.requests <= 0 || s.rate <= 0 {
		return batch{}, fmt.Errorf("batch needs requests and a rate")
	}
	rng := rand.New(rand.NewPCG(batchSeed, uint64(s.requests)))
	stalled := stallPlan(s.requests, s.slowShare)
	cfg.PrefixCaching = false
	b := batch{samples: make([]sample, s.requests)}
	reqs := make([]engine.Request, s.requests)
	var seconds []engine.Request
	if s.calls != callsOne {
		seconds = make([]engine.Request, s.requests)
	}
	starts := make([]time.Duration, s.requests)
	// On a hosted tier other tenants' traffic runs from time 0 and the
	// batch starts once it is steady, as the live request does; the
	// network adds its handshakes and upload before the engine sees a
	// call and half a round trip to every chunk on its way back.
	host := s.host.Pipeline()
	up, down := host.Legs()
	start := time.Duration(0)
	if host.Tenants.On() {
		start = pipeline.DefaultWarmUp - up // as the live request, whose upload ends the warm-up
	}
	for i := range b.samples {
		// Arrivals of a Poisson process at the chosen rate.
		start += time.Duration(rng.ExpFloat64() / s.rate * float64(time.Second))
		sm := sample{
			guard: draw(rng, s.guard, s.spread), history: draw(rng, s.history, s.spread),
			retrieval: draw(rng, s.retrieval, s.spread), order: draw(rng, s.order, s.spread),
			gateway: draw(rng, s.gateway, s.spread),
		}
		if k := stalled[i]; k >= 0 {
			stalls := []*time.Duration{&sm.guard, &sm.history, &sm.retrieval, &sm.order, &sm.gateway}
			*stalls[k] += s.slow
			sm.slowStage = stageNames[k]
		}
		sm.pre, sm.lookups = compose(s, sm)
		b.samples[i] = sm
		starts[i] = start
		r := req
		r.ID = fmt.Sprintf("batch-%d", i)
		r.Arrival = start + sm.pre + up
		reqs[i] = r
		if seconds != nil {
			sc := second
			sc.ID, sc.Arrival = r.ID+"-summary", r.Arrival
			seconds[i] = sc
		}
	}
	last := time.Duration(0)
	for _, r := range reqs {
		last = max(last, r.Arrival)
	}
	times, err := simulateCalls(cfg, reqs, seconds, s.calls == callsSequence,
		provider{tenants: host.Tenants.Requests(last + 10*time.Second), hop: down + up})
	if err != nil {
		return batch{}, fmt.Errorf("simulate the batch: %w", err)
	}
	for i, t := range times {
		sm := &b.samples[i]
		sent := starts[i] + sm.pre // the model calls start
		sm.ttft = t.answer.FirstToken + down - sent
		sm.decode = t.answer.End - t.answer.FirstToken
		sm.firstWord = sm.pre + sm.ttft
		sm.complete = t.answer.End + down - starts[i]
		if seconds != nil {
			sm.second = t.second.End + down - (t.second.Arrival - up)
		}
	}
	return b, nil
}

// stallPlan picks which of n requests stall and in which stage (-1: no
// stall). A share of 5% stalls exactly 5% of the batch, rounded, rather
// than each request with a 5% chance: at 200 requests the fixed seed's
// chances stalled 6 (3%), none in a lookup, so a percentile near the
// share landed on one side of the cliff by luck. The stalled requests are drawn from
// their own fixed seed and take the stages in turn from a random one, so
// every stage stalls about as often as any other.
func stallPlan(n int, share float64) []int {
	plan := make([]int, n)
	for i := range plan {
		plan[i] = -1
	}
	rng := rand.New(rand.NewPCG(batchSeed+1, uint64(n)))
	order := rng.Perm(n)
	first := rng.IntN(len(stageNames))
	for j, i := range order[:int(math.Round(share*float64(n)))] {
		plan[i] = (first + j) % len(stageNames)
	}
	return plan
}

// stageNames name the stages a stall can hit, in draw order.
var stageNames = []string{"guardrail", "history", "retrieval", "order lookup", "prompt and gateway"}

// compose is the pipeline's order of stages: the guardrail first (or as
// one more member of the lookup group when alongside), the lookups as
// their slowest when parallel or their sum when sequential, then prompt
// and gateway. It returns the time to reach the model and the context
// stage's length.
func compose(s settings, sm sample) (pre, lookups time.Duration) {
	group := []time.Duration{sm.history, sm.retrieval, sm.order}
	if s.guardAlong {
		group = append(group, sm.guard)
	}
	for _, d := range group {
		if s.parallel {
			lookups = max(lookups, d)
		} else {
			lookups += d
		}
	}
	pre = lookups + sm.gateway
	if !s.guardAlong {
		pre += sm.guard
	}
	return pre, lookups
}

// engineReq is a request with the given prompt and answer tokens.
func engineReq(prompt, out []int) engine.Request {
	return engine.Request{PromptTokens: prompt, OutputTokens: out, MaxTokens: len(out)}
}
