package charts

import (
	"math"
	"strings"

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

// textWidth estimates the rendered width of s. The advances are DejaVu
// Sans's (the widest common fallback of the system-ui stack, and what
// Linux browsers draw with), so an estimate errs on the wide side in other
// fonts: a gutter sized by it never lets text run into the axis.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		w += runeEm(r)
	}
	return w * size
}

// runeEm is the advance of r in ems.
func runeEm(r rune) float64 {
	switch {
	case r >= '0' && r <= '9':
		return 0.636
	case r >= 'A' && r <= 'Z':
		switch r {
		case 'I', 'J':
			return 0.32
		case 'M', 'W':
			return 0.9
		}
		return 0.7
	}
	switch r {
	case ' ', '.', ',', ':', ';', '·', '\'', '!', '|':
		return 0.318
	case 'i', 'j', 'l':
		return 0.278
	case 'f', 't', '(', ')', '[', ']', '/', '-':
		return 0.39
	case 'r':
		return 0.411
	case 's', 'c', 'z':
		return 0.53
	case 'm':
		return 0.974
	case 'w':
		return 0.818
	case '+', '=', '<', '>', '≈', '×', '~':
		return 0.838
	case '%', '…':
		return 1.0
	}
	if r >= 'a' && r <= 'z' {
		return 0.62
	}
	return 0.7
}

// labelWidth estimates the width of a bold label drawn over the data;
// semibold glyphs run about a tenth wider.
func labelWidth(s string) float64 { return textWidth(s, labelSize) * 1.1 }

// truncate shortens s with an ellipsis so that it fits in maxW.
func truncate(s string, maxW, size float64) string {
	if textWidth(s, size) <= maxW {
		return s
	}
	r := []rune(s)
	w := textWidth("…", size)
	n := 0
	for n < len(r) && w+runeEm(r[n])*size <= maxW {
		w += runeEm(r[n]) * size
		n++
	}
	if n == 0 {
		return "…"
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
	Tip   string // the whole label when Label is truncated
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

// vmark is a placed vertical reference line and its label. The line runs
// from the label in the lane above the plot (Y1) down to the X axis (Y2).
type vmark struct {
	X, Y1, Y2 float64
	LX, LY    float64
	Anchor    string
	Label     string
	Tip       string // the whole label when Label is truncated
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
	YMinor         []float64
	YLeft          bool    // Y tick labels are row labels, left-aligned text
	YTickSize      float64 // font size of Y tick labels (rows shrink it)
	XTitle, YTitle string
	YTitleX        float64 // baseline of the rotated Y title, left of the tick labels
	Legend         []legendItem
	Note           string
	VMarks         []vmark
	HLines         []hmark
	// Lane is the height reserved above the plot for mark labels.
	Lane float64

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

// Y gutter, left to right: the rotated axis title (its baseline at
// yTitleX; glyphs reach a cap height left of it and a descent right of
// it), a gap, the tick labels right-aligned, a gap, the axis.
const (
	yTitleX       = pad + 10
	yTitleDescent = tickSize * 0.24
	yTitleGap     = 5.0
	yTickGap      = 6.0
)

// yGutter returns the left edge of the plot for Y tick labels labelW wide,
// with or without an axis title.
func yGutter(labelW float64, title bool) float64 {
	l := pad + labelW + yTickGap
	if title {
		l = yTitleX + yTitleDescent + yTitleGap + labelW + yTickGap
	}
	return l
}

// fitY fits a numeric Y axis to the plot height, sets the Y ticks and title
// and moves the plot's left edge past the widest tick label, with the axis
// title beyond it.
func (f *frame) fitY(in numIn) linScale {
	var s linScale
	var nf numFmt
	f.YTicks = f.YTicks[:0]
	f.YMinor = nil
	if in.log {
		a := logAxis(in.lo, in.hi, in.fixedHi)
		nf = newNumFmt(in.unit, a.hi)
		s = linScale{d0: a.lo, d1: a.hi, r0: f.Plot.B, r1: f.Plot.T, log: true}
		// Decades first, then 2 and 5 where they leave a line of space.
		last := math.Inf(1)
		for _, v := range a.ticks {
			p := s.pos(v)
			if !isDecade(v) && (last-p < 16 || p-f.Plot.T < 8) {
				continue
			}
			last = p
			f.YTicks = append(f.YTicks, tick{Pos: p, Label: logTickLabel(v, in.unit, nf)})
		}
		f.YMinor = minorLog(a, s)
	} else {
		maxTicks := int(math.Max(2, math.Min(7, math.Floor(f.Plot.h()/34)+1)))
		a := niceAxis(in.lo, in.hi, maxTicks, in.fixedHi)
		nf = newNumFmt(in.unit, math.Max(math.Abs(a.lo), math.Abs(a.hi)))
		s = linScale{d0: a.lo, d1: a.hi, r0: f.Plot.B, r1: f.Plot.T}
		for _, v := range a.ticks {
			f.YTicks = append(f.YTicks, tick{Pos: s.pos(v), Label: nf.tick(v, a.step)})
		}
	}
	labelW := 0.0
	for _, t := range f.YTicks {
		labelW = math.Max(labelW, textWidth(t.Label, tickSize))
	}
	f.YGrid = true
	f.YTitle = axisTitle(in.label, nf)
	f.YTitleX = yTitleX
	f.Plot.L = yGutter(labelW, f.YTitle != "")
	return s
}

// isDecade reports whether v is a power of ten.
func isDecade(v float64) bool {
	l := math.Log10(v)
	return math.Abs(l-math.Round(l)) < 1e-9
}

// minorLog returns the positions of 2…9 × each decade inside a log axis,
// the unlabelled gridlines that show the scale is logarithmic.
func minorLog(a axis, s linScale) []float64 {
	var out []float64
	for d := a.lo; d < a.hi; d *= 10 {
		for m := 2.0; m <= 9; m++ {
			if v := d * m; v < a.hi*(1-1e-9) {
				out = append(out, s.pos(v))
			}
		}
	}
	return out
}

// logTickLabel formats a tick of a log axis. Time ticks each pick their
// own unit ("10 ms", "1 s", "100 s"): one unit cannot span the decades.
func logTickLabel(v float64, unit string, nf numFmt) string {
	if _, ok := timeToMs(unit); ok {
		return formatValue(v, unit)
	}
	return nf.logTick(v)
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
		l := logTickLabel(v, in.unit, nf)
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
	f.XMinor = minorLog(a, s)
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
