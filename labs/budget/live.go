package budget

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// question is the request the lab follows: an order question, so every
// lookup has something to find.
const question = "Where is my order NW-10452? It was supposed to arrive on Monday."

// historyTurns is the length of the earlier conversation loaded as history.
const historyTurns = 6

// topK is how many passages are retrieved.
const topK = 5

// pipelineConfig is the pipeline for settings s: the lesson's support
// assistant with the learner's stage times, no jitter (the single request
// shows the budget as written), no cache and no timeouts (timeouts have
// their own lab).
func pipelineConfig(s settings, session string) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.Guard = pipeline.GuardConfig{Enabled: true, Alongside: s.guardAlong, Latency: pipeline.Latency{Base: s.guard}}
	cfg.Context = pipeline.ContextConfig{Parallel: s.parallel, HistoryTurns: historyTurns, TopK: topK, Order: true,
		HistoryLatency:   pipeline.Latency{Base: s.history},
		RetrievalLatency: pipeline.Latency{Base: s.retrieval},
		OrderLatency:     pipeline.Latency{Base: s.order}}
	cfg.Prompt = pipeline.PromptConfig{System: pipelinelab.SystemPrompt(session), HistoryBudget: 1000}
	cfg.Gateway = pipeline.GatewayConfig{Tier: s.tier, Overhead: pipeline.Latency{Base: s.gateway},
		ExactTokens: s.answerTokens}
	cfg.Deadline = 0
	return cfg
}

// wire gives the pipeline its dependencies: the run's tiers and stores,
// and a fresh in-memory conversation as history.
func wire(ctx context.Context, run pipelinelab.Run) (pipeline.Deps, error) {
	mc, err := pipelinelab.NewConversation(ctx, run.ID, historyTurns, time.Time{})
	if err != nil {
		return pipeline.Deps{}, err
	}
	return run.Deps(pipeline.Deps{Tiers: run.Tiers, History: mc, Messages: mc, Retriever: run.Retriever, Orders: run.Orders}), nil
}

// live runs the one request on the wall clock, emitting a frame as each
// stage ends and as the answer streams.
func live(ctx context.Context, run pipelinelab.Run, s settings, v *view, update func()) (*pipeline.Result, pipeline.Config, pipeline.Deps, pipeline.Request, error) {
	id := run.ID
	cfg := pipelineConfig(s, id)
	deps, err := wire(ctx, run)
	if err != nil {
		return nil, cfg, deps, pipeline.Request{}, err
	}
	plain := deps // the dry run that follows makes its own calls
	var second *secondCall
	if s.calls != callsOne {
		second = &secondCall{ctx: ctx, together: s.calls == callsTogether, clk: run.Engines.Clock()}
		deps.Tiers = second.wrap(deps.Tiers)
		v.second = second
	}
	p, err := pipeline.New(cfg, deps)
	if err != nil {
		return nil, cfg, plain, pipeline.Request{}, err
	}
	tokens := 0
	req := pipeline.Request{ID: id, ConversationID: id, Customer: pipelinelab.Customer, Question: question, Seed: int64(run.Seq)}
	res, err := p.Run(ctx, req, func(ev pipeline.Event) {
		switch ev.Kind {
		case pipeline.EventStageStart:
			if second != nil && ev.Span.Stage == pipeline.StageAttempt {
				second.began(ev.Span.Start)
			}
		case pipeline.EventStageEnd:
			v.addSpan(ev.Span)
			update()
		case pipeline.EventDelta:
			tokens += ev.Tokens
			v.streamed(ev.At, tokens)
			if tokens%10 == 1 {
				update()
			}
		}
	})
	if second != nil {
		// Together, the summary may still be writing after the answer.
		if serr := second.wait(); err == nil && ctx.Err() == nil {
			err = serr
		}
	}
	return res, cfg, plain, req, err
}
