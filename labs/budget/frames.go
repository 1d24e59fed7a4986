package budget

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Chart ids.
const (
	chartWaterfall = "waterfall"
	chartHist      = "first-word-histogram"
)

// Waterfall rows, in the order a request meets them, and the pipeline
// stages each one shows.
var rows = []struct {
	label string
	stage string
}{
	{"guardrail", pipeline.StageGuardrail},
	{"history", pipeline.StageHistory},
	{"retrieval", pipeline.StageRetrieval},
	{"order lookup", pipeline.StageOrder},
	{"prompt + gateway", pipeline.StagePrompt},
	{"first token", pipeline.StageFirstToken},
	{"writing", pipeline.StageDecode},
}

// view holds what the live request has shown so far.
type view struct {
	s     settings
	spans []pipeline.Span
	// streaming: the answer's first token time and the latest delta.
	firstAt, lastAt time.Duration
	tokens          int
	res             *pipeline.Result
	// second times the request's second model call; nil with one call.
	second *secondCall
	// onServer says the model calls went to the upstream server.
	onServer bool
	// reused, when set, says the batch reuses the one request's model
	// time (see batch.withModelTime).
	reused string
}

func (v *view) addSpan(sp pipeline.Span) { v.spans = append(v.spans, sp) }

func (v *view) streamed(at time.Duration, tokens int) {
	if v.tokens == 0 {
		v.firstAt = at
	}
	v.lastAt, v.tokens = at, tokens
}

func (v *view) finishLive(res *pipeline.Result) { v.res = res; v.spans = res.Spans }

// waterfall draws the spans known so far, one row per stage.
func (v *view) waterfall() labs.Chart {
	c := labs.Chart{ID: chartWaterfall, Title: "One request, stage by stage (live)", Kind: labs.ChartTimeline,
		XLabel: "time since the request arrived", XUnit: "ms"}
	decodeSeen := false
	for _, r := range rows {
		row := labs.SpanRow{Label: r.label}
		for _, sp := range v.spans {
			if sp.Stage == r.stage {
				row.Spans = append(row.Spans, labs.Span{Name: r.label, Start: pipelinelab.MS(sp.Start), End: pipelinelab.MS(sp.End)})
				decodeSeen = decodeSeen || sp.Stage == pipeline.StageDecode
			}
		}
		// While the answer streams, its writing row grows with it.
		if r.stage == pipeline.StageDecode && !decodeSeen && v.tokens > 0 {
			row.Spans = append(row.Spans, labs.Span{Name: r.label, Start: pipelinelab.MS(v.firstAt), End: pipelinelab.MS(v.lastAt)})
		}
		if r.stage == pipeline.StageDecode && v.res != nil {
			c.Rows = append(c.Rows, splitThinking(v.res, row)...)
			continue
		}
		c.Rows = append(c.Rows, row)
	}
	if v.second != nil {
		c.Rows = append(c.Rows, v.secondRow())
	}
	if v.tokens > 0 {
		c.Marks = append(c.Marks, labs.Mark{Label: "first word", At: pipelinelab.MS(v.firstAt)})
	}
	if v.res != nil {
		c.Marks = []labs.Mark{{Label: "first word", At: pipelinelab.MS(v.res.Summary.FirstWord)},
			{Label: "complete", At: pipelinelab.MS(requestEnd(v.res))}}
		if noAnswerWord(v.res) {
			c.Marks = c.Marks[1:]
		}
	}
	return c
}

func (v *view) liveFrame() labs.Frame {
	status := "Request in the pipeline…"
	if v.tokens > 0 {
		status = fmt.Sprintf("Streaming the answer: %s of %s tokens.", labs.Thousands(v.tokens), labs.Thousands(v.s.answerTokens))
	}
	return labs.Frame{Status: status, Charts: []labs.Chart{v.waterfall()}}
}

// spanOf finds the first span of stage.
func spanOf(spans []pipeline.Span, stage string) (pipeline.Span, bool) {
	for _, s := range spans {
		if s.Stage == stage {
			return s, true
		}
	}
	return pipeline.Span{}, false
}

