package charts

import (
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func TestSeriesColourChosenByData(t *testing.T) {
	tests := []struct {
		name   string
		colour string
		want   string
	}{
		{"a #rrggbb colour is used", "#123abc", "#123abc"},
		{"anything else is ignored for the name's own colour", "red;stroke:url(x)", newColours([]string{"decode"}).of("decode")},
		{"empty picks by name", "", newColours([]string{"decode"}).of("decode")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := buildXY(labs.Chart{Kind: labs.ChartLine, Series: []labs.Series{
				{Name: "decode", Colour: tc.colour, Points: []labs.Point{{X: 0, Y: 1}, {X: 1, Y: 2}}}}}, viewW)
			if got := v.Series[0].Color; got != tc.want {
				t.Errorf("series colour %q, want %q", got, tc.want)
			}
			if got := v.Legend[0].Color; got != tc.want {
				t.Errorf("legend colour %q, want %q", got, tc.want)
			}
		})
	}
}
