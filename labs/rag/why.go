package rag

import (
	"fmt"
	"strings"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// why are the formulas of the prompt's size and its time to first token:
// the prompt is its parts added, and its first token one prefill step
// over all of them on the tier's GPU.
func (v *view) why(cfg engine.Config) map[string]labs.Formula {
	parts := segments(v.res.Prompt.Parts)
	terms := make([]labs.Term, 0, len(parts))
	for _, s := range parts {
		terms = append(terms, labs.Term{Name: s.Name, Value: s.Value})
	}
	size := labs.Sum("tokens", terms...)
	size.Before = "Prompt = every part the pipeline put in, counted with the tokenizer:"
	out := v.partsWhy()
	out[statPromptTokens] = size
	ttft, ok := labs.PrefillFormula(cfg, v.res.Prompt.Tokens(), 0)
	if !ok {
		return out
	}
	var top labs.Term
	for _, t := range size.Parts {
		if t.Value > top.Value {
			top = t
		}
	}
	ttft.Before = fmt.Sprintf("First token = one prefill step over the %s-token prompt (%s):", labs.Thousands(v.res.Prompt.Tokens()),
		strings.TrimSuffix(size.Expr, " + "))
	ttft.Lead = fmt.Sprintf("Every prompt token costs the same prefill work, so the largest part of the prompt, the %s (%.0f%%), carries the largest share of it",
		top.Name, 100*top.Value/size.Result)
	ttft.Remainder = "time outside the prefill step: the hop from the pipeline to the engine and any step already running on the shared engine"
	out[statTTFT] = ttft
	return out
}