func (v *view) liveStats(res *pipeline.Result) []labs.Stat {
	mode := "parallel"
	if !v.s.parallel {
		mode = "sequential"
	}
	note := "request start to the first text, on the live run's modelled timeline"
	if v.onServer {
		note = "request start to the first text; the model's part measured on that server"
	}
	out := []labs.Stat{
		{Key: statFirstWord, Label: "First word (one request)", Value: pipelinelab.Round1(pipelinelab.MS(res.Summary.FirstWord)), Unit: "ms",
			Note: note},
		{Key: statComplete, Label: "Complete (one request)", Value: pipelinelab.Round1(pipelinelab.MS(requestEnd(res))), Unit: "ms",
			Note: fmt.Sprintf("%s tokens written", labs.Thousands(res.Summary.OutputTokens))},
	}
	if noAnswerWord(res) { // no word came: there is no first word to show
		out = out[1:]
		out[0].Note = fmt.Sprintf("%s tokens written, all of them thinking", labs.Thousands(res.Summary.OutputTokens))
	}
	if v.second != nil {
		if start, end, done := v.second.span(); done {
			out = append(out, labs.Stat{Key: statSecondCall, Label: "Second model call (one request)", Value: pipelinelab.Round1(pipelinelab.MS(end - start)), Unit: "ms",
				Note: v.secondNote()})
		}
	}
	if sp, ok := spanOf(res.Spans, pipeline.StageContext); ok {
		out = append(out, labs.Stat{Key: statLookups, Label: "Context lookups (one request)",
			Value: pipelinelab.Round1(pipelinelab.MS(sp.Duration())), Unit: "ms", Note: "three lookups, " + mode})
	}
	var waited time.Duration
	if v.second != nil && v.s.calls == callsSequence {
		if start, end, done := v.second.span(); done {
			waited = end - start
		}
	}
	why := liveWhy(res, waited)
	if noAnswerWord(res) {
		why[statComplete] = thoughtOnlyWhy(res)
	}
	if v.second != nil {
		if f, ok := v.second.why(); ok {
			why[statSecondCall] = f
		}
	}
	labs.Explain(out, why)
	return out
}

// finalFrame has the live waterfall, the batch's histogram and every stat.
func (v *view) finalFrame(res *pipeline.Result, b batch) labs.Frame {
	fw := b.firstWords()
	// Each figure is rounded once, here, and the card, the status, the
	// formula and the margin to the budget all show that one value.
	mean := shownMS(pipelinelab.Mean(fw))
	p50, p95, p99 := shownMS(pipelinelab.Percentile(fw, 50)), shownMS(pipelinelab.Percentile(fw, 95)), shownMS(pipelinelab.Percentile(fw, 99))
	target := shownMS(pipelinelab.Percentile(fw, v.s.percentile))
	pass := target <= v.s.budgetMS
	within := 0
	for _, x := range fw {
		if x <= v.s.budgetMS {
			within++
		}
	}
	share := 100 * float64(within) / float64(len(fw))
	verdict := "missed"
	if pass {
		verdict = "met"
	}
	n := len(fw)
	stats := append(v.liveStats(res),
		labs.Stat{Key: statMean, Label: fmt.Sprintf("Mean first word (%s requests)", labs.Thousands(n)), Value: mean, Unit: "ms"},
		labs.Stat{Key: statP50, Label: "p50 first word", Value: p50, Unit: "ms", Note: "half the requests are faster"},
		labs.Stat{Key: statP95, Label: "p95 first word", Value: p95, Unit: "ms", Note: "one in twenty is slower"},
		labs.Stat{Key: statP99, Label: "p99 first word", Value: p99, Unit: "ms", Note: "one in a hundred is slower"},
		labs.Stat{Key: statJudged, Label: fmt.Sprintf("Budget %s: %s ≤ %s", verdict, v.s.percentileTag, pipelinelab.FmtMS(v.s.budgetMS)),
			Value: target, Unit: "ms",
			Note: fmt.Sprintf("%s first word; %.1f%% of requests within the budget", v.s.percentileTag, share)},
	)
	title := fmt.Sprintf("Time to first word, %s requests (virtual clock)", labs.Thousands(n))
	if v.reused != "" {
		title = fmt.Sprintf("Time to first word, %s requests (stage times drawn, model time of the one request)", labs.Thousands(n))
	}
	labs.Explain(stats, batchWhy(v.s, b, target, modelTerm(v.reused != "")))
	hist := labs.Chart{ID: chartHist, Title: title,
		Kind: labs.ChartHistogram, XLabel: "time to first word", XUnit: "ms", YLabel: "requests",
		Hist: pipelinelab.Histogram(fw, 80, []labs.Mark{
			{Label: "mean", At: mean}, {Label: "p50", At: p50}, {Label: "p95", At: p95}, {Label: "p99", At: p99},
			{Label: "budget", At: v.s.budgetMS}})}
	status := fmt.Sprintf("Run finished. Budget %s: the %s first word is %s against a budget of %s (%.1f%% within). One request: first word %s, complete %s.",
		verdict, v.s.percentileTag, pipelinelab.FmtMS(target), pipelinelab.FmtMS(v.s.budgetMS), share,
		pipelinelab.FmtMS(pipelinelab.MS(res.Summary.FirstWord)), pipelinelab.FmtMS(pipelinelab.MS(res.Summary.Total)))
	table := stageTable(b, modelRowName(v.reused != "", res.Summary.ThinkingTokens > 0))
	if v.reused != "" {
		status += " " + v.reused
		table.Title += "; model times are the one request's"
	}
	return labs.Frame{Final: true, Missed: !pass, Status: status, Stats: stats,
		Charts: []labs.Chart{v.waterfall(), hist}, Tables: []labs.Table{table}}
}

