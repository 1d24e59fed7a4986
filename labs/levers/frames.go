package levers

import (
	"fmt"
	"math"
	"time"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Chart id and segment names.
const (
	chartBars    = "levers"
	segFirst     = "until the first word"
	segRest      = "rest of the answer"
	tableTitle   = "Each lever alone, against the baseline"
	leverShort   = "Shorter answer"
	leverSmaller = "Smaller model"
)

// view builds frames from the rows measured so far.
type view struct {
	s        settings
	rows     []result
	virtual  bool
	estimate time.Duration
	limit    time.Duration // the wall-clock limit that chose the clock
}

func (v *view) frame(final bool) labs.Frame {
	f := labs.Frame{Final: final, Status: v.status(final), Tables: []labs.Table{v.table()}, Charts: []labs.Chart{v.chart()}}
	if final {
		f.Stats = v.stats()
	}
	return f
}

func (v *view) status(final bool) string {
	how := "live, in real time"
	if v.virtual {
		how = fmt.Sprintf("on the virtual clock (live, the set would take about %s, over the %s limit)",
			pipelinelab.FmtMS(pipelinelab.MS(v.estimate)), pipelinelab.FmtMS(pipelinelab.MS(v.limit)))
	}
	if !final {
		return fmt.Sprintf("Measured %s of %s rows %s…", labs.Thousands(len(v.rows)), labs.Thousands(len(levers)), how)
	}
	return fmt.Sprintf("All %s rows measured %s. Each row is one request through the pipeline and the engine.", labs.Thousands(len(v.rows)), how)
}

// withDelta formats a row's figure with its change against the baseline:
// "1.51 s (−46%)", "2.71 s (−6%)", "$0.000224 (same)". One cell per figure
// keeps the table to five columns, so it fits beside the knobs at 1280 px.
func withDelta(val, base float64, format func(float64) string) string {
	if base == 0 {
		return format(val)
	}
	d := val - base
	if format(val) == format(base) {
		return format(val) + " (same)"
	}
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	pct := math.Abs(100 * d / base)
	if pct < 1 {
		// A small saving still shows: "2.81 s (−0.4%)", not "same".
		return fmt.Sprintf("%s (%s%.1f%%)", format(val), sign, pct)
	}
	return fmt.Sprintf("%s (%s%.0f%%)", format(val), sign, pct)
}

func (v *view) table() labs.Table {
	t := labs.Table{Title: tableTitle, Columns: []string{"lever", "first word (vs baseline)", "total (vs baseline)",
		"cost (vs baseline)", "what changed"}}
	if len(v.rows) == 0 {
		return t
	}
	b := v.rows[0]
	var times []float64
	for _, r := range v.rows {
		times = append(times, r.firstWord, r.total)
	}
	unit := labs.TimeFormatFor(times...) // one unit for the whole table
	for i, r := range v.rows {
		row := []string{r.lever.name, unit.Format(r.firstWord), unit.Format(r.total), pipelinelab.FmtUSD(r.cost)}
		if i > 0 {
			row = []string{r.lever.name, withDelta(r.firstWord, b.firstWord, unit.Format), withDelta(r.total, b.total, unit.Format),
				withDelta(r.cost, b.cost, pipelinelab.FmtUSD)}
		}
		if r.noWord() || (i > 0 && b.noWord()) {
			row[1] = noWordCell(r)
		}
		t.Rows = append(t.Rows, append(row, r.lever.how))
	}
	return t
}

func (v *view) chart() labs.Chart {
	c := labs.Chart{ID: chartBars, Title: "First word and total time per lever", Kind: labs.ChartStackedBar,
		YLabel: "time", YUnit: "ms"}
	for _, r := range v.rows {
		c.Bars = append(c.Bars, labs.BarGroup{Label: r.lever.name, Segments: []labs.Segment{
			{Name: segFirst, Value: r.firstWord}, {Name: segRest, Value: max(r.total-r.firstWord, 0)}}})
	}
	return c
}

func (v *view) stats() []labs.Stat {
	b := v.rows[0]
	bestFirst, bestTotal := v.rows[0], v.rows[0]
	var shorter, smaller result
	for _, r := range v.rows {
		if r.lever.single && !r.noWord() && (bestFirst.noWord() || r.firstWord < bestFirst.firstWord) {
			bestFirst = r
		}
		if r.lever.single && r.total < bestTotal.total {
			bestTotal = r
		}
		switch r.lever.name {
		case leverShort:
			shorter = r
		case leverSmaller:
			smaller = r
		}
	}
	out := []labs.Stat{
		{Key: statBaseFirst, Label: "Baseline: first word", Value: pipelinelab.Round1(b.firstWord), Unit: "ms"},
		{Key: statBestFirst, Label: "Best single lever: first word", Value: pipelinelab.Round1(bestFirst.firstWord), Unit: "ms", Note: bestFirst.lever.name},
		{Key: statBaseTotal, Label: "Baseline: total", Value: pipelinelab.Round1(b.total), Unit: "ms"},
		{Key: statBestTotal, Label: "Best single lever: total", Value: pipelinelab.Round1(bestTotal.total), Unit: "ms", Note: bestTotal.lever.name},
		{Key: statShorterSaves, Label: "Total time the shorter answer saves", Value: pipelinelab.Round1(b.total - shorter.total), Unit: "ms",
			Note: fmt.Sprintf("%s instead of %s tokens", labs.Thousands(v.s.shortTokens), labs.Thousands(v.s.answerTokens))},
		{Key: statAnswerCall, Label: "Model call: baseline answer", Value: pipelinelab.Round1(b.answer), Unit: "ms",
			Note: fmt.Sprintf("%s tokens on the %s tier, request sent to last token back", labs.Thousands(v.s.answerTokens), v.s.tier)},
		{Key: statAnswerSmall, Label: "Model call: small tier", Value: pipelinelab.Round1(smaller.answer), Unit: "ms",
			Note: fmt.Sprintf("%s tokens", labs.Thousands(v.s.answerTokens))},
		{Key: statAnswerShort, Label: "Model call: shorter answer", Value: pipelinelab.Round1(shorter.answer), Unit: "ms",
			Note: fmt.Sprintf("%s tokens on the %s tier", labs.Thousands(v.s.shortTokens), v.s.tier)},
	}
	labs.Explain(out, v.why(b, bestFirst, bestTotal, shorter, smaller))
	return out
}

// noWordCell is a first-word cell beside a row without an answer word:
// there is no time to show, or none to compare it with.
func noWordCell(r result) string {
	if r.noWord() {
		return "no answer word (all thinking)"
	}
	return "— (the baseline brought no answer word)"
}
