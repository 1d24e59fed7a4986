package clock

import (
	"sync"
	"time"
)

// Ticker delivers the time on C every period of its clock, like
// time.Ticker but on any Clock, so a fake clock or a synctest bubble moves
// a panel refresh the same way it moves everything else. Like
// time.Ticker, it drops ticks for a slow reader rather than queueing them.
//
// A clock whose After fires at once (clocktest.Jump) would make a Ticker
// spin, jumping time forward with every tick: code under such a clock
// turns ticking off (NewTicker with a period of 0).
type Ticker struct {
	// C receives the ticks; it is nil, and never ready, when ticking is off.
	C <-chan time.Time

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// NewTicker starts a ticker on clk with the given period; a period of 0 or
// less returns a ticker that never ticks. Stop it when done.
func NewTicker(clk Clock, period time.Duration) *Ticker {
	t := &Ticker{stop: make(chan struct{})}
	if period <= 0 {
		return t
	}
	c := make(chan time.Time, 1)
	t.C = c
	t.wg.Go(func() { t.run(clk, period, c) })
	return t
}

// run waits for absolute tick times, so lateness in one wait does not
// push every later tick back.
func (t *Ticker) run(clk Clock, period time.Duration, c chan<- time.Time) {
	next := clk.Now().Add(period)
	for {
		select {
		case <-t.stop:
			return
		case now := <-clk.After(next.Sub(clk.Now())):
			select {
			case c <- now:
			default: // the reader has not taken the last tick
			}
			next = next.Add(period)
			if !next.After(now) { // fell a whole period behind: skip, as time.Ticker does
				next = now.Add(period)
			}
		}
	}
}

// Stop ends the ticks and waits until no more can be sent; it may be
// called more than once.
func (t *Ticker) Stop() {
	t.stopOnce.Do(func() { close(t.stop) })
	t.wg.Wait()
}
