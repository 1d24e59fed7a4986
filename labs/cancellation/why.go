package cancellation

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// why are the formulas of turn 1's figures, from the engine's own token
// times: tokens billed after the reader left = the generation rate × the
// time until the cancel reached the engine, or until the answer ended
// when no cancel was sent.
func (v *view) why(one turnOne) map[string]labs.Formula {
	out := map[string]labs.Formula{}
	n := len(one.gen)
	notWritten := max(v.s.answer-n, 0)
	price := strconv.FormatFloat(v.s.tier.PriceOut, 'f', -1, 64)
	cost := labs.Formula{Unit: "$", Result: float64(notWritten) * v.s.tier.PriceOut,
		Expr: fmt.Sprintf("(%s asked − %s generated) tokens never written × $%s per million × a million answers", labs.Thousands(v.s.answer), labs.Thousands(n), price),
		Lead: "Only tokens the engine never generated are saved: every token written is billed, read or not"}
	if notWritten == 0 {
		cost.Before = fmt.Sprintf("The engine wrote all %s tokens asked for, so nothing was saved:", labs.Thousands(v.s.answer))
		cost.Expr = "no token left unwritten × $" + price + " per million"
		cost.Lead = "Every token written is billed, read or not"
	}
	out[statCostSaved] = cost
	out[statDelivered] = v.deliveredWhy(one)
	out[statSaved] = v.savedWhy(one)
	if !one.hasCut {
		out[statGenerated] = labs.Formula{Unit: "tokens", Result: float64(v.s.answer),
			Before: "Tokens generated = the whole answer, since nothing cut it short:", Expr: fmt.Sprintf("%s asked", labs.Thousands(v.s.answer))}
	}
	if !one.hasCut || n == 0 {
		return out
	}
	before := n - one.after
	gen := labs.Sum("tokens", labs.Term{Name: "before the reader's stream ended", Value: float64(before)},
		labs.Term{Name: "after it", Value: float64(one.after)})
	gen.Before = "Tokens generated = those written while the reader read + those written after:"
	out[statGenerated] = gen
	if one.after == 0 {
		return out
	}
	first, last := one.gen[before], one.gen[n-1]
	tpot := 0.0
	if n > 1 {
		tpot = labs.Millis(one.gen[n-1]-one.gen[0]) / float64(n-1)
	}
	if tpot <= 0 {
		return out
	}
	rest := labs.Millis(last-first) / tpot
	f := labs.Sum("tokens", labs.Term{Name: "the step already running when the stream ended", Value: 1},
		labs.Term{Name: fmt.Sprintf("%s ms more until the engine stopped × %s tokens/s", labs.Figure(labs.Millis(last-first)), labs.Whole(1000/tpot)), Value: rest})
	until := "the cancel reached the engine"
	if !v.s.propagate {
		until = "the engine finished the answer" // no cancel was sent
		f.After = "The disconnect was not passed upstream, so nothing told the engine: it wrote to the end of the answer."
	}
	f.Before = fmt.Sprintf("Tokens after the cut = generation rate × time until %s (%s after the cut):",
		until, pipelinelab.FmtMS(labs.Millis(last-one.cut)))
	f.Remainder = "the uneven pace of the engine's steps"
	out[statAfter] = f
	return out
}

// deliveredWhy is what the reader got: the tokens of each chunk read,
// up to the chunk that reached the reader's stop or the stream's break
// (settings, named beside the sum rather than stated as their own
// formula), or every token the engine generated.
func (v *view) deliveredWhy(one turnOne) labs.Formula {
	c, n := one.client, len(one.gen)
	f := labs.Formula{Unit: "tokens"}
	switch {
	case c.stopped:
		f.Before = fmt.Sprintf("Tokens delivered = the tokens in each chunk the reader read; they left with the chunk that took the count to %s, where you set them to stop:",
			labs.Count(v.s.stopAfter, "token"))
	case c.errShown != "":
		f.Before = fmt.Sprintf("Tokens delivered = the tokens in each chunk that arrived before the provider's stream broke, as set, after %s:",
			labs.Count(v.s.failAfter, "token"))
	case v.onServer: // no step trace to count from: the chunks read are the count
		f.Before = "Tokens delivered = the tokens in each chunk the reader read, to the end of the answer:"
	default:
		f.Before = "Tokens delivered = every token the engine generated (counted from its step trace):"
		f.Expr, f.Result = fmt.Sprintf("%s generated", labs.Thousands(n)), float64(n)
		return f
	}
	f.Expr, f.Result = chunkSum(c.pts)
	if lost := n - c.delivered; lost > 0 {
		f.After = fmt.Sprintf("The engine generated %s: %s reached nobody, and each is billed.", labs.Thousands(n), labs.Count(lost, "token"))
	}
	return f
}

// chunkSum adds up the tokens of the chunks the reader got, from their
// running count pts, grouped by how many tokens a chunk carried: "19
// chunks × 1 token + 1 chunk × 2 tokens", and the total.
func chunkSum(pts []labs.Point) (expr string, tokens float64) {
	chunks := map[int]int{} // tokens a chunk carried → chunks that carried that many
	prev := 0.0
	for _, p := range pts {
		if size := int(p.Y - prev); size > 0 {
			chunks[size]++
		}
		prev = p.Y
	}
	var parts []string
	for _, size := range slices.Sorted(maps.Keys(chunks)) {
		parts = append(parts, labs.Count(chunks[size], "chunk")+" × "+labs.Count(size, "token"))
		tokens += float64(chunks[size] * size)
	}
	if len(parts) == 0 {
		return "no chunk", 0
	}
	return strings.Join(parts, " + "), tokens
}

// savedWhy is the answer the store kept: the text as the reader saw it,
// counted by the pipeline as it passed each delta on.
func (v *view) savedWhy(one turnOne) labs.Formula {
	c := one.client
	f := savedParts(c.delivered, one.thinking())
	f.Before = "Tokens saved = the answer as the reader saw it, so the next turn's history holds what they read:"
	if one.thinking() > 0 {
		f.Before = "Tokens saved = the model's thinking, counted with the answer it came before, + the answer as the reader saw it:"
	}
	f.Remainder = "tokens the pipeline passed on after the reader had gone"
	if len(one.gen) > c.delivered {
		f.After = fmt.Sprintf("Not saved: %s generated but never shown, as the next turn must not build on words the reader never saw.",
			labs.Count(len(one.gen)-c.delivered, "token"))
	}
	return f
}
