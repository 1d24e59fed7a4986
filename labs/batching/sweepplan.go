package batching

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// sweepSeed fixes the sweep's workloads: the same knobs give the same
// sweep.
const sweepSeed = 7

// Sweep size: every policy runs sweepRates request rates of sweepRequests
// requests each.
const (
	sweepRates    = 16
	sweepRequests = 1000
)

// Each policy's rates run from loadLow to loadHigh times its own capacity,
// evenly spaced on a log scale. Sharing one set of rates hid the knee of
// the slow policies: sequential saturates at a fraction of what continuous
// batching handles, so on continuous's rates it was overloaded from the
// second point on.
const (
	loadLow  = 0.15
	loadHigh = 2.0
)

// sweepPolicies in the order they are drawn.
var sweepPolicies = [...]engine.Policy{engine.Sequential, engine.Static, engine.Continuous}

// loadFactors are the sweep's rates as fractions of a policy's capacity.
func loadFactors() []float64 {
	out := make([]float64, sweepRates)
	for i := range out {
		out[i] = loadLow * math.Pow(loadHigh/loadLow, float64(i)/float64(sweepRates-1))
	}
	return out
}

// sweepPlan is a sweep's inputs: each policy's measured capacity and
// rates, and the requests every point draws from.
type sweepPlan struct {
	s        settings
	capacity [len(sweepPolicies)]float64   // req/s on a burst
	rates    [len(sweepPolicies)][]float64 // req/s, one per load factor
	// prompts[k] is request k's prompt at every point (each point runs on
	// a fresh engine, so sharing them reuses no cache between points).
	prompts [][]int
	// gaps[ri][k] is request k's gap after request k−1 at rate 1 req/s,
	// and lengths[ri][k] its answer length: the same pattern, scaled to
	// each policy's rate, so the policies meet equal workloads.
	gaps    [][]float64
	lengths [][]int
}

// calibrationRequests is the size of the burst that measures a policy's
// capacity: enough to fill several batches.
func calibrationRequests(s settings) int { return min(sweepRequests, max(64, 4*s.maxBatch)) }

// planSweep measures each policy's capacity with a virtual-clock burst of
// the workload (the engine's own step times, not a table) and places that
// policy's rates around it.
func planSweep(s settings) (*sweepPlan, error) {
	p := &sweepPlan{s: s, prompts: make([][]int, sweepRequests)}
	for k := range p.prompts {
		p.prompts[k] = promptTokens(s.prompt, 0, k)
	}
	lo, hi := s.outputRange()
	for ri := range sweepRates {
		rng := rand.New(rand.NewPCG(sweepSeed+uint64(ri)+1, 0x6261746368))
		gaps, lengths := make([]float64, sweepRequests), make([]int, sweepRequests)
		for k := range gaps {
			if k > 0 {
				gaps[k] = rng.ExpFloat64()
			}
			lengths[k] = lo + rng.IntN(hi-lo+1)
		}
		p.gaps, p.lengths = append(p.gaps, gaps), append(p.lengths, lengths)
	}
	errs := make([]error, len(sweepPolicies))
	var wg sync.WaitGroup
	for pi := range sweepPolicies {
		wg.Go(func() { p.capacity[pi], errs[pi] = p.calibrate(pi) })
	}
	wg.Wait()
	for pi, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("this workload cannot run %s: %w", sweepPolicies[pi], err)
		}
		for _, f := range loadFactors() {
			p.rates[pi] = append(p.rates[pi], roundSig(p.capacity[pi]*f, 2))
		}
	}
	return p, nil
}

// calibrate is policy pi's throughput in requests per second on a burst.
func (p *sweepPlan) calibrate(pi int) (float64, error) {
	n := calibrationRequests(p.s)
	res, err := p.simulate(pi, n, func(int) time.Duration { return 0 }, p.lengths[0], nil)
	if err != nil {
		return 0, err
	}
	return perSecond(float64(n), res.Duration), nil
}

// simulate streams n of the plan's requests, arriving at arrival(k) with
// answers of lengths[k] tokens, through a fresh engine with policy pi.
func (p *sweepPlan) simulate(pi, n int, arrival func(k int) time.Duration, lengths []int, done func(k int, r *engine.RequestResult)) (engine.StreamResult, error) {
	cfg := p.s.engine
	cfg.Policy = sweepPolicies[pi]
	return engine.SimulateStream(cfg, n, func(k int) (engine.Request, error) {
		return engine.Request{ID: strconv.Itoa(k), Arrival: arrival(k), PromptTokens: p.prompts[k],
			MaxTokens: lengths[k], IgnoreEOS: true}, nil
	}, engine.SimOptions{}, func(k int, r *engine.RequestResult) error {
		if done != nil {
			done(k, r)
		}
		return nil
	})
}

// run simulates one point: policy pi at its ri-th rate.
func (p *sweepPlan) run(pi, ri int) point {
	rate := p.rates[pi][ri]
	pt := point{policy: sweepPolicies[pi], pi: pi, ri: ri, rate: rate}
	arrivals := make([]time.Duration, sweepRequests)
	var at float64
	for k, g := range p.gaps[ri] {
		at += g / rate
		arrivals[k] = time.Duration(at * float64(time.Second))
	}
	outs := make([]outcome, sweepRequests)
	res, err := p.simulate(pi, sweepRequests, func(k int) time.Duration { return arrivals[k] }, p.lengths[ri], func(k int, r *engine.RequestResult) {
		outs[k] = outcome{arrival: r.Arrival, first: r.FirstToken, end: r.End, tokens: r.Usage.CompletionTokens}
	})
	if err != nil {
		pt.err = fmt.Errorf("%s at %g req/s: %w", pt.policy, rate, err)
		return pt
	}
	pt.sum = summarize(outs, p.s.ttftSLO, p.s.tpotSLO)
	pt.preempt = res.Stats.Preemptions
	return pt
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x <= 0 {
		return x
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(x)))
	return math.Round(x*p) / p
}
