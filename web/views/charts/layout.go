package charts

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/latencylab/latencylab/labs"
)

// Geometry of the viewBox and type sizes, in viewBox units. The box is
// narrow on purpose: on a phone the SVG scales down, and a small viewBox
// keeps 11-unit text readable there.
const (
	viewW     = 440.0
	viewH     = 280.0
	timelineH = 340.0
	pad       = 8.0

	titleSize  = 13.5
	tickSize   = 11.0
	legendSize = 11.0
	labelSize  = 10.5
	lineGap    = 14.0 // legend row height

	waitingNote = "waiting for data"
)

// textWidth estimates the rendered width of s; system sans-serif fonts
// average a little over half an em per character.
func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * 0.56
}

// labelWidth estimates the width of a bold label drawn over the data;
// semibold glyphs run about a tenth wider.
func labelWidth(s string) float64 { return textWidth(s, labelSize) * 1.1 }

// truncate shortens s with an ellipsis so that it fits in maxW.
func truncate(s string, maxW, size float64) string {
	if textWidth(s, size) <= maxW {
		return s
	}
	n := int(maxW/(size*0.56)) - 1
	if n < 1 {
		return "…"
	}
	r := []rune(s)
	if n > len(r) {
		n = len(r)
	}
	return strings.TrimRight(string(r[:n]), " ") + "…"
}

// box is the plot area in viewBox units.
type box struct{ L, T, R, B float64 }

func (b box) w() float64 { return b.R - b.L }
func (b box) h() float64 { return b.B - b.T }

// tick is one labelled position along an axis.
type tick struct {
	Pos   float64
	Label string
}

// swatch is how a legend entry is drawn.
type swatch int

const (
	swatchBlock swatch = iota // bars, spans, segments
	swatchLine                // series
	swatchDot                 // scatter points
)

// legendItem is one placed legend entry.
type legendItem struct {
	X, Y   float64 // left edge of the swatch; vertical centre of the row
	Name   string
	Color  string
	Kind   swatch
	Dashed bool
}

// vmark is a placed vertical reference line and its label.
type vmark struct {
	X, Y1, Y2 float64
	LX, LY    float64
	Anchor    string
	Label     string
}

// hmark is a placed horizontal reference line and its label.
type hmark struct {
	Y, X1, X2 float64
	LX, LY    float64
	Anchor    string
	Label     string
}

// frame is everything around the data: title, legend, axes, gridlines,
// reference lines and notes. Each kind builds one and adds its data.
type frame struct {
	ID, ClipID     string
	Title, Aria    string
	ShowTitle      bool
	W, H           float64
	Plot           box
	XTicks, YTicks []tick
	XGrid, YGrid   bool
	XRotate        bool      // X tick labels are long categories, drawn slanted
	XMinor         []float64 // unlabelled gridline positions (log axes: 2…9 per decade)
	YLeft          bool      // Y tick labels are row labels, left-aligned text
	YTickSize      float64   // font size of Y tick labels (rows shrink it)
	XTitle, YTitle string
	Legend         []legendItem
	Note           string
	VMarks         []vmark
	HLines         []hmark

	// occupied holds the boxes of labels already placed over the data, so
	// later labels can step around them.
	occupied []box
}

// entry is a legend entry before placement.
type entry struct {
	name   string
	kind   swatch
	dashed bool
}

// newFrame lays out the title and legend and reserves the bottom of the
// box for the X axis; the caller then fits the axes.
func newFrame(c labs.Chart, h float64, entries []entry, col *colours) frame {
	f := frame{
		ID:     c.ID,
		ClipID: "ch-clip-" + safeID(c.ID, string(c.Kind)),
		Title:  strings.TrimSpace(c.Title),
		W:      viewW,
		H:      h,

		YTickSize: tickSize,
	}
	f.Aria = ariaLabel(c)
	top := pad
	if f.Title != "" {
		f.ShowTitle = true
		f.Title = truncate(f.Title, viewW-2*pad, titleSize)
		top += 18
	}
	f.Legend, top = placeLegend(entries, col, top)
	f.Plot = box{T: top + 6, R: viewW - pad - 6, B: h - pad - 16}
	f.XTitle = strings.TrimSpace(c.XLabel)
	if f.XTitle != "" {
		f.Plot.B -= 14
	}
	return f
}

// placeLegend flows the entries into rows below y and returns them with the
// y below the legend.
func placeLegend(entries []entry, col *colours, y float64) ([]legendItem, float64) {
	if len(entries) == 0 {
		return nil, y
	}
	var out []legendItem
	x := pad
	rowY := y + lineGap/2
	for _, e := range entries {
		sw := 10.0
		if e.kind == swatchLine {
			sw = 16
		}
		name := truncate(e.name, viewW-2*pad-sw-5, legendSize)
		w := sw + 5 + textWidth(name, legendSize)
		if x > pad && x+w > viewW-pad {
			x = pad
			rowY += lineGap
		}
		out = append(out, legendItem{X: x, Y: rowY, Name: name, Color: col.of(e.name), Kind: e.kind, Dashed: e.dashed})
		x += w + 14
	}
	return out, rowY + lineGap/2
}

