package charts

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func TestLogYTicks(t *testing.T) {
	pts := func(lo, hi float64) []labs.Series {
		return []labs.Series{{Name: "s", Points: []labs.Point{{X: 0, Y: lo}, {X: 1, Y: hi}}}}
	}
	tests := []struct {
		name    string
		lo, hi  float64
		unit    string
		want    []string // every Y tick label, bottom to top
		decades int      // minor gridlines: 8 per decade
	}{
		{"roofline", 0.3, 989, "TFLOP/s", []string{"0.1", "1", "10", "100", "1k"}, 4},
		{"latency to minutes", 120, 210000, "ms", []string{"100 ms", "1 s", "10 s", "100 s", "1000 s"}, 4},
		{"two decades get 2 and 5", 3, 80, "", []string{"1", "2", "5", "10", "20", "50", "100"}, 2},
		{"one value", 40, 40, "ms", []string{"10 ms", "20 ms", "50 ms", "100 ms"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := labs.Chart{ID: "y", Kind: labs.ChartLine, LogY: true, YUnit: tt.unit, Series: pts(tt.lo, tt.hi)}
			v := buildXY(c, viewW)
			var got []string
			for _, tk := range v.YTicks {
				got = append(got, tk.Label)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Y ticks %q, want %q", got, tt.want)
			}
			if len(v.YMinor) != 8*tt.decades {
				t.Errorf("%d minor gridlines, want %d", len(v.YMinor), 8*tt.decades)
			}
			for i := 1; i < len(v.YTicks); i++ {
				if v.YTicks[i].Pos >= v.YTicks[i-1].Pos {
					t.Errorf("tick %q is not above %q", v.YTicks[i].Label, v.YTicks[i-1].Label)
				}
			}
			for _, y := range v.YMinor {
				if y < v.Plot.T-0.01 || y > v.Plot.B+0.01 {
					t.Errorf("minor gridline at %.1f outside the plot [%.1f, %.1f]", y, v.Plot.T, v.Plot.B)
				}
			}
		})
	}
	// Zero and negative values have no place on a log axis: they are left
	// out, not drawn at the bottom edge.
	c := labs.Chart{ID: "y", Kind: labs.ChartScatter, LogY: true,
		Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 1, Y: 0}, {X: 2, Y: -3}, {X: 3, Y: 10}, {X: 4, Y: 100}}}}}
	if n := len(buildXY(c, viewW).Series[0].Dots); n != 2 {
		t.Errorf("%d dots drawn, want the 2 positive ones", n)
	}
}

// The rotated Y title must clear the widest tick label, whatever its length.
func TestYTitleClearsTickLabels(t *testing.T) {
	tests := []struct {
		name string
		c    labs.Chart
	}{
		{"short ms", labs.Chart{Kind: labs.ChartScatter, YLabel: "time to first token", YUnit: "ms",
			Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 1, Y: 34}, {X: 2, Y: 69}}}}}},
		{"long decimals", labs.Chart{Kind: labs.ChartLine, YLabel: "goodput", YUnit: "req/s",
			Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 1, Y: 0.0125}, {X: 2, Y: 0.0875}}}}}},
		{"thousands with a unit", labs.Chart{Kind: labs.ChartArea, YLabel: "Throughput", YUnit: "%",
			Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 1, Y: 12345.5}, {X: 2, Y: 99999}}}}}},
		{"log seconds", labs.Chart{Kind: labs.ChartLine, LogY: true, YLabel: "p95 TTFT", YUnit: "ms",
			Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 1, Y: 90}, {X: 2, Y: 2e6}}}}}},
		{"bars", labs.Chart{Kind: labs.ChartStackedBar, YLabel: "time", YUnit: "ms",
			Bars: []labs.BarGroup{{Label: "a", Segments: []labs.Segment{{Name: "x", Value: 2820}}}}}},
		{"histogram", labs.Chart{Kind: labs.ChartHistogram, YLabel: "requests",
			Hist: &labs.Histogram{Start: 0, BinWidth: 1, Counts: []int{12000, 34000}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f frame
			switch tt.c.Kind {
			case labs.ChartStackedBar:
				f = buildStackedBar(tt.c, viewW).frame
			case labs.ChartHistogram:
				f = buildHistogram(tt.c, viewW).frame
			default:
				f = buildXY(tt.c, viewW).frame
			}
			if f.YTitle == "" {
				t.Fatal("no Y title")
			}
			widest := 0.0
			for _, tk := range f.YTicks {
				widest = math.Max(widest, textWidth(tk.Label, tickSize))
			}
			labelsLeft := f.Plot.L - yTickGap - widest
			if titleRight := f.YTitleX + yTitleDescent; titleRight+2 > labelsLeft {
				t.Errorf("Y title reaches %.1f, tick labels start at %.1f", titleRight, labelsLeft)
			}
			if f.YTitleX-tickSize*0.75 < 0 {
				t.Errorf("Y title at %.1f leaves the viewBox", f.YTitleX)
			}
		})
	}
}

