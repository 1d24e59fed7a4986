package charts

import "math"

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
