package store

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/latencylab/latencylab/labs"
)

// Panels are the panels a learner saw when a run ended: the text, charts
// and tables of the last frames that set them. A reopened run is drawn
// from them with the live lab's components.
type Panels struct {
	Text   *labs.TextPanel `json:"text,omitempty"`
	Charts []labs.Chart    `json:"charts,omitempty"`
	Tables []labs.Table    `json:"tables,omitempty"`
	// Thinned says long series, timelines or tables were cut to the caps
	// below before saving, so the page can say the drawing is reduced.
	Thinned bool `json:"thinned,omitempty"`
}

// Caps on saved panels. A live batching chart can hold hundreds of
// thousands of points (MBs of JSON); a chart is 700 units wide, so 2,000
// points per series draw the same shape. The byte cap is the backstop for
// frames that are large in ways the per-item caps do not cover.
const (
	MaxSeriesPoints = 2000
	MaxTimelineRows = 400
	MaxTableRows    = 500
	MaxPanelsBytes  = 1 << 20
)

// encodePanels returns p as bounded JSON: non-finite numbers dropped (JSON
// has no NaN), then caps applied, tighter ones while the result is over
// MaxPanelsBytes. A nil p, or one that cannot be bounded, saves as NULL.
func encodePanels(p *Panels) (any, error) {
	if p == nil {
		return nil, nil
	}
	for _, pts := range []int{MaxSeriesPoints, 500, 100} {
		rows := MaxTimelineRows * pts / MaxSeriesPoints
		b := p.bounded(pts, max(rows, 20))
		out, err := json.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("panels: %v", err)
		}
		if len(out) <= MaxPanelsBytes {
			return string(out), nil
		}
	}
	return nil, nil // too big even thinned: the run keeps its summary only
}

// bounded is a copy of p with every number finite, at most pts points per
// series and rows rows per timeline; p itself is not changed.
func (p *Panels) bounded(pts, rows int) Panels {
	out := Panels{Thinned: p.Thinned}
	if p.Text != nil {
		t := *p.Text
		t.Marks = finiteMarks(t.Marks)
		out.Text = &t
	}
	for _, c := range p.Charts {
		c.XMax, c.YMax = finiteOr0(c.XMax), finiteOr0(c.YMax)
		c.Marks, c.HLines = finiteMarks(c.Marks), finiteMarks(c.HLines)
		series := make([]labs.Series, len(c.Series))
		for i, s := range c.Series {
			s.Points = finitePoints(s.Points)
			if len(s.Points) > pts {
				s.Points = Thin(s.Points, pts)
				out.Thinned = true
			}
			series[i] = s
		}
		c.Series = series
		if len(c.Rows) > rows {
			c.Rows = everyNth(c.Rows, rows)
			out.Thinned = true
		}
		c.Rows = finiteRows(c.Rows)
		c.Bars = finiteBars(c.Bars)
		if c.Hist != nil {
			h := *c.Hist
			h.BinWidth, h.Start = finiteOr0(h.BinWidth), finiteOr0(h.Start)
			h.Marks = finiteMarks(h.Marks)
			c.Hist = &h
		}
		out.Charts = append(out.Charts, c)
	}
	for _, t := range p.Tables {
		if len(t.Rows) > MaxTableRows {
			t.Rows = t.Rows[:MaxTableRows]
			out.Thinned = true
		}
		out.Tables = append(out.Tables, t)
	}
	return out
}

// Thin reduces pts to at most n points (n ≥ 4) that keep its shape: the
// points fall into n/4 buckets in order, and each bucket keeps its first,
// lowest, highest and last point, so spikes (a p99 outlier, a queue
// build-up) survive where plain striding would skip them.
func Thin(pts []labs.Point, n int) []labs.Point {
	n = max(n, 4)
	if len(pts) <= n {
		return pts
	}
	buckets := n / 4
	out := make([]labs.Point, 0, n)
	for b := range buckets {
		lo, hi := b*len(pts)/buckets, (b+1)*len(pts)/buckets
		first, last, minI, maxI := lo, hi-1, lo, lo
		for i := lo; i < hi; i++ {
			if pts[i].Y < pts[minI].Y {
				minI = i
			}
			if pts[i].Y > pts[maxI].Y {
				maxI = i
			}
		}
		keep := []int{first, min(minI, maxI), max(minI, maxI), last}
		for i, k := range keep {
			if i == 0 || k != keep[i-1] {
				out = append(out, pts[k])
			}
		}
	}
	return out
}

func everyNth[T any](xs []T, n int) []T {
	out := make([]T, 0, n)
	for i := range n {
		out = append(out, xs[i*len(xs)/n])
	}
	return out
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func finiteOr0(f float64) float64 {
	if finite(f) {
		return f
	}
	return 0
}

func finitePoints(ps []labs.Point) []labs.Point {
	if len(ps) == 0 {
		return nil // keeps absent panels absent in the JSON
	}
	out := make([]labs.Point, 0, len(ps))
	for _, p := range ps {
		if finite(p.X) && finite(p.Y) {
			out = append(out, p)
		}
	}
	return out
}

func finiteMarks(ms []labs.Mark) []labs.Mark {
	var out []labs.Mark
	for _, m := range ms {
		if finite(m.At) {
			out = append(out, m)
		}
	}
	return out
}

func finiteRows(rows []labs.SpanRow) []labs.SpanRow {
	if len(rows) == 0 {
		return nil // keeps absent panels absent in the JSON
	}
	out := make([]labs.SpanRow, len(rows))
	for i, r := range rows {
		var spans []labs.Span
		for _, s := range r.Spans {
			if finite(s.Start) && finite(s.End) {
				spans = append(spans, s)
			}
		}
		out[i] = labs.SpanRow{Label: r.Label, Spans: spans}
	}
	return out
}

func finiteBars(bars []labs.BarGroup) []labs.BarGroup {
	if len(bars) == 0 {
		return nil // keeps absent panels absent in the JSON
	}
	out := make([]labs.BarGroup, len(bars))
	for i, g := range bars {
		segs := make([]labs.Segment, len(g.Segments))
		for j, s := range g.Segments {
			segs[j] = labs.Segment{Name: s.Name, Value: finiteOr0(s.Value)}
		}
		out[i] = labs.BarGroup{Label: g.Label, Segments: segs}
	}
	return out
}
