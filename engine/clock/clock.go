// Package clock is the one source of wall time for the code that waits on
// it: the live engine pacing its steps, the request pipeline, the
// moderation checker, the lab handlers and the web server. Production
// passes Wall; tests either run inside a testing/synctest bubble (which
// fakes the time package for everything in it, Wall included) or, where a
// bubble cannot hold the test (real sockets, a browser), inject a fake from
// clocktest.
//
// This is not the engine's virtual clock: engine.Simulate advances its own
// modelled time step by step and never waits. A Clock is what real time
// looks like to code that must wait for it.
package clock

import (
	"context"
	"time"
)

// Clock is a source of wall time and of waits on it.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// Wall is the real clock: the time package.
type Wall struct{}

// Now returns time.Now().
func (Wall) Now() time.Time { return time.Now() }

// After is time.After.
func (Wall) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Or returns clk, or Wall when clk is nil, so a zero Config field means
// the real clock.
func Or(clk Clock) Clock {
	if clk == nil {
		return Wall{}
	}
	return clk
}

// Sleep waits d on clk, returning early with the context's cause when ctx
// ends first.
func Sleep(ctx context.Context, clk Clock, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	if d <= 0 {
		return nil
	}
	select {
	case <-clk.After(d):
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
