package web

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/labs"
)

// forwardRun runs lab slug's start through the stream runner, sending its
// frames to send at most one per gap, the final frame always.
func forwardRun(ctx context.Context, slug string, start func(context.Context, func(labs.Frame)) error, clk clock.Clock, gap time.Duration,
	send func(labs.Frame) error) streamResult[labs.Frame] {
	r := streamRunner[labs.Frame]{Name: "lab " + slug, Clock: clk, Gap: gap, Merge: carryPanels}
	return r.run(ctx, start, send)
}

// carryPanels keeps the panels of a frame that was never sent in the frame
// replacing it where that one leaves them nil, so coalescing never loses a
// panel update a skipped frame made (a final frame with only stats must
// not leave the chart one step behind).
func carryPanels(unsent, next labs.Frame) labs.Frame {
	if next.Stats == nil {
		next.Stats = unsent.Stats
	}
	if next.Text == nil {
		next.Text = unsent.Text
	}
	if next.Charts == nil {
		next.Charts = unsent.Charts
	}
	if next.Tables == nil {
		next.Tables = unsent.Tables
	}
	return next
}

// finalFrame is the run's final frame if it reached the page.
func finalFrame(res streamResult[labs.Frame]) *labs.Frame {
	if res.Sent == 0 || !res.Last.Final {
		return nil
	}
	f := res.Last
	return &f
}
