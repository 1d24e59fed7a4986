package practice

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// instantModel answers one token at once; failAfter, when set, fails
// every call after that long; hold keeps the stream open until the
// pipeline cancels it and notes when that was.
type instantModel struct {
	failAfter time.Duration
	hold      bool

	mu       sync.Mutex
	started  []time.Time
	failedAt time.Time
	endedAt  time.Time
}

func (m *instantModel) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	m.mu.Lock()
	m.started = append(m.started, time.Now())
	m.mu.Unlock()
	switch {
	case m.failAfter > 0:
		select {
		case <-time.After(m.failAfter):
		case <-ctx.Done():
		}
		m.mu.Lock()
		m.failedAt = time.Now()
		m.mu.Unlock()
		return nil, errors.New("model overloaded")
	case m.hold:
		<-ctx.Done()
		m.mu.Lock()
		m.endedAt = time.Now()
		m.mu.Unlock()
		return nil, ctx.Err()
	}
	return &oneToken{}, nil
}

type oneToken struct{ n int }

func (s *oneToken) Recv() (pipeline.StreamEvent, error) {
	s.n++
	switch s.n {
	case 1:
		return pipeline.StreamEvent{Text: "Hello", Tokens: 1}, nil
	case 2:
		return pipeline.StreamEvent{Done: true, FinishReason: "stop"}, nil
	}
	return pipeline.StreamEvent{}, io.EOF
}

func (s *oneToken) Close() error { return nil }

type oneChunk struct{}

func (oneChunk) Retrieve(context.Context, string, int) ([]pipeline.Chunk, error) {
	return []pipeline.Chunk{{ID: 1, Article: "Shipping", Text: "Orders ship in two days.", Score: 1}}, nil
}

type oneOrder struct{}

func (oneOrder) LookupOrder(context.Context, string, string) (*pipeline.Order, error) {
	return &pipeline.Order{ID: "A1", Customer: "c", Status: "shipped"}, nil
}

// stageConfig is the latency-budget lab's pipeline with a drill's stage
// times: guardrail, the three lookups, the gateway hop, no cache and no
// timeouts unless a test sets them.
func stageConfig(st stages, parallel bool) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.Guard.Latency = pipeline.Latency{Base: st.guard}
	cfg.Context.Parallel = parallel
	cfg.Context.HistoryLatency = pipeline.Latency{Base: st.history}
	cfg.Context.RetrievalLatency = pipeline.Latency{Base: st.retrieval}
	cfg.Context.OrderLatency = pipeline.Latency{Base: st.order}
	cfg.Gateway.Overhead = pipeline.Latency{Base: st.gateway}
	cfg.Gateway.Cache, cfg.Gateway.Fallback = false, nil
	cfg.Gateway.FirstTokenTimeout, cfg.Gateway.OverallTimeout = 0, 0
	cfg.Deadline = 0
	return cfg
}

// runStages runs one request through the real pipeline inside a synctest
// bubble, so its sleeps take no real time and the times it reports are
// exact. medium answers as the gateway's tier, small as its fallback.
func runStages(t *testing.T, cfg pipeline.Config, medium, small *instantModel, seed int64) (res *pipeline.Result, start time.Time) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		conv := pipeline.NewMemoryConversations()
		tiers := []pipeline.Tier{{Name: "medium", Provider: medium, Model: "m"}}
		if small != nil {
			tiers = append(tiers, pipeline.Tier{Name: "small", Provider: small, Model: "s"})
			cfg.Gateway.Fallback = []string{"small"}
		}
		p, err := pipeline.New(cfg, pipeline.Deps{Tiers: tiers, History: conv, Retriever: oneChunk{}, Orders: oneOrder{}})
		if err != nil {
			t.Fatal(err)
		}
		start = time.Now()
		res, err = p.Run(context.Background(), pipeline.Request{ID: "q", ConversationID: "c1", Customer: "c",
			Question: "Where is my order?", Seed: seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
	})
	return res, start
}

