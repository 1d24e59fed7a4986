package web

import (
	"slices"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views/charts"
)

// Hue families of the two runs of a comparison (the second run's series
// also dashed), so a series keeps its run at a glance. The i-th series
// name of a chart gets the i-th hue in both runs. The chart palette picks
// them so they stay apart for colour-blind readers too.
var firstRunHues, secondRunHues = charts.RunHues()

// overlayCharts pairs the charts of two runs by id. A chart both runs drew
// with the same kind comes back once with both runs' data (shared, in the
// first run's order); the others come back as onlyA and onlyB.
func overlayCharts(a, b []labs.Chart, nameA, nameB string) (shared, onlyA, onlyB []labs.Chart) {
	byID := map[string]labs.Chart{}
	for _, c := range b {
		byID[c.ID] = c
	}
	used := map[string]bool{}
	for _, ca := range a {
		cb, ok := byID[ca.ID]
		if !ok || used[ca.ID] || cb.Kind != ca.Kind {
			onlyA = append(onlyA, ca)
			continue
		}
		used[ca.ID] = true
		shared = append(shared, overlay(ca, cb, nameA, nameB))
	}
	for _, cb := range b {
		if !used[cb.ID] {
			onlyB = append(onlyB, cb)
		}
	}
	return shared, onlyA, onlyB
}

// overlay draws two runs' versions of one chart as one chart.
func overlay(a, b labs.Chart, nameA, nameB string) labs.Chart {
	out := a
	out.XMax, out.YMax = sharedMax(a.XMax, b.XMax), sharedMax(a.YMax, b.YMax)
	out.Marks = mergeMarks(a.Marks, b.Marks, nameA, nameB)
	out.HLines = mergeMarks(a.HLines, b.HLines, nameA, nameB)
	switch a.Kind {
	case labs.ChartLine, labs.ChartArea, labs.ChartScatter:
		out.Series = mergeSeries(a.Series, b.Series, nameA, nameB, a.Kind == labs.ChartScatter)
	case labs.ChartHistogram:
		// Two sets of bars cannot share bins legibly; their outlines can.
		out.Kind, out.Hist = labs.ChartArea, nil
		out.Series = mergeSeries(histOutline(a.Hist), histOutline(b.Hist), nameA, nameB, false)
		out.Marks = mergeMarks(histMarks(a.Hist), histMarks(b.Hist), nameA, nameB)
		if out.YLabel == "" {
			out.YLabel = "count"
		}
	case labs.ChartStackedBar:
		out.Bars = append(suffixBars(a.Bars, nameA), suffixBars(b.Bars, nameB)...)
	case labs.ChartTimeline:
		out.Rows = append(suffixRows(a.Rows, nameA), suffixRows(b.Rows, nameB)...)
	}
	return out
}

// sharedMax keeps a fixed axis end only when both runs fixed one.
func sharedMax(a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	return max(a, b)
}

// mergeSeries suffixes each series with its run and colours it from its
// run's hue family; the second run's lines are dashed (scatter points
// cannot be: a dashed scatter series is a fitted line). A reference series
// identical in both runs (reading speed, say) is drawn once, as it was.
func mergeSeries(a, b []labs.Series, nameA, nameB string, scatter bool) []labs.Series {
	slot := map[string]int{}
	for _, s := range slices.Concat(a, b) {
		if _, ok := slot[s.Name]; !ok {
			slot[s.Name] = len(slot)
		}
	}
	var out []labs.Series
	for _, s := range a {
		if s.Dashed && slices.ContainsFunc(b, func(o labs.Series) bool { return sameSeries(s, o) }) {
			out = append(out, s)
			continue
		}
		i := slot[s.Name]
		s.Name = suffixed(s.Name, nameA)
		s.Colour = firstRunHues[i%len(firstRunHues)]
		out = append(out, s)
	}
	for _, s := range b {
		if s.Dashed && slices.ContainsFunc(a, func(o labs.Series) bool { return sameSeries(s, o) }) {
			continue
		}
		i := slot[s.Name]
		s.Name = suffixed(s.Name, nameB)
		s.Colour = secondRunHues[i%len(secondRunHues)]
		if !scatter {
			s.Dashed = true
		}
		out = append(out, s)
	}
	return out
}

func sameSeries(a, b labs.Series) bool {
	return a.Name == b.Name && a.Dashed == b.Dashed && slices.Equal(a.Points, b.Points)
}

// suffixed names a series, bar or mark after its run: "TTFT · run #3".
func suffixed(name, run string) string { return name + " · " + run }

// The run names of an engine comparison, and the shorter tags its marks
// carry: the legend spells out the run, and a mark label of two runs
// bunched with others' must stay short to find room beside its line.
const (
	serverRun  = "that server"
	bundledRun = "bundled engine"
)

var markTags = map[string]string{serverRun: "server", bundledRun: "bundled"}

// markTag is the name of run on its marks' labels.
func markTag(run string) string {
	if tag, ok := markTags[run]; ok {
		return tag
	}
	return run
}

// mergeMarks keeps a reference line both runs share once, as it was, and
// names the others after their run's mark tag.
func mergeMarks(a, b []labs.Mark, nameA, nameB string) []labs.Mark {
	nameA, nameB = markTag(nameA), markTag(nameB)
	var out []labs.Mark
	for _, m := range a {
		if slices.Contains(b, m) {
			out = append(out, m)
			continue
		}
		out = append(out, labs.Mark{Label: suffixed(m.Label, nameA), At: m.At})
	}
	for _, m := range b {
		if !slices.Contains(a, m) {
			out = append(out, labs.Mark{Label: suffixed(m.Label, nameB), At: m.At})
		}
	}
	return out
}

// histOutline is a histogram as one stepped series over its bins.
func histOutline(h *labs.Histogram) []labs.Series {
	if h == nil || len(h.Counts) == 0 {
		return nil
	}
	pts := make([]labs.Point, 0, 2*len(h.Counts)+2)
	pts = append(pts, labs.Point{X: h.Start, Y: 0})
	for i, n := range h.Counts {
		x0 := h.Start + float64(i)*h.BinWidth
		pts = append(pts, labs.Point{X: x0, Y: float64(n)}, labs.Point{X: x0 + h.BinWidth, Y: float64(n)})
	}
	pts = append(pts, labs.Point{X: h.Start + float64(len(h.Counts))*h.BinWidth, Y: 0})
	return []labs.Series{{Name: "count", Points: pts}}
}

func histMarks(h *labs.Histogram) []labs.Mark {
	if h == nil {
		return nil
	}
	return h.Marks
}

func suffixBars(gs []labs.BarGroup, run string) []labs.BarGroup {
	out := make([]labs.BarGroup, len(gs))
	for i, g := range gs {
		g.Label = suffixed(g.Label, run)
		out[i] = g
	}
	return out
}

func suffixRows(rs []labs.SpanRow, run string) []labs.SpanRow {
	out := make([]labs.SpanRow, len(rs))
	for i, r := range rs {
		r.Label = suffixed(r.Label, run)
		out[i] = r
	}
	return out
}
