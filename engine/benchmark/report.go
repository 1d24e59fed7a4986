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

// metricSpec names one latency metric as vLLM prints and keys it.
type metricSpec struct {
	key, label, header string
	get                func(*Result) Summary
}

var metricSpecs = []metricSpec{
	{"ttft", "TTFT", "Time to First Token", func(r *Result) Summary { return r.TTFT }},
	{"tpot", "TPOT", "Time per Output Token (excl. 1st token)", func(r *Result) Summary { return r.TPOT }},
	{"itl", "ITL", "Inter-token Latency", func(r *Result) Summary { return r.ITL }},
	{"e2el", "E2EL", "End-to-end Latency", func(r *Result) Summary { return r.E2EL }},
}

// percentileWord spells a percentile as vLLM does in keys and labels:
// 99 → "99", 99.9 → "99.9".
func percentileWord(p float64) string {
	return strconv.FormatFloat(p, 'f', -1, 64)
}

// center pads s with c to width n, putting the odd pad on the right like
// Python's "{:c^n}" format that vLLM's banner uses.
func center(s string, c byte, n int) string {
	pad := n - len(s)
	if pad <= 0 {
		return s
	}
	l := pad / 2
	return strings.Repeat(string(c), l) + s + strings.Repeat(string(c), pad-l)
}

// WriteTable prints the result in the layout of vLLM's "Serving Benchmark
// Result" block.
func (r *Result) WriteTable(w io.Writer) error {
	var b bytes.Buffer
	row := func(label string, v any) {
		var s string
		switch x := v.(type) {
		case float64:
			s = strconv.FormatFloat(x, 'f', 2, 64)
		default:
			s = fmt.Sprint(x)
		}
		fmt.Fprintf(&b, "%-40s %s\n", label, s)
	}
	b.WriteString(center(" Serving Benchmark Result ", '=', 50) + "\n")
	row("Successful requests:", r.Completed)
	row("Failed requests:", r.Failed)
	if r.MaxConcurrency > 0 {
		row("Maximum request concurrency:", r.MaxConcurrency)
	}
	if !math.IsInf(r.RequestRate, 1) && r.RequestRate > 0 {
		row("Request rate configured (RPS):", r.RequestRate)
	}
	row("Benchmark duration (s):", r.Duration.Seconds())
	row("Total input tokens:", r.TotalInput)
	row("Total generated tokens:", r.TotalOutput)
	row("Request throughput (req/s):", r.RequestThroughput)
	if len(r.Goodput) > 0 {
		row("Request goodput (req/s):", r.RequestGoodput)
	}
	row("Output token throughput (tok/s):", r.OutputThroughput)
	row("Peak output token throughput (tok/s):", r.MaxOutputTokensPerS)
	row("Peak concurrent requests:", float64(r.MaxConcurrent))
	row("Total Token throughput (tok/s):", r.TotalTokenThroughput)
	for _, m := range metricSpecs {
		s := m.get(r)
		b.WriteString(center(m.header, '-', 50) + "\n")
		row("Mean "+m.label+" (ms):", s.Mean)
		row("Median "+m.label+" (ms):", s.Median)
		for i, p := range r.Percentiles {
			row("P"+percentileWord(p)+" "+m.label+" (ms):", s.Percentiles[i])
		}
	}
	b.WriteString(strings.Repeat("=", 50) + "\n")
	if r.FirstError != "" {
		fmt.Fprintf(&b, "first error: %s\n", r.FirstError)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// kv is one key of the JSON object; the slice keeps vLLM's key order.
type kv struct {
	k string
	v any
}

// MarshalJSON writes the keys `vllm bench serve` saves, in its order:
// settings, totals, throughputs, then mean_/median_/std_/pNN_ for each of
// ttft, tpot, itl and e2el in milliseconds.
func (r *Result) MarshalJSON() ([]byte, error) {
	rate, maxConc := r.traffic()
	pairs := []kv{
		{"num_prompts", r.NumPrompts},
		{"request_rate", rate},
		{"burstiness", r.Burstiness},
		{"max_concurrency", maxConc},
		{"duration", r.Duration.Seconds()},
		{"completed", r.Completed},
		{"failed", r.Failed},
		{"total_input_tokens", r.TotalInput},
		{"total_output_tokens", r.TotalOutput},
		{"request_throughput", r.RequestThroughput},
		{"request_goodput", r.goodputValue()},
		{"output_throughput", r.OutputThroughput},
		{"total_token_throughput", r.TotalTokenThroughput},
		{"max_output_tokens_per_s", r.MaxOutputTokensPerS},
		{"max_concurrent_requests", r.MaxConcurrent},
	}
	pairs = append(pairs, r.metricPairs()...)
	return encodePairs(pairs)
}

// metricPairs are mean_/median_/std_/pNN_ for each of ttft, tpot, itl and
// e2el, in milliseconds.
func (r *Result) metricPairs() []kv {
	var pairs []kv
	for _, m := range metricSpecs {
		s := m.get(r)
		pairs = append(pairs,
			kv{"mean_" + m.key + "_ms", s.Mean},
			kv{"median_" + m.key + "_ms", s.Median},
			kv{"std_" + m.key + "_ms", s.Std})
		for i, p := range r.Percentiles {
			pairs = append(pairs, kv{"p" + percentileWord(p) + "_" + m.key + "_ms", s.Percentiles[i]})
		}
	}
	return pairs
}

// traffic is request_rate and max_concurrency as vLLM saves them: "inf"
// for no pacing, null for no limit.
func (r *Result) traffic() (rate, maxConcurrency any) {
	rate = r.RequestRate
	if math.IsInf(r.RequestRate, 1) {
		rate = "inf"
	}
	if r.MaxConcurrency > 0 {
		maxConcurrency = r.MaxConcurrency
	}
	return rate, maxConcurrency
}

// goodputValue is request_goodput as vLLM saves it: null without
// objectives.
func (r *Result) goodputValue() any {
	if len(r.Goodput) == 0 {
		return nil
	}
	return r.RequestGoodput
}

// WriteJSON writes the result as one indented JSON object.
func (r *Result) WriteJSON(w io.Writer) error {
	raw, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return fmt.Errorf("indent result: %w", err)
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}
