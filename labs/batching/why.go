package batching

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// queueRule says, per policy, what a waiting request waits for.
var queueRule = map[engine.Policy]string{
	engine.Sequential: "one request at a time, so each waits for every request ahead of it to finish",
	engine.Static:     "a batch starts only when the previous batch has wholly finished, so a request waits for the slowest answer ahead of it",
	engine.Continuous: "a request joins at the next step that has a free seat and KV room, so it waits only when the engine is full",
}

// why are the formulas of a live run's figures from its own requests and
// steps. A percentile is interpolated between two requests, as the stat
// is; the parts of each request add up to its figure, so the
// interpolated parts add up to the stat.
func (v *liveView) why(r *recorder) map[string]labs.Formula {
	var done []reqState
	for _, q := range r.reqs {
		if q.done {
			done = append(done, q)
		}
	}
	if len(done) == 0 {
		return nil
	}
	out := map[string]labs.Formula{
		statTTFTP50: v.ttftAt(done, 50), statTTFTP95: v.ttftAt(done, 95),
		statThroughput: throughputWhy(r, done),
		statTotal:      totalWhy(done),
	}
	if f, ok := tpotAt(r, done, 50); ok {
		out[statTPOTP50] = f
	}
	if f, ok := tpotAt(r, done, 95); ok {
		out[statTPOTP95] = f
	}
	if f, ok := itlMaxWhy(r); ok {
		out[statITLMax] = f
	}
	if f, ok := itlP99Why(r); ok {
		out[statITLP99] = f
	}
	return out
}

