package timeouts

import (
	"fmt"
	"strconv"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Chart id and span names. A span's name picks its colour, so each tier
// has one colour for waiting and one for writing.
const (
	chartTimeline = "timeline"
	spanBefore    = "guardrail, lookups, gateway"
	spanStalled   = "stalled mid-answer"
)

func spanWaiting(tier string) string { return "waiting on " + tier }
func spanWriting(tier string) string { return "answer from " + tier }

// view turns batches into frames.
type view struct {
	s    settings
	xmax float64 // ms; grows only when the batch outlasts it
}

// timeline draws one row per request: the stages before the model, then
// each attempt as a wait for its first token and the answer it wrote, in
// its tier's colours, with stalls marked. Open spans run to now.
func (v *view) timeline(rs []record, now time.Duration, final bool) labs.Chart {
	end := 0.0 // the data's end: the axis follows the requests, not the clock
	rows := make([]labs.SpanRow, len(rs))
	for i, r := range rs {
		label := "#" + strconv.Itoa(i+1)
		if r.slowed {
			label += " slowed"
		}
		rows[i].Label = label
		if !r.started {
			continue
		}
		at := func(d time.Duration) float64 { return labs.Millis(r.arrival + d) }
		open := func() float64 { // the end of a span still running
			if final || r.res != nil {
				return at(r.lastDelta)
			}
			return labs.Millis(now)
		}
		var spans []labs.Span
		before := open()
		if len(r.attempts) > 0 {
			before = at(r.attempts[0].start)
		}
		spans = append(spans, labs.Span{Name: spanBefore, Start: labs.Millis(r.arrival), End: before})
		for _, a := range r.attempts {
			stop := open()
			if a.ended {
				stop = at(a.end)
			}
			if !a.hasFirst {
				spans = append(spans, labs.Span{Name: spanWaiting(a.tier), Start: at(a.start), End: stop})
				continue
			}
			spans = append(spans,
				labs.Span{Name: spanWaiting(a.tier), Start: at(a.start), End: at(a.first)},
				labs.Span{Name: spanWriting(a.tier), Start: at(a.first), End: stop})
		}
		for _, st := range r.stalls {
			spans = append(spans, labs.Span{Name: spanStalled, Start: at(st.start), End: at(st.end)})
		}
		rows[i].Spans = spans
		for _, sp := range spans {
			end = max(end, sp.End)
		}
	}
	if final {
		v.xmax = labs.NiceCeil(end * 1.05) // fit the finished batch
	} else {
		v.xmax = labs.AxisEnd(v.xmax, end, 1.1)
	}
	return labs.Chart{ID: chartTimeline, Title: "Requests by tier: waiting, then answering",
		Kind: labs.ChartTimeline, XLabel: "Time since the first request was sent", XUnit: "ms",
		XMax: v.xmax, Rows: rows}
}

// liveStatus counts how far the learner's batch has got.
func (v *view) liveStatus(rs []record, now time.Duration, comparisons int) string {
	done, backup := 0, 0
	for _, r := range rs {
		if r.res != nil {
			done++
		}
		for _, a := range r.attempts {
			if a.tier != primary {
				backup++
				break
			}
		}
	}
	return fmt.Sprintf("Wall clock, %s in: %s of %s requests finished, %s sent to the backup. "+
		"The same batch runs under %s comparison setting(s) at the same time.",
		pipelinelab.FmtMS(labs.Millis(now)), labs.Thousands(done), labs.Thousands(len(rs)), labs.Thousands(backup), labs.Thousands(comparisons))
}

// stats are the learner's batch in headline figures. A percentile of
// nothing is left out rather than shown as 0.
func (v *view) stats(sm summary) []labs.Stat {
	var out []labs.Stat
	if len(sm.firstWords) > 0 {
		out = append(out, labs.Stat{Key: statFirstWordP95, Label: "First word, p95", Value: pipelinelab.Round1(sm.firstWordP95()),
			Unit: "ms", Note: fmt.Sprintf("of the %s of %s requests that showed text", labs.Thousands(len(sm.firstWords)), labs.Thousands(sm.n))},
			labs.Stat{Key: statFirstWordP99, Label: "First word, p99", Value: pipelinelab.Round1(sm.firstWordP99()),
				Unit: "ms", Note: "set a timeout above this, or it cuts healthy answers"})
	}
	out = append(out,
		labs.Stat{Key: statFallback, Label: "Sent to the backup", Value: pipelinelab.Round1(sm.backupShare()), Unit: "%",
			Note: sentNote(sm)},
		labs.Stat{Key: statErrors, Label: "Errors", Value: float64(sm.errors), Unit: "requests", Note: "no tier answered, or the stream broke"},
		labs.Stat{Key: statTimeouts, Label: "Timeouts", Value: float64(sm.timeouts), Unit: "requests", Note: "cut off by the overall timeout or the deadline"})
	if sm.complete > 0 {
		out = append(out, labs.Stat{Key: statCompleteP95, Label: "Complete answer, p95", Value: pipelinelab.Round1(sm.completeP95()),
			Unit: "ms", Note: fmt.Sprintf("of %s complete answers", labs.Thousands(sm.complete))})
	}
	return append(out, labs.Stat{Key: statCut, Label: "Healthy answers cut", Value: float64(sm.healthyCut), Unit: "requests",
		Note: fmt.Sprintf("of %s calls the fault did not touch", labs.Thousands(sm.healthy))})
}

// comparison is one row per setting, all on the same injected fault. A
// comparison setting that equals the learner's shows the learner's batch.
func (v *view) comparison(all []*batch) labs.Table {
	t := labs.Table{
		Title: "The same batch and fault under three timeout settings (run at the same time)",
		Columns: []string{"Setting", "First word p95", "Sent to the backup", "Complete", "Errors", "Timeouts",
			"Healthy answers cut"},
	}
	type line struct {
		name string
		vr   variant
		sm   summary
	}
	mine := all[0]
	rs, _ := mine.snapshot()
	lines := []line{{mine.v.name, mine.v, summarize(rs)}}
	for _, c := range comparisons(v.s) {
		for _, b := range all {
			if !b.v.sameLimits(c) {
				continue
			}
			rs, _ := b.snapshot()
			name := c.name
			if b == mine {
				name += " (the same as yours)"
			}
			lines = append(lines, line{name, b.v, summarize(rs)})
			break
		}
	}
	var p95s []float64
	for _, l := range lines {
		if len(l.sm.firstWords) > 0 {
			p95s = append(p95s, l.sm.firstWordP95())
		}
	}
	unit := labs.TimeFormatFor(p95s...) // one unit for the whole column
	for _, l := range lines {
		sm := l.sm
		p95 := "none shown"
		if len(sm.firstWords) > 0 {
			p95 = unit.Format(sm.firstWordP95())
			if sm.noWords > 0 {
				p95 += fmt.Sprintf(" (%s showed nothing)", labs.Thousands(sm.noWords))
			}
		}
		name := l.name + fmt.Sprintf(": first token %s, overall %s, deadline %s", limit(l.vr.ftt), limit(l.vr.overall), limit(l.vr.deadline))
		t.Rows = append(t.Rows, []string{name, p95,
			sentCell(sm),
			fmt.Sprintf("%s of %s", labs.Thousands(sm.complete), labs.Thousands(sm.n)), labs.Thousands(sm.errors), labs.Thousands(sm.timeouts),
			fmt.Sprintf("%s of %s", labs.Thousands(sm.healthyCut), labs.Thousands(sm.healthy))})
	}
	return t
}

// retries lists the requests that moved to another tier: when the first
// call gave up, and how much of the deadline the retry had left.
func (v *view) retries(rs []record) (labs.Table, bool) {
	t := labs.Table{Columns: []string{"Request", "First call gave up", "Retry on", "Time left for it",
		"Retry ended", "Tokens", "Answer"}}
	var times []float64
	for _, r := range rs {
		if r.res != nil && len(r.res.Attempts) >= 2 {
			times = append(times, labs.Millis(r.res.Attempts[0].End), labs.Millis(r.res.Attempts[1].Budget))
		}
	}
	unit := labs.TimeFormatFor(times...) // one unit for the whole table
	total := 0
	for i, r := range rs {
		if r.res == nil || len(r.res.Attempts) < 2 {
			continue
		}
		total++
		if len(t.Rows) >= 8 {
			continue
		}
		first, retry := r.res.Attempts[0], r.res.Attempts[1]
		left := "no deadline"
		if retry.Budget > 0 || v.s.deadline > 0 {
			left = unit.Format(labs.Millis(retry.Budget))
		}
		t.Rows = append(t.Rows, []string{"#" + strconv.Itoa(i+1), unit.Format(labs.Millis(first.End)) + ": " + first.Outcome,
			retry.Tier, left, retry.Outcome, labs.Thousands(retry.Tokens), r.res.Status})
	}
	t.Title = fmt.Sprintf("Requests that moved to the backup (%s)", labs.Thousands(total))
	if total > len(t.Rows) {
		t.Title = fmt.Sprintf("Requests that moved to the backup (first %s of %s)", labs.Thousands(len(t.Rows)), labs.Thousands(total))
	}
	return t, total > 0
}

// finalStatus sums the run up in one line, saying how it was timed.
func (v *view) finalStatus(sm summary) string {
	where := "the shared engines"
	if v.s.host.Tenants > 0 {
		where = "the provider's engines, beside other tenants' traffic"
	}
	s := fmt.Sprintf("Wall clock: %s requests ran at once on %s", labs.Thousands(sm.n), where)
	if v.s.fault != faultNone && v.s.sharePct > 0 {
		s += fmt.Sprintf(", %s%% of them %s", labs.Thousands(v.s.sharePct), faultPhrase(v.s))
	}
	s += "."
	if len(sm.firstWords) > 0 {
		s += fmt.Sprintf(" p95 first word %s;", pipelinelab.FmtMS(sm.firstWordP95()))
	}
	s += fmt.Sprintf(" %s of %s complete, %s, %s.",
		labs.Thousands(sm.complete), labs.Thousands(sm.n), labs.Count(sm.errors, "error"), labs.Count(sm.timeouts, "timeout"))
	if sm.sent > 0 {
		s += fmt.Sprintf(" %s of the %s went to the backup: %s.", labs.Thousands(sm.sent), labs.Thousands(sm.n), sm.backupOutcome("it"))
	}
	return s
}

func faultPhrase(s settings) string {
	switch s.fault {
	case faultSlow:
		return "silent for " + secs(s.slowBy) + " before the first token on " + primary
	case faultStall:
		return fmt.Sprintf("stalling for %s after %s tokens on %s", secs(s.slowBy), labs.Thousands(stallAfter), primary)
	case faultRefuse:
		return "refused by " + primary
	}
	return ""
}

// limit formats a timeout; 0 is none.
func limit(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return secs(d)
}

func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}
