package engine

import "testing"

// Explain's terms add up to the step time, and say which side bounds a
// long prefill (compute) and a single decode (memory).
func TestExplainAddsUp(t *testing.T) {
	cfg := DefaultConfig()
	r, err := NewRoofline(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		b       BatchShape
		compute bool
	}{
		{"prefill of 3,000 tokens", BatchShape{NumSeqs: 1, PrefillTokens: 3000, SampledTokens: 1, AttnPairs: 3000 * 3001 / 2}, true},
		{"one decode", BatchShape{NumSeqs: 1, DecodeTokens: 1, SampledTokens: 1, KVReadTokens: 1000, AttnPairs: 1001}, false},
		{"decode batch of 32", BatchShape{NumSeqs: 32, DecodeTokens: 32, SampledTokens: 32, KVReadTokens: 32 * 700, AttnPairs: 32 * 701}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := r.Explain(tc.b)
			if e.Total != r.StepTime(tc.b) {
				t.Fatalf("Explain total %v, StepTime %v", e.Total, r.StepTime(tc.b))
			}
			if e.ComputeBound() != tc.compute {
				t.Errorf("compute %v, memory %v: compute-bound %v, want %v", e.Compute, e.Memory, e.ComputeBound(), tc.compute)
			}
			bound := max(e.Compute, e.Memory)
			if d := e.Total - (bound + e.AllReduce + e.Overhead); d < -1 || d > 1 {
				t.Errorf("terms %v + %v + %v differ from the total %v by %v ns", bound, e.AllReduce, e.Overhead, e.Total, d)
			}
		})
	}
}