// stageTable shows each stage's spread over the batch, so a tail can be
// traced to the stage that caused it; model names the model's row (see
// modelRowName).
func stageTable(b batch, model string) labs.Table {
	cols := []struct {
		name string
		get  func(sample) time.Duration
	}{
		{"guardrail", func(s sample) time.Duration { return s.guard }},
		{"context lookups", func(s sample) time.Duration { return s.lookups }},
		{"prompt + gateway", func(s sample) time.Duration { return s.gateway }},
		{model, func(s sample) time.Duration { return s.ttft }},
		{"first word", func(s sample) time.Duration { return s.firstWord }},
		{"model: writing", func(s sample) time.Duration { return s.decode }},
		{"model: second call", func(s sample) time.Duration { return s.second }},
		{"complete", func(s sample) time.Duration { return s.complete }},
	}
	t := labs.Table{Title: fmt.Sprintf("Stage times over %s requests (ms)", labs.Thousands(len(b.samples))),
		Columns: []string{"stage", "mean", "p50", "p95", "p99", "max"}}
	for _, c := range cols {
		if c.name == "model: second call" && b.samples[0].second == 0 {
			continue // one model call
		}
		xs := make([]float64, len(b.samples))
		for i, s := range b.samples {
			xs[i] = pipelinelab.MS(c.get(s))
		}
		t.Rows = append(t.Rows, []string{c.name, labs.Whole(pipelinelab.Mean(xs)), labs.Whole(pipelinelab.Percentile(xs, 50)),
			labs.Whole(pipelinelab.Percentile(xs, 95)), labs.Whole(pipelinelab.Percentile(xs, 99)), labs.Whole(pipelinelab.Percentile(xs, 100))})
	}
	stalled := map[string]int{}
	for _, s := range b.samples {
		if s.slowStage != "" {
			stalled[s.slowStage]++
		}
	}
	if len(stalled) > 0 {
		var parts []string
		for _, name := range stageNames {
			if stalled[name] > 0 {
				parts = append(parts, fmt.Sprintf("%s %s", name, labs.Thousands(stalled[name])))
			}
		}
		t.Title += "; stalls: " + strings.Join(parts, ", ")
	}
	return t
}

// shownMS is a first-word figure as every panel shows it: whole
// milliseconds from 100 ms up, a tenth below. Rounding once keeps a card
// from saying 939 ms beside a status that says 938.
func shownMS(ms float64) float64 {
	if math.Abs(ms) >= 100 {
		return math.Round(ms)
	}
	return pipelinelab.Round1(ms)
}
