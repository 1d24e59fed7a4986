package views

import (
	"context"
	"strings"
	"testing"
)

// TestMockChartMarksPartialMocks: a mock whose open answers wait for ticks
// is drawn hollow and read out as "so far"; a finished one is filled.
func TestMockChartMarksPartialMocks(t *testing.T) {
	tests := []struct {
		name      string
		point     MockPoint
		want, not []string
	}{
		{"finished", MockPoint{Label: "1 Mar 09:00", Percent: 63},
			[]string{`fill="#9aa5c4"`, "<title>1 Mar 09:00: 63%</title>", "1 Mar 09:00 63%,"}, []string{`class="partial"`, "so far"}},
		{"waiting for ticks", MockPoint{Label: "2 Mar 09:00", Percent: 80, Partial: true, Current: true},
			[]string{`class="partial"`, `fill="none"`, `stroke="#3b5bdb"`, "80% so far, open answers still to tick", "2 Mar 09:00 80% so far"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			other := MockPoint{Label: "0 Mar", Percent: 10}
			if err := mockChart([]MockPoint{tt.point, other}).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			svg := b.String()
			for _, w := range tt.want {
				if !strings.Contains(svg, w) {
					t.Errorf("chart lacks %q:\n%s", w, svg)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(svg, n) {
					t.Errorf("chart has %q:\n%s", n, svg)
				}
			}
		})
	}
}
