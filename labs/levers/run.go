package levers

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// run estimates the whole set on the virtual clock, then measures it live
// when that fits the wall-clock limit, emitting a frame per finished row.
func (l runner) run(ctx context.Context, run pipelinelab.Run, s settings, emit func(labs.Frame)) error {
	base := run.ID
	v := &view{s: s, limit: l.wallLimit}

	// The virtual set is cheap and tells how long the live one would
	// take; a cache row runs its request twice.
	var virtual []result
	wall := time.Duration(0)
	for i, lv := range levers {
		r, err := virtualRow(ctx, s, lv, fmt.Sprintf("%s-r%d", base, i), run)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("levers: %s: %w", lv.name, err)
		}
		virtual = append(virtual, r)
		wall += time.Duration(r.total * float64(time.Millisecond))
		if lv.name == "Cache hit" {
			wall += time.Duration(virtual[0].total * float64(time.Millisecond))
		}
	}
	if wall > l.wallLimit {
		v.virtual = true
		v.estimate = wall
		for _, r := range virtual {
			v.rows = append(v.rows, r)
			emit(v.frame(false))
		}
		emit(v.frame(true))
		return nil
	}

	v.estimate = wall
	if err := run.Host(ctx, s.host, emit, s.tier, pipelinelab.TierSmall); err != nil {
		return err
	}
	emit(v.frame(false))
	sent := run.Engines.Clock().Now() // each row is sent as the one before ends, on the modelled timeline
	for i, lv := range levers {
		var r result
		var err error
		r, sent, err = liveRow(ctx, s, lv, fmt.Sprintf("%s-r%d", base, i), run, sent)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			emit(labs.Frame{Final: true, Status: fmt.Sprintf("The %s row failed.", lv.name), Error: err.Error()})
			return nil
		}
		v.rows = append(v.rows, r)
		emit(v.frame(false))
	}
	emit(v.frame(true))
	return nil
}

// wire gives one row's pipeline its dependencies: the run's tiers and
// stores, its own conversation (same earlier turns in every row) and no
// saving, so a repeated request has the same prompt.
func wire(ctx context.Context, id string, run pipelinelab.Run) (pipeline.Deps, error) {
	conv, err := pipelinelab.NewConversation(ctx, id, historyTurns, time.Time{})
	if err != nil {
		return pipeline.Deps{}, err
	}
	return run.Deps(pipeline.Deps{Tiers: run.Tiers, History: conv, Retriever: run.Retriever, Orders: run.Orders}), nil
}

func rowFor(s settings, lv lever) rowConfig {
	c := baseline(s)
	lv.apply(&c, s)
	return c
}

// liveRow runs the row's request through the pipeline on the wall clock.
// Each row has its own session line, so no row reuses another's prompt
// prefix in the engine. The cache row sends its request twice and
// reports the second, which the response cache answers. The row is sent
// at modelled moment sent and its second request as the first ends; it
// returns when the row ended on the modelled timeline, so a busy host
// does not move which moment of a hosted tier's traffic a later row meets.
func liveRow(ctx context.Context, s settings, lv lever, id string, run pipelinelab.Run, sent time.Time) (result, time.Time, error) {
	c := rowFor(s, lv)
	deps, err := wire(ctx, id, run)
	if err != nil {
		return result{}, sent, err
	}
	if c.cache {
		deps.Cache = pipeline.NewCache(4)
	}
	p, err := pipeline.New(c.pipelineConfig(id), deps)
	if err != nil {
		return result{}, sent, err
	}
	req := pipeline.Request{ID: id, ConversationID: id, Customer: pipelinelab.Customer, Question: s.question, Seed: 1}
	runs := 1
	if c.cache {
		runs = 2
	}
	var res *pipeline.Result
	for range runs {
		res, err = p.Run(live.WithSentAt(ctx, sent), req, nil)
		if err != nil {
			return result{}, sent, err
		}
		if res.Status != pipeline.StatusComplete {
			return result{}, sent, fmt.Errorf("%s: %s", res.Status, res.Message)
		}
		sent = sent.Add(res.Summary.Total)
	}
	if c.cache && !res.Cached {
		return result{}, sent, fmt.Errorf("the repeated request missed the cache")
	}
	out := result{lever: lv, firstWord: pipelinelab.MS(res.Summary.FirstWord), total: pipelinelab.MS(res.Summary.Total),
		cost: res.Summary.Cost, before: pipelinelab.MS(res.Summary.Total)}
	if n := len(res.Attempts); n > 0 && !res.Cached {
		// The answer's model call, as the gateway saw it: from sending
		// the request to the last chunk.
		last := res.Attempts[n-1]
		out.answer = pipelinelab.MS(last.End - last.Start)
		out.before, out.modelFirst = pipelinelab.MS(last.Start), pipelinelab.MS(res.Summary.FirstToken)
		out.tokens = res.Summary.OutputTokens
	}
	return out, sent, nil
}

