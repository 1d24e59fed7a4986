package pipeline

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// withDeadline derives a context that clk cancels with cause at the wall
// time at. It uses clk rather than context.WithDeadline so that deadlines
// follow an injected clock like every other wait in the pipeline.
func withDeadline(ctx context.Context, clk clock.Clock, at time.Time, cause error) (context.Context, context.CancelFunc) {
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
