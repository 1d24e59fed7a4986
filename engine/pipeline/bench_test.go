package pipeline

import (
	"testing"

	"github.com/latencylab/latencylab/engine/clock"
)

// BenchmarkRun measures the pipeline's own cost per request — guardrail,
// lookups against in-memory stores, prompt assembly with real token
// counts, gateway and save — with no simulated latency and an instant
// model, so the figure is pure overhead.
func BenchmarkRun(b *testing.B) {
	st := newMemStore()
	cfg := bareConfig()
	cfg.Guard.Enabled = true
	cfg.Context.Parallel = true
	prov := &scriptProvider{clk: clock.Wall{}, words: 50}
	p, err := New(cfg, Deps{Tiers: tiers(prov, nil), History: st, Retriever: st, Orders: st, Messages: NewMemoryConversations()})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Run(b.Context(), Request{ConversationID: "c", Customer: "ana", Question: "Where is my order and how long does shipping take?"}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
