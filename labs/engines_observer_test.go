package labs

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// sourceCounter counts finished requests per source.
type sourceCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *sourceCounter) RequestFinished(s live.RequestStats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[s.Source]++
}

// Each engine the pool starts gets an observer built for its profile; a
// request whose context names no source counts as "lab" (or the pool's
// Source), one that names a source keeps it; Each lists every started
// engine.
func TestEnginesObserverAndSource(t *testing.T) {
	for _, tc := range []struct {
		poolSource, ctxSource, want string
	}{
		{"", "", "lab"},
		{"", "api", "api"},
		{"workshop", "", "workshop"},
	} {
		synctest.Test(t, func(t *testing.T) {
			counter := &sourceCounter{n: map[string]int{}}
			var built []Profile
			pool := NewEngines(EnginesConfig{Source: tc.poolSource,
				Observer: func(p Profile) live.Observer { built = append(built, p); return counter }})
			p := Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
			le, err := pool.Get(p)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.ctxSource != "" {
				ctx = live.WithSource(ctx, tc.ctxSource)
			}
			ch, err := le.Submit(ctx, engine.Request{ID: "r", PromptTokens: []int{1, 2, 3}, OutputTokens: []int{7, 8}})
			if err != nil {
				t.Fatal(err)
			}
			for range ch {
			}
			var listed []Profile
			pool.Each(func(q Profile, e *live.Engine) {
				if e == le {
					listed = append(listed, q)
				}
			})
			pool.Close()
			if len(built) != 1 || built[0] != p.normal() || len(listed) != 1 || listed[0] != p.normal() {
				t.Errorf("observer built for %v, Each listed %v; want %v once each", built, listed, p.normal())
			}
			if counter.n[tc.want] != 1 || len(counter.n) != 1 {
				t.Errorf("pool source %q, context source %q: observed %v, want one under %q", tc.poolSource, tc.ctxSource, counter.n, tc.want)
			}
		})
	}
}
