package charts

import (
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// seriesView is one drawn series: a line, an area under a line, or points.
type seriesView struct {
	Name   string
	Color  string
	Line   string // path data of the line; empty for point series
	Area   string // path data of the filled area; empty unless area chart
	Dashed bool
	Dots   []dot
}

// dot is one drawn point; R overrides the chart's radius when > 0.
type dot struct {
	X, Y float64
	R    float64
	Tip  string
}

// radius is the drawn radius of d in a chart whose points have r.
func (d dot) radius(r float64) float64 {
	if d.R > 0 {
		return d.R
	}
	return r
}

// xyView is a line, area or scatter chart ready to draw.
type xyView struct {
	frame
	Series []seriesView
	Radius float64 // of scatter points and isolated line points
}

// buildXY lays out a line, area or scatter chart. In a scatter chart,
// Dashed series are fitted lines and are drawn as lines; the rest are points.
func buildXY(c labs.Chart, w float64) xyView {
	scatter := c.Kind == labs.ChartScatter
	area := c.Kind == labs.ChartArea
	asPoints := func(s labs.Series) bool { return scatter && !s.Dashed }

	var names []string
	var entries []entry
	chosen := map[string]string{}
	for _, s := range c.Series {
		names = append(names, s.Name)
		if s.Colour != "" {
			chosen[s.Name] = s.Colour
		}
		if strings.TrimSpace(s.Name) == "" {
			continue
		}
		e := entry{name: s.Name, kind: swatchLine, dashed: s.Dashed}
		if asPoints(s) || lonePoint(s) {
			e.kind = swatchDot
		}
		entries = append(entries, e)
	}
	col := newColoursWith(names, chosen)

	xe, ye := newExtent(), newExtent()
	hasData := false
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) || (c.LogX && p.X <= 0) || (c.LogY && p.Y <= 0) {
				continue
			}
			hasData = true
			xe.add(p.X)
			ye.add(p.Y)
		}
	}
	for _, m := range c.Marks {
		if !c.LogX || m.At > 0 {
			xe.add(m.At)
		}
	}
	for _, m := range c.HLines {
		if !c.LogY || m.At > 0 {
			ye.add(m.At)
		}
	}
	if !c.LogX {
		xe = xe.withZero()
	}
	if !c.LogY {
		ye = ye.withZero()
	}

	v := xyView{frame: newFrame(c, w, viewH, entries, col), Radius: 2.5}
	if scatter {
		v.Radius = 3
	}
	var ys linScale
	xs := v.fitWithLane(c.Marks, c.XUnit, func() linScale {
		ys = v.fitY(numIn{lo: ye.lo, hi: ye.hi, fixedHi: c.YMax, log: c.LogY, unit: c.YUnit, label: c.YLabel})
		return v.fitX(numIn{lo: xe.lo, hi: xe.hi, fixedHi: c.XMax, log: c.LogX, unit: c.XUnit, label: c.XLabel})
	})
	if !hasData {
		v.Note = waitingNote
	}
	base := ys.pos(clamp(0, ys.d0, ys.d1))
	if ys.log {
		base = ys.r0 // a log axis has no zero: fill to its bottom
	}
	for _, s := range c.Series {
		sv := seriesView{Name: s.Name, Color: col.of(s.Name), Dashed: s.Dashed}
		segs := segments(s.Points, xs, ys)
		if asPoints(s) {
			for _, seg := range segs {
				for _, p := range seg {
					sv.Dots = append(sv.Dots, dot{X: p.x, Y: p.y, Tip: pointTip(s.Name, p.src, c)})
				}
			}
		} else {
			for i := range segs {
				segs[i] = thin(segs[i])
			}
			sv.Line = linePath(segs)
			if area {
				sv.Area = areaPath(segs, base)
			}
			for _, seg := range segs {
				if len(seg) == 1 { // a lone point draws no line; show it, larger
					sv.Dots = append(sv.Dots, dot{X: seg[0].x, Y: seg[0].y, R: 4, Tip: pointTip(s.Name, seg[0].src, c)})
				}
			}
		}
		v.Series = append(v.Series, sv)
	}
	v.placeVMarks(c.Marks, xs, c.XUnit)
	v.placeHLines(c.HLines, ys, c.YUnit)
	return v
}

// pointTip is the hover text of a point.
func pointTip(name string, p labs.Point, c labs.Chart) string {
	s := formatValue(p.X, c.XUnit) + ", " + formatValue(p.Y, c.YUnit)
	if name != "" {
		s = name + ": " + s
	}
	return s
}

func clamp(v, lo, hi float64) float64 {
	if lo > hi {
		lo, hi = hi, lo
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// lonePoint reports whether s has a single drawable point: a line chart
// draws it as a dot, and its legend entry shows a dot too.
func lonePoint(s labs.Series) bool {
	n := 0
	for _, p := range s.Points {
		if finite(p.X) && finite(p.Y) {
			n++
		}
	}
	return n == 1
}
