package prefilldecode

import (
	"fmt"
	"math"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// countWhy are the formulas of the figures that are not times: the
// prompt's length part by part, the two phases' arithmetic intensities,
// the GPU's ridge point and the second customer's cached tokens.
func (v *view) countWhy() map[string]labs.Formula {
	out := map[string]labs.Formula{statPrompt: promptWhy(v.prompt, v.s.spec)}
	if sw := v.sweep; sw != nil {
		ridge := sw.work.ridge()
		out[statRidge] = ridgeWhy(sw.work)
		p := len(v.prompt.ids)
		out[statPrefillI] = intensityWhy(prefillParts(sw.work, p, sw.prefill.steps),
			"Prefill intensity = the FLOPs of reading your prompt ÷ the bytes those steps move:", ridge)
		if n := sw.decodeWork.steps; n > 0 {
			out[statDecodeI] = intensityWhy(decodeParts(sw.work, p, n),
				"Decode intensity = the FLOPs of your answer's decode steps ÷ the bytes they move:", ridge)
		}
	}
	if m := v.second; m != nil && m.done {
		out[statCached] = cachedWhy(v.prompt.ids, v.secondPrompt.ids)
	}
	return out
}

// promptWhy is the prompt's length as its parts, each counted by the
// tokenizer, with the nominal sizes the lesson gives for passages and
// turns beside them.
func promptWhy(p prompt, spec promptSpec) labs.Formula {
	terms := make([]labs.Term, 0, len(p.parts))
	for _, part := range p.parts {
		name := part.name
		switch part.name {
		case partRAG:
			name = fmt.Sprintf("%s (%s × ~%s)", part.name, labs.Thousands(spec.chunks), labs.Thousands(chunkTokens))
		case partHistory:
			name = fmt.Sprintf("%s (%s turns × ~%s)", part.name, labs.Thousands(spec.turns), labs.Thousands(turnTokens))
		}
		terms = append(terms, labs.Term{Name: name, Value: float64(part.tokens)})
	}
	f := labs.Sum("tokens", terms...)
	f.Before = "Prompt = every part the support bot sends, counted by the tokenizer (chat-template markers with their part):"
	return f
}

// ridgeWhy is the intensity where the GPU's roof bends: its peak
// compute over its memory bandwidth.
func ridgeWhy(w workModel) labs.Formula {
	return labs.Formula{Unit: "FLOPs/byte", Result: w.ridge(),
		Before: "Ridge point = peak FLOP/s ÷ memory bandwidth:",
		Expr:   fmt.Sprintf("%s FLOP/s ÷ %s bytes/s", labs.Sci(w.peakFLOPS), labs.Sci(w.bandwidth)),
		Lead: "A step that does fewer FLOPs than this for each byte it moves waits on memory (memory-bound); " +
			"one that does more waits on the arithmetic units (compute-bound)"}
}

// phaseParts are a phase's FLOPs and bytes split as the roofline's
// formulas split them (see roofline.go), worked out from the request's
// shape rather than read off the recorded steps, so the formula is a
// check on the figure, not a copy of it.
type phaseParts struct {
	matmul, attention float64 // FLOPs: 2 per weight and computed token; query·key pairs
	weights, kv       float64 // bytes: the weights read once a step; the KV cache
	steps             int
}

// prefillParts is reading a p-token prompt in steps steps: every token
// attends to those before it, and each chunk after the first reads the
// chunks before it from the KV cache.
func prefillParts(w workModel, p, steps int) phaseParts {
	steps = max(steps, 1)
	chunk := (p + steps - 1) / steps
	var read float64
	for k := 1; k < steps; k++ {
		read += float64(min(k*chunk, p))
	}
	return phaseParts{steps: steps,
		matmul:    2 * (w.linearParams*float64(p) + w.lmHeadParams),
		attention: w.attnPerPair * float64(p) * float64(p+1) / 2,
		weights:   w.weightBytes * float64(steps),
		kv:        w.kvPerToken * (float64(p) + read)}
}

// decodeParts is n decode steps after a p-token prompt: step j makes one
// token over a context of p + j tokens, which it reads from the KV cache
// and attends to.
func decodeParts(w workModel, p, n int) phaseParts {
	ctx := float64(n)*float64(p) + float64(n)*float64(n+1)/2 // Σ (p + j), j = 1…n
	return phaseParts{steps: n,
		matmul:    2 * (w.linearParams + w.lmHeadParams) * float64(n),
		attention: w.attnPerPair * ctx,
		weights:   w.weightBytes * float64(n),
		kv:        w.kvPerToken * ctx}
}

// intensityWhy is a phase's FLOPs over its bytes, part by part, set
// against the ridge point.
func intensityWhy(ph phaseParts, before string, ridge float64) labs.Formula {
	bytes := ph.weights + ph.kv
	f := labs.Formula{Unit: "FLOPs/byte", Result: (ph.matmul + ph.attention) / bytes, Before: before,
		Expr: fmt.Sprintf("(matmuls %s + attention %s FLOPs) ÷ (weights %.1f GB × %s + KV cache %s GB)",
			labs.Sci(ph.matmul), labs.Sci(ph.attention), ph.weights/float64(ph.steps)/1e9, labs.Count(ph.steps, "step"), labs.Figure(ph.kv/1e9))}
	where := "Below the ridge point of %s, it is memory-bound: the GPU waits on reading the weights"
	switch {
	case math.Abs(f.Result-ridge) < 0.05*ridge:
		where = "At about the ridge point of %s, reading the weights and the arithmetic take about as long"
	case f.Result > ridge:
		where = "Above the ridge point of %s, it is compute-bound: the GPU waits on its arithmetic"
	}
	f.Lead = fmt.Sprintf("The weights are %.0f%% of the bytes. "+where, 100*ph.weights/bytes, labs.Figure(ridge))
	return f
}

// cachedWhy is the second customer's cached prompt: the whole KV blocks
// its prompt shares with the first customer's from the first token,
// leaving at least one token to compute (the engine needs its logits).
func cachedWhy(first, second []int) labs.Formula {
	shared := 0
	for shared < min(len(first), len(second)) && first[shared] == second[shared] {
		shared++
	}
	blocks := min(shared/engine.BlockSize, (len(second)-1)/engine.BlockSize)
	return labs.Formula{Unit: "tokens", Result: float64(blocks * engine.BlockSize),
		Before: fmt.Sprintf("Cached tokens = the whole %s-token KV blocks the second prompt shares with the first from its start:", labs.Thousands(engine.BlockSize)),
		Expr:   fmt.Sprintf("⌊%s shared tokens ÷ %s⌋ = %s × %s", labs.Thousands(shared), labs.Thousands(engine.BlockSize), labs.Count(blocks, "block"), labs.Thousands(engine.BlockSize)),
		Lead: "The cache matches whole blocks from the first token on, so after the first token that differs " +
			"(a line naming the customer, say) nothing more can be reused",
		Remainder: "blocks other requests on the shared engine pushed out of the cache before the second customer arrived"}
}
