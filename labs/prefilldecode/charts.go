package prefilldecode

import (
	"fmt"
	"math"

	"github.com/latencylab/latencylab/labs"
)

// promptChart stacks the prompt's tokens by part (and, once it has run,
// the second customer's: cached against computed).
func (v *view) promptChart() labs.Chart {
	g := labs.BarGroup{Label: "your prompt"}
	for _, p := range v.prompt.parts {
		g.Segments = append(g.Segments, labs.Segment{Name: p.name, Value: float64(p.tokens)})
	}
	c := labs.Chart{ID: chartPrompt, Title: "What the prompt is made of", Kind: labs.ChartStackedBar,
		YLabel: "Prompt tokens", YUnit: "tokens", Bars: []labs.BarGroup{g}}
	if m := v.second; m != nil && m.done {
		g := labs.BarGroup{Label: "second customer"}
		if m.usage.CachedTokens > 0 {
			g.Segments = append(g.Segments, labs.Segment{Name: segCached, Value: float64(m.usage.CachedTokens)})
		}
		g.Segments = append(g.Segments, labs.Segment{Name: segComputed, Value: float64(len(v.secondPrompt.ids) - m.usage.CachedTokens)})
		c.Bars = append(c.Bars, g)
	}
	return c
}

// ttftChart is TTFT against prompt length: the sweep, its fit and the
// learner's request.
func (v *view) ttftChart() labs.Chart {
	var yours []labs.Point
	if m := v.first; m != nil && m.tokens > 0 {
		yours = []labs.Point{{X: float64(len(v.prompt.ids)), Y: labs.Millis(m.ttft)}}
	}
	return sweepChart(labs.Chart{ID: chartTTFT, Title: "Time to first token grows with the prompt",
		XLabel: "Prompt length", XUnit: "tokens", YLabel: "Time to first token", YUnit: "ms"}, v.sweep.ttft, v.sweep.ttftFit, yours)
}

// decodeChart is decode time against answer length: the sweep, its fit
// (whose slope is the time per output token) and the learner's request.
func (v *view) decodeChart() labs.Chart {
	var yours []labs.Point
	if m := v.first; m != nil && m.done {
		yours = []labs.Point{{X: float64(m.tokens), Y: labs.Millis(m.decode())}}
	}
	return sweepChart(labs.Chart{ID: chartDecode, Title: "Decode time grows with the answer",
		XLabel: "Answer length", XUnit: "tokens", YLabel: "First to last token", YUnit: "ms"}, v.sweep.decode, v.sweep.decodeFit, yours)
}

// sweepChart fills c as a scatter of the sweep's samples, their line fit
// when there is one, and the learner's own request once measured.
func sweepChart(c labs.Chart, ss []sample, fit line, yours []labs.Point) labs.Chart {
	c.Kind = labs.ChartScatter
	c.Series = []labs.Series{{Name: seriesSweep, Points: points(ss)}}
	if fit.ok {
		c.Series = append(c.Series, fitSeries(fit, ss))
	}
	if yours != nil {
		c.Series = append(c.Series, labs.Series{Name: seriesYours, Points: yours})
	}
	return c
}

