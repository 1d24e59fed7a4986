package benchmark

import (
	"math"
	"time"
)

// Output is what one request measured, as vLLM's RequestFuncOutput. Times
// are offsets on whatever clock ran the benchmark (virtual or wall).
type Output struct {
	Success bool
	Error   string
	// PromptLen is the dataset's prompt length in tokens.
	PromptLen int
	// OutputTokens is the number of generated tokens (from usage when the
	// server reports it).
	OutputTokens int
	// Start is when the request was sent, from the benchmark start.
	Start time.Duration
	// TTFT is the time from Start to the first token-carrying chunk.
	TTFT time.Duration
	// ITL holds the gaps between consecutive token-carrying chunks.
	ITL []time.Duration
	// Latency is the time from Start to the last chunk (E2EL).
	Latency time.Duration
	Text    string
}

// Result is the outcome of a benchmark, with vLLM's figures.
type Result struct {
	Duration             time.Duration
	Completed            int
	Failed               int
	TotalInput           int
	TotalOutput          int
	RequestThroughput    float64
	OutputThroughput     float64
	TotalTokenThroughput float64
	MaxOutputTokensPerS  float64
	MaxConcurrent        int
	// Percentiles lists the percentiles each Summary carries.
	Percentiles           []float64
	TTFT, TPOT, ITL, E2EL Summary
	// FirstError is the first failed request's error, for the report.
	FirstError string
	// Settings echoed into the JSON as vLLM does.
	NumPrompts     int
	RequestRate    float64
	Burstiness     float64
	MaxConcurrency int
}

// Compute derives the result from per-request outputs and the wall (or
// virtual) duration of the whole run, exactly as vLLM's calculate_metrics:
// TPOT = (E2EL − TTFT) / (output tokens − 1) only for outputs longer than one
// token; ITL pools every chunk gap of every successful request.
func Compute(outs []Output, dur time.Duration, percentiles []float64) Result {
	r := Result{Duration: dur, Percentiles: percentiles}
	var ttfts, tpots, itls, e2els []float64
	for _, o := range outs {
		if !o.Success {
			r.Failed++
			if r.FirstError == "" {
				r.FirstError = o.Error
			}
			continue
		}
		r.Completed++
		r.TotalInput += o.PromptLen
		r.TotalOutput += o.OutputTokens
		if o.OutputTokens > 1 {
			tpots = append(tpots, (o.Latency-o.TTFT).Seconds()/float64(o.OutputTokens-1))
		}
		for _, g := range o.ITL {
			itls = append(itls, g.Seconds())
		}
		ttfts = append(ttfts, o.TTFT.Seconds())
		e2els = append(e2els, o.Latency.Seconds())
	}
	if s := dur.Seconds(); s > 0 {
		r.RequestThroughput = float64(r.Completed) / s
		r.OutputThroughput = float64(r.TotalOutput) / s
		r.TotalTokenThroughput = float64(r.TotalInput+r.TotalOutput) / s
	}
	r.TTFT = summarize(ttfts, percentiles)
	r.TPOT = summarize(tpots, percentiles)
	r.ITL = summarize(itls, percentiles)
	r.E2EL = summarize(e2els, percentiles)
	r.MaxOutputTokensPerS, r.MaxConcurrent = peaks(outs)
	return r
}

// peaks buckets token arrivals and active requests into whole seconds from
// the first start, as vLLM does for "Peak output token throughput".
func peaks(outs []Output) (float64, int) {
	first, last := time.Duration(math.MaxInt64), time.Duration(0)
	for _, o := range outs {
		if o.Success {
			first = min(first, o.Start)
			last = max(last, o.Start+o.Latency)
		}
	}
	if last < first {
		return 0, 0
	}
	n := int(math.Ceil((last - first).Seconds())) + 1
	tokens := make([]float64, n)
	active := make([]int, n)
	for _, o := range outs {
		if !o.Success {
			continue
		}
		t := o.Start + o.TTFT
		times := []time.Duration{t}
		for _, g := range o.ITL {
			t += g
			times = append(times, t)
		}
		for _, tt := range times {
			if b := int((tt - first).Seconds()); b >= 0 && b < n {
				tokens[b]++
			}
		}
		from := int((o.Start - first).Seconds())
		to := min(int((o.Start + o.Latency - first).Seconds()), n-1)
		for s := from; s <= to; s++ {
			active[s]++
		}
	}
	var maxTok float64
	var maxAct int
	for i := range n {
		maxTok = max(maxTok, tokens[i])
		maxAct = max(maxAct, active[i])
	}
	return maxTok, maxAct
}
