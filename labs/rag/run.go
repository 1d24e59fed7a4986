package rag

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// answerCap bounds the answer; the composer usually stops sooner, at the
// end of the sentences it drew from the passages.
const answerCap = 200

// sweepK are the chunk counts timed on the virtual clock.
var sweepK = []int{0, 2, 5, 10, 20}

// pipelineConfig is a pipeline that spends no simulated time outside the
// model: this lab is about the prompt, so only real work (classifier,
// search, token counting) and the engine's prefill and decode take time.
func pipelineConfig(s settings, system string, topK int) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.Guard = pipeline.GuardConfig{Enabled: true}
	// The order lookup stays off: the prompt holds the parts this lab
	// is about (system, passages, history, question).
	cfg.Context = pipeline.ContextConfig{Parallel: true, HistoryTurns: s.history, TopK: topK}
	// No history cap: the knob alone decides how much history goes in.
	cfg.Prompt = pipeline.PromptConfig{System: system}
	cfg.Gateway = pipeline.GatewayConfig{Tier: s.tier, MaxTokens: answerCap}
	cfg.Deadline = 0
	return cfg
}

// measure assembles and sends one prompt live, then sweeps the chunk count on
// the virtual clock. ctx ending returns ctx's error without a final frame.
func measure(ctx context.Context, run pipelinelab.Run, s settings, emit func(labs.Frame)) error {
	id := run.ID
	system := pipelinelab.PaddedSystemPrompt(id, s.system, textmodel.Count)
	conv, err := pipelinelab.NewConversation(ctx, id, s.history, time.Time{})
	if err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	deps := run.Deps(pipeline.Deps{Tiers: run.Tiers, History: conv, Retriever: run.Retriever})
	p, err := pipeline.New(pipelineConfig(s, system, s.topK), deps)
	if err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	req := pipeline.Request{ID: id, ConversationID: id, Customer: pipelinelab.Customer, Question: s.questionText, Seed: int64(run.Seq)}
	v := &view{s: s}
	emit(labs.Frame{Status: "Retrieving passages and assembling the prompt…"})
	res, err := p.Run(ctx, req, func(ev pipeline.Event) {
		switch ev.Kind {
		case pipeline.EventStageEnd:
			if ev.Span.Stage == pipeline.StagePrompt {
				emit(v.promptFrame(ev.Span.Detail))
			}
		case pipeline.EventDelta:
			v.answer += ev.Text
			emit(labs.Frame{Status: "The answer is streaming…", Text: v.text()})
		}
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	if res.Status != pipeline.StatusComplete {
		emit(labs.Frame{Final: true, Status: "The request did not complete.", Error: res.Message})
		return nil
	}
	v.res = res
	emit(v.liveFrame())

	cfgEng, err := pipelinelab.TierEngineConfig(s.tier)
	if err != nil {
		return fmt.Errorf("rag: %w", err)
	}
	v.eng = cfgEng
	for _, k := range sweepK {
		pt, err := sweepPoint(ctx, s, system, k, deps, req, cfgEng)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("rag: sweep k=%d: %w", k, err)
		}
		v.sweep = append(v.sweep, pt)
	}
	emit(v.finalFrame())
	return nil
}

// point is one prompt of the sweep.
type point struct {
	k      int
	parts  pipeline.PromptParts
	tokens int
	ttft   time.Duration
}

// sweepPoint assembles the same request with k chunks through a dry run
// of the real pipeline (real retrieval and token counts) and times its
// prefill on the virtual clock: engine.Simulate of that one request on an
// idle engine of the tier's configuration. Each point gets a fresh engine,
// so no prefix is cached from another point.
func sweepPoint(ctx context.Context, s settings, system string, k int, deps pipeline.Deps, req pipeline.Request, cfg engine.Config) (point, error) {
	capt, err := pipelinelab.DryRun(ctx, pipelineConfig(s, system, k), deps, req)
	if err != nil {
		return point{}, err
	}
	preq, ok := capt.Answer()
	if !ok {
		return point{}, fmt.Errorf("no model call")
	}
	ereq, _, err := pipelinelab.EngineRequest(nil, fmt.Sprintf("sweep-%d", k), preq)
	if err != nil {
		return point{}, err
	}
	sim, err := engine.Simulate(cfg, []engine.Request{ereq}, engine.SimOptions{})
	if err != nil {
		return point{}, err
	}
	pr := capt.Result.Prompt
	return point{k: k, parts: pr.Parts, tokens: pr.Tokens(), ttft: sim.Requests[0].TTFT()}, nil
}