// at interpolates parts between the two requests around percentile p of
// key, exactly as percentile interpolates the figure itself.
func at(reqs []reqState, p float64, key func(reqState) float64, parts func(reqState) []float64) []float64 {
	reqs = slices.Clone(reqs)
	slices.SortStableFunc(reqs, func(a, b reqState) int { return cmpFloat(key(a), key(b)) })
	pos := p / 100 * float64(len(reqs)-1)
	i := min(int(math.Floor(pos)), len(reqs)-1)
	lo := parts(reqs[i])
	if i == len(reqs)-1 {
		return lo
	}
	hi, f := parts(reqs[i+1]), pos-float64(i)
	for k := range lo {
		lo[k] += f * (hi[k] - lo[k])
	}
	return lo
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (v *liveView) ttftAt(done []reqState, p float64) labs.Formula {
	parts := at(done, p, func(q reqState) float64 { return labs.Millis(q.first - q.arrival) },
		func(q reqState) []float64 {
			return []float64{labs.Millis(q.sched - q.arrival), labs.Millis(q.first - q.sched)}
		})
	f := labs.Sum("ms", labs.Term{Name: "queued before its first step", Value: parts[0]},
		labs.Term{Name: "prefill until its first token", Value: parts[1]})
	f.Before = fmt.Sprintf("TTFT p%g = time queued + prefill, at that rank of the %s requests:", p, labs.Thousands(len(done)))
	f.After = fmt.Sprintf("Under %s batching, %s.", v.s.policy, queueRule[v.s.policy])
	return f
}

// stepsIn are the steps wholly inside (from, to]: their number and time.
func stepsIn(r *recorder, from, to time.Duration) (n int, busy time.Duration, batch float64) {
	for _, st := range r.steps {
		if st.start >= from && st.at <= to {
			n++
			busy += st.at - st.start
			batch += float64(st.running)
		}
	}
	if n > 0 {
		batch /= float64(n)
	}
	return n, busy, batch
}

// tpotAt splits a TPOT percentile into the engine's steps during the
// answer and the time between them, per output token after the first.
func tpotAt(r *recorder, done []reqState, p float64) (labs.Formula, bool) {
	var multi []reqState
	for _, q := range done {
		if q.tokens > 1 {
			multi = append(multi, q)
		}
	}
	if len(multi) == 0 || len(r.steps) == 0 {
		return labs.Formula{}, false
	}
	parts := at(multi, p, func(q reqState) float64 { return labs.Millis(q.end-q.first) / float64(q.tokens-1) },
		func(q reqState) []float64 {
			n, busy, batch := stepsIn(r, q.first, q.end)
			per := labs.Millis(busy) / float64(q.tokens-1)
			return []float64{per, labs.Millis(q.end-q.first)/float64(q.tokens-1) - per, float64(n), batch}
		})
	f := labs.Tally("ms", labs.Term{Name: "the engine's steps while it decoded, per token", Value: parts[0]},
		labs.Term{Name: "time between steps, per token", Value: max(parts[1], 0)})
	f.Before = fmt.Sprintf("TPOT p%g = the steps the answer spent decoding ÷ its tokens after the first:", p)
	if parts[2] > 0 {
		f.After = fmt.Sprintf("Its steps averaged %.1f sequences each: every sequence in a step makes it a little longer, and a prompt read in the same step makes it much longer.", parts[3])
	}
	f.Remainder = "time the engine sat between steps"
	return f, true
}

// throughputWhy writes output throughput as tokens per step × steps per
// second × the share of the run the engine was stepping.
func throughputWhy(r *recorder, done []reqState) labs.Formula {
	first, last := done[0].arrival, done[0].end
	tokens := 0
	for _, q := range done {
		first, last = min(first, q.arrival), max(last, q.end)
		tokens += q.tokens
	}
	n, busy, batch := stepsIn(r, first, last)
	if n == 0 || busy <= 0 || last <= first {
		return labs.Formula{Unit: "tok/s", Expr: "no engine steps recorded", Lead: "Nothing to add up"}
	}
	perStep := float64(tokens) / float64(n)
	stepMS := labs.Millis(busy) / float64(n)
	share := float64(busy) / float64(last-first)
	return labs.Formula{Unit: "tok/s", Result: perStep * 1000 / stepMS * share,
		Before: "Throughput = batch × 1 / step time, over the share of the run the engine was busy:",
		Expr:   fmt.Sprintf("%.1f of your tokens per step × 1 / %s ms per step × %.0f%% busy", perStep, labs.Figure(stepMS), 100*share),
		Lead:   fmt.Sprintf("The batch sets it: %s steps ran %.1f sequences on average, and a step costs nearly the same for 1 or 30 of them", labs.Thousands(n), batch)}
}

// totalWhy follows the request that finished last: when it arrived, how
// long it queued, prefilled and decoded.
func totalWhy(done []reqState) labs.Formula {
	first, lastQ := done[0].arrival, done[0]
	for _, q := range done {
		first = min(first, q.arrival)
		if q.end > lastQ.end {
			lastQ = q
		}
	}
	f := labs.Sum("ms", labs.Term{Name: "the last request's arrival", Value: labs.Millis(lastQ.arrival - first)},
		labs.Term{Name: "its queue", Value: labs.Millis(lastQ.sched - lastQ.arrival)},
		labs.Term{Name: "its prefill", Value: labs.Millis(lastQ.first - lastQ.sched)},
		labs.Term{Name: "its decode", Value: labs.Millis(lastQ.end - lastQ.first)})
	f.Before = "Total = first arrival to the last token, following the request that finished last (" + lastQ.label + "):"
	return f
}

// itlMaxWhy explains the longest gap between two tokens of one request by
// the steps that ran in it.
func itlMaxWhy(r *recorder) (labs.Formula, bool) {
	if len(r.itl) == 0 {
		return labs.Formula{}, false
	}
	top := r.itl[0]
	for _, p := range r.itl {
		if p.gap > top.gap {
			top = p
		}
	}
	n, busy, batch := stepsIn(r, top.at-top.gap, top.at)
	f := labs.Tally("ms", labs.Term{Name: labs.Count(n, "engine step") + " in the gap", Value: labs.Millis(busy)},
		labs.Term{Name: "time between steps", Value: max(labs.Millis(top.gap-busy), 0)})
	f.Before = fmt.Sprintf("ITL max = the steps between one request's two tokens, at %s:", labs.FormatMS(labs.Millis(top.at)))
	f.After = gapCause(r, n, busy, batch)
	f.Remainder = "time the engine sat between steps"
	return f, true
}

// gapCause says what made a gap between two tokens as long as it was: n
// steps of batch sequences on average, busy long in all.
func gapCause(r *recorder, n int, busy time.Duration, batch float64) string {
	switch med := medianStep(r); {
	case n > 1:
		return fmt.Sprintf("The request sat out %s steps (%.1f sequences each on average): it was preempted or not yet rescheduled.", labs.Thousands(n-1), batch)
	case labs.Millis(busy) > 1.5*med:
		return fmt.Sprintf("One step of %.1f sequences ran %.1f× the median step (%s ms): it also read a prompt, and every token in it waited for that prefill.",
			batch, labs.Millis(busy)/med, labs.Figure(med))
	default:
		return fmt.Sprintf("An ordinary step of %.1f sequences (the median step is %s ms): nothing stalled these tokens.", batch, labs.Figure(med))
	}
}

// itlP99Why explains the 99th percentile of every gap between two tokens
// as ITL max does the longest: the steps that ran in the gap and the time
// between them, interpolated between the two gaps around that rank as the
// percentile itself is.
func itlP99Why(r *recorder) (labs.Formula, bool) {
	if len(r.gapSpans) == 0 {
		return labs.Formula{}, false
	}
	gs := slices.Clone(r.gapSpans)
	slices.SortStableFunc(gs, func(a, b itlPoint) int { return cmp.Compare(a.gap, b.gap) })
	split := func(g itlPoint) (busy, idle float64, n int, batch float64) {
		n, b, batch := stepsIn(r, g.at-g.gap, g.at)
		return labs.Millis(b), max(labs.Millis(g.gap-b), 0), n, batch
	}
	pos := 0.99 * float64(len(gs)-1)
	i := min(int(math.Floor(pos)), len(gs)-1)
	busy, idle, n, batch := split(gs[i])
	if i < len(gs)-1 {
		b2, i2, _, _ := split(gs[i+1])
		frac := pos - float64(i)
		busy, idle = busy+frac*(b2-busy), idle+frac*(i2-idle)
	}
	f := labs.Tally("ms", labs.Term{Name: "engine steps in the gap", Value: busy}, labs.Term{Name: "time between steps", Value: idle})
	f.Before = fmt.Sprintf("ITL p99 = the gap only 1 in 100 of the run's %s between two tokens exceeds: the steps in it + the time between them:", labs.Thousands(len(gs)))
	f.After = gapCause(r, n, time.Duration(busy*float64(time.Millisecond)), batch)
	f.Remainder = "time the engine sat between steps"
	return f, true
}

// medianStep is the median step time in ms.
func medianStep(r *recorder) float64 {
	d := make([]float64, len(r.steps))
	for i, st := range r.steps {
		d[i] = labs.Millis(st.at - st.start)
	}
	slices.Sort(d)
	return percentile(d, 50)
}

// sweepWhy are the sweep's figures as the ratios they are: requests or
// tokens over the time the burst or the best point took.
func (v *sweepView) sweepWhy() map[string]labs.Formula {
	out := map[string]labs.Formula{}
	n := calibrationRequests(v.plan.s)
	for pi, pol := range sweepPolicies {
		if c := v.plan.capacity[pi]; c > 0 {
			out["capacity_rps_"+string(pol)] = labs.Formula{Unit: "req/s", Result: c,
				Expr: fmt.Sprintf("%s requests sent at once ÷ %s s until the last one finished", labs.Thousands(n), labs.Figure(float64(n)/c)),
				Lead: "The fastest this policy drains the workload; its sweep offers fractions of it"}
		}
	}
	for pi, pol := range sweepPolicies {
		var peak, good *point
		for _, pt := range v.points[pi] {
			if pt == nil || pt.sum.duration <= 0 {
				continue
			}
			if peak == nil || pt.sum.throughput() > peak.sum.throughput() {
				peak = pt
			}
			if good == nil || pt.sum.goodput() > good.sum.goodput() {
				good = pt
			}
		}
		if peak != nil {
			out["peak_throughput_"+string(pol)] = labs.Formula{Unit: "tok/s", Result: peak.sum.throughput(),
				Expr: fmt.Sprintf("%s output tokens ÷ %s s", labs.Thousands(peak.sum.outputTokens), labs.Figure(peak.sum.duration.Seconds())),
				Lead: fmt.Sprintf("Reached at %s req/s offered: %s", labs.Figure(peak.rate), queueRule[pol])}
		}
		if good != nil {
			out["goodput_"+string(pol)] = labs.Formula{Unit: "req/s", Result: good.sum.goodput(),
				Expr: fmt.Sprintf("%s of %s requests within both limits ÷ %s s", labs.Thousands(good.sum.good), labs.Thousands(good.sum.completed), labs.Figure(good.sum.duration.Seconds())),
				Lead: fmt.Sprintf("Best at %s req/s offered; past it, queueing pushes TTFT over its limit", labs.Figure(good.rate))}
		}
	}
	return out
}
