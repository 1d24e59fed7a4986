package openaiapi

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// vLLM's histogram buckets (vllm/v1/metrics/loggers.py), so dashboards
// built for vLLM read this server unchanged.
var (
	ttftBuckets = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
		0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}
	tpotBuckets = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
		0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0}
	e2eBuckets = []float64{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
		40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}
)

// histogram is a cumulative Prometheus histogram.
type histogram struct {
	bounds []float64
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]uint64, len(bounds)+1)}
}

func (h *histogram) observe(v float64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i]++
	h.sum += v
	h.n++
}

// Gauges are the engine's state and counters at scrape time.
type Gauges struct {
	Running          int
	Waiting          int
	KVUsage          float64 // fraction of KV blocks in use
	Preemptions      int64   // cumulative
	PromptTokens     int64   // prompt tokens computed, cumulative
	GenerationTokens int64   // output tokens, cumulative
}

// metrics holds the latency histograms the API layer observes per
// finished request; counters and gauges come from the engine at scrape
// time. It is safe for concurrent use.
type metrics struct {
	mu              sync.Mutex
	ttft, tpot, e2e *histogram
}

func newMetrics() *metrics {
	return &metrics{ttft: newHistogram(ttftBuckets), tpot: newHistogram(tpotBuckets), e2e: newHistogram(e2eBuckets)}
}

// observe records one finished request on engine time: its TTFT, every
// inter-token gap (vLLM's time_per_output_token observes each gap) and its
// end-to-end latency.
func (m *metrics) observe(ttft time.Duration, gaps []time.Duration, e2e time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ttft.observe(ttft.Seconds())
	for _, g := range gaps {
		m.tpot.observe(g.Seconds())
	}
	m.e2e.observe(e2e.Seconds())
}

// write renders the Prometheus text exposition format 0.0.4.
func (m *metrics) write(w io.Writer, model string, g Gauges) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	bw := bufio.NewWriter(w)
	label := `model_name="` + escapeLabel(model) + `"`
	scalar := func(name, typ, help string, v float64) {
		bw.WriteString("# HELP " + name + " " + help + "\n# TYPE " + name + " " + typ + "\n")
		bw.WriteString(name + "{" + label + "} " + fmtFloat(v) + "\n")
	}
	hist := func(name, help string, h *histogram) {
		bw.WriteString("# HELP " + name + " " + help + "\n# TYPE " + name + " histogram\n")
		var cum uint64
		for i, b := range h.bounds {
			cum += h.counts[i]
			bw.WriteString(name + `_bucket{le="` + fmtFloat(b) + `",` + label + "} " + strconv.FormatUint(cum, 10) + "\n")
		}
		bw.WriteString(name + `_bucket{le="+Inf",` + label + "} " + strconv.FormatUint(h.n, 10) + "\n")
		bw.WriteString(name + "_sum{" + label + "} " + fmtFloat(h.sum) + "\n")
		bw.WriteString(name + "_count{" + label + "} " + strconv.FormatUint(h.n, 10) + "\n")
	}
	scalar("vllm:num_requests_running", "gauge", "Number of requests in model execution batches.", float64(g.Running))
	scalar("vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.", float64(g.Waiting))
	scalar("vllm:gpu_cache_usage_perc", "gauge", "GPU KV-cache usage. 1 means 100 percent usage.", g.KVUsage)
	scalar("vllm:num_preemptions_total", "counter", "Cumulative number of preemption from the engine.", float64(g.Preemptions))
	scalar("vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.", float64(g.PromptTokens))
	scalar("vllm:generation_tokens_total", "counter", "Number of generation tokens processed.", float64(g.GenerationTokens))
	hist("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", m.ttft)
	hist("vllm:time_per_output_token_seconds", "Histogram of time per output token in seconds.", m.tpot)
	hist("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", m.e2e)
	return bw.Flush()
}

// fmtFloat writes a sample value as Prometheus clients do: shortest form,
// integers with ".0" so a scraper sees a float either way.
func fmtFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEnN") {
		s += ".0"
	}
	return s
}

// escapeLabel escapes a label value per the text format.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
