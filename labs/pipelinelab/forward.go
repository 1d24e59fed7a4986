package pipelinelab

import (
	"sync"

	"github.com/latencylab/latencylab/labs"
)

// forwarder hands a run's frames to emit from a goroutine of its own. The
// pipeline reports progress while it holds its trace's lock and times its
// stages on the clock, so a reader who takes its time over a frame (a slow
// connection, a starved host) must not hold it up: that would move the
// figures it is timing. While emit is busy, a newer frame replaces an
// older one that has not gone out yet (every frame is a whole view); a
// final frame is never replaced, and close hands over what is left
// before it returns.
type forwarder struct {
	emit func(labs.Frame)

	mu      sync.Mutex
	pending []labs.Frame // the last one is the only one that may be replaced
	closed  bool
	wake    chan struct{}
	done    chan struct{}
}

func newForwarder(emit func(labs.Frame)) *forwarder {
	f := &forwarder{emit: emit, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go f.run()
	return f
}

// send queues fr without waiting for the reader.
func (f *forwarder) send(fr labs.Frame) {
	f.mu.Lock()
	if n := len(f.pending); n > 0 && !f.pending[n-1].Final {
		f.pending[n-1] = fr
	} else {
		f.pending = append(f.pending, fr)
	}
	f.mu.Unlock()
	f.poke()
}

func (f *forwarder) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// close waits until every queued frame has gone out.
func (f *forwarder) close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	f.poke()
	<-f.done
}

func (f *forwarder) run() {
	defer close(f.done)
	for {
		f.mu.Lock()
		if len(f.pending) == 0 {
			closed := f.closed
			f.mu.Unlock()
			if closed {
				return
			}
			<-f.wake
			continue
		}
		fr := f.pending[0]
		f.pending = f.pending[1:]
		f.mu.Unlock()
		f.emit(fr)
	}
}
