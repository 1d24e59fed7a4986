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

// Simulate runs the dataset's requests on the virtual clock as RunSim does,
// but streams them: each request is drawn when the clock nears its arrival
// and folded into the result when it finishes, so memory stays flat however
// many requests the dataset holds. The figures are RunSim's passed through
// Compute, exactly while each metric has at most exactLimit values.
func Simulate(cfg engine.Config, d *Dataset, maxConcurrency int, percentiles []float64) (Result, error) {
	var c *Collector
	var itl []time.Duration // reused: the collector keeps nothing of an output
	var end time.Duration
	var ids []int // reused: the engine keeps no prompt ids once it has a request
	request := func(k int) (engine.Request, error) {
		r := d.draw(ids)
		ids = r.PromptTokens
		if k == 0 {
			// The first request always finds a slot, so it keeps its
			// arrival, the earliest start of the run.
			c = NewCollector(percentiles, r.Arrival)
			c.CountGoodput(d.w.Goodput)
		}
		return engine.Request{ID: r.ID, Arrival: r.Arrival, PromptTokens: r.PromptTokens, MaxTokens: r.OutputLen, IgnoreEOS: true}, nil
	}
	finished := func(_ int, rr *engine.RequestResult) error {
		o := Output{PromptLen: rr.Usage.PromptTokens, OutputTokens: rr.Usage.CompletionTokens, Start: rr.Arrival}
		if rr.FinishReason == engine.FinishAbort || len(rr.TokenTimes) == 0 {
			o.Error = "request " + rr.ID + " ended without output (" + rr.FinishReason + ")"
			c.Add(&o)
			return nil
		}
		o.Success, o.TTFT, o.Latency = true, rr.TTFT(), rr.E2E()
		itl = itl[:0]
		for k := 1; k < len(rr.TokenTimes); k++ {
			itl = append(itl, rr.TokenTimes[k]-rr.TokenTimes[k-1])
		}
		o.ITL = itl
		c.Add(&o)
		end = max(end, rr.End)
		return nil
	}
	if _, err := engine.SimulateStream(cfg, d.Len(), request, engine.SimOptions{MaxConcurrency: maxConcurrency}, finished); err != nil {
		return Result{}, fmt.Errorf("run on the virtual clock: %w", err)
	}
	return c.Result(end), nil
}
