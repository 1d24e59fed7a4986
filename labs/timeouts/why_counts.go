package timeouts

import (
	"errors"
	"fmt"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// countWhy are the formulas of the batch's counts, each split by what
// caused it and read off every request's own result, not the summary.
func (v *view) countWhy(rs []record) map[string]labs.Formula {
	var n, overall, deadline, otherLimit, noTier, broke, slowedOut, healthy int
	byOutcome, healthyCut := map[string]int{}, map[string]int{}
	backup := 0
	for _, r := range rs {
		res := r.res
		if res == nil {
			continue
		}
		n++
		if !r.slowed {
			healthy++
			if res.Status != pipeline.StatusComplete {
				healthyCut[res.Status]++
			}
		}
		if movedToBackup(res) {
			backup++
			byOutcome[res.Attempts[0].Outcome]++
		}
		switch res.Status {
		case pipeline.StatusTimeout:
			switch {
			case errors.Is(res.Err, pipeline.ErrDeadline):
				deadline++
			case errors.Is(res.Err, pipeline.ErrOverallTimeout):
				overall++
			default:
				otherLimit++
			}
			if r.slowed {
				slowedOut++
			}
		case pipeline.StatusError:
			if res.Text == "" {
				noTier++
			} else {
				broke++
			}
		}
	}
	out := map[string]labs.Formula{
		statTimeouts: v.timeoutsWhy(n, overall, deadline, otherLimit, slowedOut),
		statErrors: withBefore(labs.Tally("requests", labs.Term{Name: "no tier answered", Value: float64(noTier)},
			labs.Term{Name: "the stream broke mid-answer", Value: float64(broke)}),
			"Errors = requests no tier answered + answers whose stream broke after its first words:"),
	}
	timedOut, failed := healthyCut[pipeline.StatusTimeout], healthyCut[pipeline.StatusError]
	terms := []labs.Term{{Name: "timed out", Value: float64(timedOut)}, {Name: "failed", Value: float64(failed)}}
	if other := sumCounts(healthyCut) - timedOut - failed; other > 0 {
		terms = append(terms, labs.Term{Name: "ended otherwise", Value: float64(other)})
	}
	cut := withBefore(labs.Tally("requests", terms...),
		fmt.Sprintf("Healthy answers cut = those of the %s requests the fault did not touch that still did not complete, by how they ended:", labs.Thousands(healthy)))
	if timedOut > 0 {
		cut.After = "A limit below what a healthy answer needs cuts answers that were never in trouble: set it from the p99, with room."
	}
	out[statCut] = cut
	if n > 0 {
		out[statFallback] = sentWhy(summarize(rs), byOutcome)
	}
	return out
}

// sentWhy is the share sent to the backup, by why the primary call gave
// up, followed by what the backup made of them: sent is not answered.
func sentWhy(sm summary, byOutcome map[string]int) labs.Formula {
	silent, failed := byOutcome[pipeline.OutcomeFirstTokenTimeout], byOutcome[pipeline.OutcomeFailed]
	f := labs.Formula{Unit: "%", Result: sm.backupShare(),
		Before: "Sent to the backup = requests whose call on the primary gave up ÷ requests × 100:",
		Expr: fmt.Sprintf("(%d with the primary silent past the first-token timeout + %d with the primary failing before a token%s) ÷ %d × 100",
			silent, failed, otherwise(sm.sent-silent-failed), sm.n)}
	switch {
	case sm.sent == 0:
		f.After = "The primary answered every request, so the backup never spoke."
	case sm.sentDone < sm.sent:
		f.After = fmt.Sprintf("Of the %d sent, %s.", sm.sent, sm.backupOutcome("the backup"))
		if sm.sentCut > 0 {
			f.After += " A call moved late has only what is left of the time limit to write its answer."
		}
	default:
		f.After = fmt.Sprintf("The backup completed all %d.", sm.sent)
	}
	return f
}

// timeoutsWhy is the timeouts as the limit that cut each, with how many
// were requests the fault slowed.
func (v *view) timeoutsWhy(n, overall, deadline, other, slowed int) labs.Formula {
	limit := func(name string, d float64) string {
		if d <= 0 {
			return name + " (none set)"
		}
		return name + " (" + pipelinelab.FmtMS(d) + ")"
	}
	terms := []labs.Term{{Name: limit("overall timeout", pipelinelab.MS(v.s.overall)), Value: float64(overall)},
		{Name: limit("deadline", pipelinelab.MS(v.s.deadline)), Value: float64(deadline)}}
	if other > 0 {
		terms = append(terms, labs.Term{Name: "another limit", Value: float64(other)})
	}
	f := withBefore(labs.Tally("requests", terms...), "Timeouts = requests whose answer ran past a limit, by the limit that cut it:")
	total := overall + deadline + other
	f.After = fmt.Sprintf("%s of the %s requests; %s of them slowed by the fault.", labs.Thousands(total), labs.Thousands(n), labs.Thousands(slowed))
	if total == 0 {
		f.After = fmt.Sprintf("None of the %s requests ran past a limit.", labs.Thousands(n))
	}
	return f
}

// withBefore sets the sentence that says what a formula is.
func withBefore(f labs.Formula, before string) labs.Formula {
	f.Before = before
	return f
}

// otherwise names backup answers neither silence nor failure explains.
func otherwise(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" + %s otherwise", labs.Thousands(n))
}

// sumCounts adds a map's counts.
func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
