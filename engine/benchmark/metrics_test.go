package benchmark

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*max(1, math.Abs(b)) }

func TestPercentileMatchesNumpy(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, c := range []struct{ p, want float64 }{
		{0, 1}, {50, 2.5}, {99, 3.97}, {100, 4}, {25, 1.75},
	} {
		if got := percentile(xs, c.p); !near(got, c.want) {
			t.Errorf("percentile(%v, %g) = %g, want %g", xs, c.p, got, c.want)
		}
	}
	if got := std([]float64{2, 4, 4, 4, 5, 5, 7, 9}); !near(got, 2) {
		t.Errorf("population std = %g, want 2", got)
	}
	if percentile(nil, 50) != 0 || mean(nil) != 0 || std(nil) != 0 {
		t.Error("empty sample must give 0 as vLLM's np.mean(x or 0)")
	}
}

func TestComputeHandWorked(t *testing.T) {
	cases := []struct {
		name       string
		outs       []Output
		dur        time.Duration
		ps         []float64
		completed  int
		failed     int
		in, out    int
		reqTput    float64
		ttft, tpot Summary
		itl, e2el  Summary
	}{
		{
			name: "one request, three tokens",
			outs: []Output{{Success: true, PromptLen: 10, OutputTokens: 3,
				TTFT: 100 * ms, ITL: []time.Duration{20 * ms, 30 * ms}, Latency: 150 * ms}},
			dur: time.Second, ps: []float64{99},
			completed: 1, in: 10, out: 3, reqTput: 1,
			ttft: Summary{100, 100, 0, []float64{100}},
			// TPOT = (150 − 100) / (3 − 1)
			tpot: Summary{25, 25, 0, []float64{25}},
			// ITL pooled: 20, 30 → mean 25, std 5, p99 = 20 + 10·0.99
			itl:  Summary{25, 25, 5, []float64{29.9}},
			e2el: Summary{150, 150, 0, []float64{150}},
		},
		{
			name: "one-token output has no TPOT, failures excluded",
			outs: []Output{
				{Success: true, PromptLen: 4, OutputTokens: 1, TTFT: 50 * ms, Latency: 50 * ms},
				{Success: true, PromptLen: 6, OutputTokens: 5, TTFT: 10 * ms,
					ITL: []time.Duration{10 * ms, 10 * ms, 10 * ms, 50 * ms}, Latency: 90 * ms},
				{Success: false, Error: "boom", PromptLen: 100},
			},
			dur: 2 * time.Second, ps: []float64{50, 90},
			completed: 2, failed: 1, in: 10, out: 6, reqTput: 1,
			ttft: Summary{30, 30, 20, []float64{30, 46}},
			// only the 5-token request: (90 − 10) / 4
			tpot: Summary{20, 20, 0, []float64{20, 20}},
			// 10,10,10,50: mean 20, std sqrt(300)
			itl:  Summary{20, 10, math.Sqrt(300), []float64{10, 38}},
			e2el: Summary{70, 70, 20, []float64{70, 86}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Compute(c.outs, c.dur, c.ps)
			if r.Completed != c.completed || r.Failed != c.failed || r.TotalInput != c.in || r.TotalOutput != c.out {
				t.Fatalf("counts = %d/%d in %d out %d, want %d/%d in %d out %d",
					r.Completed, r.Failed, r.TotalInput, r.TotalOutput, c.completed, c.failed, c.in, c.out)
			}
			if !near(r.RequestThroughput, c.reqTput) {
				t.Errorf("request throughput %g, want %g", r.RequestThroughput, c.reqTput)
			}
			if want := float64(c.out) / c.dur.Seconds(); !near(r.OutputThroughput, want) {
				t.Errorf("output throughput %g, want %g", r.OutputThroughput, want)
			}
			if want := float64(c.in+c.out) / c.dur.Seconds(); !near(r.TotalTokenThroughput, want) {
				t.Errorf("total throughput %g, want %g", r.TotalTokenThroughput, want)
			}
			for _, m := range []struct {
				name      string
				got, want Summary
			}{{"ttft", r.TTFT, c.ttft}, {"tpot", r.TPOT, c.tpot}, {"itl", r.ITL, c.itl}, {"e2el", r.E2EL, c.e2el}} {
				if !near(m.got.Mean, m.want.Mean) || !near(m.got.Median, m.want.Median) || !near(m.got.Std, m.want.Std) {
					t.Errorf("%s = %+v, want %+v", m.name, m.got, m.want)
				}
				for i := range m.want.Percentiles {
					if !near(m.got.Percentiles[i], m.want.Percentiles[i]) {
						t.Errorf("%s p%g = %g, want %g", m.name, c.ps[i], m.got.Percentiles[i], m.want.Percentiles[i])
					}
				}
			}
		})
	}
}

