package labs

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/upstream"
)

// ServerTally is what one lab run did on the upstream server: how many
// requests it sent there and the first failure the server answered with.
// A lab turns a failed model call into its own words (a pipeline lab's
// "the request did not complete"), so the page reads the cause here
// instead, the same for every lab. Safe for concurrent use.
type ServerTally struct {
	sent atomic.Int64
	mu   sync.Mutex
	// failure is the first request's failure; short the shortest answer
	// a server that ends its answers itself gave.
	failure error
	short   *upstream.ShortAnswer
}

// Sent is how many requests the run sent the server.
func (t *ServerTally) Sent() int64 { return t.sent.Load() }

// Failure is why the server failed the run: the shortest answer the
// server ended itself (an *upstream.ShortAnswer), else the first error a
// request ended with; nil when every request went through.
func (t *ServerTally) Failure() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.short != nil {
		return t.short
	}
	return t.failure
}

// fail keeps err if it is the first failure or a shorter short answer.
func (t *ServerTally) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var short *upstream.ShortAnswer
	if errors.As(err, &short) && (t.short == nil || short.Wrote < t.short.Wrote) {
		t.short = short
	}
	if t.failure == nil {
		t.failure = err
	}
}

// tallyKey carries a run's *ServerTally.
type tallyKey struct{}

// countSent adds one to the request count of the tally in ctx, if any.
func countSent(ctx context.Context) {
	if t, ok := ctx.Value(tallyKey{}).(*ServerTally); ok {
		t.sent.Add(1)
	}
}

// comparedKey marks a run made to set the server and the bundled engine
// modelling it side by side.
type comparedKey struct{}

func compared(ctx context.Context) context.Context {
	return context.WithValue(ctx, comparedKey{}, true)
}

// Compared reports whether ctx runs one side of a comparison between the
// server and the bundled engine modelling it (see ServerContext). A lab
// whose figures over many requests come from the bundled engine's virtual
// clock builds them from its one request's model time instead, on both
// sides, so the server's column holds only what the server's answer gave.
func Compared(ctx context.Context) bool {
	on, _ := ctx.Value(comparedKey{}).(bool)
	return on
}

// OnServer reports whether ctx runs on the upstream server (see
// ServerContext): its model calls are measured there.
func OnServer(ctx context.Context) bool {
	_, ok := ctx.Value(tallyKey{}).(*ServerTally)
	return ok
}

// submitFunc is how a pool hands a request to a server (EnginesConfig.Remote).
type submitFunc = func(ctx context.Context, req engine.Request, start time.Time) (<-chan live.Event, error)

// tallied makes submit note every failed request in the tally of its
// context, if any, passing the events on unchanged.
func tallied(submit submitFunc) submitFunc {
	return func(ctx context.Context, req engine.Request, start time.Time) (<-chan live.Event, error) {
		in, err := submit(ctx, req, start)
		t, ok := ctx.Value(tallyKey{}).(*ServerTally)
		if !ok {
			return in, err
		}
		if err != nil {
			t.fail(err)
			return in, err
		}
		out := make(chan live.Event, cap(in))
		go func() {
			defer close(out)
			for ev := range in {
				if ev.Done && ev.Err != nil {
					t.fail(ev.Err)
				}
				select {
				case out <- ev:
				case <-ctx.Done():
					return // the inner stream gives up on ctx too
				}
			}
		}()
		return out, nil
	}
}
