package pipeline

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// NetworkProvider puts a network between the gateway and a provider: each
// call first opens a connection (Handshakes round trips: TCP and TLS when
// the gateway does not reuse connections), then the request travels half a
// round trip before the provider sees it, and every chunk travels half a
// round trip back. The delays are waits on Clock where they physically
// happen, so the provider's own times are untouched and the network's
// share shows up only in what the gateway observes.
type NetworkProvider struct {
	Inner Provider
	// RTT is the round trip between the gateway and the provider.
	RTT time.Duration
	// Handshakes is how many round trips opening a connection costs
	// before the request is sent (0 when a kept-alive connection is
	// reused; 2 for a fresh TCP + TLS 1.3 connection).
	Handshakes int
	Clock      clock.Clock
}

// FreshConnectionHandshakes is what a new connection costs: one round trip
// for TCP, one for TLS 1.3.
const FreshConnectionHandshakes = 2

// Stream waits for the connection and the upload, then streams the inner
// provider's chunks, each delivered half a round trip after it was sent.
func (n NetworkProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	clk := clock.Or(n.Clock)
	up := time.Duration(n.Handshakes)*n.RTT + n.RTT/2
	if err := clock.Sleep(ctx, clk, up); err != nil {
		return nil, err
	}
	s, err := n.Inner.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	return &delayedStream{Stream: s, ctx: ctx, clk: clk, down: n.RTT / 2}, nil
}

// delayedStream hands each chunk on half a round trip after the provider
// stamped it. The delay is the same for every chunk, so waiting in Recv
// keeps them in order while the provider goes on writing.
type delayedStream struct {
	Stream
	ctx  context.Context
	clk  clock.Clock
	down time.Duration
}

// Recv returns the next chunk once it has crossed the network.
func (s *delayedStream) Recv() (StreamEvent, error) {
	ev, err := s.Stream.Recv()
	if err != nil || s.down <= 0 {
		return ev, err
	}
	arrive := s.clk.Now().Add(s.down)
	if !ev.At.IsZero() {
		arrive = ev.At.Add(s.down)
		ev.At = arrive
	}
	if err := clock.Sleep(s.ctx, s.clk, arrive.Sub(s.clk.Now())); err != nil {
		return StreamEvent{}, err
	}
	return ev, nil
}