// ariaLabel describes the chart for screen readers.
func ariaLabel(c labs.Chart) string {
	kind := map[labs.ChartKind]string{
		labs.ChartLine: "line chart", labs.ChartArea: "area chart",
		labs.ChartStackedBar: "stacked bar chart", labs.ChartTimeline: "timeline",
		labs.ChartHistogram: "histogram", labs.ChartScatter: "scatter plot",
	}[c.Kind]
	if kind == "" {
		kind = "chart"
	}
	if t := strings.TrimSpace(c.Title); t != "" {
		return t + ", " + kind
	}
	return kind
}

// safeID keeps the characters that are safe inside url(#…) references.
func safeID(id, fallback string) string {
	if id == "" {
		id = fallback
	}
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// numIn describes a numeric axis to fit.
type numIn struct {
	lo, hi  float64 // data extent (NaN when there is none)
	fixedHi float64
	log     bool
	unit    string
	label   string
}

// fitY fits a numeric Y axis to the plot height, sets the Y ticks and title
// and moves the plot's left edge past the tick labels.
func (f *frame) fitY(in numIn) linScale {
	maxTicks := int(math.Max(2, math.Min(7, math.Floor(f.Plot.h()/34)+1)))
	a := niceAxis(in.lo, in.hi, maxTicks, in.fixedHi)
	nf := newNumFmt(in.unit, math.Max(math.Abs(a.lo), math.Abs(a.hi)))
	s := linScale{d0: a.lo, d1: a.hi, r0: f.Plot.B, r1: f.Plot.T}
	labelW := 0.0
	f.YTicks = f.YTicks[:0]
	for _, v := range a.ticks {
		l := nf.tick(v, a.step)
		labelW = math.Max(labelW, textWidth(l, tickSize))
		f.YTicks = append(f.YTicks, tick{Pos: s.pos(v), Label: l})
	}
	f.YGrid = true
	f.YTitle = axisTitle(in.label, nf)
	left := pad + labelW + 6
	if f.YTitle != "" {
		left += 15
	}
	f.Plot.L = left
	return s
}

// fitX fits a numeric X axis to the plot width, thinning ticks until their
// labels do not collide, and sets the X ticks and title.
func (f *frame) fitX(in numIn) linScale {
	if in.log {
		return f.fitLogX(in)
	}
	var s linScale
	for maxTicks := int(math.Max(2, math.Min(9, f.Plot.w()/50))); maxTicks >= 2; maxTicks-- {
		a := niceAxis(in.lo, in.hi, maxTicks, in.fixedHi)
		nf := newNumFmt(in.unit, math.Max(math.Abs(a.lo), math.Abs(a.hi)))
		s = linScale{d0: a.lo, d1: a.hi, r0: f.Plot.L, r1: f.Plot.R}
		ticks := make([]tick, 0, len(a.ticks))
		for _, v := range a.ticks {
			ticks = append(ticks, tick{Pos: s.pos(v), Label: nf.tick(v, a.step)})
		}
		f.XTicks = ticks
		f.XTitle = axisTitle(f.XTitle, nf)
		if !ticksCollide(ticks) {
			break
		}
	}
	f.XGrid = true
	return s
}

// fitLogX fits a log10 X axis; labels that would collide are dropped.
func (f *frame) fitLogX(in numIn) linScale {
	a := logAxis(in.lo, in.hi, in.fixedHi)
	nf := newNumFmt(in.unit, a.hi)
	s := linScale{d0: a.lo, d1: a.hi, r0: f.Plot.L, r1: f.Plot.R, log: true}
	f.XTicks = nil
	last := math.Inf(-1)
	for _, v := range a.ticks {
		l := nf.logTick(v)
		p := s.pos(v)
		w := textWidth(l, tickSize)
		if p-w/2 < last+6 {
			continue
		}
		last = p + w/2
		f.XTicks = append(f.XTicks, tick{Pos: p, Label: l})
	}
	f.XGrid = true
	f.XTitle = axisTitle(f.XTitle, nf)
	// Minor gridlines at 2…9 × each decade show the log spacing.
	for d := a.lo; d < a.hi; d *= 10 {
		for m := 2.0; m <= 9; m++ {
			if v := d * m; v < a.hi {
				f.XMinor = append(f.XMinor, s.pos(v))
			}
		}
	}
	return s
}

// ticksCollide reports whether centred tick labels overlap or leave the box.
func ticksCollide(ts []tick) bool {
	for i := 1; i < len(ts); i++ {
		a, b := ts[i-1], ts[i]
		if b.Pos-a.Pos < (textWidth(a.Label, tickSize)+textWidth(b.Label, tickSize))/2+8 {
			return true
		}
	}
	return false
}

// placeVMarks draws vertical reference lines across the plot and staggers
// their labels over up to four rows so that neighbours do not overlap.
func (f *frame) placeVMarks(ms []labs.Mark, xs linScale, unit string) {
	type placed struct {
		m    labs.Mark
		x    float64
		text string
	}
	var ps []placed
	for _, m := range ms {
		if !finite(m.At) || (xs.log && m.At <= 0) {
			continue
		}
		x := xs.pos(m.At)
		if x < f.Plot.L-0.5 || x > f.Plot.R+0.5 {
			continue
		}
		ps = append(ps, placed{m: m, x: x, text: markText(m.Label, m.At, unit)})
	}
	// Sort by position (insertion sort: a handful of marks).
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].x < ps[j-1].x; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	const levels = 4
	var ends [levels]float64
	for i := range ends {
		ends[i] = math.Inf(-1)
	}
	for _, p := range ps {
		text := truncate(p.text, f.Plot.w()*0.6, labelSize)
		w := labelWidth(text)
		a, b, lx, anchor := p.x+3, p.x+3+w, p.x+3, "start"
		if b > f.Plot.R {
			a, b, lx, anchor = p.x-3-w, p.x-3, p.x-3, "end"
		}
		lvl := 0
		for i := range ends {
			if a >= ends[i]+8 {
				lvl = i
				break
			}
			if ends[i] < ends[lvl] {
				lvl = i
			}
		}
		ends[lvl] = b
		ly := f.Plot.T + 10 + float64(lvl)*12.5
		f.occupied = append(f.occupied, box{L: a, R: b, T: ly - 9, B: ly + 2})
		f.VMarks = append(f.VMarks, vmark{
			X: p.x, Y1: f.Plot.T, Y2: f.Plot.B,
			LX: lx, LY: ly,
			Anchor: anchor, Label: text,
		})
	}
}

