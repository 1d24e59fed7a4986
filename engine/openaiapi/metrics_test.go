package openaiapi

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestMetricsExposition(t *testing.T) {
	m := newMetrics()
	m.observe(30*time.Millisecond, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}, 700*time.Millisecond)
	m.observe(2*time.Second, nil, 3*time.Second)
	var b bytes.Buffer
	if err := m.write(&b, `we"ird\name`, Gauges{Running: 3, Waiting: 1, KVUsage: 0.25, Preemptions: 2, PromptTokens: 2048, GenerationTokens: 7}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lbl := `model_name="we\"ird\\name"`
	for _, want := range []string{
		"# HELP vllm:num_requests_running Number of requests in model execution batches.\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{" + lbl + "} 3.0\n",
		"vllm:gpu_cache_usage_perc{" + lbl + "} 0.25\n",
		"vllm:num_preemptions_total{" + lbl + "} 2.0\n",
		"vllm:prompt_tokens_total{" + lbl + "} 2048.0\n",
		// TTFT 0.03 falls in le=0.04; 2 s in le=2.5.
		`vllm:time_to_first_token_seconds_bucket{le="0.02",` + lbl + "} 0\n",
		`vllm:time_to_first_token_seconds_bucket{le="0.04",` + lbl + "} 1\n",
		`vllm:time_to_first_token_seconds_bucket{le="2.5",` + lbl + "} 2\n",
		`vllm:time_to_first_token_seconds_bucket{le="+Inf",` + lbl + "} 2\n",
		"vllm:time_to_first_token_seconds_sum{" + lbl + "} 2.03\n",
		// gaps 0.01 (le=0.01, upper bound inclusive) and 0.02 (le=0.025)
		`vllm:time_per_output_token_seconds_bucket{le="0.01",` + lbl + "} 1\n",
		`vllm:time_per_output_token_seconds_bucket{le="0.025",` + lbl + "} 2\n",
		"vllm:time_per_output_token_seconds_count{" + lbl + "} 2\n",
		`vllm:e2e_request_latency_seconds_bucket{le="0.5",` + lbl + "} 0\n",
		`vllm:e2e_request_latency_seconds_bucket{le="0.8",` + lbl + "} 1\n",
		`vllm:e2e_request_latency_seconds_bucket{le="5.0",` + lbl + "} 2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
	// Every bucket series is cumulative (non-decreasing).
	var prev int
	for line := range strings.SplitSeq(out, "\n") {
		if !strings.Contains(line, "_bucket{") {
			prev = 0
			continue
		}
		var n int
		fields := strings.Fields(line)
		for _, c := range fields[len(fields)-1] {
			n = n*10 + int(c-'0')
		}
		if n < prev {
			t.Fatalf("bucket count decreases at %q", line)
		}
		prev = n
	}
}
