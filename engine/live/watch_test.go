package live

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/latencylab/latencylab/engine"
)

// watchLog keeps what a watcher was told, by request.
type watchLog struct {
	mu   sync.Mutex
	seen map[int]RequestStats // by prompt length: each test request has its own
}

func (w *watchLog) RequestFinished(s RequestStats) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[s.Usage.PromptTokens] = s
}

// A watcher hears of exactly the requests submitted with its context,
// aborted ones included, each with the Sharing its final event carries;
// requests of others on the same engine are not reported to it.
func TestWatcherHearsOfItsOwnRequests(t *testing.T) {
	tests := []struct {
		name       string
		abort      bool
		wantFinish string
	}{
		{"run to the end", false, engine.FinishStop},
		{"aborted", true, engine.FinishAbort},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newTestEngine(t, nil)
				log := &watchLog{seen: map[int]RequestStats{}}
				mine, stop := context.WithCancel(WithWatcher(context.Background(), log))
				defer stop()
				other, err := e.Submit(context.Background(), request("other", 900, 40))
				if err != nil {
					t.Fatal(err)
				}
				ch, err := e.Submit(mine, request("mine", 300, 20))
				if err != nil {
					t.Fatal(err)
				}
				var final Event
				for ev := range ch {
					if tc.abort && ev.Index == 5 {
						stop()
					}
					if ev.Done {
						final = ev
					}
				}
				for range other {
				}
				synctest.Wait()
				log.mu.Lock()
				defer log.mu.Unlock()
				if _, ok := log.seen[900]; ok || len(log.seen) != 1 {
					t.Fatalf("watcher told of %v, want only its own request", log.seen)
				}
				got := log.seen[300]
				if got.FinishReason != tc.wantFinish || got.Sharing.MaxBatch != 2 || got.Sharing.Others != 1 {
					t.Errorf("watcher told %+v, want finish %q and a batch shared with the other request", got, tc.wantFinish)
				}
				if !tc.abort && got.Sharing != final.Sharing {
					t.Errorf("watcher's sharing %+v, final event's %+v", got.Sharing, final.Sharing)
				}
			})
		})
	}
}
