package charts

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// Marks bunched closer than their labels are wide stack in rows without
// two labels on top of each other, even where no layout keeps every line
// clear of every label: the latency-budget lab's histogram on a phone has
// p50, mean, p95 and p99 within 13 px and the budget 33 px right of them
// (the positions and widths below are that chart's).
func TestPlaceLaneNeverOverlapsLabels(t *testing.T) {
	phone := laneBounds{lo: 52.6, loAbove: 8, hi: 295}
	for _, tc := range []struct {
		name   string
		xs, ws []float64
	}{
		{"budget histogram on a phone", []float64{69.1, 66.9, 72.6, 79.2, 111.7}, []float64{79.5, 68.6, 68.6, 68.6, 61.1}},
		{"three marks on one spot", []float64{200, 200, 200}, []float64{60, 60, 60}},
		{"four in a row, two far", []float64{120, 130, 140, 150, 60, 280}, []float64{66, 66, 66, 66, 40, 50}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := make([]laneLabel, len(tc.xs))
			for i, x := range tc.xs {
				ls[i] = laneLabel{x: x, w: tc.ws[i], start: true}
			}
			rows := placeLane(ls, phone)
			if rows > laneRows {
				t.Errorf("%d rows, want at most %d", rows, laneRows)
			}
			for i := range ls {
				for j := i + 1; j < len(ls); j++ {
					if clash(ls[i], ls[j]) >= costOverlap {
						a0, a1 := ls[i].span()
						b0, b1 := ls[j].span()
						t.Errorf("labels at %.0f (%.0f..%.0f, row %d) and %.0f (%.0f..%.0f, row %d) overlap",
							ls[i].x, a0, a1, ls[i].row, ls[j].x, b0, b1, ls[j].row)
					}
				}
			}
		})
	}
}

// comparedBudgetCharts are the budget lab's two charts as a comparison of
// a run on a server with its twin on the bundled engine draws them (the
// run of QA pass 4: the server's marks near 3 s, the bundled engine's
// bunched near 300 ms), with the long run names, the worst case.
func comparedBudgetCharts() []labs.Chart {
	step := func(at, n float64) []labs.Point {
		return []labs.Point{{X: at - 50, Y: 0}, {X: at - 50, Y: n}, {X: at + 50, Y: n}, {X: at + 50, Y: 0}}
	}
	mark := func(label, run string, at float64) labs.Mark { return labs.Mark{Label: label + " · " + run, At: at} }
	const srv, bun = "that server", "bundled engine"
	hist := labs.Chart{ID: "hist", Kind: labs.ChartArea, Title: "Time to first word, 200 requests (stage times drawn, model time of that server)",
		XUnit: "ms", XLabel: "time to first word", YLabel: "requests",
		Series: []labs.Series{{Name: "count · " + srv, Points: step(3100, 150)}, {Name: "count · " + bun, Points: step(260, 80), Dashed: true}},
		Marks: []labs.Mark{{Label: "budget", At: 1000},
			mark("p50", srv, 3060), mark("mean", srv, 3260), mark("p95", srv, 3100), mark("p99", srv, 3160),
			mark("p50", bun, 241), mark("mean", bun, 264), mark("p95", bun, 323), mark("p99", bun, 425)}}
	var rows []labs.SpanRow
	for _, run := range []string{srv, bun} {
		for i, name := range []string{"guardrail", "history", "retrieval", "order lookup", "prompt + gateway", "first token", "writing"} {
			end := float64(i*30 + 80)
			if name == "writing" {
				end = map[string]float64{srv: 4660, bun: 1200}[run]
			}
			rows = append(rows, labs.SpanRow{Label: name + " · " + run, Spans: []labs.Span{{Name: name, Start: float64(i * 30), End: end}}})
		}
	}
	waterfall := labs.Chart{ID: "waterfall", Kind: labs.ChartTimeline, Title: "One request, stage by stage (live)",
		XUnit: "ms", XLabel: "time since the request arrived", Rows: rows,
		Marks: []labs.Mark{mark("first word", srv, 3070), mark("complete", srv, 4660), mark("first word", bun, 210), mark("complete", bun, 1200)}}
	return []labs.Chart{hist, waterfall}
}

// A compared chart's marks, two runs' worth, keep every label whole
// inside the chart (a cut one keeps its figure) and off every other label,
// at the desktop width and on phones.
func TestComparedMarkLabelsNeverOverlapOrClip(t *testing.T) {
	for _, c := range comparedBudgetCharts() {
		for _, w := range []float64{viewW, 303, minWidth} {
			t.Run(fmt.Sprintf("%s at %.0f", c.ID, w), func(t *testing.T) {
				var marks []vmark
				if c.Kind == labs.ChartTimeline {
					marks = buildTimeline(c, w).VMarks
				} else {
					marks = buildXY(c, w).VMarks
				}
				if len(marks) != len(c.Marks) {
					t.Fatalf("%d marks drawn, want %d", len(marks), len(c.Marks))
				}
				for i, a := range marks {
					al, ar := labelSpan(a)
					if al < pad-0.5 || ar > w-pad+0.5 {
						t.Errorf("label %q spans %.0f..%.0f, outside the %.0f-wide chart", a.Label, al, ar, w)
					}
					if strings.HasSuffix(a.Label, "…") || !regexp.MustCompile(`\d (ms|s)$`).MatchString(a.Label) {
						t.Errorf("label %q lost its figure", a.Label)
					}
					for _, b := range marks[i+1:] {
						bl, br := labelSpan(b)
						if a.LY == b.LY && al < br+2 && bl < ar+2 {
							t.Errorf("labels %q (%.0f..%.0f) and %q (%.0f..%.0f) overlap on one row", a.Label, al, ar, b.Label, bl, br)
						}
					}
				}
			})
		}
	}
}
