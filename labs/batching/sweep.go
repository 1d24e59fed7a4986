package batching

import (
	"context"
	"runtime"
	"sync"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// point is one (policy, rate) result of a sweep.
type point struct {
	policy  engine.Policy
	pi, ri  int // indexes into sweepPolicies and the policy's rates
	rate    float64
	sum     summary
	preempt int64
	err     error
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
		v.points[i] = make([]*point, sweepRates)
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
		if v.done < len(sweepPolicies)*sweepRates {
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
		for ri := range sweepRates {
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
