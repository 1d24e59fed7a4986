package live

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// recordingObserver keeps every RequestStats it is given.
type recordingObserver struct {
	mu   sync.Mutex
	seen map[string]RequestStats // by source; each test request has its own
	n    int
}

func (r *recordingObserver) RequestFinished(s RequestStats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen[s.Source] = s
	r.n++
}

func (r *recordingObserver) get(source string) (RequestStats, int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.seen[source]
	return s, r.n, ok
}

// Every request that finishes is observed once, before its final event
// reaches the caller, with the source its context names (or the engine's
// default), its engine timings and one gap per token after the first.
func TestObserverSeesEachFinishedRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recordingObserver{seen: map[string]RequestStats{}}
		e, err := New(Config{Engine: engine.DefaultConfig(), Observer: rec, Source: "lab"})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		for i, tc := range []struct {
			ctx        context.Context
			wantSource string
			out        int
		}{
			{WithSource(context.Background(), "api"), "api", 12},
			{context.Background(), "lab", 7},
			{WithSource(context.Background(), "chat"), "chat", 1},
		} {
			ch, err := e.Submit(tc.ctx, request(tc.wantSource, 300, tc.out))
			if err != nil {
				t.Fatal(err)
			}
			var times []time.Duration
			var final Event
			for ev := range ch {
				if ev.Done {
					final = ev
				} else {
					times = append(times, ev.Time)
				}
			}
			got, n, ok := rec.get(tc.wantSource)
			if !ok || n != i+1 {
				t.Fatalf("%s: observed %v with %d requests in all, want it observed as request %d before its final event", tc.wantSource, ok, n, i+1)
			}
			var wantGaps []time.Duration
			for j := 1; j < len(times); j++ {
				wantGaps = append(wantGaps, times[j]-times[j-1])
			}
			if !slices.Equal(got.TokenGaps, wantGaps) || got.Timing != final.Timing || got.Usage != final.Usage || got.FinishReason != final.FinishReason {
				t.Errorf("%s: observed %+v, want gaps %v and the final event's %+v", tc.wantSource, got, wantGaps, final)
			}
		}
	})
}

// An aborted request is not observed: its latency is the client's
// patience, not the engine's work.
func TestObserverSkipsAborted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recordingObserver{seen: map[string]RequestStats{}}
		e, err := New(Config{Engine: engine.DefaultConfig(), Observer: rec})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		ctx, cancel := context.WithCancel(context.Background())
		ch, err := e.Submit(ctx, request("gone", 400, 60000))
		if err != nil {
			t.Fatal(err)
		}
		<-ch
		cancel()
		for range ch {
		}
		deadline := time.Now().Add(10 * time.Second)
		for st := e.Stats(); st.FinishedRequests != 1 || st.Running != 0; st = e.Stats() {
			if time.Now().After(deadline) {
				t.Fatalf("request not aborted: %+v", st)
			}
			time.Sleep(time.Millisecond)
		}
		if _, n, _ := rec.get(""); n != 0 {
			t.Errorf("observed %d requests after an abort, want 0", n)
		}
	})
}
