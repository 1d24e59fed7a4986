package levers

import (
	"fmt"

	"github.com/latencylab/latencylab/labs"
)

// why are the formulas of the headline figures, each from the rows' own
// measured parts: total = time before the model + the model's first token
// + the rest of the answer at its time per output token.
func (v *view) why(baseline, bestFirst, bestTotal, shorter, smaller result) map[string]labs.Formula {
	return map[string]labs.Formula{
		statBaseFirst:    firstWordOf(baseline),
		statBestFirst:    firstWordOf(bestFirst),
		statBaseTotal:    totalOf(baseline),
		statBestTotal:    totalOf(bestTotal),
		statShorterSaves: saved(baseline, shorter),
		statAnswerCall:   callOf(baseline),
		statAnswerSmall:  callOf(smaller),
		statAnswerShort:  callOf(shorter),
	}
}

// callOf writes a row's answer call: its first token, then every other
// token at the call's time per output token.
func callOf(r result) labs.Formula {
	rest := r.tpot() * float64(r.tokens-1)
	return labs.Formula{Unit: "ms", Result: r.modelFirst + rest,
		Expr: fmt.Sprintf("first token %s + %s more tokens × %s ms", labs.Figure(r.modelFirst), labs.Thousands(r.tokens-1), labs.Factor(r.tpot(), r.tokens-1)),
		Parts: []labs.Term{{Name: "the first token", Value: r.modelFirst},
			{Name: "writing the rest of the answer", Value: rest}},
		Before:    fmt.Sprintf("%s: model call = time to first token + the other tokens × time per output token:", r.lever.name),
		Remainder: "the last chunk's trip back from the provider",
	}
}

// tpot is a row's measured time per output token after the first.
func (r result) tpot() float64 {
	if r.tokens < 2 {
		return 0
	}
	return (r.total - r.before - r.modelFirst) / float64(r.tokens-1)
}

func (r result) streamed() bool { return r.firstWord < r.total-0.5 }

// totalOf writes a row's total as its parts.
func totalOf(r result) labs.Formula {
	if r.tokens == 0 {
		return labs.Formula{Unit: "ms", Expr: "what is left is the steps before the model", Result: r.before,
			Before:    r.lever.name + ": the response cache answers, so no model runs;",
			Remainder: "the hand-overs between stages"}
	}
	rest := r.tpot() * float64(r.tokens-1)
	f := labs.Formula{Unit: "ms", Result: r.before + r.modelFirst + rest,
		Expr: fmt.Sprintf("before the model %s + model first token %s + %s more tokens × %s ms",
			labs.Figure(r.before), labs.Figure(r.modelFirst), labs.Thousands(r.tokens-1), labs.Factor(r.tpot(), r.tokens-1)),
		Parts: []labs.Term{{Name: "the steps before the model", Value: r.before}, {Name: "the model's first token", Value: r.modelFirst},
			{Name: "writing the rest of the answer", Value: rest}},
		Before:    r.lever.name + ": total = time before the model + TTFT + tokens × TPOT:",
		Remainder: "the hand-overs between stages",
	}
	return f
}

// firstWordOf writes a row's first word: the model's first token when it
// streams, the whole answer when it blocks.
func firstWordOf(r result) labs.Formula {
	if r.tokens == 0 {
		return totalOf(r)
	}
	if !r.streamed() {
		f := totalOf(r)
		f.Before = r.lever.name + " blocks until the answer is complete, so its first word is its total:"
		return f
	}
	f := labs.Sum("ms", labs.Term{Name: "the steps before the model", Value: r.before},
		labs.Term{Name: "the model's first token", Value: r.modelFirst})
	f.Before = r.lever.name + " streams: first word = time before the model + TTFT:"
	f.Remainder = "the hand-overs between stages"
	return f
}

// saved is what the shorter answer takes off the baseline: the tokens it
// no longer writes at the baseline's time per token.
func saved(base, short result) labs.Formula {
	n := base.tokens - short.tokens
	return labs.Formula{Unit: "ms", Result: float64(n) * base.tpot(),
		Expr:      fmt.Sprintf("(%s − %s) fewer tokens × %s ms per token", labs.Thousands(base.tokens), labs.Thousands(short.tokens), labs.Factor(base.tpot(), base.tokens-short.tokens)),
		Lead:      "Every token not written saves one decode step",
		Remainder: "the two answers' slightly different first tokens and decode steps"}
}
