package pipeline

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// The pipeline keeps two timelines. The modelled one adds up what each
// stage's latency distribution drew, the network and the engine's GPU
// stamps; every figure and every limit (deadline, first-token and overall
// timeouts) is read on it, so a busy host (a workshop server, a loaded
// laptop) cannot move them. The handler's clock still paces the run, so a
// learner watches it unfold at the modelled speed, and its times are kept
// beside the modelled ones (Span.WallStart, Summary.Handler).

// backstop is when, on the handler's clock, a limit stops a call whose
// modelled time never comes (a provider that sends nothing): at the limit
// on a calm host, and twice as late as the host already ran behind the
// modelled timeline on a busy one, so a host that keeps falling behind
// does not fire a limit the modelled run stayed inside.
func backstop(limit, late time.Duration) time.Duration {
	return limit + 2*max(late, 0)
}

// waitUntil paces the run: it waits on the handler's clock until the
// modelled moment end, so a host that ran late does not wait twice, and
// returns the moment the stage ended on the modelled timeline. The request
// deadline cuts a stage that would end after it.
func (r *run) waitUntil(ctx context.Context, end time.Duration) (time.Duration, error) {
	var cut error
	if dl := r.cfg.Deadline; dl > 0 && end > dl {
		end, cut = dl, ErrDeadline
	}
	if err := clock.Sleep(ctx, r.deps.Clock, end-r.rec.since()); err != nil {
		return r.stoppedAt(ctx, end), err
	}
	return end, cut
}

// stoppedAt is the modelled moment a stage meant to end at end stopped
// because ctx ended: the deadline when the backstop fired, else (the
// client left) now on the handler's clock, at most end.
func (r *run) stoppedAt(ctx context.Context, end time.Duration) time.Duration {
	if errors.Is(context.Cause(ctx), ErrDeadline) && r.cfg.Deadline > 0 {
		return min(end, r.cfg.Deadline)
	}
	return min(end, r.rec.since())
}

// limit is a modelled moment past which a token is not shown, and the
// error that cuts it there.
type limit struct {
	at    time.Duration // since the request start; 0: none
	cause error
}

// earliestPassed is the earliest of limits that when is past, if any.
func earliestPassed(when time.Duration, limits ...limit) (limit, bool) {
	var out limit
	found := false
	for _, l := range limits {
		if l.at > 0 && when > l.at && (!found || l.at < out.at) {
			out, found = l, true
		}
	}
	return out, found
}

// earliest is the earliest limit set, if any.
func earliest(limits ...limit) (limit, bool) {
	return earliestPassed(math.MaxInt64, limits...)
}
