package pipelinelab

import (
	"context"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// lateness gathers, over one lab run, how late the engine's chunks
// reached the pipeline compared with when the modelled GPU made them. The
// pipeline times its stages on the host's clock, so on a busy host its
// figures include that delay; the run's final status then says so. It is
// safe for the concurrent requests of one run.
type lateness struct {
	clk clock.Clock
	mu  sync.Mutex
	lag labs.Delivery
}

// watch wraps every tier's provider so its chunks are timed into l.
func (l *lateness) watch(tiers []pipeline.Tier) []pipeline.Tier {
	return pipeline.WrapProviders(tiers, func(inner pipeline.Provider) pipeline.Provider {
		return watchedProvider{inner: inner, l: l}
	})
}

// note is the busy-host note for the run's final status, or "".
func (l *lateness) note() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lag.BusyNote(false)
}

// final appends the note to a run's final frame (not to one that failed).
func (l *lateness) final(emit func(labs.Frame)) func(labs.Frame) {
	return func(f labs.Frame) {
		if f.Final && f.Error == "" {
			f.Status = labs.JoinNotes(f.Status, l.note())
		}
		emit(f)
	}
}

// watchedProvider is a provider whose streams report to a lateness.
type watchedProvider struct {
	inner pipeline.Provider
	l     *lateness
}

// Stream starts the inner stream and times its chunks from now.
func (p watchedProvider) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	sent := p.l.clk.Now()
	s, err := p.inner.Stream(ctx, req)
	if err != nil {
		return nil, err // the wrapper is invisible: the pipeline words the provider's errors
	}
	return &watchedStream{Stream: s, l: p.l, sent: sent}, nil
}

// watchedStream compares each chunk's stamp (when the engine made it) with
// when the pipeline read it.
type watchedStream struct {
	pipeline.Stream
	l    *lateness
	sent time.Time
}

// Recv passes the inner event on, noting how late it was read.
func (s *watchedStream) Recv() (pipeline.StreamEvent, error) {
	ev, err := s.Stream.Recv()
	if err == nil && !ev.At.IsZero() {
		read := s.l.clk.Now().Sub(s.sent)
		s.l.mu.Lock()
		s.l.lag.Observe(ev.At.Sub(s.sent), read)
		s.l.mu.Unlock()
	}
	return ev, err
}
