package charts

import (
	"math"
	"sort"

	"github.com/latencylab/latencylab/labs"
)

// Mark labels sit in a lane of rows above the plot, never over the data.
// Each mark's dashed line rises from the X axis through the plot into the
// lane, up to its own label, which sits beside it. Labels are staggered so
// that no two overlap and no other mark's line runs through a label: a
// label that reaches over a neighbouring mark goes in a higher row than
// that mark's label, so the neighbour's line ends below it.
const (
	laneRowH   = 12.5 // height of one row of labels
	laneMargin = 4.0  // between the lowest row and the plot
	laneRows   = 4    // at most this many rows; past it labels may touch
	laneGap    = 6.0  // horizontal gap between labels on one row
	laneSearch = 20000
)

// laneLabel is one mark label to place.
type laneLabel struct {
	x, w  float64 // mark position and label width
	start bool    // the label starts right of the line (else ends left of it)
	row   int     // 0 next to the plot, counting up
}

// span is the horizontal extent of the label.
func (l laneLabel) span() (float64, float64) {
	if l.start {
		return l.x + 3, l.x + 3 + l.w
	}
	return l.x - 3 - l.w, l.x - 3
}

// clash reports whether two placed labels break a rule: they overlap on a
// row, or one's line runs up through the other's label.
func clash(a, b laneLabel) bool {
	aa, ab := a.span()
	ba, bb := b.span()
	if a.row == b.row && aa < bb+laneGap && ba < ab+laneGap {
		return true
	}
	if math.Abs(a.x-b.x) < 1 {
		return false // one line: both labels sit beside it
	}
	if b.x >= aa-4 && b.x <= ab+4 && b.row >= a.row {
		return true
	}
	return a.x >= ba-4 && a.x <= bb+4 && a.row >= b.row
}

// placeLane assigns each label a side and a row within [lo, hi], using as
// few rows as it can. It returns the number of rows used. A small search
// finds a layout that breaks no rule when one exists within laneRows rows;
// otherwise each label takes the spot with the fewest clashes.
func placeLane(ls []laneLabel, lo, hi float64) int {
	if len(ls) == 0 {
		return 0
	}
	fits := func(l laneLabel) bool {
		a, b := l.span()
		return a >= lo-0.5 && b <= hi+0.5
	}
	// Right to left: a start-side label reaches over marks to its right,
	// which are then already placed.
	order := make([]int, len(ls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return ls[order[i]].x > ls[order[j]].x })

	budget := laneSearch
	var try func(k, rows int) bool
	try = func(k, rows int) bool {
		if k == len(order) {
			return true
		}
		budget--
		if budget < 0 {
			return false
		}
		i := order[k]
		for r := 0; r < rows; r++ {
			for _, start := range []bool{true, false} {
				c := laneLabel{x: ls[i].x, w: ls[i].w, start: start, row: r}
				if !fits(c) {
					continue
				}
				ok := true
				for _, j := range order[:k] {
					if clash(c, ls[j]) {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				ls[i] = c
				if try(k+1, rows) {
					return true
				}
			}
		}
		return false
	}
	for rows := 1; rows <= laneRows && budget > 0; rows++ {
		if try(0, rows) {
			return usedRows(ls)
		}
	}
	// No clean layout: take, label by label, the spot with fewest clashes.
	for k, i := range order {
		best, bestN := laneLabel{}, math.MaxInt
		for r := 0; r < laneRows; r++ {
			for _, start := range []bool{true, false} {
				c := laneLabel{x: ls[i].x, w: ls[i].w, start: start, row: r}
				n := 0
				if !fits(c) {
					n += 100
				}
				for _, j := range order[:k] {
					if clash(c, ls[j]) {
						n++
					}
				}
				if n < bestN {
					best, bestN = c, n
				}
			}
		}
		ls[i] = best
	}
	return usedRows(ls)
}

func usedRows(ls []laneLabel) int {
	n := 0
	for _, l := range ls {
		n = max(n, l.row+1)
	}
	return n
}

// markLabels are the marks inside the X domain with their label text.
func (f *frame) markLabels(ms []labs.Mark, xs linScale, unit string) ([]laneLabel, []vmark) {
	var ls []laneLabel
	var vs []vmark
	for _, m := range ms {
		if !finite(m.At) || (xs.log && m.At <= 0) {
			continue
		}
		x := xs.pos(m.At)
		if x < f.Plot.L-0.5 || x > f.Plot.R+0.5 {
			continue
		}
		full := markText(m.Label, m.At, unit)
		// A label fits on one side of its line or the other.
		room := math.Max(f.W-pad-x-3, x-3-f.Plot.L)
		text := truncate(full, math.Min(room, f.Plot.w()*0.6), labelSize)
		v := vmark{X: x, Label: text}
		if text != full {
			v.Tip = full
		}
		vs = append(vs, v)
		ls = append(ls, laneLabel{x: x, w: labelWidth(text), start: true})
	}
	return ls, vs
}

// fitWithLane runs fit (which fits the axes to the current plot box and
// returns the X scale), then lowers the plot top until the lane above it
// holds the mark labels, refitting as the box changes. It returns the
// final X scale; placeVMarks then draws the marks in the lane.
func (f *frame) fitWithLane(ms []labs.Mark, unit string, fit func() linScale) linScale {
	xs := fit()
	for range 3 {
		ls, _ := f.markLabels(ms, xs, unit)
		rows := placeLane(ls, f.Plot.L, f.W-pad)
		need := 0.0
		if rows > 0 {
			need = float64(rows)*laneRowH + laneMargin
		}
		if need <= f.Lane {
			break
		}
		f.Plot.T += need - f.Lane
		f.Lane = need
		xs = fit()
	}
	return xs
}

// placeVMarks places the marks' labels in the lane above the plot and
// their lines from each label down to the X axis.
func (f *frame) placeVMarks(ms []labs.Mark, xs linScale, unit string) {
	ls, vs := f.markLabels(ms, xs, unit)
	placeLane(ls, f.Plot.L, f.W-pad)
	for i, l := range ls {
		v := &vs[i]
		v.LY = f.Plot.T - laneMargin - 1 - float64(l.row)*laneRowH
		v.Y1, v.Y2 = v.LY-9, f.Plot.B
		v.LX, v.Anchor = l.x+3, "start"
		if !l.start {
			v.LX, v.Anchor = l.x-3, "end"
		}
	}
	f.VMarks = vs
}
