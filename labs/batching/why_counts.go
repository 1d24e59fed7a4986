package batching

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/labs"
)

// countWhy are the formulas of the run's counts: the preemptions step by
// step, set against the KV cache's size and how full it got, and the
// requests completed.
func (v *liveView) countWhy(r *recorder) map[string]labs.Formula {
	out := map[string]labs.Formula{}
	if f, ok := v.preemptionsWhy(r); ok {
		out[statPreempt] = f
	}
	unfinished := 0
	for _, q := range r.reqs {
		if !q.done {
			unfinished++
		}
	}
	out[statCompleted] = labs.Formula{Unit: "requests", Result: float64(len(r.reqs) - unfinished),
		Before: "Completed = requests sent − those unfinished when the run ended:",
		Expr:   fmt.Sprintf("%s sent − %s unfinished", labs.Thousands(len(r.reqs)), labs.Thousands(unfinished))}
	return out
}

// preemptionsWhy groups the steps that evicted requests by how many each
// evicted. ok is false when the engine's size is unknown.
func (v *liveView) preemptionsWhy(r *recorder) (labs.Formula, bool) {
	fp, err := v.cfg.Footprint()
	if err != nil || fp.NumBlocks == 0 {
		return labs.Formula{}, false
	}
	steps := map[int]int{} // evicted in one step → steps
	peak := 0.0
	for _, st := range r.steps {
		peak = max(peak, st.kv)
		if st.preempted > 0 {
			steps[st.preempted]++
		}
	}
	f := labs.Formula{Unit: "", Before: "Preemptions = requests evicted by steps that found no free KV block for a running request, step by step:"}
	var expr []string
	for _, k := range slices.Sorted(maps.Keys(steps)) {
		n := steps[k]
		expr = append(expr, fmt.Sprintf("%s × %s", labs.Count(n, "step"), labs.Thousands(k)))
		f.Result += float64(n * k)
	}
	f.Expr = strings.Join(expr, " + ")
	cache := fmt.Sprintf("The cache holds %s blocks of %s tokens (%s tokens)", labs.Thousands(fp.NumBlocks), labs.Thousands(engine.BlockSize), labs.Thousands(fp.KVTokens))
	used := fmt.Sprintf("at its fullest it held %.0f%% of them (%s blocks)", 100*peak, labs.Thousands(int(peak*float64(fp.NumBlocks)+0.5)))
	if f.Expr == "" {
		f.Expr = "no step ran out of blocks"
		f.Lead = cache + " and " + used + ", so every running request kept its cache"
	} else {
		f.Lead = cache + ": " + used + ". An evicted request loses its cache and computes its prompt and answer so far again when it is readmitted"
	}
	if v.s.shared {
		f.After = "On the shared engine the cache and the evictions are everyone's."
	}
	return f, true
}
