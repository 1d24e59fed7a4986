package moderation

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/live"
	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// compare runs every policy on the same scenario at the same moment, each
// as its own request on the same shared engine. They are batched together,
// so each sees the same GPU pace, and the comparison takes one answer's
// time rather than five. Each request has its own session line, so none of
// them reads the others' prompt from the prefix cache.
func (l *Lab) compare(ctx context.Context, s settings, le *live.Engine, checker *mod.Checker, emit func(labs.Frame)) error {
	jobs := make([]*job, 0, len(mod.Policies()))
	for _, p := range mod.Policies() {
		jobs = append(jobs, l.newJob(s, p))
	}
	v := &view{s: s, answer: len(jobs[0].req.answer.Tokens), xmax: axisEstimate(le.Config(), jobs[0].req, s)}

	var mu sync.Mutex
	t0 := l.Clock.Now()
	frame := func(now time.Duration, final bool) labs.Frame { return v.compareFrame(jobs, now, final) }
	emit(frame(0, false))
	stopTick := l.ticker(&mu, func() { emit(frame(l.Clock.Now().Sub(t0), false)) })

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Go(func() {
			errs[i] = l.stage(runCtx, s, j, le, checker, t0, &mu, func() {})
			if errs[i] != nil {
				cancel() // one failure ends the comparison
			}
		})
	}
	// The stage callbacks only record; the ticker draws, so five streams
	// of events do not become five times as many frames.
	wg.Wait()
	stopTick()
	if err := errors.Join(errs...); err != nil {
		return labs.RunFailed(ctx, firstErr(errs), emit)
	}
	end := time.Duration(0)
	for _, j := range jobs {
		end = max(end, j.meter.genEnd)
	}
	emit(frame(end, true))
	return nil
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil && !errors.Is(e, context.Canceled) {
			return e
		}
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// compareFrame draws every policy's delivery front against generation, and
// when all are done the table of what each cost and let through.
func (v *view) compareFrame(jobs []*job, now time.Duration, final bool) labs.Frame {
	v.xmax = labs.AxisEnd(v.xmax, labs.Millis(now), 1.25)
	c := labs.Chart{
		ID: chartFronts, Title: "Generated vs delivered, every policy", Kind: labs.ChartLine,
		XLabel: "Time since the requests were sent", XUnit: "ms", YLabel: "Tokens", YUnit: "tokens",
		XMax: v.xmax, YMax: float64(max(v.answer, 1)),
	}
	// The unmoderated request shows the generation front; the others are
	// batched with it and generate at the same pace until one aborts.
	c.Series = append(c.Series, labs.Series{Name: seriesGenerated, Dashed: true, Points: extend(jobs[0].meter.genSteps, now, final, jobs[0].meter.genEnd)})
	done := 0
	for _, j := range jobs {
		c.Series = append(c.Series, labs.Series{Name: "delivered: " + policyLabel(string(j.policy)), Points: extend(j.meter.delSteps, now, final, j.meter.genEnd)})
		if j.meter.done {
			done++
		}
	}
	f := labs.Frame{Final: final, Charts: []labs.Chart{c}}
	if !final {
		f.Status = fmt.Sprintf("Running %s policies side by side on one engine: %s finished.", labs.Thousands(len(jobs)), labs.Thousands(done))
		return f
	}
	f.Status = labs.JoinNotes(fmt.Sprintf("Compared %s policies on the same answer, run at the same time on %s.",
		labs.Thousands(len(jobs)), v.s.profile), compareNotes(jobs)...)
	f.Tables = []labs.Table{comparison(jobs, v.s)}
	checks, total := 0, 0.0
	for _, j := range jobs {
		checks += j.meter.checks
		total = max(total, labs.Millis(j.meter.fin))
	}
	f.Stats = []labs.Stat{
		{Key: statTotal, Label: "Total time", Value: total, Unit: "ms", Note: "until the slowest policy finished delivering"},
		{Key: statChecks, Label: "Checks", Value: float64(checks), Note: "moderation calls, all policies"},
	}
	return f
}

// comparison is the table of policies, from the naive to the most careful.
func comparison(jobs []*job, s settings) labs.Table {
	t := labs.Table{
		Title: "Policies in increasing order of sophistication",
		Columns: []string{"Policy", "First word (ms)", "Unsafe tokens shown", "Tokens after the problem",
			"Delivery lag (ms)", "Total (ms)", "Checks", "Outcome"},
	}
	for _, j := range jobs {
		m := j.meter
		first := "—"
		if m.firstWord != none {
			first = labs.Whole(labs.Millis(m.firstWord))
		}
		name := policyLabel(string(j.policy))
		if s.promptCheck {
			name += " + prompt check"
		}
		t.Rows = append(t.Rows, []string{
			name, first, labs.Thousands(m.truth.leaked), labs.Thousands(m.truth.afterProblem),
			labs.Whole(m.truth.lagMS), labs.Whole(labs.Millis(m.fin)), labs.Thousands(m.checks), outcome(m),
		})
	}
	return t
}

// outcome says in a few words how the stream ended for the reader.
func outcome(m *meter) string {
	switch {
	case m.promptBlocked:
		return "refused before generation"
	case m.abortAt != none:
		return "blocked, generation cancelled, fallback shown"
	case m.withheldAt != none:
		return "blocked, rest withheld"
	case m.replaced && m.truth.leaked > 0:
		return "blocked after the reader saw it"
	case m.replaced:
		return "blocked, fallback shown"
	case m.truth.leaked > 0:
		return "delivered, unsafe text included"
	}
	return "delivered"
}
