package benchmark

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"
)

// The saved file has the keys of `vllm bench serve --save-result`, in its
// order, and --save-detailed adds the per-request lists.
func TestWriteSavedHasVLLMKeys(t *testing.T) {
	outs := []Output{
		{Success: true, PromptLen: 8, OutputTokens: 3, Start: 0, TTFT: 20 * ms, ITL: []time.Duration{10 * ms, 10 * ms}, Latency: 40 * ms, Text: "a b c"},
		{Success: false, PromptLen: 8, Error: "boom", Queue: 5 * ms},
	}
	r := ComputeGoodput(outs, time.Second, []float64{99}, Goodput{"ttft": 50})
	r.NumPrompts, r.RequestRate, r.Burstiness = 2, math.Inf(1), 1
	meta := SaveMeta{Date: "20261203-081500", Backend: "openai", ModelID: "org/llama", Tokenizer: "org/llama"}
	head := []string{"date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts",
		"request_rate", "burstiness", "max_concurrency", "duration", "completed", "failed", "total_input_tokens",
		"total_output_tokens", "request_throughput", "request_goodput", "output_throughput", "total_token_throughput"}
	tail := []string{"max_output_tokens_per_s", "max_concurrent_requests", "rtfx", "mean_ttft_ms", "median_ttft_ms",
		"std_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p99_tpot_ms", "mean_itl_ms",
		"median_itl_ms", "std_itl_ms", "p99_itl_ms", "mean_e2el_ms", "median_e2el_ms", "std_e2el_ms", "p99_e2el_ms"}
	for _, c := range []struct {
		detailed bool
		middle   []string
	}{
		{false, []string{"latencies", "queue_times"}},
		{true, []string{"input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times", "queue_times", "generated_texts", "errors"}},
	} {
		var b bytes.Buffer
		if err := WriteSaved(&b, meta, r, outs, c.detailed); err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(head, c.middle, tail)
		if got := keysInOrder(t, b.Bytes()); !slices.Equal(got, want) {
			t.Errorf("detailed=%v keys\n got %v\nwant %v", c.detailed, got, want)
		}
		var m map[string]any
		_ = json.Unmarshal(b.Bytes(), &m)
		if m["request_goodput"] != 1.0 || m["label"] != "openai" || m["request_rate"] != "inf" || m["max_concurrency"] != nil {
			t.Errorf("values: goodput %v label %v rate %v conc %v", m["request_goodput"], m["label"], m["request_rate"], m["max_concurrency"])
		}
		if c.detailed && (m["ttfts"].([]any)[0] != 0.02 || m["itls"].([]any)[0].([]any)[1] != 0.01 || m["errors"].([]any)[1] != "boom") {
			t.Errorf("per-request lists: ttfts %v itls %v errors %v", m["ttfts"], m["itls"], m["errors"])
		}
	}
	for _, c := range []struct {
		rate float64
		conc int
		want string
	}{
		{math.Inf(1), 0, "openai-infqps-llama-20261203-081500.json"},
		{10, 32, "openai-10.0qps-concurrency32-llama-20261203-081500.json"},
		{2.5, 0, "openai-2.5qps-llama-20261203-081500.json"},
	} {
		if got := ResultFilename(meta, c.rate, c.conc); got != c.want {
			t.Errorf("filename %q, want %q", got, c.want)
		}
	}
}

// keysInOrder lists a JSON object's top-level keys as written.
func keysInOrder(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
