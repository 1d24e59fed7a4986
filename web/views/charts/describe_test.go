package charts

import (
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

func TestDescribe(t *testing.T) {
	ex := examples()
	var many []labs.Series
	for i := 0; i < listCap+3; i++ {
		many = append(many, labs.Series{Name: "s", Points: []labs.Point{{X: 0, Y: 1}}})
	}
	for _, c := range []struct {
		name  string
		chart labs.Chart
		want  []string // substrings, in this order
	}{
		{"line: axes, each series' range, marks", ex[0], []string{
			"Across: time (ms).", "Up: words.",
			"streamed: 61 points, from 0 words to 156 words, over 0 ms to 6 s.",
			"reading speed (dashed): 61 points",
			"Marked: first word 412 ms; full answer 5.2 s; answer length 134 words.",
		}},
		{"area: a unit the label lacks goes in brackets", ex[1], []string{"Across: time (s).", "Up: throughput (tok/s).", "decode: 61 points"}},
		{"stacked bar: totals and parts, no X axis", ex[2], []string{
			"Up: time (ms).", "baseline: 370 ms in all; network 40 ms, queued 120 ms, prefill 180 ms, decode 30 ms.",
			"+ moderation: 1.08 s in all", "Marked: budget 800 ms.",
		}},
		{"timeline: rows, extent, time per kind of span", ex[3], []string{"Across: time (ms).", "24 rows from 0 ms to ", "Time in queued: ", " over 24 spans.", "Time in decode: "}},
		{"histogram: samples, bins, percentiles", ex[4], []string{"Across: ttft (ms).", "Up: requests.", " samples in 30 bins from 300 ms to 1.05 s.", "Marked: p50 448 ms; mean 471 ms; p95 632 ms; p99 780 ms."}},
		{"scatter: dashed fit", ex[5], []string{"Across: batch size (requests).", "Up: step time (ms).", "measured steps: 60 points", "fit (dashed): 2 points, from 14 ms to 36.4 ms, over 0 requests to 64 requests."}},
		{"empty chart says so", labs.Chart{Kind: labs.ChartLine, Title: "Waiting"}, []string{"No data yet."}},
		{"a series with no finite points", labs.Chart{Kind: labs.ChartLine, Series: []labs.Series{{Name: "a"}}}, []string{"a: no points yet."}},
		{"long lists are cut", labs.Chart{Kind: labs.ChartLine, Series: many}, []string{"And 3 more series."}},
		{"one of a thing is singular", labs.Chart{Kind: labs.ChartStackedBar, Bars: []labs.BarGroup{{Segments: []labs.Segment{{Value: 2}}}}}, []string{"bar 1: 2 in all."}},
		{"unknown kind has no data", labs.Chart{Kind: "pie"}, []string{"No data yet."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := describe(c.chart)
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("describe = %q\nlacks (in order) %q", got, w)
				}
				rest = rest[i+len(w):]
			}
			for _, bad := range []string{"NaN", "Inf", "  "} {
				if strings.Contains(got, bad) {
					t.Errorf("describe = %q contains %q", got, bad)
				}
			}
		})
	}
}
