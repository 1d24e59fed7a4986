package charts

import (
	"math"
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// rectView is one drawn rectangle (a bar segment, a span or a bin).
type rectView struct {
	X, Y, W, H float64
	Color      string
	Tip        string
}

// textView is one piece of text placed over the data.
type textView struct {
	X, Y   float64
	Text   string
	Anchor string
}

// Slanted category labels: angle in degrees and the longest label drawn.
const (
	slantAngle    = 35.0
	maxSlantLabel = 90.0
)

// barView is a stacked bar chart ready to draw.
type barView struct {
	frame
	Rects  []rectView
	Totals []textView
}

// buildStackedBar lays out one vertical stacked bar per group, segments in
// the given order from the bottom, with the total above each bar. Negative
// and non-finite segments are skipped: stacks show durations and counts.
func buildStackedBar(c labs.Chart, w float64) barView {
	var names []string
	var entries []entry
	seen := map[string]bool{}
	ye := newExtent()
	ye.add(0)
	hasData := false
	maxTotal := 0.0
	for _, g := range c.Bars {
		total := 0.0
		for _, s := range g.Segments {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
				if strings.TrimSpace(s.Name) != "" {
					entries = append(entries, entry{name: s.Name})
				}
			}
			if finite(s.Value) && s.Value > 0 {
				total += s.Value
				hasData = true
			}
		}
		ye.add(total)
		maxTotal = math.Max(maxTotal, total)
	}
	for _, m := range c.HLines {
		ye.add(m.At)
	}
	col := newColours(names)
	v := barView{frame: newFrame(c, w, viewH, entries, col)}
	// Category labels wider than their band are slanted; make room below
	// the plot for the longest one (capped, longer ones are truncated).
	n := len(c.Bars)
	maxLabel := 0.0
	for _, g := range c.Bars {
		maxLabel = math.Max(maxLabel, textWidth(g.Label, tickSize))
	}
	if n > 0 && maxLabel > (w-70)/float64(n)-6 {
		v.XRotate = true
		maxLabel = math.Min(maxLabel, maxSlantLabel)
		v.Plot.B -= maxLabel*math.Sin(slantAngle*math.Pi/180) - 4
	}
	in := numIn{lo: ye.lo, hi: ye.hi, fixedHi: c.YMax, unit: c.YUnit, label: c.YLabel}
	ys := v.fitY(in)
	// Room above the bars only when their totals will be drawn: a total
	// shows when it fits its band.
	shown := n > 0 && labelWidth(formatValue(maxTotal, c.YUnit)) <= v.Plot.w()/float64(n)-2
	if hi := headroomHi(maxTotal, ys, v.Plot.h()); shown && hi > in.hi && !(c.YMax > 0) {
		in.hi = hi
		ys = v.fitY(in)
	}
	if !hasData {
		v.Note = waitingNote
	}
	if n == 0 {
		return v
	}
	band := v.Plot.w() / float64(n)
	barW := math.Min(band*0.62, 64)
	// Category labels: truncate to the band, and when bands are too narrow
	// for even a few characters show every k-th label.
	every := int(math.Ceil(34 / band))
	if v.XRotate {
		// Slanted labels stack at a line height apart along the axis.
		every = int(math.Ceil(tickSize * 1.3 / band))
	}
	if every < 1 {
		every = 1
	}
	for i, g := range c.Bars {
		cx := v.Plot.L + band*(float64(i)+0.5)
		if i%every == 0 {
			maxW := band*float64(every) - 6
			if v.XRotate {
				// A slanted label runs down-left; keep it inside the box.
				maxW = math.Min(maxSlantLabel, (cx-pad)/math.Cos(slantAngle*math.Pi/180))
			}
			v.XTicks = append(v.XTicks, tick{Pos: cx, Label: truncate(g.Label, maxW, tickSize)})
		}
		y, total := ys.pos(0), 0.0
		for _, s := range g.Segments {
			if !finite(s.Value) || s.Value <= 0 {
				continue
			}
			top := ys.pos(total + s.Value)
			// Segments beyond a fixed YMax are cut at the plot edge.
			top = math.Max(top, v.Plot.T)
			if h := y - top; h > 0 {
				v.Rects = append(v.Rects, rectView{
					X: cx - barW/2, Y: top, W: barW, H: h, Color: col.of(s.Name),
					Tip: tipName(g.Label, s.Name) + formatValue(s.Value, c.YUnit),
				})
			}
			y = top
			total += s.Value
		}
		if total > 0 {
			t := formatValue(total, c.YUnit)
			if labelWidth(t) <= band-2 {
				ty := math.Max(y-4, v.Plot.T+9)
				w := labelWidth(t)
				v.occupied = append(v.occupied, box{L: cx - w/2, R: cx + w/2, T: ty - 9, B: ty + 2})
				v.Totals = append(v.Totals, textView{X: cx, Y: ty, Text: t, Anchor: "middle"})
			}
		}
	}
	v.placeHLines(c.HLines, ys, c.YUnit)
	return v
}

// totalRoom is the height a total label needs above its bar.
const totalRoom = 14.0

// headroomHi returns the axis end that leaves totalRoom above the tallest
// total on a zero-based axis of height h, or 0 when ys already does: a
// total drawn over the top of its bar hides the bar's top.
func headroomHi(maxTotal float64, ys linScale, h float64) float64 {
	if !(maxTotal > 0) || h <= 2*totalRoom || ys.pos(maxTotal)-ys.r1 >= totalRoom {
		return 0
	}
	return maxTotal * h / (h - totalRoom)
}

// tipName prefixes a tooltip with the names it is about.
func tipName(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, " · ") + ": "
}