// Mark labels sit in the lane above the plot: never two on top of each
// other, never crossed by another mark's line, never inside the plot.
func TestMarkLaneLabels(t *testing.T) {
	ms := func(ats ...float64) []labs.Mark {
		var out []labs.Mark
		for i, at := range ats {
			out = append(out, labs.Mark{Label: fmt.Sprintf("mark %c", 'a'+i), At: at})
		}
		return out
	}
	tests := []struct {
		name  string
		marks []labs.Mark
		xmax  float64
		rows  int // the most rows the lane may use
	}{
		{"far apart", ms(100, 900), 1000, 1},
		{"two at one place", []labs.Mark{{Label: "caught", At: 535}, {Label: "replaced", At: 535}}, 1200, 2},
		{"moderation", []labs.Mark{{Label: "first word", At: 32.7}, {Label: "unsafe text shown", At: 384}, {Label: "caught", At: 535}, {Label: "replaced", At: 535}}, 1200, 4},
		{"percentiles bunched", []labs.Mark{{Label: "p50", At: 326}, {Label: "mean", At: 377}, {Label: "p95", At: 423}, {Label: "budget", At: 1000}, {Label: "p99", At: 3270}}, 4000, 4},
		{"near the right edge", ms(960, 990, 1000), 1000, 3},
		// Eight labels in a tenth of the axis: no layout of four rows keeps
		// them apart, so they take more rather than print over each other.
		{"crowd", ms(10, 12, 14, 16, 18, 20, 22, 24), 100, 8},
	}
	for _, tt := range tests {
		for _, kind := range []labs.ChartKind{labs.ChartLine, labs.ChartTimeline, labs.ChartHistogram} {
			t.Run(tt.name+"/"+string(kind), func(t *testing.T) {
				c := labs.Chart{ID: "m", Kind: kind, Title: "t", XUnit: "ms", XMax: tt.xmax, Marks: tt.marks,
					Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 0, Y: 0}, {X: tt.xmax, Y: 10}}}},
					Rows:   []labs.SpanRow{{Label: "r", Spans: []labs.Span{{Name: "decode", Start: 0, End: tt.xmax}}}},
					Hist:   &labs.Histogram{Start: 0, BinWidth: tt.xmax / 10, Counts: []int{1, 2, 3}}}
				var f frame
				switch kind {
				case labs.ChartTimeline:
					f = buildTimeline(c, viewW).frame
				case labs.ChartHistogram:
					f = buildHistogram(c, viewW).frame
				default:
					f = buildXY(c, viewW).frame
				}
				if len(f.VMarks) != len(tt.marks) {
					t.Fatalf("%d marks placed, want %d", len(f.VMarks), len(tt.marks))
				}
				rows := map[float64]bool{}
				clean := tt.name != "crowd" // eight lines in a tenth of the axis cannot all stay clear of labels
				for i, a := range f.VMarks {
					rows[a.LY] = true
					al, ar := labelSpan(a)
					if a.LY+2 > f.Plot.T {
						t.Errorf("label %q (baseline %.1f) inside the plot (top %.1f)", a.Label, a.LY, f.Plot.T)
					}
					if a.LY-9 < f.Plot.T-f.Lane-0.01 {
						t.Errorf("label %q above its lane", a.Label)
					}
					if al < -0.5 || ar > viewW+0.5 {
						t.Errorf("label %q spans [%.0f, %.0f], outside the viewBox", a.Label, al, ar)
					}
					if a.Y1 > a.LY-8 || a.Y2 != f.Plot.B {
						t.Errorf("mark %q line %.1f–%.1f does not join its label to the axis", a.Label, a.Y1, a.Y2)
					}
					for j, b := range f.VMarks {
						if i == j {
							continue
						}
						bl, br := labelSpan(b)
						if a.LY == b.LY && al < br && bl < ar {
							t.Errorf("labels %q and %q overlap", a.Label, b.Label)
						}
						if !clean {
							continue
						}
						// b's line runs from its label down; it crosses a's
						// label when it passes a's row inside a's span.
						if b.X > al-1 && b.X < ar+1 && b.Y1 < a.LY+2 {
							t.Errorf("the line of %q crosses label %q", b.Label, a.Label)
						}
					}
				}
				if len(rows) > tt.rows {
					t.Errorf("%d label rows, want at most %d", len(rows), tt.rows)
				}
			})
		}
	}
	// No marks, no lane: the plot keeps its height.
	if f := buildXY(labs.Chart{ID: "n", Kind: labs.ChartLine, Series: []labs.Series{{Name: "s", Points: []labs.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}}}, viewW); f.Lane != 0 {
		t.Errorf("lane of %.1f without marks", f.Lane)
	}
}

