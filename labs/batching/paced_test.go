package batching

import (
	"sync"
	"time"
)

// pacedClock is a discrete-event clock for live runs in tests. Time moves
// only when timers fire, and a timer fires once every party that waits on
// the clock (the engine's runner and the lab's arrival loop) is waiting, so
// the earliest deadline always wins: an arrival due mid-step is submitted
// when that step ends, as on the wall clock, and a run of minutes of
// modelled time takes milliseconds. When only one party is waiting for a
// while (the engine is idle, blocked on its wake channel rather than the
// clock), the earliest timer fires anyway.
type pacedClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []pacedTimer
	parties int
	last    time.Time // real time of the latest registration
	kick    chan struct{}
	stop    chan struct{}
}

type pacedTimer struct {
	at time.Time
	ch chan time.Time
}

// quiet is how long one lone waiter waits (real time) before its timer
// fires without the other party.
const quiet = 10 * time.Millisecond

func newPacedClock() *pacedClock {
	c := &pacedClock{now: time.Unix(1000, 0), parties: 2, kick: make(chan struct{}, 1), stop: make(chan struct{})}
	go c.drive()
	return c
}

func (c *pacedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *pacedClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	if d <= 0 {
		ch <- c.now
		c.mu.Unlock()
		return ch
	}
	c.timers = append(c.timers, pacedTimer{at: c.now.Add(d), ch: ch})
	c.last = time.Now()
	c.mu.Unlock()
	c.poke()
	return ch
}

// solo says the arrival loop is done: from now on only the engine waits.
func (c *pacedClock) solo() {
	c.mu.Lock()
	c.parties = 1
	c.mu.Unlock()
	c.poke()
}

func (c *pacedClock) close() { close(c.stop) }

func (c *pacedClock) poke() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *pacedClock) drive() {
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		case <-time.After(quiet):
		}
		c.mu.Lock()
		if len(c.timers) > 0 && (len(c.timers) >= c.parties || time.Since(c.last) >= quiet) {
			c.fireLocked()
			c.poke()
		}
		c.mu.Unlock()
	}
}

// fireLocked advances to the earliest deadline and fires every timer due.
func (c *pacedClock) fireLocked() {
	next := c.timers[0].at
	for _, t := range c.timers {
		if t.at.Before(next) {
			next = t.at
		}
	}
	c.now = next
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(next) {
			kept = append(kept, t)
		} else {
			t.ch <- next
		}
	}
	c.timers = kept
}
