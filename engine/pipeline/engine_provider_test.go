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
		res := mustRun(t, p, ctx, Request{ConversationID: "c", Question: "How do returns work?"}, func(ev Event) {
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

// In a synctest bubble the live engine runs as fast as the CPU allows
// while every chunk keeps its modelled timestamp: the stream's At values
// match a virtual-clock simulation of the same request.
func TestEngineProviderInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		le, err := live.New(live.Config{Engine: engine.DefaultConfig()})
		if err != nil {
			t.Fatal(err)
		}
		defer le.Close()
		msgs := []textmodel.Message{{Role: "system", Content: "Refunds reach your card within 5 business days."}, {Role: "user", Content: "When will my refund arrive?"}}
		s, err := NewEngineProvider(le).Stream(t.Context(), ProviderRequest{ID: "r", Messages: msgs, ExactTokens: 40})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var ats []time.Duration
		var text strings.Builder
		var final StreamEvent
		for {
			ev, err := s.Recv()
			if err != nil {
				t.Fatal(err)
			}
			if ev.Done {
				final = ev
				break
			}
			ats = append(ats, ev.At.Sub(le.Start()))
			text.WriteString(ev.Text)
		}
		if _, err := s.Recv(); err == nil {
			t.Error("Recv after the end did not return io.EOF")
		}
		want := textmodel.Compose(textmodel.ComposeRequest{Messages: msgs, ForcedTokens: 40})
		if text.String() != want.Text || final.Usage.CompletionTokens != 40 || final.FinishReason != "length" {
			t.Errorf("text %q usage %+v finish %q", text.String(), final.Usage, final.FinishReason)
		}
		sim, err := engine.Simulate(engine.DefaultConfig(), []engine.Request{{ID: "r", PromptTokens: textmodel.PromptTokens(msgs),
			OutputTokens: want.Tokens}}, engine.SimOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The request arrives at the bubble's time when submitted; compare
		// gaps, which do not depend on that.
		tt := sim.Requests[0].TokenTimes
		if len(tt) != len(ats) {
			t.Fatalf("%d tokens, simulation has %d", len(ats), len(tt))
		}
		for i := 1; i < len(ats); i++ {
			if got, want := ats[i]-ats[i-1], tt[i]-tt[i-1]; got != want {
				t.Fatalf("gap before token %d is %v, the model says %v", i, got, want)
			}
		}
	})
}
