package pipelinelab_test

import (
	"context"
	"github.com/latencylab/latencylab/labs/labtest"
	"github.com/latencylab/latencylab/labs/pipelinelab"
	"math"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	cases := []struct{ p, want float64 }{{0, 1}, {10, 1}, {50, 5}, {95, 10}, {91, 10}, {90, 9}, {100, 10}}
	for _, tc := range cases {
		if got := pipelinelab.Percentile(xs, tc.p); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.p, got, tc.want)
		}
	}
	if pipelinelab.Percentile(nil, 50) != 0 || pipelinelab.Mean(nil) != 0 {
		t.Error("empty input")
	}
	if xs[0] != 5 {
		t.Error("Percentile sorted its input in place")
	}
}

func TestFitAndHistogram(t *testing.T) {
	a, b, ok := pipelinelab.Fit([]labs.Point{{X: 0, Y: 1}, {X: 1, Y: 3}, {X: 2, Y: 5}})
	if !ok || math.Abs(a-1) > 1e-9 || math.Abs(b-2) > 1e-9 {
		t.Errorf("fit %v %v %v", a, b, ok)
	}
	if _, _, ok := pipelinelab.Fit([]labs.Point{{X: 1, Y: 1}, {X: 1, Y: 2}}); ok {
		t.Error("fit of one x")
	}
	h := pipelinelab.Histogram([]float64{0, 10, 99, 100, 250}, 10, nil)
	total := 0
	for _, c := range h.Counts {
		total += c
	}
	if total != 5 || h.BinWidth != 50 {
		t.Errorf("histogram %+v", h)
	}
}

// A dry run goes through the real stages and records every model call,
// helpers first, without waiting for any simulated latency.
func TestDryRunCapturesCalls(t *testing.T) {
	st := labtest.NewFakeStore()
	cfg := pipeline.DefaultConfig()
	cfg.Helpers = pipeline.HelperCalls{Count: 2}
	cfg.Context.Parallel = false
	deps := pipeline.Deps{Tiers: []pipeline.Tier{{Name: "medium", Provider: nopProvider{}}, {Name: "small", Provider: nopProvider{}}},
		Retriever: st, Orders: st}
	start := time.Now()
	c, err := pipelinelab.DryRun(context.Background(), cfg, deps, pipeline.Request{Customer: pipelinelab.Customer, Question: "Where is my order NW-10452?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Calls) != 3 {
		t.Fatalf("%d calls, want 3", len(c.Calls))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("dry run took %v", d)
	}
	ans, _ := c.Answer()
	if len(c.Result.Lookups.Chunks) != 5 || c.Result.Lookups.Order == nil || len(ans.Messages) < 3 {
		t.Errorf("lookups %+v, answer messages %d", c.Result.Lookups, len(ans.Messages))
	}
	req, a, err := pipelinelab.EngineRequest(nil, "x", ans)
	if err != nil || len(req.PromptTokens) != c.Result.Prompt.Tokens() || len(a.Tokens) == 0 {
		t.Errorf("engine request: %d prompt tokens, prompt says %d, err %v", len(req.PromptTokens), c.Result.Prompt.Tokens(), err)
	}
}

type nopProvider struct{}

func (nopProvider) Stream(context.Context, pipeline.ProviderRequest) (pipeline.Stream, error) {
	panic("a dry run must not call the tier's own provider")
}

func TestPromptsAndConversation(t *testing.T) {
	for _, n := range []int{50, 200, 1000, 3000} {
		s := pipelinelab.PaddedSystemPrompt("t", n, textmodel.Count)
		if got := textmodel.Count(s); got < n || got > n+40 {
			t.Errorf("asked %d tokens, got %d", n, got)
		}
	}
	mc, err := pipelinelab.NewConversation(context.Background(), "c", pipelinelab.MaxHistoryTurns, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	turns, _ := mc.RecentTurns(context.Background(), "c", 100)
	if len(turns) != pipelinelab.MaxHistoryTurns || turns[0].Role != "user" || turns[len(turns)-1].Role != "assistant" {
		t.Errorf("turns %+v", turns)
	}
	if _, err := pipelinelab.NewConversation(context.Background(), "c", pipelinelab.MaxHistoryTurns+1, time.Time{}); err == nil {
		t.Error("too many turns accepted")
	}
	if _, err := pipelinelab.LookupTier("huge"); err == nil {
		t.Error("unknown tier accepted")
	}
	if _, err := pipelinelab.Tiers(nil); err == nil {
		t.Error("nil pool accepted")
	}
}
