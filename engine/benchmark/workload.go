package benchmark

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Workload is the random dataset and traffic shape of `vllm bench serve
// --dataset-name random`, with its defaults.
type Workload struct {
	InputLen        int     // mean prompt tokens (1024)
	OutputLen       int     // mean output tokens (128)
	RangeRatio      float64 // lengths uniform in [L·(1−r), L·(1+r)] (0)
	SharedPrefixLen int     // tokens every prompt starts with (0)
	NumRequests     int     // 1000
	RequestRate     float64 // requests per second; +Inf sends all at once
	Burstiness      float64 // gamma shape of the gaps; 1 is Poisson
	MaxConcurrency  int     // 0 means unlimited
	Seed            uint64
	Percentiles     []float64 // reported besides mean/median/std (99)
	Goodput         Goodput   // objectives for request goodput (none)
}

// Limits that keep a typo from running for days; lengths are far beyond any
// model's context. Prompts are drawn one at a time (Dataset), so the total
// prompt tokens of a run need no cap.
const (
	maxLen      = 1 << 20
	maxRequests = 10_000_000
)

// DefaultWorkload returns vLLM's random-dataset defaults.
func DefaultWorkload() Workload {
	return Workload{
		InputLen: 1024, OutputLen: 128, NumRequests: 1000,
		RequestRate: math.Inf(1), Burstiness: 1, Percentiles: []float64{99},
	}
}

// Validate reports the first setting out of range, saying what is valid.
func (w Workload) Validate() error {
	switch {
	case w.InputLen < 1 || w.InputLen > maxLen:
		return fmt.Errorf("input length %d out of range: want 1..%d tokens", w.InputLen, maxLen)
	case w.OutputLen < 1 || w.OutputLen > maxLen:
		return fmt.Errorf("output length %d out of range: want 1..%d tokens", w.OutputLen, maxLen)
	case math.IsNaN(w.RangeRatio) || w.RangeRatio < 0 || w.RangeRatio >= 1:
		return fmt.Errorf("range ratio %g out of range: want 0 <= r < 1", w.RangeRatio)
	case w.SharedPrefixLen < 0 || w.SharedPrefixLen > maxLen:
		return fmt.Errorf("shared prefix length %d out of range: want 0..%d tokens", w.SharedPrefixLen, maxLen)
	case w.NumRequests < 1 || w.NumRequests > maxRequests:
		return fmt.Errorf("number of requests %d out of range: want 1..%d", w.NumRequests, maxRequests)
	case math.IsNaN(w.RequestRate) || w.RequestRate <= 0:
		return fmt.Errorf("request rate %g out of range: want a positive number of requests per second or inf", w.RequestRate)
	case math.IsNaN(w.Burstiness) || w.Burstiness <= 0 || math.IsInf(w.Burstiness, 1):
		return fmt.Errorf("burstiness %g out of range: want a finite number > 0 (1 is Poisson)", w.Burstiness)
	case w.MaxConcurrency < 0:
		return fmt.Errorf("max concurrency %d out of range: want 0 (unlimited) or more", w.MaxConcurrency)
	}
	for _, p := range w.Percentiles {
		if math.IsNaN(p) || p < 0 || p > 100 {
			return fmt.Errorf("percentile %g out of range: want numbers in 0..100 such as 50,90,99", p)
		}
	}
	return nil
}

// ParsePercentiles reads a comma-separated list such as "50,90,99".
func ParsePercentiles(s string) ([]float64, error) {
	var out []float64
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		p, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(p) || p < 0 || p > 100 {
			return nil, fmt.Errorf("percentile %q is not valid: want comma-separated numbers in 0..100 such as 50,90,99", f)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no percentiles given: want comma-separated numbers in 0..100 such as 50,90,99")
	}
	return out, nil
}

// ParseRate reads a request rate: "inf" or a positive number.
func ParseRate(s string) (float64, error) {
	if strings.EqualFold(strings.TrimSpace(s), "inf") {
		return math.Inf(1), nil
	}
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(r) || r <= 0 {
		return 0, fmt.Errorf("request rate %q is not valid: want inf or a positive number of requests per second", s)
	}
	return r, nil
}

// Request is one sampled benchmark request.
type Request struct {
	ID        string
	Prompt    string
	PromptLen int // true token count of Prompt
	// PromptTokens are Prompt's token ids, kept so the virtual-clock run
	// need not tokenize again.
	PromptTokens []int
	OutputLen    int // tokens to generate (sent with ignore_eos)
	Arrival      time.Duration
}

// Tokenizer is what the dataset needs from a BPE tokenizer.
type Tokenizer interface {
	Encode(text string) []int
	Decode(ids []int) string
}

// Sample draws all the workload's requests at once; see Dataset for how,
// and for drawing them one at a time.
func Sample(w Workload, tok Tokenizer, corpus string) ([]Request, error) {
	d, err := NewDataset(w, tok, corpus)
	if err != nil {
		return nil, err
	}
	reqs := make([]Request, w.NumRequests)
	for i := range reqs {
		reqs[i] = d.Next()
	}
	return reqs, nil
}

// lenRange is vLLM's [floor(L·(1−r)), ceil(L·(1+r))], never below 1.
func lenRange(l int, r float64) (int, int) {
	lo := int(math.Floor(float64(l) * (1 - r)))
	hi := int(math.Ceil(float64(l) * (1 + r)))
	return max(lo, 1), max(hi, max(lo, 1))
}
