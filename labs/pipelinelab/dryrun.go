package pipelinelab

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// Capture is what a dry run of the pipeline produced: the real guardrail
// verdict, lookups and assembled prompt, and every model request the
// pipeline sent, in order (helper calls first, then the answer).
type Capture struct {
	Result *pipeline.Result
	Calls  []pipeline.ProviderRequest
}

// Answer is the last call: the answer's request.
func (c Capture) Answer() (pipeline.ProviderRequest, bool) {
	if len(c.Calls) == 0 {
		return pipeline.ProviderRequest{}, false
	}
	return c.Calls[len(c.Calls)-1], true
}

// DryRun takes req through the real pipeline with cfg's stages but no
// waits: the simulated service latencies, timeouts, deadline and cache are
// off, and every tier is a recorder that ends each call at once. The
// guardrail, retrieval, order lookup, history and prompt assembly are the
// real ones. Runs on the virtual clock use it to learn what the model
// would be asked, then time that request with engine.Simulate.
func DryRun(ctx context.Context, cfg pipeline.Config, deps pipeline.Deps, req pipeline.Request) (Capture, error) {
	cfg.Guard.Latency = pipeline.Latency{}
	cfg.Context.HistoryLatency = pipeline.Latency{}
	cfg.Context.RetrievalLatency = pipeline.Latency{}
	cfg.Context.OrderLatency = pipeline.Latency{}
	cfg.Gateway.Overhead = pipeline.Latency{}
	cfg.Gateway.FirstTokenTimeout, cfg.Gateway.OverallTimeout, cfg.Deadline = 0, 0, 0
	cfg.Gateway.Cache = false
	rec := &recorder{}
	tiers := pipeline.WrapProviders(deps.Tiers, func(pipeline.Provider) pipeline.Provider { return rec })
	deps.Tiers, deps.Cache, deps.Messages = tiers, nil, nil
	deps.Clock, deps.OnHostTime = nil, nil
	p, err := pipeline.New(cfg, deps)
	if err != nil {
		return Capture{}, err
	}
	res, err := p.Run(ctx, req, nil)
	if err != nil {
		return Capture{}, err
	}
	return Capture{Result: res, Calls: rec.calls()}, nil
}

// recorder is a Provider that keeps each request and answers nothing.
type recorder struct {
	mu   sync.Mutex
	reqs []pipeline.ProviderRequest
}

func (r *recorder) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return &doneStream{}, nil
}

func (r *recorder) calls() []pipeline.ProviderRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]pipeline.ProviderRequest(nil), r.reqs...)
}

// doneStream ends at once with one token of text, so the pipeline sees a
// complete answer.
type doneStream struct{ n int }

func (s *doneStream) Recv() (pipeline.StreamEvent, error) {
	s.n++
	switch s.n {
	case 1:
		return pipeline.StreamEvent{Text: ".", Tokens: 1}, nil
	case 2:
		return pipeline.StreamEvent{Done: true, FinishReason: "stop"}, nil
	}
	return pipeline.StreamEvent{}, io.EOF
}

func (s *doneStream) Close() error { return nil }

// EngineRequest is the engine request the bundled engine provider would
// submit for preq: the prompt's tokens and the composed answer, exactly as
// pipeline.EngineProvider builds them. It also returns the answer, whose
// text is what the learner would read.
func EngineRequest(tm *textmodel.Model, id string, preq pipeline.ProviderRequest) (engine.Request, textmodel.Answer, error) {
	if tm == nil {
		tm = textmodel.Default()
	}
	ans := tm.Compose(textmodel.ComposeRequest{Messages: preq.Messages, MaxTokens: preq.MaxTokens,
		ForcedTokens: preq.ExactTokens, Seed: preq.Seed, Temperature: preq.Temperature})
	if len(ans.Tokens) == 0 {
		return engine.Request{}, ans, fmt.Errorf("request %s: the composed answer is empty", id)
	}
	return engine.Request{ID: id, PromptTokens: tm.PromptTokens(preq.Messages), OutputTokens: ans.Tokens,
		MaxTokens: len(ans.Tokens)}, ans, nil
}
