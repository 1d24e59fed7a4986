package live

import "github.com/latencylab/latencylab/engine"

// subscriber receives step traces; a slow one is dropped, never waited for.
type subscriber struct {
	ch     chan engine.StepTrace
	closed bool
}

// Subscribe streams every step's trace (a private copy) on a channel with
// buf slots. A subscriber that falls buf steps behind is dropped: its
// channel is closed. Call cancel to unsubscribe.
func (e *Engine) Subscribe(buf int) (traces <-chan engine.StepTrace, cancel func()) {
	sub := &subscriber{ch: make(chan engine.StepTrace, max(buf, 1))}
	e.mu.Lock()
	if e.closed {
		sub.closed = true
		close(sub.ch)
	} else {
		e.subs[sub] = struct{}{}
	}
	e.mu.Unlock()
	return sub.ch, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.dropLocked(sub)
	}
}

func (e *Engine) dropLocked(sub *subscriber) {
	if !sub.closed {
		sub.closed = true
		close(sub.ch)
	}
	delete(e.subs, sub)
}

// publishTrace fans a trace out without blocking.
func (e *Engine) publishTrace(t *engine.StepTrace) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for sub := range e.subs {
		select {
		case sub.ch <- t.Clone():
		default:
			e.dropLocked(sub)
		}
	}
}