// virtualRow times the row on the virtual clock. A dry run of the same
// pipeline gives the real prompt and helper requests; each model call is
// timed by engine.Simulate on an idle engine of its tier (prefix caching
// off, as every live row has its own session line); the stage times are
// the pipeline's, composed in its order: guardrail, the helper calls in a
// row, the lookups (slowest or sum), prompt and gateway, then the answer —
// its first word at the first token when streamed, at the last when
// blocking, and both at once on a cache hit, which calls no model.
func virtualRow(ctx context.Context, s settings, lv lever, id string, run pipelinelab.Run) (result, error) {
	c := rowFor(s, lv)
	deps, err := wire(ctx, id, run)
	if err != nil {
		return result{}, err
	}
	cfg := c.pipelineConfig(id)
	req := pipeline.Request{ID: id, ConversationID: id, Customer: pipelinelab.Customer, Question: s.question, Seed: 1}
	capt, err := pipelinelab.DryRun(ctx, cfg, deps, req)
	if err != nil {
		return result{}, err
	}
	if len(capt.Calls) != c.helpers+1 {
		return result{}, fmt.Errorf("dry run made %d model calls, want %d", len(capt.Calls), c.helpers+1)
	}
	spec, err := pipelinelab.LookupTier(c.tier)
	if err != nil {
		return result{}, err
	}
	ecfg, err := spec.EngineConfig()
	if err != nil {
		return result{}, err
	}
	ecfg.PrefixCaching = false
	tier := pipeline.Tier{PriceIn: spec.PriceIn, PriceOut: spec.PriceOut}

	at := cfg.Guard.Latency.Base
	cost := 0.0
	for i, call := range capt.Calls {
		ereq, _, err := pipelinelab.EngineRequest(nil, fmt.Sprintf("%s-%d", id, i), call)
		if err != nil {
			return result{}, err
		}
		ttft, e2e, err := s.host.Simulate(ecfg, ereq)
		if err != nil {
			return result{}, err
		}
		last := i == len(capt.Calls)-1
		if last && c.cache {
			break // the cache answers: no model call, no cost
		}
		cost += tier.Cost(pipeline.Usage{PromptTokens: len(ereq.PromptTokens), CompletionTokens: ereq.MaxTokens})
		if !last {
			at += e2e
			continue
		}
		at += lookups(cfg, deps) + cfg.Gateway.Overhead.Base
		first, total := at+ttft, at+e2e
		if c.buffered {
			first = total
		}
		return result{lever: lv, firstWord: pipelinelab.MS(first), total: pipelinelab.MS(total), cost: cost,
			answer: pipelinelab.MS(e2e), before: pipelinelab.MS(at), modelFirst: pipelinelab.MS(ttft), tokens: ereq.MaxTokens}, nil
	}
	at += lookups(cfg, deps) + cfg.Gateway.Overhead.Base
	return result{lever: lv, firstWord: pipelinelab.MS(at), total: pipelinelab.MS(at), cost: cost, before: pipelinelab.MS(at)}, nil
}

// lookups is the context stage: the slowest lookup or their sum, over the
// lookups the pipeline runs (a missing store switches its lookup off).
func lookups(cfg pipeline.Config, deps pipeline.Deps) time.Duration {
	var ds []time.Duration
	if deps.History != nil && cfg.Context.HistoryTurns > 0 {
		ds = append(ds, cfg.Context.HistoryLatency.Base)
	}
	if deps.Retriever != nil && cfg.Context.TopK > 0 {
		ds = append(ds, cfg.Context.RetrievalLatency.Base)
	}
	if deps.Orders != nil && cfg.Context.Order {
		ds = append(ds, cfg.Context.OrderLatency.Base)
	}
	var out time.Duration
	for _, d := range ds {
		if cfg.Context.Parallel {
			out = max(out, d)
		} else {
			out += d
		}
	}
	return out
}
