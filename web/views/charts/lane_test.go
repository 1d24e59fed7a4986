package charts

import "testing"

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
