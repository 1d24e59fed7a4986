package charts

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/latencylab/latencylab/labs"
)

// examples returns one chart of each kind with data shaped like the labs'
// (seeded, so renders are deterministic).
func examples() []labs.Chart {
	rng := rand.New(rand.NewPCG(1, 2))

	// Line: words delivered over time, streamed vs buffered, against reading speed.
	var streamed, buffered, reading []labs.Point
	for t := 0.0; t <= 6000; t += 100 {
		w := 0.0
		if t > 412 {
			w = (t - 412) / 1000 * 28
		}
		streamed = append(streamed, labs.Point{X: t, Y: w})
		b := 0.0
		if t >= 5200 {
			b = (5200 - 412) / 1000 * 28
		}
		buffered = append(buffered, labs.Point{X: t, Y: b})
		reading = append(reading, labs.Point{X: t, Y: t / 1000 * 4})
	}
	line := labs.Chart{
		ID: "words", Title: "Words on screen over time", Kind: labs.ChartLine,
		XLabel: "Time", XUnit: "ms", YLabel: "Words", YUnit: "words",
		Series: []labs.Series{
			{Name: "streamed", Points: streamed},
			{Name: "buffered", Points: buffered},
			{Name: "reading speed", Points: reading, Dashed: true},
		},
		Marks:  []labs.Mark{{Label: "first word", At: 412}, {Label: "full answer", At: 5200}},
		HLines: []labs.Mark{{Label: "answer length", At: 134}},
	}

	// Area: tokens per second over a run.
	var tput []labs.Point
	for t := 0.0; t <= 30; t += 0.5 {
		tput = append(tput, labs.Point{X: t, Y: 1200 + 900*math.Sin(t/5) + rng.Float64()*200})
	}
	area := labs.Chart{
		ID: "tput", Title: "Engine output throughput", Kind: labs.ChartArea,
		XLabel: "Time", XUnit: "s", YLabel: "Throughput", YUnit: "tok/s",
		Series: []labs.Series{{Name: "decode", Points: tput}},
	}

	// Stacked bar: where the time goes, per pipeline variant.
	stack := labs.Chart{
		ID: "budget", Title: "Where the time to first token goes", Kind: labs.ChartStackedBar,
		YLabel: "Time", YUnit: "ms",
		Bars: []labs.BarGroup{
			{Label: "baseline", Segments: []labs.Segment{{Name: "network", Value: 40}, {Name: "queued", Value: 120}, {Name: "prefill", Value: 180}, {Name: "decode", Value: 30}}},
			{Label: "+ RAG", Segments: []labs.Segment{{Name: "network", Value: 40}, {Name: "retrieval", Value: 220}, {Name: "queued", Value: 120}, {Name: "prefill", Value: 420}, {Name: "decode", Value: 30}}},
			{Label: "+ moderation", Segments: []labs.Segment{{Name: "network", Value: 40}, {Name: "retrieval", Value: 220}, {Name: "queued", Value: 120}, {Name: "prefill", Value: 420}, {Name: "moderation", Value: 250}, {Name: "decode", Value: 30}}},
			{Label: "parallel", Segments: []labs.Segment{{Name: "network", Value: 40}, {Name: "retrieval", Value: 220}, {Name: "queued", Value: 60}, {Name: "prefill", Value: 420}, {Name: "decode", Value: 30}}},
		},
		HLines: []labs.Mark{{Label: "budget", At: 800}},
	}

	// Timeline: 24 requests through queue, prefill and decode.
	var rows []labs.SpanRow
	for i := 0; i < 24; i++ {
		arr := float64(i) * 90
		q := arr + rng.Float64()*300
		p := q + 80 + rng.Float64()*120
		d := p + 600 + rng.Float64()*900
		rows = append(rows, labs.SpanRow{Label: fmt.Sprintf("req %d", i+1), Spans: []labs.Span{
			{Name: "queued", Start: arr, End: q}, {Name: "prefill", Start: q, End: p}, {Name: "decode", Start: p, End: d},
		}})
	}
	timeline := labs.Chart{
		ID: "gantt", Title: "Requests through the engine", Kind: labs.ChartTimeline,
		XLabel: "Time", XUnit: "ms", Rows: rows,
	}

	// Histogram: TTFT distribution with close percentiles.
	counts := make([]int, 30)
	var vals []float64
	for i := 0; i < 2000; i++ {
		v := 300 + math.Exp(rng.NormFloat64()*0.5+5)
		vals = append(vals, v)
		if b := int((v - 300) / 25); b >= 0 && b < len(counts) {
			counts[b]++
		}
	}
	hist := labs.Chart{
		ID: "ttft-hist", Title: "Time to first token", Kind: labs.ChartHistogram,
		XLabel: "TTFT", XUnit: "ms", YLabel: "Requests",
		Hist: &labs.Histogram{Start: 300, BinWidth: 25, Counts: counts, Marks: []labs.Mark{
			{Label: "p50", At: 448}, {Label: "mean", At: 471}, {Label: "p95", At: 632}, {Label: "p99", At: 780},
		}},
	}

	// Scatter: batch size vs decode step time with a fitted line.
	var pts, fit []labs.Point
	for i := 0; i < 60; i++ {
		b := float64(1 + rng.IntN(64))
		pts = append(pts, labs.Point{X: b, Y: 14 + 0.35*b + rng.NormFloat64()*1.5})
	}
	fit = []labs.Point{{X: 0, Y: 14}, {X: 64, Y: 14 + 0.35*64}}
	scatter := labs.Chart{
		ID: "steps", Title: "Decode step time vs batch size", Kind: labs.ChartScatter,
		XLabel: "Batch size", XUnit: "requests", YLabel: "Step time", YUnit: "ms",
		Series: []labs.Series{{Name: "measured steps", Points: pts}, {Name: "fit", Points: fit, Dashed: true}},
	}

	return []labs.Chart{line, area, stack, timeline, hist, scatter}
}
