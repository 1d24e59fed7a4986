package budget

import (
	"context"
	"errors"
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// measure times the live request, then the batch, emitting frames as they
// fill.
func measure(ctx context.Context, run pipelinelab.Run, s settings, emit func(labs.Frame)) error {
	v := &view{s: s, onServer: labs.OnServer(ctx)}
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
		// No figures: they would be a broken-off answer's. (On a server,
		// the page says what the server did instead, see labs.ServerTally.)
		emit(labs.Frame{Final: true, Status: "The request did not complete.",
			Error: fmt.Sprintf("The one request ended %s before its answer was complete, so there is nothing to time. Run it again, or try other settings.", endedAs(res.Status))})
		return nil
	}
	v.finishLive(res)
	f := v.liveFrame()
	f.Status = fmt.Sprintf("First word after %s, complete after %s. Now timing %s requests on the virtual clock…",
		pipelinelab.FmtMS(pipelinelab.MS(res.Summary.FirstWord)), pipelinelab.FmtMS(pipelinelab.MS(requestEnd(res))), labs.Thousands(s.requests))
	if noAnswerWord(res) {
		f.Status = fmt.Sprintf("No answer word: the model thought to the end, complete after %s.", pipelinelab.FmtMS(pipelinelab.MS(requestEnd(res))))
	}
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
	if labs.Compared(ctx) {
		m, err := liveModelTime(res, v.second)
		if errors.Is(err, errNoAnswerWord) {
			// Without a first word there is nothing to reuse: the one
			// request's figures alone, no batch under the server's name.
			emit(labs.Frame{Final: true, Status: "The one request brought no answer word, so the batch has no model time to reuse and is not timed.",
				Stats: v.liveStats(res), Charts: []labs.Chart{v.waterfall()}})
			return nil
		}
		if err != nil {
			return fmt.Errorf("latency budget: %w", err)
		}
		b = b.withModelTime(m)
		v.reused = reuseNote(ctx, m, len(b.samples), s.rate)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	emit(v.finalFrame(res, b))
	return nil
}

// endedAs says how a request that did not complete ended.
func endedAs(status string) string {
	switch status {
	case pipeline.StatusError:
		return "with the model call failing"
	case pipeline.StatusTimeout:
		return "cut off by a timeout"
	case pipeline.StatusBlocked:
		return "blocked by a safety check"
	}
	return "early"
}
