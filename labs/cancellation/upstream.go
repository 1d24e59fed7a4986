package cancellation

import (
	"context"
	"sync"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// upstream is the server's call to the model. With propagate it passes the
// client's context through, as a well-behaved server does: a disconnect
// cancels the call. Without it, the call runs on a context of its own (the
// lab run's, so leaving the lab page still ends it): when the client goes,
// the gateway stops reading and closes its stream, but upstream keeps
// reading the model's stream to its end, as a server that never passes the
// disconnect along does, and the model writes, and bills, every token.
type upstream struct {
	inner     pipeline.Provider
	propagate bool
	own       context.Context // the call's context when not propagating

	mu      sync.Mutex
	drained chan struct{} // closed when a detached stream has run to its end
	usage   pipeline.Usage
}

// Stream starts the model call.
func (u *upstream) Stream(ctx context.Context, req pipeline.ProviderRequest) (pipeline.Stream, error) {
	if u.propagate {
		return u.inner.Stream(ctx, req)
	}
	s, err := u.inner.Stream(u.own, req)
	if err != nil {
		return nil, err
	}
	u.mu.Lock()
	u.drained = make(chan struct{})
	u.mu.Unlock()
	return &detached{u: u, inner: s}, nil
}

// wait blocks until a detached stream has been read to its end (at once
// when there is none) and returns the model's final usage.
func (u *upstream) wait(ctx context.Context) (pipeline.Usage, error) {
	u.mu.Lock()
	ch := u.drained
	u.mu.Unlock()
	if ch == nil {
		return pipeline.Usage{}, nil
	}
	select {
	case <-ch:
	case <-ctx.Done():
		return pipeline.Usage{}, context.Cause(ctx)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.usage, nil
}

// detached is a stream whose Close does not cancel the model call.
type detached struct {
	u     *upstream
	inner pipeline.Stream
	once  sync.Once
	ended bool
}

func (d *detached) Recv() (pipeline.StreamEvent, error) {
	ev, err := d.inner.Recv()
	if err != nil || ev.Done {
		d.ended = true
		if ev.Done {
			d.u.mu.Lock()
			d.u.usage = ev.Usage
			d.u.mu.Unlock()
		}
	}
	return ev, err
}

// Close hands the rest of the stream to a goroutine that reads it to the
// end and only then closes it.
func (d *detached) Close() error {
	d.once.Do(func() {
		go func() {
			for !d.ended {
				if _, err := d.Recv(); err != nil {
					break
				}
			}
			_ = d.inner.Close()
			close(d.u.drained)
		}()
	})
	return nil
}
