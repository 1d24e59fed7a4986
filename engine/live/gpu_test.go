package live

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// TestGPUTimeIgnoresStall: a stall the runner resyncs after shows in the
// engine timestamps (Time) but not in the modelled GPU times, which match
// the virtual-clock simulation of the request alone token by token.
func TestGPUTimeIgnoresStall(t *testing.T) {
	req := request("s", 200, 100)
	sim, err := engine.Simulate(engine.DefaultConfig(), []engine.Request{req}, engine.SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := sim.Requests[0].TokenTimes
	tests := []struct {
		name  string
		stall time.Duration
	}{
		{"no stall", 0},
		{"stall under MaxLag", 200 * time.Millisecond},
		{"stall over MaxLag", 2 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := &lateClock{now: t0, stallAt: 20, stall: tc.stall}
			e := newTestEngine(t, clk)
			ch, err := e.Submit(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var final Event
			for ev := range ch {
				if ev.Done {
					final = ev
					continue
				}
				if ev.GPU != want[ev.Index] {
					t.Fatalf("token %d: GPU time %v, simulation alone %v", ev.Index, ev.GPU, want[ev.Index])
				}
			}
			if final.GPU != want[len(want)-1] {
				t.Errorf("final event GPU time %v, want %v", final.GPU, want[len(want)-1])
			}
		})
	}
}

// TestSharingCounts: a request alone reports no sharing; two requests
// sent together report each other, with every step shared.
func TestSharingCounts(t *testing.T) {
	tests := []struct {
		name       string
		ids        []string
		wantOthers int
	}{
		{"alone", []string{"a"}, 0},
		{"two together", []string{"a", "b"}, 1},
		{"four together", []string{"a", "b", "c", "d"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newTestEngine(t, nil)
				var chans []<-chan Event
				for _, id := range tc.ids {
					ch, err := e.Submit(context.Background(), request(id, 300, 20))
					if err != nil {
						t.Fatal(err)
					}
					chans = append(chans, ch)
				}
				for i, ch := range chans {
					var final Event
					for ev := range ch {
						final = ev
					}
					sh := final.Sharing
					if sh.Others != tc.wantOthers {
						t.Errorf("%s: %d others, want %d (%+v)", tc.ids[i], sh.Others, tc.wantOthers, sh)
					}
					if sh.Steps == 0 || sh.MaxBatch != len(tc.ids) {
						t.Errorf("%s: steps %d max batch %d, want >0 and %d", tc.ids[i], sh.Steps, sh.MaxBatch, len(tc.ids))
					}
					alone := len(tc.ids) == 1
					if alone != (sh.SharedSteps == 0 && sh.SharedTime == 0) {
						t.Errorf("%s: shared steps %d time %v with %d requests", tc.ids[i], sh.SharedSteps, sh.SharedTime, len(tc.ids))
					}
					if sh.MeanBatch < 1 || sh.MeanBatch > float64(sh.MaxBatch) {
						t.Errorf("%s: mean batch %.2f outside [1, %d]", tc.ids[i], sh.MeanBatch, sh.MaxBatch)
					}
				}
			})
		})
	}
}

// TestSharingLateComer: a request that joins a running one's batch later
// is counted once by each, however many steps they share.
func TestSharingLateComer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTestEngine(t, nil)
		first, err := e.Submit(context.Background(), request("first", 300, 60))
		if err != nil {
			t.Fatal(err)
		}
		<-first // its first token: it is decoding
		second, err := e.Submit(context.Background(), request("second", 300, 10))
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []<-chan Event{second, first} {
			var final Event
			for ev := range ch {
				final = ev
			}
			if final.Sharing.Others != 1 || final.Sharing.SharedSteps == 0 || final.Sharing.SharedSteps == final.Sharing.Steps && final.Usage.CompletionTokens == 60 {
				t.Errorf("%+v: sharing %+v", final.Usage, final.Sharing)
			}
		}
	})
}

// wakeLateClock is a clock on which time passes only in waits (which
// return at once), and which, once armed, jumps forward by late on the
// second reading: the first is Submit's, the second the runner's first
// after it, as when a busy host wakes the runner late.
type wakeLateClock struct {
	lateClock
	late   time.Duration
	armed  bool
	reads  int
	jumped bool
}

func (c *wakeLateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed && !c.jumped {
		if c.reads++; c.reads == 2 {
			c.now, c.jumped = c.now.Add(c.late), true
		}
	}
	return c.now
}

func (c *wakeLateClock) arm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = true
}

// TestLateWakeIsNotQueueing: a runner that wakes late to an idle engine's
// submit catches up instead of counting its lateness as the GPU's: the
// GPU times are the simulation's, while the handler-facing At is late.
func TestLateWakeIsNotQueueing(t *testing.T) {
	req := request("w", 500, 30)
	sim, err := engine.Simulate(engine.DefaultConfig(), []engine.Request{req}, engine.SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := sim.Requests[0].TokenTimes
	for _, late := range []time.Duration{40 * time.Millisecond, 200 * time.Millisecond, time.Second} {
		t.Run(late.String(), func(t *testing.T) {
			clk := &wakeLateClock{lateClock: lateClock{now: t0}, late: late}
			e := newTestEngine(t, clk)
			clk.arm()
			ch, err := e.Submit(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			for ev := range ch {
				if !ev.Done && ev.GPU != want[ev.Index] {
					t.Fatalf("token %d: GPU time %v, simulation %v (the runner's late wake-up counted as GPU time)", ev.Index, ev.GPU, want[ev.Index])
				}
			}
			if !clk.jumped {
				t.Fatal("the clock never jumped: the test did not wake the runner late")
			}
		})
	}
}
