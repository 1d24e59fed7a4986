package charts

import (
	"math"
	"sort"
	"strings"

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
	laneRows   = 4    // rows a clean layout may use; past it labels stack one per row
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

// Costs of a broken rule, for when no layout keeps them all: a line
// through a label leaves both readable (labels carry a halo), two labels
// on top of each other leave neither.
const (
	costLineThrough = 1
	costOverlap     = 10
)

// clash is the cost of the rules two placed labels break: 0 when they
// keep them all, costOverlap when they overlap on a row, costLineThrough
// when one's line runs up through the other's label.
func clash(a, b laneLabel) int {
	aa, ab := a.span()
	ba, bb := b.span()
	if a.row == b.row && aa < bb+laneGap && ba < ab+laneGap {
		return costOverlap
	}
	if math.Abs(a.x-b.x) < 1 {
		return 0 // one line: both labels sit beside it
	}
	if b.x >= aa-4 && b.x <= ab+4 && b.row >= a.row {
		return costLineThrough
	}
	if a.x >= ba-4 && a.x <= bb+4 && a.row >= b.row {
		return costLineThrough
	}
	return 0
}

// laneBounds is where lane labels may go: from lo to hi on the row next
// to the plot and from loAbove on the rows over it, which clear the top Y
// tick label and may use the empty corner above the Y gutter.
type laneBounds struct{ lo, loAbove, hi float64 }

// laneBounds of f: row labels of a timeline sit inside their rows, so the
// whole corner above them is free.
func (f *frame) laneBounds() laneBounds {
	b := laneBounds{lo: f.Plot.L, loAbove: pad, hi: f.W - pad}
	if f.YLeft {
		b.lo = pad
	}
	return b
}

// placeLane assigns each label a side and a row within bounds, using as
// few rows as it can. It returns the number of rows used. A small search
// finds a layout that breaks no rule when one exists within laneRows rows,
// else one where lines may cross labels but labels never overlap;
// otherwise labels stack in as many rows as they need. Labels never
// overlap and never leave the bounds.
func placeLane(ls []laneLabel, bounds laneBounds) int {
	if len(ls) == 0 {
		return 0
	}
	fits := func(l laneLabel) bool {
		a, b := l.span()
		lo := bounds.lo
		if l.row > 0 {
			lo = bounds.loAbove
		}
		return a >= lo-0.5 && b <= bounds.hi+0.5
	}
	// Right to left: a start-side label reaches over marks to its right,
	// which are then already placed.
	order := make([]int, len(ls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return ls[order[i]].x > ls[order[j]].x })

	// First a layout that breaks no rule; failing that, one where lines
	// may run through labels but no two labels overlap, since a label
	// printed over another leaves neither readable.
	for _, worst := range []int{0, costLineThrough} {
		if rows, ok := searchLane(ls, order, fits, worst); ok {
			return rows
		}
	}
	// No layout within laneRows keeps labels apart (two runs' percentiles
	// bunched together, say): stack them, label by label, in the lowest
	// row where one side of the line has room and no label, adding rows
	// as needed. A fresh row above the plot always has room on one side
	// (markLabels cuts each label to that), so no two labels ever overlap
	// and none leaves the chart; the lane grows instead.
	for k, i := range order {
		ls[i] = firstFit(ls[i], ls, order[:k], fits)
	}
	return usedRows(ls)
}

// firstFit is l in the lowest row where it fits within the bounds and
// overlaps none of the placed labels, on the side its line runs through
// fewer of them.
func firstFit(l laneLabel, ls []laneLabel, placed []int, fits func(laneLabel) bool) laneLabel {
	for r := 0; ; r++ {
		best, bestN := laneLabel{}, math.MaxInt
		for _, start := range []bool{true, false} {
			c := laneLabel{x: l.x, w: l.w, start: start, row: r}
			if !fits(c) {
				continue
			}
			n := 0
			for _, j := range placed {
				n += clash(c, ls[j])
			}
			if n < costOverlap && n < bestN {
				best, bestN = c, n
			}
		}
		if bestN < math.MaxInt {
			return best
		}
		if r > len(ls) {
			// Only a label wider than the chart gets here; markLabels
			// never makes one. Keep it on a row of its own.
			return laneLabel{x: l.x, w: l.w, start: true, row: r}
		}
	}
}

// searchLane looks, within laneSearch steps, for a side and a row of each
// label (in order) using as few rows as it can, where no pair of labels
// costs more than worst. It places ls and reports whether it found one.
func searchLane(ls []laneLabel, order []int, fits func(laneLabel) bool, worst int) (int, bool) {
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
					if clash(c, ls[j]) > worst {
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
			return usedRows(ls), true
		}
	}
	return 0, false
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
		// A label fits on one side of its line or the other; past that its
		// name is cut, never its figure, which comes last and matters most.
		room := math.Max(f.W-pad-x-3, x-3-f.laneBounds().loAbove)
		text := fitMarkText(m.Label, full, room)
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
		rows := placeLane(ls, f.laneBounds())
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
	placeLane(ls, f.laneBounds())
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

// fitMarkText is a mark's label text (full, from markText of label) cut to
// room as labelWidth measures it: the mark's name loses its end, the
// figure markText added stays whole.
func fitMarkText(label, full string, room float64) string {
	if labelWidth(full) <= room {
		return full
	}
	name := strings.TrimSpace(label)
	figure, ok := strings.CutPrefix(full, name+" ")
	if !ok || name == "" {
		return truncate(full, room/1.1, labelSize)
	}
	nameRoom := room - labelWidth(" "+figure)
	if nameRoom < labelWidth("p…") {
		return truncate(figure, room/1.1, labelSize)
	}
	return truncate(name, nameRoom/1.1, labelSize) + " " + figure
}
