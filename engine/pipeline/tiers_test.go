package pipeline

import (
	"testing"
	"testing/synctest"
)

// The default tiers really are ordered: a smaller model gives a faster
// first token and faster decoding on the same answer.
func TestDefaultTiersAreOrdered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ts, closeAll, err := StartEngineTiers(DefaultTierSpecs(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer closeAll()
		st := newMemStore()
		var prev *Result
		for _, tier := range []string{"small", "medium", "large"} {
			cfg := bareConfig()
			cfg.Gateway.Tier = tier
			cfg.Gateway.ExactTokens = 300
			p, err := New(cfg, Deps{Tiers: ts, Retriever: st})
			if err != nil {
				t.Fatal(err)
			}
			res := mustRun(t, p, t.Context(), Request{Question: "How long does shipping take?"}, nil)
			if res.Status != StatusComplete || res.Tier != tier || res.Usage.CompletionTokens != 300 {
				t.Fatalf("%s: status %s tier %s tokens %d", tier, res.Status, res.Tier, res.Usage.CompletionTokens)
			}
			t.Logf("%-6s TTFT %v, 300 tokens done at %v, cost $%.6f", tier, res.Summary.FirstToken, res.Summary.Total, res.Summary.Cost)
			if prev != nil && (res.Summary.Total <= prev.Summary.Total || res.Summary.Cost <= prev.Summary.Cost) {
				t.Errorf("%s is not slower and dearer than the tier below", tier)
			}
			prev = res
		}
	})
}

func TestBadTierSpec(t *testing.T) {
	for _, s := range []TierSpec{{Name: "x", Model: "gpt-9", Hardware: "h100-sxm"}, {Name: "x", Model: "llama-3.1-8b", Hardware: "tpu"},
		{Name: "x", Model: "llama-3.1-70b", Hardware: "l4", TP: 1}} {
		if _, _, err := StartEngineTiers([]TierSpec{s}, nil); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}
