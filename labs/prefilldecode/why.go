package prefilldecode

import (
	"fmt"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// perK is the prompt length the prefill cost is quoted for.
const perK = 1000

// decodeWhy is the learner's decode time as its decode steps, alone on
// the GPU: one step per token after the first, at the context in the
// middle of the answer.
func decodeWhy(cfg engine.Config, prompt, tokens int) (labs.Formula, bool) {
	f, ok := labs.DecodeFormula(cfg, prompt+tokens/2, tokens-1)
	if !ok {
		return f, false
	}
	f.Before = "Decode time = one decode step per token after the first; the step in the middle of the answer stands for them all:"
	f.Remainder = "other requests sharing the engine's steps with yours (see the notes)"
	return f, true
}

// effectiveLength is where, in the sweep's lengths, a cost that grows
// with the length weighs in a least-squares slope: the fitted slope of
// c·x² over the samples' x is c times this. A cost that rises with the
// length (attention over the prompt, the KV cache a decode step reads)
// adds its rate at this length to the fit's slope.
func effectiveLength(ss []sample) float64 {
	n := float64(len(ss))
	var mx, mx2 float64
	for _, s := range ss {
		x := float64(s.tokens)
		mx += x / n
		mx2 += x * x / n
	}
	var cov, vr float64
	for _, s := range ss {
		dx := float64(s.tokens) - mx
		cov += dx * (float64(s.tokens)*float64(s.tokens) - mx2)
		vr += dx * dx
	}
	if vr == 0 {
		return mx
	}
	return cov / vr
}

// prefillSlopeWhy is the TTFT fit's slope as the roofline's cost of 1,000
// more prompt tokens: their matmuls, and their attention over the prompt
// before them at the length that weighs most in the fit.
func prefillSlopeWhy(cfg engine.Config, ss []sample) (labs.Formula, bool) {
	r, err := engine.NewRoofline(cfg)
	if err != nil || len(ss) < 2 {
		return labs.Formula{}, false
	}
	// A p-token prompt has about p²/2 attention pairs: one more token adds
	// p of them, and the fit's slope of p²/2 is effectiveLength/2.
	length := effectiveLength(ss) / 2
	lin := r.Explain(engine.BatchShape{NumSeqs: 1, PrefillTokens: perK})
	both := r.Explain(engine.BatchShape{NumSeqs: 1, PrefillTokens: perK, AttnPairs: perK * length})
	matmul, attn := labs.Millis(lin.Compute), labs.Millis(both.Compute-lin.Compute)
	f := labs.Sum("ms per 1k tokens", labs.Term{Name: "matmuls", Value: matmul}, labs.Term{Name: "attention", Value: attn})
	f.Before = "Prefill cost = what 1,000 more prompt tokens add to the first token, on compute:"
	f.Expr = fmt.Sprintf("matmuls 2 × %s weights × %s tokens ÷ (%s TFLOP/s × %.0f%%) = %s ms + attention over the ~%s tokens before each (where the sweep's prompts weigh most in the fit) %s ÷ (%s TFLOP/s × %.0f%%) = %s ms",
		labs.Sci(lin.LinearFLOPs/2/perK), labs.Thousands(perK), labs.Whole(lin.PeakFLOPS/1e12), lin.MatmulMFU*100, labs.Figure(matmul),
		labs.Thousands(int(length)), labs.Sci(both.AttnFLOPs), labs.Whole(both.PeakFLOPS/1e12), both.AttnMFU*100, labs.Figure(attn))
	f.Remainder = "the short prompts, whose step is set by reading the weights rather than by compute, and the fixed overhead of each step"
	return f, true
}

// decodeSlopeWhy is the decode fit's slope as one decode step, at the
// context that weighs most in the fit: the learner's prompt plus half
// the answers' weighted length (the KV cache grows by a token a step).
func decodeSlopeWhy(cfg engine.Config, prompt int, ss []sample) (labs.Formula, bool) {
	if len(ss) < 2 {
		return labs.Formula{}, false
	}
	ctx := prompt + int(effectiveLength(ss)/2)
	f, ok := labs.DecodeFormula(cfg, ctx, 1)
	if !ok {
		return f, false
	}
	f.Unit = "ms per token"
	f.Before = "Decode cost = what one more output token adds: one decode step, here at the context that weighs most in the fit:"
	f.Remainder = "the KV cache growing by a token a step, which the single step at the middle context only averages"
	return f, true
}

// formulas are the why panels of the decode time and the two fitted
// slopes: sweepCfg is the virtual-clock sweep's engine, live the engine the
// learner's request ran on.
func formulas(sweepCfg, live engine.Config, sw *sweep, prompt, output int) map[string]labs.Formula {
	out := map[string]labs.Formula{}
	if f, ok := decodeWhy(live, prompt, output); ok {
		out[statDecode] = f
	}
	if sw == nil {
		return out
	}
	if f, ok := prefillSlopeWhy(sweepCfg, sw.ttft); ok && sw.ttftFit.ok {
		out[statPer1kPrompt] = f
	}
	if f, ok := decodeSlopeWhy(sweepCfg, prompt, sw.decode); ok && sw.decodeFit.ok {
		out[statPerOutputTok] = f
	}
	return out
}

// secondTTFTWhy is the second customer's first token: the prefill
// over the prompt tokens the cache did not hold, whose attention also
// reads the cached ones. With nothing cached it is the whole prompt's
// prefill.
func secondTTFTWhy(cfg engine.Config, prompt, cached int) (labs.Formula, bool) {
	f, ok := labs.PrefillFormula(cfg, prompt, cached)
	if !ok {
		return f, false
	}
	n := prompt - cached
	f.Before = fmt.Sprintf("Second customer's TTFT = the prefill of the %s of its %s prompt tokens the cache did not hold:", labs.Thousands(n), labs.Thousands(prompt))
	if cached == 0 {
		f.Before = fmt.Sprintf("Second customer's TTFT = the prefill of all %s prompt tokens, nothing cached:", labs.Thousands(prompt))
	}
	f.Remainder = "other requests sharing the engine's steps, and the prompt's chunks when it is longer than one step's budget"
	return f, true
}
