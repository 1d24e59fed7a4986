package charts

import (
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
	titleLineH = 17.0 // a wrapped title's second line sits this far down
	titleLines = 2    // a longer title is cut with an ellipsis
	tickSize   = 11.0
	legendSize = 11.0
	labelSize  = 10.5
	lineGap    = 14.0 // legend row height

	waitingNote = "waiting for data"
)

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
	Desc, DescID   string   // the text alternative (see describe) and its element's id
	TitleLines     []string // Title wrapped to the width, drawn a line each; none without a title
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
func newFrame(c labs.Chart, w, h float64, entries []entry, col *colours) frame {
	f := frame{
		ID:     c.ID,
		ClipID: "ch-clip-" + safeID(c.ID, string(c.Kind)),
		Title:  strings.TrimSpace(c.Title),
		W:      w,
		H:      h,

		YTickSize: tickSize,
	}
	f.Aria = ariaLabel(c)
	f.Desc, f.DescID = describe(c), "ch-desc-"+safeID(c.ID, string(c.Kind))
	top := pad
	if f.Title != "" {
		// A title too long for a phone's width wraps rather than runs off
		// the chart.
		f.TitleLines = wrapWords(f.Title, w-2*pad, titleSize*boldScale, titleLines)
		top += 18 + titleLineH*float64(len(f.TitleLines)-1)
	}
	f.Legend, top = placeLegend(entries, col, top, w)
	f.Plot = box{T: top + 6, R: w - pad - 6, B: h - pad - 16}
	f.XTitle = strings.TrimSpace(c.XLabel)
	if f.XTitle != "" {
		f.Plot.B -= 14
	}
	return f
}

// placeLegend flows the entries into rows below y in a chart w wide and
// returns them with the y below the legend.
func placeLegend(entries []entry, col *colours, y, w float64) ([]legendItem, float64) {
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
		name := truncate(e.name, w-2*pad-sw-5, legendSize)
		ew := sw + 5 + textWidth(name, legendSize)
		if x > pad && x+ew > w-pad {
			x = pad
			rowY += lineGap
		}
		out = append(out, legendItem{X: x, Y: rowY, Name: name, Color: col.of(e.name), Kind: e.kind, Dashed: e.dashed})
		x += ew + 14
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

// num formats a coordinate for an attribute: one decimal is finer than a
// device pixel at any sensible size.
func num(v float64) string { return trimNum(v, 1) }
