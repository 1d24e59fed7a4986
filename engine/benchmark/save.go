package benchmark

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// SaveMeta is the setup `vllm bench serve --save-result` writes ahead of
// the figures.
type SaveMeta struct {
	Date      string // YYYYMMDD-HHMMSS, the caller's local time
	Backend   string // "openai" (completions) or "openai-chat"
	Label     string // "" means Backend
	ModelID   string
	Tokenizer string
}

// WriteSaved writes the result as `vllm bench serve --save-result` saves
// it: the setup keys, then the benchmark's own keys in its order. vLLM
// keeps latencies and queue_times even without --save-detailed; detailed
// adds the per-request lists (input_lens, output_lens, ttfts, itls,
// start_times, generated_texts, errors), times in seconds. outs must be the
// outputs r was computed from, in request order.
func WriteSaved(w io.Writer, meta SaveMeta, r Result, outs []Output, detailed bool) error {
	label := meta.Label
	if label == "" {
		label = meta.Backend
	}
	rate, maxConc := r.traffic()
	pairs := []kv{
		{"date", meta.Date}, {"endpoint_type", meta.Backend}, {"backend", meta.Backend},
		{"label", label}, {"model_id", meta.ModelID}, {"tokenizer_id", meta.Tokenizer},
		{"num_prompts", r.NumPrompts}, {"request_rate", rate}, {"burstiness", r.Burstiness},
		{"max_concurrency", maxConc},
		{"duration", r.Duration.Seconds()}, {"completed", r.Completed}, {"failed", r.Failed},
		{"total_input_tokens", r.TotalInput}, {"total_output_tokens", r.TotalOutput},
		{"request_throughput", r.RequestThroughput}, {"request_goodput", r.goodputValue()},
		{"output_throughput", r.OutputThroughput}, {"total_token_throughput", r.TotalTokenThroughput},
	}
	n := len(outs)
	inLens, outLens, latencies, starts, queues := make([]int, n), make([]int, n), make([]float64, n), make([]float64, n), make([]float64, n)
	ttfts, texts, errs := make([]float64, n), make([]string, n), make([]string, n)
	itls := make([][]float64, n)
	for i, o := range outs {
		inLens[i], outLens[i], texts[i], errs[i] = o.PromptLen, o.OutputTokens, o.Text, o.Error
		latencies[i], starts[i], queues[i], ttfts[i] = o.Latency.Seconds(), o.Start.Seconds(), o.Queue.Seconds(), o.TTFT.Seconds()
		itls[i] = make([]float64, len(o.ITL))
		for k, g := range o.ITL {
			itls[i][k] = g.Seconds()
		}
	}
	if detailed {
		pairs = append(pairs, kv{"input_lens", inLens}, kv{"output_lens", outLens}, kv{"ttfts", ttfts}, kv{"itls", itls})
	}
	pairs = append(pairs, kv{"latencies", latencies})
	if detailed {
		pairs = append(pairs, kv{"start_times", starts})
	}
	pairs = append(pairs, kv{"queue_times", queues})
	if detailed {
		pairs = append(pairs, kv{"generated_texts", texts}, kv{"errors", errs})
	}
	pairs = append(pairs, kv{"max_output_tokens_per_s", r.MaxOutputTokensPerS},
		kv{"max_concurrent_requests", r.MaxConcurrent}, kv{"rtfx", 0.0})
	pairs = append(pairs, r.metricPairs()...)
	raw, err := encodePairs(pairs)
	if err != nil {
		return err
	}
	_, err = w.Write(raw)
	return err
}

// ResultFilename is vLLM's default name for a saved result:
// {label}-{rate}qps[-concurrency{N}]-{model's last path part}-{date}.json,
// the rate spelled as Python prints a float ("inf", "10.0").
func ResultFilename(meta SaveMeta, rate float64, maxConcurrency int) string {
	label := meta.Label
	if label == "" {
		label = meta.Backend
	}
	r := "inf"
	if !math.IsInf(rate, 1) {
		r = strconv.FormatFloat(rate, 'f', -1, 64)
		if !strings.ContainsAny(r, ".e") {
			r += ".0"
		}
	}
	conc := ""
	if maxConcurrency > 0 {
		conc = fmt.Sprintf("-concurrency%d", maxConcurrency)
	}
	model := meta.ModelID[strings.LastIndex(meta.ModelID, "/")+1:]
	return fmt.Sprintf("%s-%sqps%s-%s-%s.json", label, r, conc, model, meta.Date)
}

// encodePairs writes the pairs as one JSON object in their order.
func encodePairs(pairs []kv) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(p.k)
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, fmt.Errorf("result key %s: %w", p.k, err)
		}
		b.Write(k)
		b.WriteString(": ")
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
