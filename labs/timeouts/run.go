package timeouts

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// run sends the batch under every variant at once and reports the
// learner's variant live, then everything at the end.
func (l runner) run(ctx context.Context, run pipelinelab.Run, s settings, emit func(labs.Frame)) error {
	base := run.ID
	tiers := []string{primary}
	if s.backup != "" {
		tiers = append(tiers, s.backup)
	}
	if err := run.Host(ctx, s.host, emit, tiers...); err != nil {
		return err
	}
	vs := variants(s)
	batches := make([]*batch, len(vs))
	type pair struct{ healthy, faulty *pipeline.Pipeline }
	pipes := make([]pair, len(vs))
	for i, vr := range vs {
		h, f, err := pipelines(s, vr, fmt.Sprintf("%s-v%d", base, i), run)
		if err != nil {
			return fmt.Errorf("timeouts: pipeline for %s: %w", vr.name, err)
		}
		batches[i], pipes[i] = &batch{s: s, v: vr}, pair{h, f}
	}
	v := &view{s: s, xmax: 5000}

	// Every variant runs at the same time, so the run takes as long as
	// its slowest request rather than three batches in a row.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, len(batches))
	for i, b := range batches {
		go func() { done <- b.run(runCtx, pipes[i].healthy, pipes[i].faulty, fmt.Sprintf("%s-v%d", base, i)) }()
	}
	var tick <-chan time.Time
	if l.tick > 0 {
		tk := time.NewTicker(l.tick)
		defer tk.Stop()
		tick = tk.C
	}
	rs0, _ := batches[0].snapshot()
	emit(labs.Frame{Status: fmt.Sprintf("Sending %s requests, 100 ms apart, on the wall clock…", labs.Thousands(s.requests)),
		Charts: []labs.Chart{v.timeline(rs0, 0, false)}})
	var firstErr error
	for left := len(batches); left > 0; {
		select {
		case err := <-done:
			left--
			if err != nil && firstErr == nil {
				firstErr = err
				cancel()
			}
		case <-tick:
			if ctx.Err() != nil || firstErr != nil {
				continue
			}
			rs, now := batches[0].snapshot()
			emit(labs.Frame{Status: v.liveStatus(rs, now, len(batches)-1),
				Charts: []labs.Chart{v.timeline(rs, now, false)}})
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if firstErr != nil {
		return fmt.Errorf("timeouts: %w", firstErr)
	}
	rs, now := batches[0].snapshot()
	sm := summarize(rs)
	f := labs.Frame{Final: true, Status: v.finalStatus(sm), Stats: v.stats(sm),
		Charts: []labs.Chart{v.timeline(rs, now, true)}, Tables: []labs.Table{v.comparison(batches)}}
	labs.Explain(f.Stats, v.why(rs))
	if t, ok := v.retries(rs); ok {
		f.Tables = append(f.Tables, t)
	}
	emit(f)
	return nil
}
