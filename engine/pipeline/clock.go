package pipeline

import (
	"context"
	"time"
)

// Clock is the pipeline's only source of time, injected so tests run on
// virtual time. Its method set matches live.Clock, so one clock can drive
// both the pipeline and a live engine.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// After is time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

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

// withDeadline derives a context that clk cancels with cause at the wall
// time at. It uses clk rather than context.WithDeadline so that deadlines
// follow an injected clock like every other wait in the pipeline.
func withDeadline(ctx context.Context, clk Clock, at time.Time, cause error) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	d := at.Sub(clk.Now())
	if d <= 0 {
		cancel(cause)
		return ctx, func() { cancel(context.Canceled) }
	}
	go func() {
		select {
		case <-clk.After(d):
			cancel(cause)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}
