package batching

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// sweepSeed fixes the sweep's workloads: the same knobs give the same
// sweep, and at each rate all three policies serve identical requests.
const sweepSeed = 7

// loadFactors place the sweep's rates as fractions of the capacity that
// continuous batching reaches on a burst: from light load to overload.
var loadFactors = [...]float64{0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0}

// sweepPolicies in the order they are drawn.
var sweepPolicies = [...]engine.Policy{engine.Sequential, engine.Static, engine.Continuous}

// point is one (policy, rate) result of a sweep.
type point struct {
	policy  engine.Policy
	pi, ri  int // indexes into sweepPolicies and the rates
	rate    float64
	sum     summary
	preempt int64
	err     error
}

// sweepPlan is a sweep's inputs: one workload per rate, shared by the
// policies.
type sweepPlan struct {
	s         settings
	capacity  float64 // req/s, continuous on a burst
	rates     []float64
	workloads []workload
}

// planSweep measures capacity with a virtual-clock burst of the workload on
// continuous batching and derives the rates from it.
func planSweep(s settings) (*sweepPlan, error) {
	burst := buildWorkload(s, arrivalPlan{n: sweepRequests, burst: true, seed: sweepSeed}, "cap", 0)
	cfg := s.engine
	cfg.Policy = engine.Continuous
	res, err := engine.Simulate(cfg, cloneReqs(burst.reqs), engine.SimOptions{})
	if err != nil {
		return nil, fmt.Errorf("this workload cannot run: %w", err)
	}
	p := &sweepPlan{s: s, capacity: perSecond(sweepRequests, res.Duration)}
	for i, f := range loadFactors {
		r := roundSig(p.capacity*f, 2)
		p.rates = append(p.rates, r)
		plan := arrivalPlan{n: sweepRequests, rate: r, seed: sweepSeed + uint64(i) + 1}
		p.workloads = append(p.workloads, buildWorkload(s, plan, "r"+strconv.Itoa(i), 0))
	}
	return p, nil
}

// run simulates one point.
func (p *sweepPlan) run(pi, ri int) point {
	cfg := p.s.engine
	cfg.Policy = sweepPolicies[pi]
	pt := point{policy: cfg.Policy, pi: pi, ri: ri, rate: p.rates[ri]}
	res, err := engine.Simulate(cfg, cloneReqs(p.workloads[ri].reqs), engine.SimOptions{})
	if err != nil {
		pt.err = fmt.Errorf("%s at %g req/s: %w", cfg.Policy, pt.rate, err)
		return pt
	}
	outs := make([]outcome, len(res.Requests))
	for i, r := range res.Requests {
		outs[i] = outcome{arrival: r.Arrival, first: r.FirstToken, end: r.End, tokens: r.Usage.CompletionTokens}
	}
	pt.sum = summarize(outs, p.s.ttftSLO, p.s.tpotSLO)
	pt.preempt = res.Stats.Preemptions
	return pt
}

// runSweep runs every (policy, rate) point on the virtual clock, in
// parallel, emitting a frame as each completes. Points are independent
// and seeded, so the result does not depend on the order they finish in.
func (l *Lab) runSweep(ctx context.Context, s settings, emit func(labs.Frame)) error {
	plan, err := planSweep(s)
	if err != nil {
		emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
		return nil
	}
	v := &sweepView{plan: plan, points: make([][]*point, len(sweepPolicies))}
	for i := range v.points {
		v.points[i] = make([]*point, len(plan.rates))
	}
	emit(v.frame(false))
	sctx, cancel := context.WithCancel(ctx)
	results, wait := plan.runAll(sctx, l.workers)
	defer func() { cancel(); wait() }()
	for pt := range results {
		if pt.err != nil {
			emit(labs.Frame{Final: true, Status: "Sweep stopped.", Error: pt.err.Error()})
			return nil
		}
		v.points[pt.pi][pt.ri] = &pt
		v.done++
		if v.done < len(sweepPolicies)*len(plan.rates) {
			emit(v.frame(false))
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	emit(v.frame(true))
	return nil
}

// runAll simulates every point on up to workers goroutines and streams the
// results; the channel closes when all are done or ctx ends. wait blocks
// until the workers have stopped.
func (p *sweepPlan) runAll(ctx context.Context, workers int) (<-chan point, func()) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct{ pi, ri int }
	jobs := make(chan job)
	out := make(chan point)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				pt := p.run(j.pi, j.ri)
				select {
				case out <- pt:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		defer close(jobs)
		for ri := range p.rates {
			for pi := range sweepPolicies {
				select {
				case jobs <- job{pi, ri}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	return out, func() {
		for range out { // let blocked workers finish
		}
	}
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x <= 0 {
		return x
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(x)))
	return math.Round(x*p) / p
}
