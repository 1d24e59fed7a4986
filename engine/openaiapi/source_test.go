package openaiapi

import (
	"io"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
	"github.com/latencylab/latencylab/engine/live"
)

// obsRecorder is a live.Observer that keeps what it is told.
type obsRecorder struct {
	mu   sync.Mutex
	seen []live.RequestStats
}

func (r *obsRecorder) RequestFinished(s live.RequestStats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, s)
}

func (r *obsRecorder) all() []live.RequestStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]live.RequestStats(nil), r.seen...)
}

// Every request the API completes reaches the engine's observer exactly
// once, labelled "api" whatever the engine's default source, with one gap
// per token after the first: the serving metrics count API traffic from
// the engine, not from the handler.
func TestRequestsObservedAsAPI(t *testing.T) {
	stage, err := DefaultModeration()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		moderated bool
		path      string
		body      string
	}{
		{"chat streamed", false, "/v1/chat/completions", `{"stream":true,"max_tokens":9,"ignore_eos":true,"messages":[{"role":"user","content":"What is decode?"}]}`},
		{"chat whole", false, "/v1/chat/completions", `{"max_tokens":9,"ignore_eos":true,"messages":[{"role":"user","content":"What is decode?"}]}`},
		{"completion", false, "/v1/completions", `{"prompt":"Why batch?","max_tokens":9,"ignore_eos":true}`},
		{"chat moderated streamed", true, "/v1/chat/completions", `{"stream":true,"max_tokens":9,"ignore_eos":true,"messages":[{"role":"user","content":"What is decode?"}]}`},
		{"chat moderated whole", true, "/v1/chat/completions", `{"max_tokens":9,"ignore_eos":true,"messages":[{"role":"user","content":"What is decode?"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &obsRecorder{}
			eng, err := live.New(live.Config{Engine: engine.DefaultConfig(), Clock: clocktest.NewJump(time.Unix(1_700_000_000, 0)),
				Observer: rec, Source: "lab"})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			cfg := Config{Engine: eng, ModelName: testModel}
			if tc.moderated {
				cfg.Moderation = stage
			}
			srv, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			resp := post(t, ts.URL+tc.path, tc.body)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			// The engine observes a request before it sends its final
			// event, so the response's end is enough to look.
			seen := rec.all()
			if len(seen) != 1 {
				t.Fatalf("observed %d requests, want 1", len(seen))
			}
			if s := seen[0]; s.Source != metricsSource || s.Usage.CompletionTokens != 9 || len(s.TokenGaps) != 8 {
				t.Errorf("observed source %q, %d tokens, %d gaps; want %q, 9, 8", s.Source, s.Usage.CompletionTokens, len(s.TokenGaps), metricsSource)
			}
		})
	}
}
