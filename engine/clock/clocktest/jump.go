// Package clocktest holds the one fake clock, for tests that cannot run
// in a testing/synctest bubble (real sockets, a browser, several
// processes) or that move time by hand. Everywhere else, run the test in a
// bubble with clock.Wall: synctest fakes it.
package clocktest

import (
	"sync"
	"time"
)

// Jump is a deterministic clock.Clock: After jumps the time forward by d
// at once and fires immediately, so a paced run completes as fast as the
// CPU allows while every timestamp is exactly as modelled. Because waits
// cost nothing, tickers on a Jump clock would spin; turn them off.
type Jump struct {
	mu  sync.Mutex
	now time.Time
}

// NewJump starts a jump clock at t.
func NewJump(t time.Time) *Jump { return &Jump{now: t} }

// Now returns the fake time.
func (c *Jump) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the fake time forward by d.
func (c *Jump) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// After advances the clock by d and returns a fired channel.
func (c *Jump) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	ch <- c.now
	c.mu.Unlock()
	return ch
}
