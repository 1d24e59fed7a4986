package streaming

import (
	"sync"
	"sync/atomic"
	"time"
)

// lockstep is the live engine's clock in tests. Like live.FakeClock, After
// jumps time forward at once, but it waits for a permit first, and the
// handler's clock hands out one permit each time the handler reads the time.
// The handler reads the time once per event, so the engine never runs more
// than one step ahead of the handler and every handler timestamp equals the
// modelled time of its event exactly.
type lockstep struct {
	mu      sync.Mutex
	now     time.Time
	permits chan struct{}
	freed   chan struct{}
	once    sync.Once
	stalled atomic.Bool // a step waited for a permit that never came
}

func newLockstep(t time.Time) *lockstep {
	return &lockstep{now: t, permits: make(chan struct{}, 1<<16), freed: make(chan struct{})}
}

// Now is the engine's view of the time; it grants nothing.
func (c *lockstep) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After advances the clock by d once a permit (or free) allows it.
func (c *lockstep) After(d time.Duration) <-chan time.Time {
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

// grant lets the engine take one more step.
func (c *lockstep) grant() { c.permits <- struct{}{} }

// drain drops unused permits. A run leaves some behind (the handler also
// reads the time for the final event, which needs no step); drain them
// between runs so the next run starts in lockstep again.
func (c *lockstep) drain() {
	for {
		select {
		case <-c.permits:
		default:
			return
		}
	}
}

// free lets the engine run on without waiting for the handler.
func (c *lockstep) free() { c.once.Do(func() { close(c.freed) }) }

// handler returns the handler's clock: reading it grants the engine one step.
func (c *lockstep) handler() Clock { return handlerClock{c} }

type handlerClock struct{ c *lockstep }

func (h handlerClock) Now() time.Time {
	t := h.c.Now()
	h.c.grant()
	return t
}
