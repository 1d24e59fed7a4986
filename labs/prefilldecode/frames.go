package prefilldecode

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// Stat keys; ttft_ms is what the prediction is compared with.
const (
	statTTFT         = "ttft_ms"
	statDecode       = "decode_ms"
	statTPOT         = "tpot_ms"
	statPrompt       = "prompt_tokens"
	statPrefillI     = "prefill_intensity"
	statDecodeI      = "decode_intensity"
	statRidge        = "ridge_point"
	statCached       = "cached_tokens"
	statSecondTTFT   = "second_ttft_ms"
	statPer1kPrompt  = "ms_per_1k_prompt_tokens"
	statPerOutputTok = "ms_per_output_token"
)

// Chart ids and series names.
const (
	chartTTFT     = "ttft-vs-prompt"
	chartDecode   = "decode-vs-output"
	chartRoofline = "roofline"
	chartPrompt   = "prompt-parts"
	chartCaching  = "prefix-caching"

	seriesSweep   = "single requests (virtual clock)"
	seriesFit     = "least-squares fit"
	seriesYours   = "your request (wall clock)"
	seriesRoof    = "roof"
	seriesPrefill = "prefill"
	seriesDecode  = "decode"
	segCached     = "served from cache"
	segComputed   = "computed"
	segTTFT       = "time to first token"
)

// view turns what the run measured so far into frames. Nothing in it is
// computed ahead of the run: every figure comes from the sweep, the
// recorded steps or the handler's measurements.
type view struct {
	s            settings
	prompt       prompt
	secondPrompt prompt
	sweep        *sweep
	first        *measurement
	second       *measurement
}

// frame is the state of every panel now.
func (v *view) frame(status string) labs.Frame {
	f := labs.Frame{Status: status, Stats: v.stats(), Charts: []labs.Chart{v.promptChart()}}
	if v.sweep != nil {
		f.Charts = append(f.Charts, v.ttftChart(), v.decodeChart(), v.rooflineChart())
	}
	if v.second != nil && v.second.done {
		f.Charts = append(f.Charts, v.cachingChart())
		f.Tables = []labs.Table{v.cachingTable()}
	}
	return f
}

func (v *view) firstStatus() string {
	m := v.first
	n := len(v.prompt.ids)
	switch {
	case m.done:
		return fmt.Sprintf("Your request: first token after %s, then %d tokens in %s. Sending a second customer's request…",
			fmtMS(ms(m.ttft)), m.tokens, fmtMS(ms(m.decode())))
	case m.tokens > 0:
		return fmt.Sprintf("First token after %s. Decoding: %d of %d tokens.", fmtMS(ms(m.ttft)), m.tokens, v.s.output)
	case m.elapsed > 0:
		return fmt.Sprintf("Prefill: the GPU is reading your %s-token prompt (%s so far).", thousands(n), fmtMS(ms(m.elapsed)))
	}
	return fmt.Sprintf("Prefill: the GPU is reading your %s-token prompt.", thousands(n))
}

func (v *view) secondStatus() string {
	if v.s.caching {
		return "A second customer with the same system prompt: the engine looks for its prefix in the cache…"
	}
	return "A second customer with prefix caching off: the engine computes every prompt token again…"
}

func (v *view) finalStatus() string {
	m, m2 := v.first, v.second
	s := fmt.Sprintf("Done. Prefill of %s tokens: %s to the first token. Decode: %s per token over %d tokens.",
		thousands(len(v.prompt.ids)), fmtMS(ms(m.ttft)), fmtMSPrecise(ms(m.tpot())), m.tokens)
	if v.s.caching {
		s += fmt.Sprintf(" The second customer reused %s cached tokens: first token after %s.",
			thousands(m2.usage.CachedTokens), fmtMS(ms(m2.ttft)))
	}
	return s
}

