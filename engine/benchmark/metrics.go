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
	// Queue is how long the request waited for a --max-concurrency slot
	// before it was sent (vLLM's client_queue_time).
	Queue time.Duration
	// TTFT is the time from Start to the first token-carrying chunk.
	TTFT time.Duration
	// ITL holds the gaps between consecutive token-carrying chunks.
	ITL []time.Duration
	// Latency is the time from Start to the last chunk (E2EL).
	Latency time.Duration
	Text    string
	// FinishReason is the server's: "stop" on a request that asked for
	// more tokens means the server ended the answer early (Ollama does not
	// honour ignore_eos).
	FinishReason string
}

// Result is the outcome of a benchmark, with vLLM's figures.
type Result struct {
	Duration          time.Duration
	Completed         int
	Failed            int
	TotalInput        int
	TotalOutput       int
	RequestThroughput float64
	// RequestGoodput is completed requests meeting Goodput per second;
	// reported only when Goodput names an objective.
	RequestGoodput       float64
	Goodput              Goodput
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
	return ComputeGoodput(outs, dur, percentiles, nil)
}

// ComputeGoodput is Compute that also counts request goodput against g.
func ComputeGoodput(outs []Output, dur time.Duration, percentiles []float64, g Goodput) Result {
	first := time.Duration(math.MaxInt64)
	for i := range outs {
		if outs[i].Success {
			first = min(first, outs[i].Start)
		}
	}
	c := NewCollector(percentiles, first)
	c.CountGoodput(g)
	for i := range outs {
		c.Add(&outs[i])
	}
	return c.Result(dur)
}
