package prefilldecode

import (
	"sync"
	"sync/atomic"
	"time"
)

// lockstep is the live engine's clock in tests. Like live.FakeClock, After
// jumps time forward at once, but only with a permit, and the handler's
// clock hands out one permit each time the handler reads the time. The lab
// reads its clock when it sends its first request and once per token, so
// the engine never runs more than one step ahead of the handler and every
// handler timestamp equals the modelled time of its event exactly. Tests
// keep prompts within one prefill step (no chunking) so that holds.
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

// free lets the engine run on without waiting for the handler.
func (c *lockstep) free() { c.once.Do(func() { close(c.freed) }) }

// handler returns the handler's clock: reading it grants the engine one step.
func (c *lockstep) handler() Clock { return handlerClock{c} }

type handlerClock struct{ c *lockstep }

func (h handlerClock) Now() time.Time {
	t := h.c.Now()
	h.c.permits <- struct{}{}
	return t
}

// drain drops unused permits. A run leaves one behind (the handler reads
// the time for the last token, which needs no further step); drain between
// runs so the next run starts in lockstep again.
func (c *lockstep) drain() {
	for {
		select {
		case <-c.permits:
		default:
			return
		}
	}
}
