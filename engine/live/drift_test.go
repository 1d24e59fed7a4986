package live

import (
	"context"
	"sync"
	"testing"
	"time"
)

// t0 is where the drift tests' clocks start.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// lateClock oversleeps every wait by a fixed amount, like a loaded machine,
// and can stall once by a larger jump.
type lateClock struct {
	mu        sync.Mutex
	now       time.Time
	oversleep time.Duration
	stallAt   int           // the wait number that stalls (0: never)
	stall     time.Duration // how long that wait oversleeps
	waits     int
}

func (c *lateClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *lateClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits++
	c.now = c.now.Add(d + c.oversleep)
	if c.waits == c.stallAt {
		c.now = c.now.Add(c.stall)
	}
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

// TestDriftDoesNotAccumulate: sleeping to absolute step ends means a
// runner that oversleeps every step stays one oversleep behind the model,
// not one per step.
func TestDriftDoesNotAccumulate(t *testing.T) {
	clk := &lateClock{now: t0, oversleep: 2 * time.Millisecond}
	e := newTestEngine(t, clk)
	ch, err := e.Submit(context.Background(), request("h", 200, 300))
	if err != nil {
		t.Fatal(err)
	}
	var last Event
	for ev := range ch {
		last = ev
	}
	lag := clk.Now().Sub(last.At)
	if lag > 3*time.Millisecond {
		t.Errorf("after %d waits the runner lags the model by %v", clk.waits, lag)
	}
}

// TestStallResyncs: after a stall longer than MaxLag the engine clock
// jumps to the wall instead of replaying the backlog in a burst.
func TestStallResyncs(t *testing.T) {
	clk := &lateClock{now: t0, stallAt: 20, stall: 2 * time.Second}
	e := newTestEngine(t, clk)
	ch, err := e.Submit(context.Background(), request("i", 200, 100))
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Duration
	for ev := range ch {
		if !ev.Done {
			times = append(times, ev.Time)
		}
	}
	gap := time.Duration(0)
	for i := 1; i < len(times); i++ {
		gap = max(gap, times[i]-times[i-1])
	}
	if gap < 2*time.Second {
		t.Errorf("largest token gap %v: the stall was not absorbed by a resync", gap)
	}
	if lag := clk.Now().Sub(e.Start().Add(times[len(times)-1])); lag > 250*time.Millisecond {
		t.Errorf("runner still %v behind the model after the stall", lag)
	}
}
