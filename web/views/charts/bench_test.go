package charts

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// A live lab re-renders its charts on every frame, up to ~30 times a
// second per learner; these measure one render of the heaviest shapes.

func BenchmarkLine6000Points(b *testing.B) {
	var ps []labs.Point
	for i := 0; i < 6000; i++ {
		ps = append(ps, labs.Point{X: float64(i), Y: float64(i % 97)})
	}
	c := labs.Chart{ID: "b", Kind: labs.ChartLine, XUnit: "ms", Series: []labs.Series{{Name: "s", Points: ps}}}
	benchRender(b, c)
}

func BenchmarkTimeline64Rows(b *testing.B) {
	var rows []labs.SpanRow
	for i := 0; i < 64; i++ {
		s := float64(i * 20)
		rows = append(rows, labs.SpanRow{Label: fmt.Sprint("request ", i), Spans: []labs.Span{
			{Name: "queued", Start: s, End: s + 50}, {Name: "prefill", Start: s + 50, End: s + 150}, {Name: "decode", Start: s + 150, End: s + 900},
		}})
	}
	benchRender(b, labs.Chart{ID: "b", Kind: labs.ChartTimeline, XUnit: "ms", Rows: rows})
}

func benchRender(b *testing.B, c labs.Chart) {
	b.ReportAllocs()
	for b.Loop() {
		if err := Chart(c).Render(context.Background(), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
