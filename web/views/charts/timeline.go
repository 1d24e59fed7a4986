package charts

import (
	"math"
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// minRowLabelSize is the smallest row label: on a phone the chart is drawn
// at one pixel per unit, and smaller labels stop being readable; crowded
// rows show every second or third label instead.
const minRowLabelSize = 10.5

// maxRowLabel is the widest row-label gutter of a timeline w wide.
func maxRowLabel(w float64) float64 { return w / 3 }

// timelineView is a Gantt chart ready to draw.
type timelineView struct {
	frame
	Stripes []rectView // shading behind every other row
	Rects   []rectView
}

// buildTimeline lays out one row per SpanRow, top to bottom, with spans
// along the X axis. Rows shrink to fit (up to 64 and beyond), and row labels
// thin out so that the shown ones stay legible.
func buildTimeline(c labs.Chart, w float64) timelineView {
	var names []string
	var entries []entry
	seen := map[string]bool{}
	xe := newExtent()
	hasData := false
	for _, r := range c.Rows {
		for _, s := range r.Spans {
			if !finite(s.Start) || !finite(s.End) || s.End < s.Start {
				continue
			}
			hasData = true
			xe.add(s.Start)
			xe.add(s.End)
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
				if strings.TrimSpace(s.Name) != "" {
					entries = append(entries, entry{name: s.Name})
				}
			}
		}
	}
	for _, m := range c.Marks {
		xe.add(m.At)
	}
	xe = xe.withZero()
	col := newColours(names)
	v := timelineView{frame: newFrame(c, w, timelineH, entries, col)}
	if !hasData {
		v.Note = waitingNote
	}

	// The row-label gutter fits the longest label, up to a third of the
	// width; longer labels are cut with an ellipsis and keep their full
	// text as a tooltip. The size is chosen for the plot height before the
	// mark lane takes its share, so the gutter does not depend on it.
	n := len(c.Rows)
	labelSz := tickSize
	if n > 0 {
		labelSz = math.Min(tickSize, math.Max(minRowLabelSize, v.Plot.h()/float64(n)*0.8))
	}
	maxW := 0.0
	for _, r := range c.Rows {
		maxW = math.Max(maxW, textWidth(r.Label, labelSz))
	}
	maxW = math.Min(maxW, maxRowLabel(v.W))
	v.Plot.L = pad + maxW + 8
	if t := strings.TrimSpace(c.YLabel); t != "" && maxW == 0 {
		v.YTitle = t
		v.YTitleX = yTitleX
		v.Plot.L = yGutter(0, true)
	}
	v.YLeft = true
	xs := v.fitWithLane(c.Marks, c.XUnit, func() linScale {
		return v.fitX(numIn{lo: xe.lo, hi: xe.hi, fixedHi: c.XMax, unit: c.XUnit, label: c.XLabel})
	})

	rowH := v.Plot.h()
	if n > 0 {
		rowH = v.Plot.h() / float64(n)
	}
	every := int(math.Ceil((labelSz + 1.5) / rowH))
	if every < 1 {
		every = 1
	}
	for i, r := range c.Rows {
		cy := v.Plot.T + rowH*(float64(i)+0.5)
		if i%every == 0 && r.Label != "" {
			tk := tick{Pos: cy, Label: truncate(r.Label, maxW, labelSz)}
			if tk.Label != r.Label {
				tk.Tip = r.Label
			}
			v.YTicks = append(v.YTicks, tk)
		}
		if i%2 == 1 {
			v.Stripes = append(v.Stripes, rectView{X: v.Plot.L, Y: v.Plot.T + rowH*float64(i), W: v.Plot.w(), H: rowH})
		}
	}
	barH := math.Max(1, math.Min(rowH*0.72, 18))
	for i, r := range c.Rows {
		cy := v.Plot.T + rowH*(float64(i)+0.5)
		for _, s := range r.Spans {
			if !finite(s.Start) || !finite(s.End) || s.End < s.Start {
				continue
			}
			x0, x1 := xs.pos(s.Start), xs.pos(s.End)
			v.Rects = append(v.Rects, rectView{
				X: x0, Y: cy - barH/2, W: math.Max(x1-x0, 0.8), H: barH, Color: col.of(s.Name),
				Tip: tipName(r.Label, s.Name) + formatValue(s.End-s.Start, c.XUnit) +
					" (" + formatValue(s.Start, c.XUnit) + " → " + formatValue(s.End, c.XUnit) + ")",
			})
		}
	}
	v.placeVMarks(c.Marks, xs, c.XUnit)
	v.YTickSize = labelSz
	return v
}
