package batching

import (
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// newLiveView sizes the charts from a virtual-clock run of the same
// workload on the same configuration. That run only fixes axes; every
// figure shown comes from the live run.
func newLiveView(s settings, cfg engine.Config, w workload) (*liveView, error) {
	res, err := engine.Simulate(cfg, cloneReqs(w.reqs), engine.SimOptions{RecordTrace: true})
	if err != nil {
		return nil, fmt.Errorf("this workload cannot run: %w", err)
	}
	var peak int
	for _, tr := range res.Trace {
		peak = max(peak, tr.Running, tr.Waiting)
	}
	var last time.Duration
	for _, r := range res.Requests {
		last = max(last, r.End)
	}
	return &liveView{s: s, cfg: cfg, static: cfg.Policy == engine.Static, estimate: last,
		xmax: labs.NiceCeil(labs.Millis(last) * 1.1), ymax: labs.NiceCeil(float64(max(peak, 1)) * 1.1)}, nil
}

// bucket is the throughput chart's bin: about a fiftieth of the axis.
func (v *liveView) bucket() time.Duration {
	return time.Duration(labs.NiceCeil(v.xmax/50) * float64(time.Millisecond))
}

func (v *liveView) status(r *recorder) string {
	done, arrived := 0, 0
	for _, q := range r.reqs {
		if q.done {
			done++
		}
		if q.arrived {
			arrived++
		}
	}
	if len(r.steps) == 0 {
		return fmt.Sprintf("Sending %s requests to %s (%s).", labs.Thousands(len(r.reqs)), v.engineName(), v.cfg.Policy)
	}
	st := r.steps[len(r.steps)-1]
	return fmt.Sprintf("%s: %s of %s requests done, %s arrived; %s in the batch, %s waiting.",
		fmtMS(labs.Millis(r.now)), labs.Thousands(done), labs.Thousands(len(r.reqs)), labs.Thousands(arrived), labs.Thousands(st.running), labs.Thousands(st.waiting))
}

func (v *liveView) doneStatus(r *recorder) string {
	sum := summarize(r.outcomes(), 0, 0)
	return fmt.Sprintf("Done: %s on %s (%s batching) in %s; p95 time to first token %s.",
		labs.Count(sum.completed, "request"), v.engineName(), v.cfg.Policy, fmtMS(labs.Millis(sum.duration)), fmtMS(percentile(sum.ttft, 95)))
}

func (v *liveView) engineName() string {
	if v.s.shared {
		return "the shared " + v.s.profile.String() + " engine"
	}
	return v.s.profile.String()
}
