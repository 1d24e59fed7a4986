package rag

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Chart ids.
const (
	chartParts = "prompt-parts"
	chartTTFT  = "ttft-vs-prompt"
)

// Segment names of the prompt bar.
const (
	segSystem   = "system prompt"
	segChunks   = "passages"
	segHistory  = "history"
	segQuestion = "question"
	segTemplate = "chat formatting"
)

// view holds the run's state.
type view struct {
	s      settings
	answer string
	res    *pipeline.Result
	sweep  []point
	eng    engine.Config // the tier's engine, for the why panels
}

// segments are the parts of a prompt, in prompt order; they sum to its
// token count exactly (the pipeline counts each part and the chat
// template's markers; the lab never looks up an order, so that part is
// always zero and left out).
func segments(p pipeline.PromptParts) []labs.Segment {
	return []labs.Segment{
		{Name: segSystem, Value: float64(p.System)}, {Name: segChunks, Value: float64(p.Chunks)},
		{Name: segHistory, Value: float64(p.History)},
		{Name: segQuestion, Value: float64(p.Question)}, {Name: segTemplate, Value: float64(p.Template)},
	}
}

func (v *view) promptFrame(detail string) labs.Frame {
	return labs.Frame{Status: "Prompt assembled (" + detail + "); waiting for the first token…"}
}

func (v *view) text() *labs.TextPanel {
	return &labs.TextPanel{Title: "The answer, written from the passages in the prompt", Body: v.answer}
}

func (v *view) stats() []labs.Stat {
	r := v.res
	p := r.Prompt.Parts
	return []labs.Stat{
		{Key: statPromptTokens, Label: "Prompt", Value: float64(r.Prompt.Tokens()), Unit: "tokens", Note: "every part, counted with the tokenizer"},
		{Key: statTTFT, Label: "Time to first token", Value: pipelinelab.Round1(pipelinelab.MS(r.Summary.FirstToken)), Unit: "ms",
			Note: "a live run on the shared engine, timed by the modelled GPU; others' requests can add a wait"},
		{Key: statChunksTokens, Label: "Passages", Value: float64(p.Chunks), Unit: "tokens", Note: fmt.Sprintf("%s retrieved", labs.Thousands(len(r.Lookups.Chunks)))},
		{Key: statHistoryTokens, Label: "History", Value: float64(p.History), Unit: "tokens", Note: labs.Count(r.Prompt.HistoryKept, "turn")},
		{Key: statSystemTokens, Label: "System prompt", Value: float64(p.System), Unit: "tokens"},
		{Key: statAnswerTokens, Label: "Answer", Value: float64(r.Summary.OutputTokens), Unit: "tokens"},
	}
}

func (v *view) partsChart() labs.Chart {
	c := labs.Chart{ID: chartParts, Title: "Prompt tokens by part", Kind: labs.ChartStackedBar, YLabel: "prompt", YUnit: "tokens"}
	if v.res != nil {
		c.Bars = append(c.Bars, labs.BarGroup{Label: "this run", Segments: segments(v.res.Prompt.Parts)})
	}
	for _, pt := range v.sweep {
		c.Bars = append(c.Bars, labs.BarGroup{Label: "k=" + strconv.Itoa(pt.k), Segments: segments(pt.parts)})
	}
	return c
}

func (v *view) ttftChart() labs.Chart {
	c := labs.Chart{ID: chartTTFT, Title: "Time to first token against prompt length", Kind: labs.ChartScatter,
		XLabel: "prompt", XUnit: "tokens", YLabel: "time to first token", YUnit: "ms"}
	if len(v.sweep) > 0 {
		s := labs.Series{Name: "sweep k = 0, 2, 5, 10, 20 (virtual clock)"}
		for _, pt := range v.sweep {
			s.Points = append(s.Points, labs.Point{X: float64(pt.tokens), Y: pipelinelab.MS(pt.ttft)})
		}
		c.Series = append(c.Series, s)
		if a, b, ok := pipelinelab.Fit(s.Points); ok {
			lo, hi := s.Points[0].X, s.Points[len(s.Points)-1].X
			c.Series = append(c.Series, labs.Series{Name: fmt.Sprintf("fit: %s + %.2f ms per 100 tokens", intercept(a, b, s.Points), 100*b),
				Dashed: true, Points: []labs.Point{{X: lo, Y: a + b*lo}, {X: hi, Y: a + b*hi}}})
		}
	}
	if v.res != nil {
		c.Series = append(c.Series, labs.Series{Name: "this run (live)", Points: []labs.Point{
			{X: float64(v.res.Prompt.Tokens()), Y: pipelinelab.MS(v.res.Summary.FirstToken)}}})
	}
	return c
}

// intercept formats the fit's intercept. One within the points' scatter
// about the line (or under half a millisecond) is noise, not a negative
// fixed cost, so it reads "≈ 0 ms".
func intercept(a, b float64, pts []labs.Point) string {
	var ss float64
	for _, p := range pts {
		r := p.Y - (a + b*p.X)
		ss += r * r
	}
	if math.Abs(a) < max(0.5, math.Sqrt(ss/float64(len(pts)))) {
		return "≈ 0 ms"
	}
	return fmt.Sprintf("%.1f ms", a)
}

func (v *view) chunksTable() labs.Table {
	t := labs.Table{Title: "Retrieved passages", Columns: []string{"rank", "article", "score", "tokens in the prompt", "passage"}}
	// The count is the passage as the prompt holds it (number, title and
	// text), as the Passages figure's explanation adds them up.
	var counts []int
	if msgs := v.res.Prompt.Messages; len(msgs) > 1 && strings.HasPrefix(msgs[1].Content, passagesHeading) {
		_, counts = passageTokens(msgs[1])
	}
	for i, c := range v.res.Lookups.Chunks {
		n := "—" // retrieved but not in the prompt
		if i < len(counts) {
			n = labs.Thousands(counts[i])
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(i + 1), c.Article, strconv.FormatFloat(c.Score, 'f', 2, 64), n, c.Text})
	}
	if len(t.Rows) == 0 {
		t.Title = "Retrieved passages: none (top-k is 0 or nothing matched)"
	}
	return t
}

func (v *view) liveFrame() labs.Frame {
	r := v.res
	return labs.Frame{
		Status: fmt.Sprintf("First token after %s for a %s-token prompt. Timing the sweep on the virtual clock…",
			pipelinelab.FmtMS(pipelinelab.MS(r.Summary.FirstToken)), labs.Thousands(r.Prompt.Tokens())),
		Stats: v.stats(), Text: v.text(), Charts: []labs.Chart{v.partsChart(), v.ttftChart()}, Tables: []labs.Table{v.chunksTable()},
	}
}

func (v *view) finalFrame() labs.Frame {
	f := v.liveFrame()
	f.Final = true
	labs.Explain(f.Stats, v.why(v.eng))
	first, last := v.sweep[0], v.sweep[len(v.sweep)-1]
	f.Status = fmt.Sprintf("%s-token prompt, first token after %s. In the sweep, 0 passages give %s tokens and %s; 20 give %s tokens and %s.",
		labs.Thousands(v.res.Prompt.Tokens()), pipelinelab.FmtMS(pipelinelab.MS(v.res.Summary.FirstToken)), labs.Thousands(first.tokens), pipelinelab.FmtMS(pipelinelab.MS(first.ttft)), labs.Thousands(last.tokens), pipelinelab.FmtMS(pipelinelab.MS(last.ttft)))
	return f
}
