package labs

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/live"
)

// TestRoomLoadDialFillsTheBatch runs a room on virtual time: with the dial
// at zero the engine idles; turned up, the batch and queue fill, the
// samples say so and a tracked run sees neighbours.
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
				tr := r.Track()
				time.Sleep(10500 * time.Millisecond)
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
