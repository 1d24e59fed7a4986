package pipelinelab

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

// firstToken streams a short answer from the named tier of r and returns
// when its first chunk arrived.
func firstToken(t *testing.T, r *Run, tier string) time.Duration {
	t.Helper()
	i := r.tierIndex(tier)
	start := time.Now()
	s, err := r.Tiers[i].Provider.Stream(context.Background(), pipeline.ProviderRequest{ID: "q", ExactTokens: 20,
		Messages: []textmodel.Message{{Role: "user", Content: "Where is my order?"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var first time.Duration
	for {
		ev, err := s.Recv()
		if err == io.EOF {
			return first
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Tokens > 0 && first == 0 {
			first = time.Since(start)
		}
	}
}

// Host puts the named tiers behind the network and, with tenants, on an
// engine of the run's own that the run's end stops with its load; the
// other tiers stay as they were.
func TestHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := clocktest.BubbleGoroutines()
		pool := labs.NewEngines(labs.EnginesConfig{})
		defer pool.Close()
		var idle, hosted, small time.Duration
		var hostErr error
		l, err := New(Config{Engines: pool}, toyDefine, func(p toyParams) (int, error) { return p.Turns, nil },
			func(ctx context.Context, r Run, _ int, emit func(labs.Frame)) error {
				idle = firstToken(t, &r, TierMedium)
				if err := r.Host(ctx, AsInTheLesson, emit, TierMedium); err != nil {
					return err
				}
				hosted, small = firstToken(t, &r, TierMedium), firstToken(t, &r, TierSmall)
				hostErr = r.Host(ctx, AsInTheLesson, emit, "huge")
				emit(labs.Frame{Final: true})
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Run(context.Background(), labs.Values{}, func(labs.Frame) {}); err != nil {
			t.Fatal(err)
		}
		if added := hosted - idle; added < 3*190*time.Millisecond || added > 3*190*time.Millisecond+100*time.Millisecond {
			t.Errorf("hosted first token %v, idle %v: want three 190 ms round trips more and a little for the tenants", hosted, idle)
		}
		if small > 100*time.Millisecond {
			t.Errorf("the small tier, not hosted, took %v to its first token", small)
		}
		if hostErr == nil || !strings.Contains(hostErr.Error(), "huge") {
			t.Errorf("hosting an unknown tier: %v", hostErr)
		}
		pool.Close()
		synctest.Wait()
		if after := clocktest.BubbleGoroutines(); after > before {
			t.Errorf("%d goroutines after the run and the pool closed, %d before: the hosted engine or its load leaked", after, before)
		}
	})
}

// Simulate adds the network's legs to the engine's own times; without
// tenants nothing else changes.
func TestHostingSimulate(t *testing.T) {
	cfg := engine.DefaultConfig()
	req := engine.Request{ID: "x", PromptTokens: make([]int, 900), OutputTokens: make([]int, 100), MaxTokens: 100}
	idleTTFT, idleE2E, err := Idle.Simulate(cfg, req)
	if err != nil {
		t.Fatal(err)
	}
	far := Hosting{RTTMs: 100, Fresh: true, GPU: GPUOwn}
	ttft, e2e, err := far.Simulate(cfg, req)
	if err != nil {
		t.Fatal(err)
	}
	if ttft-idleTTFT != 300*time.Millisecond || e2e-idleE2E != 300*time.Millisecond {
		t.Errorf("network of 100 ms, fresh connection: added %v to the first token and %v to the end, want 300 ms to both", ttft-idleTTFT, e2e-idleE2E)
	}
	busy := Hosting{Tenants: 9, Seed: 4, GPU: GPUOwn}
	_, busyE2E, err := busy.Simulate(cfg, req)
	if err != nil || busyE2E < idleE2E*11/10 {
		t.Errorf("with other tenants the answer took %v against %v alone (err %v): want it slower", busyE2E, idleE2E, err)
	}
	if _, _, err := (Hosting{RTTMs: -5, GPU: GPUOwn}).Simulate(cfg, req); err == nil {
		t.Error("a negative round trip was accepted")
	}
}

func TestHostingKnobsMapToThePipeline(t *testing.T) {
	for _, tc := range []struct {
		h        Hosting
		want     pipeline.Hosting
		describe string
	}{
		{Idle, pipeline.Hosting{Tenants: pipeline.TenantLoad{Seed: 4}}, "next door"},
		{AsInTheLesson, pipeline.Hosting{RTT: 190 * time.Millisecond, FreshConnection: true, Tenants: pipeline.TenantLoad{Rate: 9, Seed: 4}},
			"Provider 190 ms away over a new connection per call, 9 other requests/s on its engine."},
		{Hosting{RTTMs: 50, GPU: "a100-80g", Seed: 1}, pipeline.Hosting{RTT: 50 * time.Millisecond, Hardware: "a100-80g", Tenants: pipeline.TenantLoad{Seed: 1}},
			"Provider 50 ms away, on a100-80g."},
	} {
		if got := tc.h.Pipeline(); got != tc.want {
			t.Errorf("%+v: Pipeline() = %+v, want %+v", tc.h, got, tc.want)
		}
		if got := tc.h.Describe(); !strings.Contains(got, tc.describe) {
			t.Errorf("%+v: Describe() = %q, want %q in it", tc.h, got, tc.describe)
		}
	}
}
