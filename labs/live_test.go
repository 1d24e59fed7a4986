package labs

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/clock/clocktest"
)

// toyLiveLab is a lab built on LiveLab; its run reports what it was built
// with, so the tests see NewLive's wiring through a real Run.
type toyLiveLab struct{ LiveLab[toyParams] }

func (l *toyLiveLab) run(_ context.Context, p toyParams, emit func(Frame)) error {
	_, id := l.IDs.Next()
	emit(Frame{Final: true, Status: id + " " + p.Mode})
	return nil
}

func toyDefine(run func(context.Context, toyParams, func(Frame)) error) (*Kit[toyParams], error) {
	var unused toyParams
	spec := toySpec(&unused)
	spec.Run = run
	return Define(spec)
}

func TestNewLiveResolvesConfig(t *testing.T) {
	jump := clocktest.NewJump(time.Unix(0, 0))
	tests := []struct {
		name      string
		pool      EnginesConfig
		tick      time.Duration
		wantTick  time.Duration
		wantClock clock.Clock
		runTag    string
		wantRun   string // the first run's status; "" for a random tag
	}{
		{"defaults: wall clock, 100 ms refresh", EnginesConfig{}, 0, 100 * time.Millisecond, clock.Wall{}, "", ""},
		{"the pool's clock times the lab", EnginesConfig{Clock: jump}, 0, 100 * time.Millisecond, jump, "", ""},
		{"a set refresh is kept", EnginesConfig{}, 250 * time.Millisecond, 250 * time.Millisecond, clock.Wall{}, "", ""},
		{"a negative refresh stays off", EnginesConfig{}, -1, -1, clock.Wall{}, "", ""},
		{"a fixed run tag numbers the runs", EnginesConfig{}, 0, 100 * time.Millisecond, clock.Wall{}, "fixed", "toy-fixed-1 quiet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pool := NewEngines(tc.pool)
			defer pool.Close()
			l, err := NewLive(LiveConfig{Engines: pool, Tick: tc.tick, RunTag: tc.runTag}, toyDefine, (*toyLiveLab).run)
			if err != nil {
				t.Fatal(err)
			}
			if l.Engines != pool || l.Tick != tc.wantTick || l.Clock != tc.wantClock {
				t.Errorf("built with pool %p tick %v clock %v; want pool %p tick %v clock %v",
					l.Engines, l.Tick, l.Clock, pool, tc.wantTick, tc.wantClock)
			}
			var got Frame
			if err := l.Run(context.Background(), map[string]any{"mode": "quiet"}, func(f Frame) { got = f }); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got.Status, "toy-") || !strings.HasSuffix(got.Status, "-1 quiet") {
				t.Errorf("run saw %q, want the lab's first toy run id and its params", got.Status)
			}
			if tc.wantRun != "" && got.Status != tc.wantRun {
				t.Errorf("run saw %q, want %q under the fixed tag", got.Status, tc.wantRun)
			}
		})
	}
}

func TestNewLiveWithoutPool(t *testing.T) {
	_, err := NewLive(LiveConfig{}, toyDefine, (*toyLiveLab).run)
	if err == nil || !strings.Contains(err.Error(), "toy lab: no engine pool") {
		t.Fatalf("err = %v, want one naming the lab and the missing pool", err)
	}
}

func TestLiveLabTicker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pool := NewEngines(EnginesConfig{})
		defer pool.Close()
		for _, tc := range []struct {
			tick  time.Duration
			ticks bool
		}{{30 * time.Millisecond, true}, {-1, false}} {
			l, err := NewLive(LiveConfig{Engines: pool, Tick: tc.tick}, toyDefine, (*toyLiveLab).run)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			tk := l.Ticker()
			if (tk.C != nil) != tc.ticks {
				t.Fatalf("tick %v: ticker channel %v, want ticking %v", tc.tick, tk.C, tc.ticks)
			}
			if tc.ticks {
				if at := (<-tk.C).Sub(start); at != tc.tick {
					t.Errorf("first tick after %v, want %v", at, tc.tick)
				}
			}
			tk.Stop()
		}
	})
}
