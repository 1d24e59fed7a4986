package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"
)

// ContextConfig shapes context building: which lookups run, how slow their
// services are, and whether they run one after another or together.
type ContextConfig struct {
	// Parallel starts the lookups together, so the wait is the slowest
	// of them rather than their sum.
	Parallel bool
	// HistoryTurns is how many recent turns to load (0: none).
	HistoryTurns int
	// TopK is how many knowledge-base chunks to retrieve (0: none).
	TopK int
	// Order looks up the customer's order.
	Order bool
	// Simulated service latency of each lookup, on top of the real call.
	HistoryLatency   Latency
	RetrievalLatency Latency
	OrderLatency     Latency
}

// Validate checks ranges.
func (c ContextConfig) Validate() error {
	if c.HistoryTurns < 0 || c.HistoryTurns > 200 {
		return fmt.Errorf("history turns %d is outside 0..200", c.HistoryTurns)
	}
	if c.TopK < 0 || c.TopK > 100 {
		return fmt.Errorf("top-k %d is outside 0..100", c.TopK)
	}
	for name, l := range map[string]Latency{"history": c.HistoryLatency, "retrieval": c.RetrievalLatency, "order": c.OrderLatency} {
		if err := l.Validate(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// Lookups is what context building found.
type Lookups struct {
	History []Turn
	Chunks  []Chunk
	Order   *Order
	// Failed lists lookups whose store failed; the answer goes on
	// without them, as a support bot should.
	Failed []string
}

// errBlocked stops context building when the guardrail, running alongside,
// blocks the request.
var errBlocked = errors.New("blocked by the input guardrail")

// buildContext runs the lookups (and, with guardAlongside, the guardrail)
// sequentially or in parallel. Store failures degrade the context; only a
// cancelled or blocked request returns an error.
// On the modelled timeline parallel steps start together at from and the
// group ends with the slowest; sequential ones follow each other. It
// returns the modelled moment context building ended.
func (r *run) buildContext(ctx context.Context, guardAlongside bool, from time.Duration) (Lookups, time.Duration, error) {
	var out Lookups
	var steps []func(context.Context, time.Duration) (time.Duration, error)
	if guardAlongside {
		steps = append(steps, r.guard)
	}
	if r.deps.History != nil && r.cfg.Context.HistoryTurns > 0 && r.req.ConversationID != "" {
		steps = append(steps, func(ctx context.Context, from time.Duration) (time.Duration, error) {
			return r.lookup(ctx, from, StageHistory, r.cfg.Context.HistoryLatency, &out, func(ctx context.Context) (string, error) {
				turns, err := r.deps.History.RecentTurns(ctx, r.req.ConversationID, r.cfg.Context.HistoryTurns)
				out.History = turns
				return fmt.Sprintf("%d turns", len(turns)), err
			})
		})
	}
	if r.deps.Retriever != nil && r.cfg.Context.TopK > 0 {
		steps = append(steps, func(ctx context.Context, from time.Duration) (time.Duration, error) {
			return r.lookup(ctx, from, StageRetrieval, r.cfg.Context.RetrievalLatency, &out, func(ctx context.Context) (string, error) {
				chunks, err := r.deps.Retriever.Retrieve(ctx, r.lookupText, r.cfg.Context.TopK)
				out.Chunks = chunks
				return fmt.Sprintf("%d chunks", len(chunks)), err
			})
		})
	}
	if r.deps.Orders != nil && r.cfg.Context.Order {
		steps = append(steps, func(ctx context.Context, from time.Duration) (time.Duration, error) {
			return r.lookup(ctx, from, StageOrder, r.cfg.Context.OrderLatency, &out, func(ctx context.Context) (string, error) {
				o, err := r.deps.Orders.LookupOrder(ctx, r.req.Customer, r.lookupText)
				out.Order = o
				if o == nil {
					return "no order", err
				}
				return "order " + o.ID, err
			})
		})
	}
	if len(steps) == 0 {
		return out, from, nil
	}

	mode := "sequential"
	if r.cfg.Context.Parallel {
		mode = "parallel"
	}
	sp := r.rec.begin(StageContext, "", from)
	end, err := runSteps(ctx, steps, from, r.cfg.Context.Parallel)
	sp.end(end, fmt.Sprintf("%d steps, %s", len(steps), mode), err)
	return out, end, err
}

// runSteps runs steps from the modelled moment from, together (each from
// from; the group ends with the slowest) or in a row (each from the last
// one's end), and returns the modelled end. The first error stops the
// steps.
func runSteps(ctx context.Context, steps []func(context.Context, time.Duration) (time.Duration, error), from time.Duration, together bool) (time.Duration, error) {
	if !together {
		var err error
		for _, step := range steps {
			if from, err = step(ctx, from); err != nil {
				break
			}
		}
		return from, err
	}
	ends := make([]time.Duration, len(steps))
	g, gctx := errgroup.WithContext(ctx)
	for i, step := range steps {
		g.Go(func() (err error) {
			ends[i], err = step(gctx, from)
			return err
		})
	}
	err := g.Wait()
	return max(from, slices.Max(ends)), err
}

// lookup takes the simulated service latency from the modelled moment
// from, then makes the real call (whose time on the host is not modelled:
// it shows in the handler's times). It returns the modelled end.
func (r *run) lookup(ctx context.Context, from time.Duration, stage string, lat Latency, out *Lookups, call func(context.Context) (string, error)) (time.Duration, error) {
	sp := r.rec.begin(stage, "", from)
	end, err := r.waitUntil(ctx, from+lat.sample(stageRNG(r.req.Seed, stage)))
	if err != nil {
		sp.end(end, "", err)
		return end, err
	}
	detail, err := call(ctx)
	sp.end(end, detail, err)
	if err == nil {
		return end, nil
	}
	if ctx.Err() != nil {
		return end, context.Cause(ctx)
	}
	r.mu.Lock()
	out.Failed = append(out.Failed, stage)
	r.mu.Unlock()
	return end, nil
}
