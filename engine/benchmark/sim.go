package benchmark

import (
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// RunSim runs the requests through the engine on the virtual clock, with
// ignore_eos so each produces exactly its OutputLen tokens as `vllm bench
// serve` asks of a server. Every token is its own chunk, so ITL is the gap
// between consecutive tokens. The duration runs from time zero (the
// benchmark start, before the first Poisson gap) to the last token, as
// vLLM's wall-clock duration does.
func RunSim(cfg engine.Config, reqs []Request, maxConcurrency int) ([]Output, time.Duration, error) {
	ereqs := make([]engine.Request, len(reqs))
	for i, r := range reqs {
		ereqs[i] = engine.Request{
			ID: r.ID, Arrival: r.Arrival, PromptTokens: r.PromptTokens,
			MaxTokens: r.OutputLen, IgnoreEOS: true,
		}
	}
	res, err := engine.Simulate(cfg, ereqs, engine.SimOptions{MaxConcurrency: maxConcurrency})
	if err != nil {
		return nil, 0, fmt.Errorf("run on the virtual clock: %w", err)
	}
	outs := make([]Output, len(reqs))
	var end time.Duration
	for i := range res.Requests {
		rr := &res.Requests[i]
		o := Output{PromptLen: reqs[i].PromptLen, OutputTokens: rr.Usage.CompletionTokens, Start: rr.Arrival}
		if rr.FinishReason == engine.FinishAbort || len(rr.TokenTimes) == 0 {
			o.Error = "request " + rr.ID + " ended without output (" + rr.FinishReason + ")"
			outs[i] = o
			continue
		}
		o.Success = true
		o.TTFT = rr.TTFT()
		o.Latency = rr.E2E()
		o.ITL = make([]time.Duration, 0, len(rr.TokenTimes)-1)
		for k := 1; k < len(rr.TokenTimes); k++ {
			o.ITL = append(o.ITL, rr.TokenTimes[k]-rr.TokenTimes[k-1])
		}
		end = max(end, rr.End)
		outs[i] = o
	}
	return outs, end, nil
}