func span(t *testing.T, res *pipeline.Result, stage string) pipeline.Span {
	t.Helper()
	for _, s := range res.Spans {
		if s.Stage == stage {
			return s
		}
	}
	t.Fatalf("no %s span in %+v", stage, res.Spans)
	return pipeline.Span{}
}

// TestSecondPathPipeline recomputes the stage-arithmetic drills by running
// the pipeline the latency-budget and timeouts labs use, with the drill's
// stage times, on synctest's fake clock (three seeds each). The pipeline
// waits exactly its configured latencies there, so the tolerance is 1 ms.
func TestSecondPathPipeline(t *testing.T) {
	const tol = time.Millisecond
	checks := []struct {
		id   string
		want func(t *testing.T, p Problem) time.Duration
	}{
		{"parallel-lookups", func(t *testing.T, p Problem) time.Duration {
			res, _ := runStages(t, stageConfig(p.env.st, true), &instantModel{}, nil, 1)
			return span(t, res, pipeline.StageContext).Duration()
		}},
		{"parallel-saving", func(t *testing.T, p Problem) time.Duration {
			seq, _ := runStages(t, stageConfig(p.env.st, false), &instantModel{}, nil, 1)
			par, _ := runStages(t, stageConfig(p.env.st, true), &instantModel{}, nil, 1)
			return span(t, seq, pipeline.StageContext).Duration() - span(t, par, pipeline.StageContext).Duration()
		}},
		{"guard-alongside", func(t *testing.T, p Problem) time.Duration {
			cfg := stageConfig(p.env.st, true)
			cfg.Guard.Alongside = true
			res, _ := runStages(t, cfg, &instantModel{}, nil, 1)
			return span(t, res, pipeline.StagePrompt).Start
		}},
		{"budget-left", func(t *testing.T, p Problem) time.Duration {
			res, _ := runStages(t, stageConfig(p.env.st, true), &instantModel{}, nil, 1)
			return p.env.limit - res.Summary.FirstWord // the model answers at once
		}},
		{"deadline-left", func(t *testing.T, p Problem) time.Duration {
			cfg := stageConfig(p.env.st, true)
			cfg.Deadline = p.env.limit
			medium, small := &instantModel{failAfter: p.env.spent}, &instantModel{hold: true}
			res, _ := runStages(t, cfg, medium, small, 1)
			if res.Status != pipeline.StatusTimeout || len(small.started) != 1 {
				t.Fatalf("status %s, %d retries; want the retry cut off by the deadline", res.Status, len(small.started))
			}
			return small.endedAt.Sub(medium.failedAt)
		}},
		// The p99 of the stalling service: many requests through the
		// pipeline with the retrieval's stall rate, ranked by the labs'
		// own percentile.
		{"budget-tail", func(t *testing.T, p Problem) time.Duration {
			cfg := stageConfig(stages{}, true)
			cfg.Guard.Enabled = false
			cfg.Context.HistoryTurns, cfg.Context.Order = 0, false
			cfg.Context.RetrievalLatency = pipeline.Latency{Base: p.env.limit, Spike: p.env.spent, SpikeRate: 1 / float64(p.env.every)}
			var ms []float64
			for seed := int64(1); seed <= 600; seed++ {
				res, _ := runStages(t, cfg, &instantModel{}, nil, seed)
				ms = append(ms, pipelinelab.MS(span(t, res, pipeline.StageRetrieval).Duration()))
			}
			return time.Duration(pipelinelab.Percentile(ms, 99) * float64(time.Millisecond))
		}},
	}
	for _, c := range checks {
		tm, ok := LookupTemplate(c.id)
		if !ok {
			t.Fatalf("no template %s", c.id)
		}
		for _, seed := range testSeeds {
			p, err := tm.Draw(seed)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(c.id, func(t *testing.T) {
				got, want := time.Duration(p.Answer*float64(time.Second)), c.want(t, p)
				t.Logf("seed %d: answer %v, pipeline %v", seed, got, want)
				if d := got - want; d > tol || d < -tol {
					t.Errorf("seed %d: answer %v, the pipeline says %v (tolerance %v)", seed, got, want, tol)
				}
			})
		}
	}
}
