package budget

import (
	"context"
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// measure times the live request, then the batch, emitting frames as they
// fill.
func measure(ctx context.Context, run pipelinelab.Run, s settings, emit func(labs.Frame)) error {
	v := &view{s: s}
	if err := run.Host(ctx, s.host, emit, s.tier); err != nil {
		return err
	}
	emit(labs.Frame{Status: "Sending one request through the pipeline…", Charts: []labs.Chart{v.waterfall()}})
	res, cfg, deps, req, err := live(ctx, run, s, v, func() { emit(v.liveFrame()) })
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("latency budget: live request: %w", err)
	}
	if res.Status != pipeline.StatusComplete {
		emit(labs.Frame{Final: true, Status: "The request did not complete.", Error: res.Message, Stats: v.liveStats(res)})
		return nil
	}
	v.finishLive(res)
	f := v.liveFrame()
	f.Status = fmt.Sprintf("First word after %s, complete after %s. Now timing %s requests on the virtual clock…",
		pipelinelab.FmtMS(pipelinelab.MS(res.Summary.FirstWord)), pipelinelab.FmtMS(pipelinelab.MS(res.Summary.Total)), labs.Thousands(s.requests))
	emit(f)

	// The batch sends the same prompt the live request sent (captured by
	// a dry run of the same pipeline) to the tier's simulated engine.
	capt, err := pipelinelab.DryRun(ctx, cfg, deps, req)
	if err != nil {
		return fmt.Errorf("latency budget: dry run: %w", err)
	}
	preq, ok := capt.Answer()
	if !ok {
		return fmt.Errorf("latency budget: the dry run made no model call")
	}
	ereq, _, err := pipelinelab.EngineRequest(nil, "batch", preq)
	if err != nil {
		return fmt.Errorf("latency budget: %w", err)
	}
	engCfg, err := pipelinelab.TierEngineConfig(s.tier)
	if err != nil {
		return fmt.Errorf("latency budget: %w", err)
	}
	if err := s.host.Pipeline().Apply(&engCfg); err != nil {
		return fmt.Errorf("latency budget: %w", err)
	}
	var sreq engine.Request
	if s.calls != callsOne {
		if sreq, _, err = pipelinelab.EngineRequest(nil, "batch-summary", secondRequest(preq)); err != nil {
			return fmt.Errorf("latency budget: %w", err)
		}
	}
	b, err := simulateMany(s, engCfg, ereq, sreq)
	if err != nil {
		return fmt.Errorf("latency budget: %w", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	emit(v.finalFrame(res, b))
	return nil
}
