package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRandomWorkloadInvariants drives engines step by step with seeded
// random arrivals, shared prefixes, aborts and a small KV cache, checking
// the invariants after every step and that every request ends.
func TestRandomWorkloadInvariants(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			cfg := DefaultConfig()
			cfg.NumGPUBlocks = 200 + r.IntN(400)
			cfg.MaxNumBatchedTokens = 256 + r.IntN(2048)
			cfg.MaxNumSeqs = 1 + r.IntN(64)
			cfg.ChunkedPrefill = r.IntN(4) != 0
			cfg.PrefixCaching = r.IntN(3) != 0
			cfg.Policy = Policies()[r.IntN(3)]
			cfg.BatchSize = 1 + r.IntN(16)
			if !cfg.ChunkedPrefill {
				cfg.MaxNumBatchedTokens = 4096
			}
			e, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			prefixes := [][]int{randomPrompt(r, 300), randomPrompt(r, 64), randomPrompt(r, 17)}
			added, ended := 0, map[string]bool{}
			live := []string{}
			for step := 0; step < 40000 && (added < 80 || e.HasWork()); step++ {
				for added < 80 && r.IntN(3) == 0 {
					p := append(append([]int(nil), prefixes[r.IntN(3)]...), randomPrompt(r, 1+r.IntN(400))...)
					req := Request{ID: fmt.Sprint("s", added), Arrival: e.Now(), PromptTokens: p, MaxTokens: 1 + r.IntN(200), IgnoreEOS: r.IntN(2) == 0}
					if !req.IgnoreEOS {
						req.OutputTokens = randomPrompt(r, 1+r.IntN(150))
					}
					if err := e.Add(req); err != nil {
						t.Fatal(err)
					}
					live = append(live, req.ID)
					added++
				}
				if len(live) > 0 && r.IntN(25) == 0 {
					e.Abort(live[r.IntN(len(live))])
				}
				if at, ok := e.NextStepAt(); ok && at > e.Now() {
					e.AdvanceTo(at)
				}
				res := e.Step()
				if err := checkInvariants(e, res); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				for _, f := range res.Finished {
					if ended[f.ID] {
						t.Fatalf("%s finished twice", f.ID)
					}
					ended[f.ID] = true
				}
			}
			if len(ended) != added || e.HasWork() {
				t.Logf("cfg policy=%s seqs=%d budget=%d chunked=%v blocks=%d free=%d", cfg.Policy, cfg.MaxNumSeqs, cfg.MaxNumBatchedTokens, cfg.ChunkedPrefill, cfg.NumGPUBlocks, e.blocks.numFree)
				for _, s := range e.running {
					t.Logf("running %s prompt=%d out=%d/%d computed=%d blocks=%d", s.req.ID, s.numPromptTokens, s.numOutputTokens, s.target, s.numComputedTokens, len(s.blockTable))
				}
				for i := range e.waiting.len() {
					s := e.waiting.at(i)
					t.Logf("waiting %s prompt=%d out=%d/%d computed=%d pre=%d", s.req.ID, s.numPromptTokens, s.numOutputTokens, s.target, s.numComputedTokens, s.preemptions)
				}
				t.Logf("aborts pending %d", len(e.aborts))
				t.Fatalf("%d of %d requests ended; engine still has work: %v", len(ended), added, e.HasWork())
			}
			if e.blocks.numFree != e.blocks.total() {
				t.Fatalf("%d blocks still held after every request ended", e.blocks.total()-e.blocks.numFree)
			}
		})
	}
}
