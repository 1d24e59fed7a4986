package web

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views/charts"
)

func TestOverlayCharts(t *testing.T) {
	line := func(id string, xmax float64, series ...labs.Series) labs.Chart {
		return labs.Chart{ID: id, Title: id, Kind: labs.ChartLine, XMax: xmax, Series: series}
	}
	pts := func(ys ...float64) []labs.Point {
		out := make([]labs.Point, len(ys))
		for i, y := range ys {
			out[i] = labs.Point{X: float64(i), Y: y}
		}
		return out
	}
	reading := labs.Series{Name: "reading speed", Points: pts(0, 5), Dashed: true}
	a := []labs.Chart{
		line("ttft", 10, labs.Series{Name: "TTFT", Points: pts(1, 2)}, labs.Series{Name: "TPOT", Points: pts(3)}, reading),
		{ID: "hist", Kind: labs.ChartHistogram, Hist: &labs.Histogram{BinWidth: 10, Counts: []int{1, 3}, Marks: []labs.Mark{{Label: "p50", At: 12}}}},
		{ID: "bars", Kind: labs.ChartStackedBar, Bars: []labs.BarGroup{{Label: "req", Segments: []labs.Segment{{Name: "prefill", Value: 1}}}}},
		{ID: "lanes", Kind: labs.ChartTimeline, Rows: []labs.SpanRow{{Label: "r1"}}},
		line("onlyA", 0),
		line("kind", 0),
	}
	b := []labs.Chart{
		line("ttft", 20, labs.Series{Name: "TTFT", Points: pts(2, 4)}, labs.Series{Name: "TPOT", Points: pts(1)}, reading),
		{ID: "hist", Kind: labs.ChartHistogram, Hist: &labs.Histogram{BinWidth: 10, Counts: []int{2}, Marks: []labs.Mark{{Label: "p50", At: 12}}}},
		{ID: "bars", Kind: labs.ChartStackedBar, Bars: []labs.BarGroup{{Label: "req", Segments: []labs.Segment{{Name: "prefill", Value: 2}}}}},
		{ID: "lanes", Kind: labs.ChartTimeline, Rows: []labs.SpanRow{{Label: "r1"}, {Label: "r2"}}},
		{ID: "kind", Kind: labs.ChartScatter},
		line("onlyB", 0),
	}
	shared, onlyA, onlyB := overlayCharts(a, b, "run #1", "run #2")
	if len(shared) != 4 || len(onlyA) != 2 || len(onlyB) != 2 {
		t.Fatalf("shared %d, onlyA %d, onlyB %d; want 4, 2 (onlyA, kind), 2 (kind, onlyB)", len(shared), len(onlyA), len(onlyB))
	}
	tests := []struct {
		name  string
		check func(labs.Chart) bool
	}{
		{"line: both runs' series, suffixed, hue families, second dashed, shared reference once", func(c labs.Chart) bool {
			want := []labs.Series{
				{Name: "TTFT · run #1", Colour: firstRunHues[0]}, {Name: "TPOT · run #1", Colour: firstRunHues[1]},
				{Name: "reading speed", Dashed: true},
				{Name: "TTFT · run #2", Colour: secondRunHues[0], Dashed: true}, {Name: "TPOT · run #2", Colour: secondRunHues[1], Dashed: true},
			}
			if len(c.Series) != len(want) {
				return false
			}
			for i, w := range want {
				s := c.Series[i]
				if s.Name != w.Name || s.Colour != w.Colour || s.Dashed != w.Dashed {
					return false
				}
			}
			return c.XMax == 20
		}},
		{"histogram: two outlines on an area chart, a shared mark once", func(c labs.Chart) bool {
			return c.Kind == labs.ChartArea && c.Hist == nil && len(c.Series) == 2 && len(c.Marks) == 1 &&
				c.Series[0].Name == "count · run #1" && c.Series[1].Dashed && len(c.Series[0].Points) == 6
		}},
		{"stacked bars: each run's groups, labelled", func(c labs.Chart) bool {
			return len(c.Bars) == 2 && c.Bars[0].Label == "req · run #1" && c.Bars[1].Label == "req · run #2"
		}},
		{"timeline: each run's rows, labelled", func(c labs.Chart) bool {
			return len(c.Rows) == 3 && c.Rows[0].Label == "r1 · run #1" && c.Rows[2].Label == "r2 · run #2"
		}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.check(shared[i]) {
				t.Errorf("got %+v", shared[i])
			}
		})
	}
	// The inputs are not changed: the runs' own pages still draw them as saved.
	if a[0].Series[0].Name != "TTFT" || b[0].Series[0].Dashed {
		t.Error("overlayCharts changed its inputs")
	}
}

// TestOverlayDrawsBothRunsOnOneChart renders an overlaid chart with the
// live chart component: one <svg>, both runs' lines in their own colours,
// the second dashed, both in the legend.
func TestOverlayDrawsBothRunsOnOneChart(t *testing.T) {
	mk := func(y float64) []labs.Chart {
		return []labs.Chart{{ID: "c", Title: "TTFT", Kind: labs.ChartLine,
			Series: []labs.Series{{Name: "TTFT", Points: []labs.Point{{X: 0, Y: y}, {X: 1, Y: 2 * y}}}}}}
	}
	shared, _, _ := overlayCharts(mk(1), mk(2), "run #3", "run #5")
	html, err := renderString(context.Background(), charts.Chart(shared[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"TTFT · run #3", "TTFT · run #5", `stroke="` + firstRunHues[0] + `"`, `stroke="` + secondRunHues[0] + `"`, `stroke-dasharray="6 4"`} {
		if !strings.Contains(html, w) {
			t.Errorf("chart lacks %q", w)
		}
	}
	if n := strings.Count(html, "<svg"); n != 1 {
		t.Errorf("%d <svg> elements, want 1", n)
	}
}

// An engine comparison's marks carry short run tags (the legend spells the
// runs out), so two runs' bunched percentiles find room beside their
// lines; a runs comparison's names are short already and stay.
func TestOverlayMarksCarryShortRunTags(t *testing.T) {
	hist := func(p99 float64) labs.Chart {
		return labs.Chart{ID: "h", Kind: labs.ChartHistogram, Hist: &labs.Histogram{Start: 0, BinWidth: 100, Counts: []int{1, 2},
			Marks: []labs.Mark{{Label: "budget", At: 1000}, {Label: "p99", At: p99}}}}
	}
	tests := []struct {
		nameA, nameB string
		want         []labs.Mark
	}{
		{serverRun, bundledRun, []labs.Mark{{Label: "budget", At: 1000}, {Label: "p99 · server", At: 3160}, {Label: "p99 · bundled", At: 425}}},
		{"run #1", "run #2", []labs.Mark{{Label: "budget", At: 1000}, {Label: "p99 · run #1", At: 3160}, {Label: "p99 · run #2", At: 425}}},
	}
	for _, tc := range tests {
		shared, _, _ := overlayCharts([]labs.Chart{hist(3160)}, []labs.Chart{hist(425)}, tc.nameA, tc.nameB)
		if len(shared) != 1 || !slices.Equal(shared[0].Marks, tc.want) {
			t.Errorf("%s vs %s: marks %v, want %v", tc.nameA, tc.nameB, shared[0].Marks, tc.want)
		}
		if names := []string{shared[0].Series[0].Name, shared[0].Series[1].Name}; names[0] != "count · "+tc.nameA || names[1] != "count · "+tc.nameB {
			t.Errorf("legend %q, want the runs' full names", names)
		}
	}
}
