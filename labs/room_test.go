package labs

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
)

// TestRoomLoadDialFillsTheBatch runs a room on virtual time: with the dial
// at zero the engine idles; turned up, the batch and queue fill, the
// samples say so and a tracked run (one learner's request, sent once the
// dial's traffic is steady) sees neighbours.
func TestRoomLoadDialFillsTheBatch(t *testing.T) {
	tests := []struct {
		name        string
		rps         float64
		wantRunning bool
	}{
		{"dial at zero", 0, false},
		{"dial at 40/s", 40, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, err := NewRoom(RoomConfig{Profile: Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}, Seed: 7})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				r.SetLoad(tc.rps)
				ctx, tr := r.Track(t.Context())
				time.Sleep(5 * time.Second)
				learnerRequest(t, ctx, r.cfg.Profile, "learner")
				time.Sleep(5500 * time.Millisecond)
				shared := tr.Done()
				h := r.History()
				if len(h) != 10 {
					t.Fatalf("%d samples in 10.5 s, want 10", len(h))
				}
				peak := 0
				for _, s := range h {
					peak = max(peak, s.Running)
				}
				if got := peak > 0; got != tc.wantRunning {
					t.Errorf("peak batch %d; want busy=%v", peak, tc.wantRunning)
				}
				if got := shared > 0; got != tc.wantRunning {
					t.Errorf("tracked run shared its batch with %d; want some=%v", shared, tc.wantRunning)
				}
			})
		})
	}
}

// learnerRequest submits a learner's chat turn with ctx to p's engine in
// the pool ctx names, and drains it in the background.
func learnerRequest(t *testing.T, ctx context.Context, p Profile, id string) {
	t.Helper()
	pool := (*Engines)(nil).For(ctx)
	if pool == nil {
		t.Fatal("the tracked context names no pool")
	}
	le, err := pool.Get(p)
	if err != nil {
		t.Fatal(err)
	}
	req := engine.Request{ID: id, PromptTokens: make([]int, 400), MaxTokens: 60, IgnoreEOS: true}
	events, err := le.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range events {
		}
	}()
}

func TestEnginesForPrefersTheContextsPool(t *testing.T) {
	own, room := NewEngines(EnginesConfig{}), NewEngines(EnginesConfig{})
	defer own.Close()
	defer room.Close()
	if got := own.For(context.Background()); got != own {
		t.Error("a plain context should keep the lab's own pool")
	}
	if got := own.For(WithEngines(context.Background(), room)); got != room {
		t.Error("a room's context should select the room's pool")
	}
}

func TestPercentileNearestRank(t *testing.T) {
	vals := []float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
	for _, tc := range []struct{ p, want float64 }{{50, 50}, {95, 100}, {0, 10}, {100, 100}} {
		if got := Percentile(vals, tc.p); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.p, got, tc.want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("empty input should give 0")
	}
}

// countingObserver counts finished requests by source.
type countingObserver struct {
	mu  *sync.Mutex
	got map[string]int
}

func (c countingObserver) RequestFinished(st live.RequestStats) {
	c.mu.Lock()
	c.got[st.Source]++
	c.mu.Unlock()
}

// A room's extra observer (the server's metrics) sees every request on
// the room's engine, the synthetic tenants' included, beside the room's
// own panel.
func TestRoomObserverSeesTheRoomsRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		seen := countingObserver{mu: &sync.Mutex{}, got: map[string]int{}}
		p := Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
		r, err := NewRoom(RoomConfig{Profile: p, Seed: 7, Observer: func(Profile) live.Observer { return seen }})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		r.SetLoad(5)
		time.Sleep(5 * time.Second)
		r.SetLoad(0)
		time.Sleep(5 * time.Second) // let the tenants' requests finish
		seen.mu.Lock()
		defer seen.mu.Unlock()
		if seen.got[SourceSynthetic] == 0 {
			t.Errorf("the extra observer saw %v, want the tenants' requests", seen.got)
		}
	})
}

// A room follows each run on the engine the run used: with the dial
// loading the main engine, a run there shares its batch with the dial's
// requests, a run alone on another engine of the pool shares with nobody
// (the main engine's busy batch is not its), and two runs together on
// that other engine share with each other only. The load panel, which
// draws the main engine, counts only the runs there.
func TestRoomTracksEachRunOnItsOwnEngine(t *testing.T) {
	main := Profile{Hardware: "h100-sxm", Model: "llama-3.1-8b"}
	other := Profile{Hardware: "l4", Model: "llama-3.1-8b"}
	synctest.Test(t, func(t *testing.T) {
		r, err := NewRoom(RoomConfig{Profile: main, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		r.SetLoad(40)
		time.Sleep(5 * time.Second) // the dial's traffic is steady
		tests := []struct {
			name     string
			profiles []Profile // one request each, sent together
			want     func(int) bool
			about    string
		}{
			{"on the loaded main engine", []Profile{main}, func(n int) bool { return n >= 5 }, "at least 5"},
			{"alone on the other engine", []Profile{other}, func(n int) bool { return n == 0 }, "0"},
			{"with a second run on the other engine", []Profile{other, other}, func(n int) bool { return n == 1 }, "1"},
		}
		sent := 0 // learners' requests on the main engine
		for _, tc := range tests {
			var trackers []*BatchTracker
			for i, p := range tc.profiles {
				ctx, tr := r.Track(t.Context())
				learnerRequest(t, ctx, p, fmt.Sprintf("%s-%d", tc.name, i))
				trackers = append(trackers, tr)
				if p == main {
					sent++
				}
			}
			time.Sleep(5 * time.Second) // every request has ended
			for _, tr := range trackers {
				if got := tr.Done(); !tc.want(got) {
					t.Errorf("%s: shared with %d others, want %s", tc.name, got, tc.about)
				}
			}
		}
		// The load panel is the main engine's: its samples count the
		// learners' requests there and none of the other engine's.
		finished := 0
		for _, s := range r.History() {
			finished += s.Finished
		}
		if finished != sent {
			t.Errorf("the load panel counted %d learners' requests, want the %d on the main engine", finished, sent)
		}
	})
}
