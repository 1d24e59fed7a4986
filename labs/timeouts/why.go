package timeouts

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// why are the formulas of the batch's percentiles: each is one request
// (nearest rank, as pipelinelab.Percentile picks it), so its formula is
// that request's own stages and attempts, set against the limits.
func (v *view) why(rs []record) map[string]labs.Formula {
	var shown, complete []*pipeline.Result
	for _, r := range rs {
		if r.res == nil {
			continue
		}
		if r.res.Text != "" {
			shown = append(shown, r.res)
		}
		if r.res.Status == pipeline.StatusComplete {
			complete = append(complete, r.res)
		}
	}
	out := v.countWhy(rs)
	for key, p := range map[string]float64{statFirstWordP95: 95, statFirstWordP99: 99} {
		if res := rank(shown, p, func(r *pipeline.Result) time.Duration { return r.Summary.FirstWord }); res != nil {
			f := pipelinelab.FirstWord(res)
			f.Before = fmt.Sprintf("The p%g request's first word = its stages before the model + every attempt until one wrote a token:", p)
			f.After = v.against(pipelinelab.MS(res.Summary.FirstWord))
			out[key] = f
		}
	}
	if res := rank(complete, 95, func(r *pipeline.Result) time.Duration { return r.Summary.Total }); res != nil {
		f := pipelinelab.Complete(pipelinelab.MS(res.Summary.FirstWord), pipelinelab.MS(res.Summary.Total), pipelinelab.AnswerTokens(res.Summary))
		f.Before = "The p95 complete answer = its first word + the rest of its answer at its time per output token:"
		out[statCompleteP95] = f
	}
	return out
}

// rank is the result at nearest-rank percentile p of key.
func rank(rs []*pipeline.Result, p float64, key func(*pipeline.Result) time.Duration) *pipeline.Result {
	if len(rs) == 0 {
		return nil
	}
	rs = slices.Clone(rs)
	slices.SortStableFunc(rs, func(a, b *pipeline.Result) int { return int(key(a) - key(b)) })
	i := int(math.Ceil(p / 100 * float64(len(rs))))
	return rs[min(max(i, 1), len(rs))-1]
}

// against sets a first word beside the limits that could have cut it.
func (v *view) against(ms float64) string {
	var out string
	if v.s.ftt > 0 {
		out = fmt.Sprintf("The first-token timeout is %s, so a tier silent that long is abandoned for the backup.", pipelinelab.FmtMS(pipelinelab.MS(v.s.ftt)))
	}
	if v.s.deadline > 0 {
		d := pipelinelab.MS(v.s.deadline)
		room := "inside"
		if ms > d {
			room = "past"
		}
		out += fmt.Sprintf(" Against the %s deadline this is %s %s it.", pipelinelab.FmtMS(d), pipelinelab.FmtMS(math.Abs(d-ms)), room)
	}
	if out == "" {
		out = "No first-token timeout or deadline is set, so nothing cut this wait short."
	}
	return out
}
