package labs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// Why writes the roofline arithmetic behind a request's time to first
// token and time per output token (labs.Stat.Why), with its own prompt,
// model and GPU: the first token is one prefill step over the prompt,
// every later token one decode step. These are the figures of the request
// alone on the GPU; what others on a shared engine added is in the run's
// notes (Steps adds it to the formula when the lab knows it). Both are
// empty when the configuration has no roofline.
func Why(cfg engine.Config, promptTokens, answerTokens int) (ttft, tpot string) {
	s, ok := NewSteps(cfg, promptTokens, answerTokens)
	if !ok {
		return "", ""
	}
	first, step := s.TTFT(0, 0, live.Sharing{}), s.TPOT(0, 0, live.Sharing{})
	return first.Text(first.Result), step.Text(step.Result)
}

// flops names a step's work: two FLOPs per weight and token, plus
// attention over the context.
func flops(s engine.StepBreakdown) string {
	return fmt.Sprintf("(%s FLOPs, 2 per weight and token, + %s for attention)", sci(s.LinearFLOPs), sci(s.AttnFLOPs))
}

// Sci writes x as "1.40 × 10¹³", as the formulas write FLOPs and weights.
func Sci(x float64) string { return sci(x) }

// sci writes x as "1.40 × 10¹³".
func sci(x float64) string {
	if x <= 0 {
		return "0"
	}
	exp := int(math.Floor(math.Log10(x)))
	sup := strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")
	return fmt.Sprintf("%.2f × 10%s", x/math.Pow(10, float64(exp)), sup.Replace(strconv.Itoa(exp)))
}

func bound(s engine.StepBreakdown) string {
	if s.ComputeBound() {
		return "compute-bound"
	}
	return "memory-bound: the weights are read once per step however few tokens it makes"
}

// ms formats a modelled duration to two significant decimals.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return Whole(v) + " ms"
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	case v >= 0.1:
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.3f ms", v)
}

// PrefillFormula is the roofline arithmetic of reading a prompt of
// prompt tokens, cached of them already in the prefix cache, in one
// prefill step on cfg's model and GPU, alone on the engine: two FLOPs per
// weight and uncached token over the GPU's reachable compute (their
// attention reads the cached tokens too), against the weights read once,
// plus the fixed step overhead. ok is false when cfg has no roofline or
// nothing is left to read.
func PrefillFormula(cfg engine.Config, prompt, cached int) (f Formula, ok bool) {
	r, err := engine.NewRoofline(cfg)
	n := prompt - cached
	if err != nil || n <= 0 || cached < 0 {
		return Formula{}, false
	}
	s := r.Explain(prefillShape(n, cached))
	params := s.LinearFLOPs / 2 / float64(n)
	step, name := s.Compute, "compute (compute-bound)"
	if !s.ComputeBound() {
		step, name = s.Memory, "reading the weights (memory-bound)"
	}
	tokens, attention := Thousands(n)+" tokens", "FLOPs of attention"
	if cached > 0 {
		tokens, attention = Thousands(n)+" uncached tokens", "FLOPs of attention, over the cached tokens too"
	}
	f = Formula{Unit: "ms", Result: Millis(s.Total),
		Expr: fmt.Sprintf("2 × %s weights × %s (+ %s %s) ÷ (%s TFLOP/s × %.0f%%) = %s of compute, against %s to read %.1f GB of weights; the larger, %s, + %s step overhead",
			sci(params), tokens, sci(s.AttnFLOPs), attention, Whole(s.PeakFLOPS/1e12), s.MatmulMFU*100, ms(s.Compute), ms(s.Memory), s.Bytes/1e9,
			ms(step), ms(s.Overhead+s.AllReduce)),
		Parts: []Term{{Name: name, Value: Millis(step)}, {Name: "the fixed step overhead", Value: Millis(s.Overhead + s.AllReduce)}},
	}
	if b := cfg.MaxNumBatchedTokens; cfg.ChunkedPrefill && b > 0 && n > b {
		f.After = fmt.Sprintf("This prompt is longer than the %s-token step budget, so the engine reads it over %s steps.", Thousands(b), Thousands((n+b-1)/b))
	}
	return f, true
}

// prefillShape is one request's prefill step over n prompt tokens, after
// cached more already in the prefix cache: their attention reads those
// too.
func prefillShape(n, cached int) engine.BatchShape {
	return engine.BatchShape{NumSeqs: 1, PrefillTokens: n, SampledTokens: 1, KVReadTokens: int64(cached),
		AttnPairs: float64(n)*float64(cached) + float64(n)*float64(n+1)/2}
}

// decodeShape is one request's decode step over a ctx-token KV cache.
func decodeShape(ctx int) engine.BatchShape {
	return engine.BatchShape{NumSeqs: 1, DecodeTokens: 1, SampledTokens: 1, KVReadTokens: int64(ctx), AttnPairs: float64(ctx + 1)}
}

// DecodeFormula is the roofline arithmetic of steps decode steps of one
// request alone on cfg's model and GPU, each reading the weights and a
// ctx-token KV cache: a decode step makes one token, so its time is set by
// the bytes it reads, not by its few FLOPs. ok is false when cfg has no
// roofline. The KV cache grows by a token a step, and a step's cost grows
// linearly with it, so the step at the middle context stands for the mean.
func DecodeFormula(cfg engine.Config, ctx, steps int) (f Formula, ok bool) {
	r, err := engine.NewRoofline(cfg)
	if err != nil || steps <= 0 {
		return Formula{}, false
	}
	s := r.Explain(decodeShape(ctx))
	step, name := s.Memory, "reading the weights and KV cache (memory-bound)"
	if s.ComputeBound() {
		step, name = s.Compute, "compute (compute-bound)"
	}
	over := s.Overhead + s.AllReduce
	each := fmt.Sprintf("%.1f GB of weights and KV cache for a %s-token context ÷ (%s GB/s × %.0f%%) = %s, + %s step overhead",
		s.Bytes/1e9, Thousands(ctx), Thousands(int(s.Bandwidth/1e9)), s.MemEfficiency*100, ms(s.Memory), ms(over))
	if s.ComputeBound() {
		each = fmt.Sprintf("%s ÷ (%s TFLOP/s × %.0f%%) = %s, + %s step overhead", flops(s), Whole(s.PeakFLOPS/1e12), s.MatmulMFU*100, ms(s.Compute), ms(over))
	}
	n := float64(steps)
	f = Formula{Unit: "ms", Result: n * Millis(s.Total),
		Parts: []Term{{Name: name, Value: n * Millis(step)}, {Name: "the fixed step overhead", Value: n * Millis(over)}}}
	f.Expr = each
	if steps > 1 {
		f.Expr = fmt.Sprintf("%s steps × (%s)", Thousands(steps), each)
	}
	return f, true
}