// stats lists the figures measured so far; the final frame has them all.
func (v *view) stats() []labs.Stat {
	var out []labs.Stat
	add := func(key, label string, val float64, unit, note string) {
		out = append(out, labs.Stat{Key: key, Label: label, Value: val, Unit: unit, Note: note})
	}
	if m := v.first; m != nil && m.tokens > 0 {
		add(statTTFT, "Time to first token", ms(m.ttft), "ms", "your request, measured at the handler")
	}
	if m := v.first; m != nil && m.done {
		add(statDecode, "Decode time", ms(m.decode()), "ms", "first token to last")
		if m.tokens > 1 {
			add(statTPOT, "Time per output token", ms(m.tpot()), "ms", "decode time ÷ (tokens − 1)")
		}
	}
	add(statPrompt, "Prompt", float64(len(v.prompt.ids)), "tokens", "counted by the tokenizer")
	if sw := v.sweep; sw != nil {
		if sw.ttftFit.ok {
			add(statPer1kPrompt, "Prefill cost", sw.ttftFit.slope*1000, "ms per 1k tokens", "slope of the TTFT fit")
		}
		if sw.decodeFit.ok {
			add(statPerOutputTok, "Decode cost", sw.decodeFit.slope, "ms per token", "slope of the decode-time fit")
		}
		add(statPrefillI, "Prefill intensity", sw.prefill.intensity(), "FLOPs/byte", "your prompt's prefill")
		if sw.decodeWork.steps > 0 { // a one-token answer has no decode step
			add(statDecodeI, "Decode intensity", sw.decodeWork.intensity(), "FLOPs/byte", "your answer's decode steps")
		}
		add(statRidge, "Ridge point", sw.work.ridge(), "FLOPs/byte", "peak FLOP/s ÷ memory bandwidth")
	}
	if m := v.second; m != nil && m.done {
		note := "prefix caching off"
		if v.s.caching {
			note = "second customer, shared system prompt"
		}
		add(statSecondTTFT, "Second customer's TTFT", ms(m.ttft), "ms", note)
		add(statCached, "Cached tokens", float64(m.usage.CachedTokens), "tokens", "second customer, from the engine's usage")
	}
	return out
}

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
	sw := v.sweep
	c := labs.Chart{ID: chartTTFT, Title: "Time to first token grows with the prompt", Kind: labs.ChartScatter,
		XLabel: "Prompt length", XUnit: "tokens", YLabel: "Time to first token", YUnit: "ms",
		Series: []labs.Series{{Name: seriesSweep, Points: points(sw.ttft)}}}
	if sw.ttftFit.ok {
		c.Series = append(c.Series, fitSeries(sw.ttftFit, sw.ttft))
	}
	if m := v.first; m != nil && m.tokens > 0 {
		c.Series = append(c.Series, labs.Series{Name: seriesYours,
			Points: []labs.Point{{X: float64(len(v.prompt.ids)), Y: ms(m.ttft)}}})
	}
	return c
}

// decodeChart is decode time against answer length: the sweep, its fit
// (whose slope is the time per output token) and the learner's request.
func (v *view) decodeChart() labs.Chart {
	sw := v.sweep
	c := labs.Chart{ID: chartDecode, Title: "Decode time grows with the answer", Kind: labs.ChartScatter,
		XLabel: "Answer length", XUnit: "tokens", YLabel: "First to last token", YUnit: "ms",
		Series: []labs.Series{{Name: seriesSweep, Points: points(sw.decode)}}}
	if sw.decodeFit.ok {
		c.Series = append(c.Series, fitSeries(sw.decodeFit, sw.decode))
	}
	if m := v.first; m != nil && m.done {
		c.Series = append(c.Series, labs.Series{Name: seriesYours,
			Points: []labs.Point{{X: float64(m.tokens), Y: ms(m.decode())}}})
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
		XLabel: "Arithmetic intensity", XUnit: "FLOPs/byte", YLabel: "Attainable", YUnit: "TFLOP/s", LogX: true,
		Series: []labs.Series{{Name: seriesRoof, Points: roof}},
		Marks:  []labs.Mark{{Label: "ridge", At: w.ridge()}}}
	if pre.steps > 0 {
		c.Series = append(c.Series, labs.Series{Name: seriesPrefill,
			Points: []labs.Point{{X: pre.intensity(), Y: pre.achieved() / 1e12}}})
	}
	if dec.steps > 0 {
		c.Series = append(c.Series, labs.Series{Name: seriesDecode,
			Points: []labs.Point{{X: dec.intensity(), Y: dec.achieved() / 1e12}}})
		// Decode sits near zero on the linear FLOP/s axis; a line at its
		// intensity makes its place on the roof's slope easy to find.
		c.Marks = append(c.Marks, labs.Mark{Label: seriesDecode, At: dec.intensity()})
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
			{Label: "your request", Segments: []labs.Segment{{Name: segTTFT, Value: ms(v.first.ttft)}}},
			{Label: "second customer", Segments: []labs.Segment{{Name: segTTFT, Value: ms(v.second.ttft)}}},
		}}
}

// cachingTable lists both customers' prompts, cached tokens and TTFT.
func (v *view) cachingTable() labs.Table {
	row := func(name string, p prompt, m *measurement) []string {
		return []string{name, thousands(len(p.ids)), thousands(m.usage.CachedTokens), fmtMS(ms(m.ttft))}
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

// fmtMS formats milliseconds for a status line: "412 ms", "2.41 s".
func fmtMS(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
}

// fmtMSPrecise keeps a decimal for short times such as a time per token.
func fmtMSPrecise(v float64) string {
	if v < 100 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " ms"
	}
	return fmtMS(v)
}

// thousands formats n with comma separators: 8000 → "8,000".
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
