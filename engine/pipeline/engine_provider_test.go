package pipeline

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// Inside a synctest bubble the live engine's wall clock is virtual too, so
// its tokens arrive exactly when the modelled GPU produces them.

func TestEngineProviderEndToEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		le, err := live.New(live.Config{Engine: engine.DefaultConfig()})
		if err != nil {
			t.Fatal(err)
		}
		defer le.Close()
		st := newMemStore()
		cfg := bareConfig()
		p, err := New(cfg, Deps{Tiers: tiers(NewEngineProvider(le), nil), Retriever: st, Orders: st, Messages: st})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(t.Context(), Request{ConversationID: "c", Question: "How long does standard shipping take?"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusComplete {
			t.Fatalf("status %s: %v", res.Status, res.Err)
		}
		want := textmodel.Compose(textmodel.ComposeRequest{Messages: res.Prompt.Messages})
		if res.Text != want.Text || res.Usage.CompletionTokens != len(want.Tokens) {
			t.Errorf("text %q (%d tokens), want the composed %q (%d)", res.Text, res.Usage.CompletionTokens, want.Text, len(want.Tokens))
		}
		if !strings.Contains(res.Text, "Standard shipping takes 3 to 5 business days") {
			t.Errorf("the answer %q does not draw on the retrieved chunk", res.Text)
		}
		if res.Usage.PromptTokens != res.Prompt.Tokens() {
			t.Errorf("engine prefilled %d tokens, the prompt has %d", res.Usage.PromptTokens, res.Prompt.Tokens())
		}
		// The pipeline's TTFT and total are the engine's modelled ones.
		sim, err := engine.Simulate(engine.DefaultConfig(), []engine.Request{{ID: "x",
			PromptTokens: textmodel.PromptTokens(res.Prompt.Messages), OutputTokens: want.Tokens}}, engine.SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := sim.Requests[0]
		if res.Summary.FirstToken != r.TTFT() || res.Summary.Total-res.Summary.FirstWord != r.E2E()-r.TTFT() {
			t.Errorf("pipeline TTFT %v decode %v; engine model says %v and %v", res.Summary.FirstToken,
				res.Summary.Total-res.Summary.FirstWord, r.TTFT(), r.E2E()-r.TTFT())
		}
	})
}

func TestEngineProviderDisconnectFreesTheEngine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		le, err := live.New(live.Config{Engine: engine.DefaultConfig()})
		if err != nil {
			t.Fatal(err)
		}
		defer le.Close()
		st := newMemStore()
		cfg := bareConfig()
		cfg.Gateway.ExactTokens = 500 // long enough to still be running
		p := mustNew(t, cfg, Deps{Tiers: tiers(NewEngineProvider(le), nil), Retriever: st, Messages: st})
		ctx, leave := context.WithCancel(t.Context())
		defer leave()
		n := 0
		res, _ := p.Run(ctx, Request{ConversationID: "c", Question: "How do returns work?"}, func(ev Event) {
			if ev.Kind == EventDelta {
				if n++; n == 3 {
					leave()
				}
			}
		})
		if res.Status != StatusCancelled || res.Usage.CompletionTokens != 3 {
			t.Fatalf("status %s, %d tokens", res.Status, res.Usage.CompletionTokens)
		}
		time.Sleep(100 * time.Millisecond) // a few engine steps
		synctest.Wait()
		if s := le.Stats(); s.Running != 0 || s.Waiting != 0 || s.GenerationTokens >= 500 {
			t.Errorf("engine still busy after the disconnect: %+v", s)
		}
		if saved := st.lastSaved(t); saved.Status != StatusCancelled || saved.Content != res.Text || saved.Content == "" {
			t.Errorf("saved %+v", saved)
		}
	})
}
