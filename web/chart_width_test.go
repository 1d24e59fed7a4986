package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/web/views/charts"
)

// The width a page sends with a run sets the charts' layout; anything
// odd falls back to the default, never fails the run.
func TestChartContextFollowsTheMeasuredWidth(t *testing.T) {
	c := labs.Chart{ID: "ttft", Kind: labs.ChartLine, Title: "TTFT",
		Series: []labs.Series{{Name: "a", Points: []labs.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}}}
	for _, tc := range []struct {
		name string
		raw  json.RawMessage
		want string
	}{
		{"phone", json.RawMessage(`360`), `viewBox="0 0 334 `},
		{"desktop", json.RawMessage(`900`), `viewBox="0 0 440 `},
		{"not sent", nil, `viewBox="0 0 440 `},
		{"zero (never measured)", json.RawMessage(`0`), `viewBox="0 0 440 `},
		{"not a number", json.RawMessage(`"wide"`), `viewBox="0 0 440 `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := charts.Chart(c).Render(chartContext(context.Background(), tc.raw), &b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("chart %.120q, want %s", b.String(), tc.want)
			}
		})
	}
}