// A bar total needs room above its bar: the axis grows when the tallest
// total sits just under the top tick.
func TestStackedBarHeadroom(t *testing.T) {
	tests := []struct {
		name   string
		totals []float64
		ymax   float64
	}{
		{"levers", []float64{2820, 2800, 1270, 480}, 0},
		{"just under a tick", []float64{999, 400}, 0},
		{"exactly a tick", []float64{1000}, 0},
		{"small", []float64{104, 109}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gs []labs.BarGroup
			for i, v := range tt.totals {
				gs = append(gs, labs.BarGroup{Label: fmt.Sprint("g", i), Segments: []labs.Segment{{Name: "a", Value: v * 0.3}, {Name: "b", Value: v * 0.7}}})
			}
			v := buildStackedBar(labs.Chart{ID: "b", Kind: labs.ChartStackedBar, YUnit: "ms", YMax: tt.ymax, Bars: gs}, viewW)
			if len(v.Totals) != len(tt.totals) {
				t.Fatalf("%d totals, want %d", len(v.Totals), len(tt.totals))
			}
			for _, tot := range v.Totals {
				if tot.Y-9 < v.Plot.T-0.01 {
					t.Errorf("total %q (baseline %.1f) above the plot top %.1f", tot.Text, tot.Y, v.Plot.T)
				}
				top := math.Inf(1)
				for _, r := range v.Rects {
					if math.Abs(r.X+r.W/2-tot.X) < 0.1 {
						top = math.Min(top, r.Y)
					}
				}
				if tot.Y > top-3 {
					t.Errorf("total %q at %.1f sits on its bar (top %.1f)", tot.Text, tot.Y, top)
				}
			}
		})
	}
}

func TestTimelineRowGutter(t *testing.T) {
	long := "a row label far too long to fit in any gutter at all"
	tests := []struct {
		labels []string
		cut    bool
	}{
		{[]string{"guardrail", "prompt + gateway", "writing"}, false},
		{[]string{"x", long}, true},
	}
	for _, tt := range tests {
		var rows []labs.SpanRow
		for _, l := range tt.labels {
			rows = append(rows, labs.SpanRow{Label: l, Spans: []labs.Span{{Name: "decode", Start: 0, End: 10}}})
		}
		v := buildTimeline(labs.Chart{ID: "t", Kind: labs.ChartTimeline, Rows: rows}, viewW)
		for _, tk := range v.YTicks {
			if right := pad + textWidth(tk.Label, v.YTickSize); right+6 > v.Plot.L {
				t.Errorf("row label %q ends at %.1f, plot starts at %.1f", tk.Label, right, v.Plot.L)
			}
			if cut := tk.Tip != ""; cut != (tk.Label != tk.Tip && tk.Tip != "") {
				t.Errorf("row %q: tooltip %q", tk.Label, tk.Tip)
			}
			if tk.Tip == long && tk.Label == long {
				t.Errorf("long label not truncated")
			}
		}
		if v.Plot.L > pad+maxRowLabel(viewW)+8.01 {
			t.Errorf("gutter %.1f wider than the cap", v.Plot.L)
		}
		hasTip := slices.ContainsFunc(v.YTicks, func(tk tick) bool { return tk.Tip == long })
		if hasTip != tt.cut {
			t.Errorf("labels %q: tooltip with the full label = %v, want %v", tt.labels, hasTip, tt.cut)
		}
	}
}
