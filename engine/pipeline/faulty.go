package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
)

// Faults are provider misbehaviours a lab can switch on. The zero value
// injects nothing.
type Faults struct {
	// FirstTokenDelay holds the first chunk back (a slow or overloaded
	// provider).
	FirstTokenDelay time.Duration
	// StallFor pauses the stream for this long once StallAfter tokens have
	// been delivered.
	StallAfter int
	StallFor   time.Duration
	// FailAfter, when above 0, breaks the stream with an error once that
	// many tokens have been delivered.
	FailAfter int
	// Refuse fails the call before any token, as an overloaded or
	// unreachable provider does.
	Refuse bool
}

// Validate reports negative values.
func (f Faults) Validate() error {
	if f.FirstTokenDelay < 0 || f.StallFor < 0 || f.StallAfter < 0 || f.FailAfter < 0 {
		return fmt.Errorf("faults must not be negative: %+v", f)
	}
	return nil
}

// Any reports whether any fault is switched on.
func (f Faults) Any() bool { return f != Faults{} }

// ErrInjected marks an error a FaultyProvider made up.
var ErrInjected = errors.New("injected fault")

// FaultyProvider wraps a provider and injects Faults into its streams.
type FaultyProvider struct {
	Inner  Provider
	Faults Faults
	Clock  clock.Clock // nil: the real clock
}

// Stream starts the inner stream unless the call is refused, and wraps it.
func (p *FaultyProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	if p.Faults.Refuse {
		return nil, fmt.Errorf("%w: %w (503 service unavailable)", ErrRefused, ErrInjected)
	}
	clk := clock.Or(p.Clock)
	// A slow first token is a request that waits before the model starts
	// on it (a queue, a cold replica), so the delay comes before the call.
	if err := clock.Sleep(ctx, clk, p.Faults.FirstTokenDelay); err != nil {
		return nil, err
	}
	ctx = live.SentLater(ctx, p.Faults.FirstTokenDelay) // modelled: it waited exactly the delay
	inner, err := p.Inner.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	return &faultyStream{ctx: ctx, inner: inner, f: p.Faults, clk: clk}, nil
}

type faultyStream struct {
	ctx     context.Context
	inner   Stream
	f       Faults
	clk     clock.Clock
	tokens  int
	stalled bool
	// resumed is when a stall ended: chunks the provider made during it
	// reach the caller then, not when their stamps say. resumedSince is
	// the same moment on the modelled timeline (the last chunk's Since
	// plus the stall), lastSince that last chunk's.
	resumed      time.Time
	resumedSince time.Duration
	lastSince    time.Duration
}

func (s *faultyStream) Recv() (StreamEvent, error) {
	if s.f.FailAfter > 0 && s.tokens >= s.f.FailAfter {
		_ = s.inner.Close()
		return StreamEvent{}, fmt.Errorf("%w: stream broke after %d tokens (connection reset)", ErrInjected, s.tokens)
	}
	if s.f.StallFor > 0 && !s.stalled && s.tokens >= s.f.StallAfter && s.tokens > 0 {
		s.stalled = true
		if err := clock.Sleep(s.ctx, s.clk, s.f.StallFor); err != nil {
			return StreamEvent{}, err
		}
		s.resumed = s.clk.Now()
		s.resumedSince = s.lastSince + s.f.StallFor
	}
	ev, err := s.inner.Recv()
	if err != nil {
		return ev, err
	}
	if !ev.At.IsZero() && ev.At.Before(s.resumed) {
		ev.At = s.resumed
	}
	if ev.Since > 0 {
		// The modelled wait before the call counts too.
		ev.Since = max(ev.Since+s.f.FirstTokenDelay, s.resumedSince)
		s.lastSince = ev.Since
	}
	s.tokens += ev.Tokens
	return ev, nil
}

func (s *faultyStream) Close() error { return s.inner.Close() }
