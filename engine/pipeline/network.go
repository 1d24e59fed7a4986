package pipeline

import (
	"context"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
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

// Legs are the network's waits around the provider: up before it sees a
// call (the handshakes and the upload), down for every chunk on its way
// back.
func (n NetworkProvider) Legs() (up, down time.Duration) {
	return time.Duration(n.Handshakes)*n.RTT + n.RTT/2, n.RTT / 2
}

// Stream returns at once and sends the request in the background: the
// connection and the upload take their round trips before the inner
// provider sees it, so calls sent together cross the network together.
// Each chunk is then delivered half a round trip after the provider
// stamped it.
func (n NetworkProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	up, down := n.Legs()
	s := &delayedStream{ctx: ctx, cancel: cancel, clk: clock.Or(n.Clock), up: up, down: down, sent: make(chan struct{})}
	go func() {
		defer close(s.sent)
		if s.err = clock.Sleep(ctx, s.clk, up); s.err != nil {
			return
		}
		ctx = live.SentLater(ctx, up) // modelled: it crossed in exactly up
		s.inner, s.err = n.Inner.Stream(ctx, req)
	}()
	return s, nil
}

// delayedStream is one call across the network. The delay back is the
// same for every chunk, so waiting in Recv keeps them in order while the
// provider goes on writing.
type delayedStream struct {
	ctx    context.Context
	cancel context.CancelFunc
	clk    clock.Clock
	up     time.Duration // connection and upload, before the provider sees the request
	down   time.Duration
	// sent is closed once the request has crossed (inner set) or failed
	// to (err set); both are written before it closes.
	sent  chan struct{}
	inner Stream
	err   error
}

// Recv returns the next chunk once it has crossed the network.
func (s *delayedStream) Recv() (StreamEvent, error) {
	<-s.sent
	if s.err != nil {
		return StreamEvent{}, s.err
	}
	ev, err := s.inner.Recv()
	if err != nil {
		return ev, err
	}
	if ev.Since > 0 {
		// Modelled: the way there, the provider's own time, the way back,
		// however late the host ran the upload.
		ev.Since += s.up + s.down
	}
	if s.down <= 0 {
		return ev, nil
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

// Close stops the call, whether or not the request has crossed yet, and
// waits until the sending goroutine has returned.
func (s *delayedStream) Close() error {
	s.cancel()
	<-s.sent
	if s.inner != nil {
		return s.inner.Close()
	}
	return nil
}
