package labtest

import (
	"sync"
	"sync/atomic"
	"time"
)

// Lockstep is the live engine's clock in tests. Like live.FakeClock, After
// jumps time forward at once, but it waits for a permit first, and the
// handler's clock (Handler) hands out one permit each time the handler
// reads the time. A lab that reads its clock once per event never lets the
// engine run more than one step ahead of the handler, so every handler
// timestamp equals the modelled time of its event exactly. Tests keep
// prompts within one prefill step (no chunking) so that holds.
type Lockstep struct {
	mu      sync.Mutex
	now     time.Time
	permits chan struct{}
	freed   chan struct{}
	once    sync.Once
	stalled atomic.Bool // a step waited for a permit that never came
}

// NewLockstep returns a lockstep clock that starts at t.
func NewLockstep(t time.Time) *Lockstep {
	return &Lockstep{now: t, permits: make(chan struct{}, 1<<16), freed: make(chan struct{})}
}

// Now is the engine's view of the time; it grants nothing.
func (c *Lockstep) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After advances the clock by d once a permit (or Free) allows it.
func (c *Lockstep) After(d time.Duration) <-chan time.Time {
	select {
	case <-c.permits:
	case <-c.freed:
	case <-time.After(10 * time.Second): // a test bug must fail, not hang
		c.stalled.Store(true)
	}
	c.mu.Lock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	t := c.now
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- t
	return ch
}

// Stalled reports whether a step waited for a permit that never came: the
// test let the engine wait on a handler that had stopped reading the time.
func (c *Lockstep) Stalled() bool { return c.stalled.Load() }

// Free lets the engine run on without waiting for the handler.
func (c *Lockstep) Free() { c.once.Do(func() { close(c.freed) }) }

// Grant lets the engine take one more step.
func (c *Lockstep) Grant() { c.permits <- struct{}{} }

// Drain drops unused permits. A run leaves some behind (the handler also
// reads the time for the final event, which needs no step); drain them
// between runs so the next run starts in lockstep again.
func (c *Lockstep) Drain() {
	for {
		select {
		case <-c.permits:
		default:
			return
		}
	}
}

// Handler returns the handler's clock: reading it grants the engine one
// step.
func (c *Lockstep) Handler() HandlerClock { return HandlerClock{c} }

// HandlerClock is a lab handler's view of a Lockstep clock.
type HandlerClock struct{ c *Lockstep }

// Now returns the time and grants the engine one step.
func (h HandlerClock) Now() time.Time {
	t := h.c.Now()
	h.c.Grant()
	return t
}
