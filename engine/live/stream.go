package live

import (
	"context"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// stream buffers one request's events between the runner, which must never
// block, and the caller, who reads at its own pace.
type stream struct {
	req    engine.Request
	out    chan Event
	mu     sync.Mutex
	buf    []Event
	final  bool
	notify chan struct{}
	// Observation state, touched only by the runner (under the engine
	// lock): who submitted it, who watches it (see WithWatcher), and its
	// token gaps so far.
	source    string
	watcher   Observer
	lastToken time.Duration
	gaps      []time.Duration
	// Runner-only state behind Event.GPU and Sharing: the arrival in
	// stall-free engine time, and the sharing tally.
	arrivalGPU time.Duration
	share      shareTally
}

func newStream(req engine.Request) *stream {
	return &stream{req: req, out: make(chan Event, 64), notify: make(chan struct{}, 1)}
}

// push appends events (runner side).
func (s *stream) push(ev Event) {
	s.mu.Lock()
	s.buf = append(s.buf, ev)
	if ev.Done {
		s.final = true
	}
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// forward copies events to the caller until the final one or until ctx is
// cancelled, in which case it aborts the request and closes the channel.
func (s *stream) forward(ctx context.Context, abort func()) {
	defer close(s.out)
	var batch []Event
	for {
		select {
		case <-ctx.Done():
			abort()
			return
		case <-s.notify:
		}
		s.mu.Lock()
		batch, s.buf = s.buf, batch[:0]
		final := s.final
		s.mu.Unlock()
		for _, ev := range batch {
			select {
			case s.out <- ev:
			case <-ctx.Done():
				if !final {
					abort()
				}
				return
			}
		}
		if final {
			return
		}
	}
}
