package charts

import (
	"math"

	"github.com/latencylab/latencylab/labs"
)

// histColour fills histogram bins.
const histColour = "#4e79a7"

// histView is a histogram ready to draw.
type histView struct {
	frame
	Rects []rectView
}

// buildHistogram lays out one bar per bin with the percentile marks behind
// them (a mark line never hides a bin), their labels staggered in the lane
// above the plot so that close percentiles stay readable.
func buildHistogram(c labs.Chart, w float64) histView {
	v := histView{frame: newFrame(c, w, viewH, nil, newColours(nil))}
	h := c.Hist
	valid := h != nil && finite(h.Start) && finite(h.BinWidth) && h.BinWidth > 0
	xe, ye := newExtent(), newExtent()
	ye.add(0)
	total := 0
	if valid {
		xe.add(h.Start)
		xe.add(h.Start + float64(len(h.Counts))*h.BinWidth)
		for _, n := range h.Counts {
			if n > 0 {
				ye.add(float64(n))
				total += n
			}
		}
		for _, m := range h.Marks {
			xe.add(m.At)
		}
	}
	for _, m := range c.Marks {
		xe.add(m.At)
	}
	if xe.empty() {
		xe.add(0)
	}
	ylabel := c.YLabel
	if ylabel == "" {
		ylabel = "count"
	}
	marks := c.Marks
	if valid {
		marks = append(append([]labs.Mark(nil), h.Marks...), c.Marks...)
	}
	var ys linScale
	xs := v.fitWithLane(marks, c.XUnit, func() linScale {
		ys = v.fitY(numIn{lo: ye.lo, hi: ye.hi, fixedHi: c.YMax, unit: c.YUnit, label: ylabel})
		return v.fitX(numIn{lo: xe.lo, hi: xe.hi, fixedHi: c.XMax, unit: c.XUnit, label: c.XLabel})
	})
	if total == 0 {
		v.Note = waitingNote
	}
	if valid {
		for i, n := range h.Counts {
			if n <= 0 {
				continue
			}
			a := h.Start + float64(i)*h.BinWidth
			x0, x1 := xs.pos(a), xs.pos(a+h.BinWidth)
			gap := math.Min(1, (x1-x0)*0.15)
			top := math.Max(ys.pos(float64(n)), v.Plot.T)
			v.Rects = append(v.Rects, rectView{
				X: x0 + gap/2, Y: top, W: math.Max(x1-x0-gap, 0.5), H: ys.pos(0) - top, Color: histColour,
				Tip: formatValue(a, c.XUnit) + " – " + formatValue(a+h.BinWidth, c.XUnit) + ": " + formatValue(float64(n), ""),
			})
		}
	}
	v.placeVMarks(marks, xs, c.XUnit)
	v.placeHLines(c.HLines, ys, c.YUnit)
	return v
}
