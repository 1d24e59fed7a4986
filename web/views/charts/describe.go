package charts

import (
	"math"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/labs"
)

// listCap is how many series, bars or span kinds a description names
// before it sums up the rest: enough to read the chart, short enough to
// listen to.
const listCap = 8

// describe is the chart's text alternative for screen readers (the SVG's
// <desc>): what the axes measure, then a summary of the data the run put
// on the chart — each series' range, each bar's total, what a timeline's
// rows spent their time on, a histogram's sample count — and the labelled
// reference lines. Every figure comes from c, so it is the run's.
func describe(c labs.Chart) string {
	var parts []string
	if a := axesText(c); a != "" {
		parts = append(parts, a)
	}
	var data []string
	switch c.Kind {
	case labs.ChartLine, labs.ChartArea, labs.ChartScatter:
		data = describeSeries(c)
	case labs.ChartStackedBar:
		data = describeBars(c)
	case labs.ChartTimeline:
		data = describeRows(c)
	case labs.ChartHistogram:
		data = describeHist(c)
	}
	if len(data) == 0 {
		data = []string{"No data yet."}
	}
	parts = append(parts, data...)
	if m := marksText(c); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, " ")
}

// axesText names what each axis measures, e.g. "Across: time (ms). Up:
// words." A bar chart's horizontal axis holds its categories.
func axesText(c labs.Chart) string {
	var s []string
	if x := axisName(c.XLabel, c.XUnit); x != "" && c.Kind != labs.ChartStackedBar {
		s = append(s, "Across: "+x+".")
	}
	if y := axisName(c.YLabel, c.YUnit); y != "" && c.Kind != labs.ChartTimeline {
		s = append(s, "Up: "+y+".")
	}
	return strings.Join(s, " ")
}

// axisName is an axis label with its unit, unless the label names it.
func axisName(label, unit string) string {
	label, unit = strings.TrimSpace(label), strings.TrimSpace(unit)
	switch {
	case unit == "" || strings.Contains(strings.ToLower(label), strings.ToLower(unit)):
		return strings.ToLower(label)
	case label == "":
		return unit
	}
	return strings.ToLower(label) + " (" + unit + ")"
}

// describeSeries gives each series its number of points and the range of
// its values over the range of X, e.g. "streamed: 61 points, from 0 to
// 134 words, over 0 ms to 6 s."
func describeSeries(c labs.Chart) []string {
	var out []string
	for i, s := range c.Series {
		if i == listCap {
			out = append(out, "And "+strconv.Itoa(len(c.Series)-listCap)+" more series.")
			break
		}
		name := orName(s.Name, "series "+strconv.Itoa(i+1))
		if s.Dashed {
			name += " (dashed)"
		}
		xlo, xhi, ylo, yhi, n := pointRange(s.Points)
		if n == 0 {
			out = append(out, name+": no points yet.")
			continue
		}
		out = append(out, name+": "+labs.Count(n, "point")+", from "+formatValue(ylo, c.YUnit)+" to "+formatValue(yhi, c.YUnit)+
			", over "+formatValue(xlo, c.XUnit)+" to "+formatValue(xhi, c.XUnit)+".")
	}
	return out
}

// pointRange is the extent of the finite points and how many there are.
func pointRange(ps []labs.Point) (xlo, xhi, ylo, yhi float64, n int) {
	xlo, ylo = math.Inf(1), math.Inf(1)
	xhi, yhi = math.Inf(-1), math.Inf(-1)
	for _, p := range ps {
		if !finite(p.X) || !finite(p.Y) {
			continue
		}
		n++
		xlo, xhi = math.Min(xlo, p.X), math.Max(xhi, p.X)
		ylo, yhi = math.Min(ylo, p.Y), math.Max(yhi, p.Y)
	}
	return xlo, xhi, ylo, yhi, n
}

// describeBars gives each bar its total and its parts, e.g. "baseline:
// 370 ms in all; network 40 ms, queued 120 ms."
func describeBars(c labs.Chart) []string {
	var out []string
	for i, g := range c.Bars {
		if i == listCap {
			out = append(out, "And "+labs.Count(len(c.Bars)-listCap, "more bar")+".")
			break
		}
		total := 0.0
		var segs []string
		for _, s := range g.Segments {
			if !finite(s.Value) {
				continue
			}
			total += s.Value
			segs = append(segs, orName(s.Name, "part")+" "+formatValue(s.Value, c.YUnit))
		}
		line := orName(g.Label, "bar "+strconv.Itoa(i+1)) + ": " + formatValue(total, c.YUnit) + " in all"
		if len(segs) > 1 {
			line += "; " + strings.Join(segs, ", ")
		}
		out = append(out, line+".")
	}
	return out
}

// describeRows sums a timeline: how many rows, when the first span starts
// and the last ends, and the time spent in each kind of span, e.g. "32
// rows from 0 ms to 4.2 s. Time in queued: 1.1 s over 32 spans."
func describeRows(c labs.Chart) []string {
	type kind struct {
		name  string
		total float64
		n     int
	}
	var kinds []*kind
	byName := map[string]*kind{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range c.Rows {
		for _, s := range r.Spans {
			if !finite(s.Start) || !finite(s.End) {
				continue
			}
			lo, hi = math.Min(lo, s.Start), math.Max(hi, s.End)
			k := byName[s.Name]
			if k == nil {
				k = &kind{name: orName(s.Name, "unnamed")}
				byName[s.Name] = k
				kinds = append(kinds, k)
			}
			k.total += s.End - s.Start
			k.n++
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	out := []string{labs.Count(len(c.Rows), "row") + " from " + formatValue(lo, c.XUnit) + " to " + formatValue(hi, c.XUnit) + "."}
	for i, k := range kinds {
		if i == listCap {
			out = append(out, "And "+labs.Count(len(kinds)-listCap, "more kind")+" of span.")
			break
		}
		out = append(out, "Time in "+k.name+": "+formatValue(k.total, c.XUnit)+" over "+labs.Count(k.n, "span")+".")
	}
	return out
}

// describeHist counts the samples and gives the range the bins cover.
func describeHist(c labs.Chart) []string {
	h := c.Hist
	if h == nil || len(h.Counts) == 0 {
		return nil
	}
	total := 0
	for _, n := range h.Counts {
		total += n
	}
	end := h.Start + h.BinWidth*float64(len(h.Counts))
	return []string{labs.Count(total, "sample") + " in " + labs.Count(len(h.Counts), "bin") + " from " +
		formatValue(h.Start, c.XUnit) + " to " + formatValue(end, c.XUnit) + "."}
}

// marksText lists the labelled reference lines: percentiles, "first
// word", budgets.
func marksText(c labs.Chart) string {
	var ms []string
	add := func(marks []labs.Mark, unit string) {
		for _, m := range marks {
			if finite(m.At) {
				ms = append(ms, markText(m.Label, m.At, unit))
			}
		}
	}
	add(c.Marks, c.XUnit)
	if c.Hist != nil {
		add(c.Hist.Marks, c.XUnit)
	}
	add(c.HLines, c.YUnit)
	if len(ms) == 0 {
		return ""
	}
	return "Marked: " + strings.Join(ms, "; ") + "."
}

// orName is name trimmed, or fallback when it is empty.
func orName(name, fallback string) string {
	if name = strings.TrimSpace(name); name != "" {
		return name
	}
	return fallback
}