// rooflineChart draws the GPU's roof and places the learner's prefill and
// decode by intensity and by the FLOP/s they reached in the engine's model.
func (v *view) rooflineChart() labs.Chart {
	sw := v.sweep
	w := sw.work
	pre, dec := sw.prefill, sw.decodeWork
	low := w.ridge()
	if dec.steps > 0 {
		low = math.Min(low, dec.intensity())
	}
	lo := math.Pow(10, math.Floor(math.Log10(math.Max(0.1, low/3))))
	hi := math.Pow(10, math.Ceil(math.Log10(math.Max(pre.intensity(), w.ridge())*3)))
	var roof []labs.Point
	const perDecade = 8
	n := int(math.Round(math.Log10(hi/lo))) * perDecade
	for i := 0; i <= n; i++ {
		x := lo * math.Pow(10, float64(i)/perDecade)
		if prev := lo * math.Pow(10, float64(i-1)/perDecade); i > 0 && prev < w.ridge() && x > w.ridge() {
			roof = append(roof, labs.Point{X: w.ridge(), Y: w.roof(w.ridge()) / 1e12})
		}
		roof = append(roof, labs.Point{X: x, Y: w.roof(x) / 1e12})
	}
	c := labs.Chart{ID: chartRoofline, Title: fmt.Sprintf("Roofline of %s", v.s.profile), Kind: labs.ChartLine,
		XLabel: "Arithmetic intensity", XUnit: "FLOPs/byte", YLabel: "Attainable", YUnit: "TFLOP/s", LogX: true, LogY: true,
		Series: []labs.Series{{Name: seriesRoof, Points: roof}},
		Marks:  []labs.Mark{{Label: "ridge", At: w.ridge()}}}
	if pre.steps > 0 {
		c.Series = append(c.Series, labs.Series{Name: seriesPrefill,
			Points: []labs.Point{{X: pre.intensity(), Y: pre.achieved() / 1e12}}})
	}
	if dec.steps > 0 {
		// On log axes decode's few TFLOP/s sit decades below prefill's,
		// on the roof's slope, where a linear axis flattened them to zero.
		c.Series = append(c.Series, labs.Series{Name: seriesDecode,
			Points: []labs.Point{{X: dec.intensity(), Y: dec.achieved() / 1e12}}})
	}
	return c
}

// cachingChart compares the two customers' time to first token.
func (v *view) cachingChart() labs.Chart {
	title := "Prefix caching on: first token"
	if !v.s.caching {
		title = "Prefix caching off: first token"
	}
	return labs.Chart{ID: chartCaching, Title: title, Kind: labs.ChartStackedBar,
		YLabel: "Time to first token", YUnit: "ms",
		Bars: []labs.BarGroup{
			{Label: "your request", Segments: []labs.Segment{{Name: segTTFT, Value: labs.Millis(v.first.ttft)}}},
			{Label: "second customer", Segments: []labs.Segment{{Name: segTTFT, Value: labs.Millis(v.second.ttft)}}},
		}}
}

// cachingTable lists both customers' prompts, cached tokens and TTFT.
func (v *view) cachingTable() labs.Table {
	unit := labs.TimeFormatFor(labs.Millis(v.first.ttft), labs.Millis(v.second.ttft)) // one unit for the column
	row := func(name string, p prompt, m *measurement) []string {
		return []string{name, labs.Thousands(len(p.ids)), labs.Thousands(m.usage.CachedTokens), unit.Format(labs.Millis(m.ttft))}
	}
	return labs.Table{Title: "Prefix caching", Columns: []string{"Request", "Prompt tokens", "Cached tokens", "Time to first token"},
		Rows: [][]string{row("your request", v.prompt, v.first), row("second customer", v.secondPrompt, v.second)}}
}

func points(ss []sample) []labs.Point {
	out := make([]labs.Point, len(ss))
	for i, s := range ss {
		out[i] = labs.Point{X: float64(s.tokens), Y: s.ms}
	}
	return out
}

// fitSeries draws a fitted line across the samples' range.
func fitSeries(l line, ss []sample) labs.Series {
	x0, x1 := float64(ss[0].tokens), float64(ss[0].tokens)
	for _, s := range ss {
		x0, x1 = math.Min(x0, float64(s.tokens)), math.Max(x1, float64(s.tokens))
	}
	// A time cannot be negative: where the line dips below zero at the
	// short end (a small negative intercept), it starts at its zero.
	if l.at(x0) < 0 && l.slope > 0 {
		x0 = math.Min(-l.intercept/l.slope, x1)
	}
	return labs.Series{Name: seriesFit, Dashed: true, Points: []labs.Point{{X: x0, Y: l.at(x0)}, {X: x1, Y: l.at(x1)}}}
}
