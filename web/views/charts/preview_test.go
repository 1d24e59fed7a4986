package charts

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/latencylab/latencylab/labs"
)

// TestPreview writes every example, plus edge cases, into a standalone HTML
// page for a visual check: CHARTS_PREVIEW=/tmp/charts.html go test -run Preview.
// It is skipped unless that variable is set; CHARTS_PREVIEW_ONLY=id,id
// keeps only the charts with those IDs.
func TestPreview(t *testing.T) {
	path := os.Getenv("CHARTS_PREVIEW")
	if path == "" {
		t.Skip("set CHARTS_PREVIEW=/path.html to write a preview page")
	}
	css, err := os.ReadFile("charts.css")
	if err != nil {
		t.Fatal(err)
	}
	cs := append(examples(), previewEdgeCases()...)
	// CHARTS_PREVIEW_ONLY=id,id narrows the page to some charts.
	if only := os.Getenv("CHARTS_PREVIEW_ONLY"); only != "" {
		var kept []labs.Chart
		for _, c := range cs {
			if slices.Contains(strings.Split(only, ","), c.ID) {
				kept = append(kept, c)
			}
		}
		cs = kept
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=utf-8><meta name=viewport content='width=device-width'><style>%s\n%s</style></head><body>", css, previewPageCSS)
	for _, theme := range []string{"light", "dark"} {
		fmt.Fprintf(&b, "<section class=%s><h2>%s</h2><div class=grid>", theme, theme)
		for _, c := range cs {
			if theme == "dark" {
				c.ID += "-dark"
			}
			b.WriteString("<div class=card>")
			if err := Chart(c).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			b.WriteString("</div>")
		}
		b.WriteString("</div></section>")
	}
	b.WriteString("</body></html>")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

const previewPageCSS = `
body{margin:0;font-family:system-ui,sans-serif}
section{padding:12px}
.light{background:#fff;color:#1f2328}
.dark{background:#0d1117;color:#e6edf3;color-scheme:dark}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px}
.card{border:1px solid color-mix(in srgb,currentColor 15%,transparent);border-radius:8px;padding:6px}
h2{margin:0 0 8px;font-size:14px}
`

// previewEdgeCases are the awkward inputs worth looking at.
func previewEdgeCases() []labs.Chart {
	var many []labs.SpanRow
	for i := 0; i < 64; i++ {
		s := float64(i) * 25
		many = append(many, labs.SpanRow{Label: fmt.Sprintf("request %02d", i+1), Spans: []labs.Span{
			{Name: "queued", Start: s, End: s + float64(i%7)*40}, {Name: "prefill", Start: s + float64(i%7)*40, End: s + float64(i%7)*40 + 90},
			{Name: "decode", Start: s + float64(i%7)*40 + 90, End: s + float64(i%7)*40 + 900},
		}})
	}
	// The streaming lab's chart mid-run: fixed axis ends, a series that
	// stops at "now", a reading line and a first-word mark.
	var live []labs.Point
	for t, w := 380.0, 0; t < 1650; t, w = t+37, w+1 {
		live = append(live, labs.Point{X: t, Y: float64(w)})
	}
	var groups []labs.BarGroup
	for i := 0; i < 16; i++ {
		groups = append(groups, labs.BarGroup{Label: fmt.Sprintf("batch size %d", 1<<(i%7)), Segments: []labs.Segment{
			{Name: "queued", Value: float64(i * 30)}, {Name: "prefill", Value: 200 + float64(i%5)*40}, {Name: "decode", Value: 900 + float64(i)*50},
		}})
	}
	var series []labs.Series
	for i, n := range []string{"vLLM H100", "vLLM A100", "SGLang H100", "Ollama L4", "bundled engine", "upstream", "baseline", "with a much longer series name"} {
		var ps []labs.Point
		for x := 0.0; x <= 64; x += 4 {
			ps = append(ps, labs.Point{X: x, Y: float64(i+1) * 40 * math.Log1p(x)})
		}
		series = append(series, labs.Series{Name: n, Points: ps})
	}
	return []labs.Chart{
		{ID: "groups", Title: "Sixteen groups with long labels", Kind: labs.ChartStackedBar, YUnit: "ms", YLabel: "Latency", Bars: groups},
		{ID: "legend", Title: "Eight series: the legend wraps", Kind: labs.ChartLine, XLabel: "Concurrent requests", YLabel: "Throughput", YUnit: "tok/s", Series: series,
			HLines: []labs.Mark{{Label: "SLO", At: 1500}}},
		{ID: "edge", Title: "Marks near the right edge", Kind: labs.ChartHistogram, XUnit: "ms", XLabel: "E2E latency",
			Hist: &labs.Histogram{Start: 0, BinWidth: 100, Counts: []int{3, 20, 40, 22, 9, 4, 2, 1}, Marks: []labs.Mark{{Label: "p50", At: 260}, {Label: "p95", At: 610}, {Label: "p99", At: 760}, {Label: "max", At: 795}}}},
		{ID: "live", Title: "Words the reader can see", Kind: labs.ChartLine,
			XLabel: "Time since the request was sent", XUnit: "ms", YLabel: "Words", YUnit: "words", XMax: 2500, YMax: 137,
			Series: []labs.Series{{Name: "words visible", Points: live}, {Name: "reading speed", Dashed: true, Points: []labs.Point{{X: 380, Y: 0}, {X: 2500, Y: 8.5}}}},
			Marks:  []labs.Mark{{Label: "request sent", At: 0}, {Label: "first word", At: 380}}},
		{ID: "empty", Title: "Waiting (no data yet)", Kind: labs.ChartLine, XLabel: "Time", XUnit: "ms", YLabel: "Tokens", YUnit: "tokens", XMax: 5000},
		{ID: "many", Title: "64 requests", Kind: labs.ChartTimeline, XLabel: "Time", XUnit: "ms", Rows: many},
		{ID: "odd", Title: "Single point, NaN gap, negatives <script>", Kind: labs.ChartLine, XLabel: "Load", YLabel: "Δ latency", YUnit: "ms",
			Series: []labs.Series{
				{Name: "<script>alert(1)</script>", Points: []labs.Point{{X: 1, Y: -20}, {X: 2, Y: 35}, {X: 3, Y: math.NaN()}, {X: 4, Y: 12}, {X: 5, Y: math.Inf(1)}, {X: 6, Y: -8}, {X: 7, Y: 4}}},
				{Name: "one point", Points: []labs.Point{{X: 3, Y: 20}}},
			}},
		// Shapes of the charts the labs drew badly before: a roofline and a
		// sweep spanning decades (log Y), close marks, a total just under
		// a tick, long row labels.
		{ID: "roof", Title: "Roofline (log X and Y)", Kind: labs.ChartLine, LogX: true, LogY: true,
			XLabel: "Arithmetic intensity", XUnit: "FLOPs/byte", YLabel: "Attainable", YUnit: "TFLOP/s",
			Series: []labs.Series{{Name: "roof", Points: roofPoints()}, {Name: "prefill", Points: []labs.Point{{X: 2900, Y: 490}}},
				{Name: "decode", Points: []labs.Point{{X: 1.01, Y: 3}}}},
			Marks: []labs.Mark{{Label: "ridge", At: 295}, {Label: "decode", At: 1.01}}},
		{ID: "sweep", Title: "p95 time to first token against request rate", Kind: labs.ChartLine, LogY: true,
			XLabel: "request rate", XUnit: "req/s", YLabel: "p95 TTFT", YUnit: "ms",
			Series: []labs.Series{
				{Name: "sequential", Points: []labs.Point{{X: 1, Y: 900}, {X: 2, Y: 14000}, {X: 4, Y: 95000}, {X: 8, Y: 210000}}},
				{Name: "static", Points: []labs.Point{{X: 1, Y: 300}, {X: 2, Y: 420}, {X: 4, Y: 2600}, {X: 8, Y: 19000}}},
				{Name: "continuous", Points: []labs.Point{{X: 1, Y: 120}, {X: 2, Y: 140}, {X: 4, Y: 190}, {X: 8, Y: 800}}}},
			HLines: []labs.Mark{{Label: "TTFT limit", At: 500}}},
		{ID: "ragttft", Title: "Time to first token against prompt length", Kind: labs.ChartScatter,
			XLabel: "prompt", XUnit: "tokens", YLabel: "time to first token", YUnit: "ms",
			Series: []labs.Series{{Name: "sweep k = 0, 2, 5, 10, 20 (virtual clock)", Points: []labs.Point{{X: 1150, Y: 34}, {X: 1270, Y: 38}, {X: 1410, Y: 42}, {X: 1700, Y: 51}, {X: 2240, Y: 66.8}}},
				{Name: "fit: ≈ 0 ms + 3.00 ms per 100 tokens", Dashed: true, Points: []labs.Point{{X: 1150, Y: 34.1}, {X: 2240, Y: 66.8}}},
				{Name: "this run (wall clock)", Points: []labs.Point{{X: 2240, Y: 69}}}}},
		{ID: "modmarks", Title: "Generated vs delivered", Kind: labs.ChartLine, XLabel: "Time since the request was sent", XUnit: "ms", YLabel: "Tokens", XMax: 1200,
			Series: []labs.Series{{Name: "tokens generated", Points: []labs.Point{{X: 30, Y: 0}, {X: 750, Y: 93}}}, {Name: "tokens delivered", Points: []labs.Point{{X: 30, Y: 0}, {X: 535, Y: 66}, {X: 750, Y: 66}}}},
			Marks:  []labs.Mark{{Label: "first word", At: 32.7}, {Label: "unsafe text shown", At: 384}, {Label: "caught", At: 535}, {Label: "replaced", At: 535}}},
		{ID: "lbhist", Title: "Time to first word, 200 requests", Kind: labs.ChartHistogram, XLabel: "time to first word", XUnit: "ms", YLabel: "requests",
			Hist: &labs.Histogram{Start: 200, BinWidth: 25, Counts: []int{3, 53, 75, 45, 19, 2}, Marks: []labs.Mark{{Label: "p50", At: 326}, {Label: "mean", At: 377}, {Label: "p95", At: 423}, {Label: "budget", At: 1000}, {Label: "p99", At: 3270}}}, XMax: 4000},
		{ID: "lbwater", Title: "One request, stage by stage", Kind: labs.ChartTimeline, XLabel: "time since the request arrived", XUnit: "ms",
			Rows: []labs.SpanRow{{Label: "guardrail", Spans: []labs.Span{{Name: "guardrail", Start: 0, End: 80}}}, {Label: "retrieval", Spans: []labs.Span{{Name: "retrieval", Start: 120, End: 240}}},
				{Label: "prompt + gateway", Spans: []labs.Span{{Name: "prompt + gateway", Start: 300, End: 370}}}, {Label: "a row label far too long to fit in the gutter", Spans: []labs.Span{{Name: "writing", Start: 397, End: 2700}}}},
			Marks: []labs.Mark{{Label: "first word", At: 397}, {Label: "complete", At: 2700}}},
		{ID: "levers", Title: "First word and total time per lever", Kind: labs.ChartStackedBar, YLabel: "time", YUnit: "ms",
			Bars: []labs.BarGroup{{Label: "Baseline", Segments: []labs.Segment{{Name: "until the first word", Value: 2820}}},
				{Label: "Stream", Segments: []labs.Segment{{Name: "until the first word", Value: 540}, {Name: "rest of the answer", Value: 2260}}},
				{Label: "Cache hit", Segments: []labs.Segment{{Name: "until the first word", Value: 480}}}}},
		{ID: "logx", Title: "Throughput vs concurrency (log X)", Kind: labs.ChartLine, LogX: true, XLabel: "Concurrency", YLabel: "Throughput", YUnit: "tok/s",
			Series: []labs.Series{{Name: "H100", Points: []labs.Point{{X: 1, Y: 90}, {X: 2, Y: 175}, {X: 4, Y: 340}, {X: 8, Y: 650}, {X: 16, Y: 1200}, {X: 32, Y: 2100}, {X: 64, Y: 3300}, {X: 128, Y: 4100}, {X: 256, Y: 4400}}}}},
	}
}

// roofPoints is a roofline with a 3.35 TB/s slope and a 989 TFLOP/s roof.
func roofPoints() []labs.Point {
	var ps []labs.Point
	for x := 0.1; x <= 10000; x *= math.Pow(10, 0.125) {
		ps = append(ps, labs.Point{X: x, Y: math.Min(989, 3.35*x)})
	}
	return ps
}