// placeHLines draws horizontal reference lines (budgets). The label goes
// at the right end above the line, or failing that below it or at the left
// end, wherever it does not cover a label placed earlier.
func (f *frame) placeHLines(ms []labs.Mark, ys linScale, unit string) {
	for _, m := range ms {
		if !finite(m.At) {
			continue
		}
		y := ys.pos(m.At)
		if y < f.Plot.T-0.5 || y > f.Plot.B+0.5 {
			continue
		}
		label := truncate(markText(m.Label, m.At, unit), f.Plot.w()*0.7, labelSize)
		w := labelWidth(label)
		type spot struct {
			lx, ly float64
			anchor string
		}
		var spots []spot
		for _, ly := range []float64{y - 4, y + 12} {
			if ly < f.Plot.T+9 || ly > f.Plot.B-2 {
				continue
			}
			spots = append(spots, spot{f.Plot.R - 3, ly, "end"}, spot{f.Plot.L + 3, ly, "start"})
		}
		if len(spots) == 0 {
			spots = append(spots, spot{f.Plot.R - 3, y - 4, "end"})
		}
		best, bestBox := spots[0], box{}
		for i, s := range spots {
			bx := box{L: s.lx - w, R: s.lx, T: s.ly - 9, B: s.ly + 2}
			if s.anchor == "start" {
				bx.L, bx.R = s.lx, s.lx+w
			}
			if i == 0 {
				bestBox = bx
			}
			if !f.collides(bx) {
				best, bestBox = s, bx
				break
			}
		}
		f.occupied = append(f.occupied, bestBox)
		f.HLines = append(f.HLines, hmark{
			Y: y, X1: f.Plot.L, X2: f.Plot.R, LX: best.lx, LY: best.ly, Anchor: best.anchor, Label: label,
		})
	}
}

// collides reports whether b overlaps a label placed earlier.
func (f *frame) collides(b box) bool {
	for _, o := range f.occupied {
		if b.L < o.R && o.L < b.R && b.T < o.B && o.T < b.B {
			return true
		}
	}
	return false
}

// extent accumulates the finite range of some values.
type extent struct{ lo, hi float64 }

func newExtent() extent { return extent{lo: math.NaN(), hi: math.NaN()} }

func (e *extent) add(v float64) {
	if !finite(v) {
		return
	}
	if math.IsNaN(e.lo) || v < e.lo {
		e.lo = v
	}
	if math.IsNaN(e.hi) || v > e.hi {
		e.hi = v
	}
}

func (e extent) empty() bool { return math.IsNaN(e.lo) }

// withZero extends the extent to include zero, so bars and latencies sit
// on a zero baseline.
func (e extent) withZero() extent {
	if e.empty() {
		return e
	}
	e.lo = math.Min(e.lo, 0)
	e.hi = math.Max(e.hi, 0)
	return e
}

// num formats a coordinate for an attribute: one decimal is finer than a
// device pixel at any sensible size.
func num(v float64) string { return trimNum(v, 1) }