func TestPeaks(t *testing.T) {
	// Two requests overlapping in second 0; tokens at 0.1, 0.5, 0.9 and 1.2 s.
	overlapping := []Output{
		{Success: true, Start: 0, TTFT: 100 * ms, ITL: []time.Duration{400 * ms, 400 * ms}, Latency: 900 * ms, OutputTokens: 3},
		{Success: true, Start: 500 * ms, TTFT: 700 * ms, Latency: 700 * ms, OutputTokens: 1},
	}
	// Starting late: seconds count from the first start, not from zero, and
	// a failed request counts for neither peak.
	late := []Output{
		{Success: true, Start: 2700 * ms, TTFT: 200 * ms, ITL: []time.Duration{200 * ms, 200 * ms}, Latency: 600 * ms, OutputTokens: 3},
		{Success: false, Start: 0, Error: "boom"},
		{Success: true, Start: 3000 * ms, TTFT: 100 * ms, Latency: 3500 * ms, ITL: []time.Duration{3400 * ms}, OutputTokens: 2},
	}
	cases := []struct {
		name string
		outs []Output
		tok  float64
		conc int
	}{
		{"overlapping", overlapping, 3, 2},
		{"overlapping in reverse", []Output{overlapping[1], overlapping[0]}, 3, 2},
		{"late start", late, 4, 2},
		{"none succeeded", []Output{{Error: "x"}}, 0, 0},
	}
	for _, c := range cases {
		r := Compute(c.outs, time.Second, nil)
		if r.MaxOutputTokensPerS != c.tok || r.MaxConcurrent != c.conc {
			t.Errorf("%s: peaks = %g tok/s, %d concurrent; want %g, %d", c.name, r.MaxOutputTokensPerS, r.MaxConcurrent, c.tok, c.conc)
		}
	}
}

func TestReportKeysAndTable(t *testing.T) {
	r := Compute([]Output{{Success: true, PromptLen: 8, OutputTokens: 2, TTFT: 10 * ms,
		ITL: []time.Duration{5 * ms}, Latency: 15 * ms}}, time.Second, []float64{50, 99.9})
	r.RequestRate = math.Inf(1)
	r.Burstiness = 1
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js.Bytes(), &m); err != nil {
		t.Fatalf("json: %v\n%s", err, js.String())
	}
	for _, k := range []string{"duration", "completed", "total_input_tokens", "total_output_tokens",
		"request_throughput", "output_throughput", "total_token_throughput",
		"mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p50_ttft_ms", "p99.9_ttft_ms",
		"mean_tpot_ms", "p50_tpot_ms", "mean_itl_ms", "p99.9_itl_ms", "mean_e2el_ms", "p99.9_e2el_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("json lacks %q", k)
		}
	}
	if m["request_rate"] != "inf" || m["mean_ttft_ms"] != 10.0 || m["mean_tpot_ms"] != 5.0 {
		t.Errorf("json values: rate %v ttft %v tpot %v", m["request_rate"], m["mean_ttft_ms"], m["mean_tpot_ms"])
	}
	var tb bytes.Buffer
	if err := r.WriteTable(&tb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(tb.String(), "\n")
	if lines[0] != "============ Serving Benchmark Result ============" {
		t.Errorf("banner %q", lines[0])
	}
	for _, want := range []string{"Successful requests:                     1", "Mean TTFT (ms):                          10.00",
		"P99.9 ITL (ms):", "-----Time per Output Token (excl. 1st token)------"} {
		if !strings.Contains(tb.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tb.String())
		}
	}
}
