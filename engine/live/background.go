package live

import (
	"time"

	"github.com/latencylab/latencylab/engine"
)

// Background is traffic an engine makes for itself, such as other
// tenants' chats on a hosted provider. The runner adds each request when
// the engine's modelled time reaches its arrival, as a virtual-clock
// simulation would, instead of a host timer submitting it: a busy host
// (late timers, a starved process) then changes neither how many of them
// share the GPU nor when, so the figures of the requests beside them do
// not move either. Nobody reads their tokens; they still count in every
// other request's Sharing.
type Background struct {
	// Next returns the following request. Its Arrival is modelled GPU time
	// since the engine started (stalls skipped by a resync are not GPU
	// time), never earlier than the one before. ok false ends the traffic.
	Next func() (req engine.Request, ok bool)
	// MaxInFlight caps background requests in the engine at once; an
	// arrival over the cap is dropped, so a rate the engine cannot serve
	// never piles up. 0 means no cap.
	MaxInFlight int
}

// With background traffic the engine runs on the host's clock only while
// a caller's request is in it, since nobody watches the traffic's own
// tokens. In between it stands still, and a caller's request first brings
// the traffic up to the request's arrival at once, step by step as the
// modelled GPU would have run it (catchUp). A request that says when it
// was sent on the caller's modelled timeline (WithSentAt) arrives then,
// however late the host got it to the engine, and Anchor ties that
// timeline to the engine's; so a busy host changes neither the traffic
// nor the moment of it a request meets.

// BackgroundCounts is how the background traffic went so far.
type BackgroundCounts struct {
	Sent, Dropped, InFlight int
}

// background is the runner's state of Config.Background (runner only,
// except counts, which is read under the engine lock).
type background struct {
	cfg     Background
	next    engine.Request
	pending bool                // next holds a request not yet admitted
	running map[string]struct{} // admitted and not finished
	seen    map[string]struct{} // admitted ones that have been in a step
	counts  BackgroundCounts
	// called: a caller's request has come; Anchor no longer moves time.
	called bool
}

func newBackground(cfg Background) *background {
	if cfg.Next == nil {
		return nil
	}
	b := &background{cfg: cfg, running: map[string]struct{}{}, seen: map[string]struct{}{}}
	b.next, b.pending = cfg.Next()
	return b
}

// Background reports how many background requests were sent and dropped
// so far and how many are in the engine now.
func (e *Engine) Background() BackgroundCounts {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.bg == nil {
		return BackgroundCounts{}
	}
	return e.bg.counts
}

// nextBackground is the engine time of the next background arrival; ok
// false when there is none.
func (e *Engine) nextBackground() (time.Duration, bool) {
	if e.bg == nil || !e.bg.pending {
		return 0, false
	}
	return e.bg.next.Arrival + e.stalled, true
}

// admitBackground adds every background request whose arrival the engine
// clock has reached, each at its own arrival.
func (e *Engine) admitBackground() {
	b := e.bg
	for {
		at, ok := e.nextBackground()
		if !ok || at > e.eng.Now() {
			return
		}
		req := b.next
		req.Arrival = at
		b.next, b.pending = b.cfg.Next()
		e.mu.Lock()
		if b.cfg.MaxInFlight > 0 && len(b.running) >= b.cfg.MaxInFlight {
			b.counts.Dropped++
		} else if err := e.eng.Add(req); err != nil {
			b.counts.Dropped++ // refused (too long for the model): as if it never came
		} else {
			b.running[req.ID] = struct{}{}
			b.counts.Sent++
		}
		b.counts.InFlight = len(b.running)
		e.mu.Unlock()
	}
}

// isBackground reports whether id is a background request still running
// (under the engine lock).
func (e *Engine) isBackground(id string) bool {
	if e.bg == nil {
		return false
	}
	_, ok := e.bg.running[id]
	return ok
}

// newToBatch reports whether a background request is in a step for the
// first time, and marks it as seen (under the engine lock).
func (e *Engine) newToBatch(id string) bool {
	if !e.isBackground(id) {
		return false
	}
	if _, ok := e.bg.seen[id]; ok {
		return false
	}
	e.bg.seen[id] = struct{}{}
	return true
}

// backgroundFinished forgets a finished background request (under the
// engine lock).
func (e *Engine) backgroundFinished(id string) {
	delete(e.bg.running, id)
	delete(e.bg.seen, id)
	e.bg.counts.InFlight = len(e.bg.running)
}

// standsStill reports whether the engine waits for a caller's request
// instead of stepping: it has background traffic and no caller's request.
func (e *Engine) standsStill() bool {
	return e.bg != nil && e.callers == 0
}

// catchUpTo brings standing background traffic up to the arrival of the
// earliest request among cmds (see arrival).
func (e *Engine) catchUpTo(cmds []command) {
	first, found := time.Duration(0), false
	for _, c := range cmds {
		if c.submit != nil {
			if at := e.arrival(c, true); !found || at < first {
				first, found = at, true
			}
		}
	}
	if found {
		e.bg.called = true
		e.catchUp(first)
	}
}

// arrival is the engine time c's request arrives at: when it was sent on
// the caller's modelled timeline if it says so and the engine stood
// still (a running engine cannot go back to it), else when it was
// submitted.
func (e *Engine) arrival(c command, standing bool) time.Duration {
	if standing && !c.sent.IsZero() && c.sent.Before(c.at) {
		// The caller's timeline is modelled: the stalls the engine
		// skipped (see Config.MaxLag) are not in it, as they are not in
		// the traffic's.
		return max(c.sent.Sub(e.start)+e.stalled, 0)
	}
	return max(c.at.Sub(e.start), 0)
}

// anchor makes wall moment at engine time t, so a caller's modelled
// timeline and the engine's agree: only while no caller's request has
// come, since until then no time has been handed out.
func (e *Engine) anchor(at time.Time, t time.Duration) {
	if e.bg == nil || e.bg.called {
		return
	}
	e.mu.Lock()
	e.start = at.Add(-t)
	e.mu.Unlock()
}

// catchUp runs the engine, without waiting on the host's clock, until its
// clock reaches t, admitting the traffic as it arrives.
func (e *Engine) catchUp(t time.Duration) {
	for {
		e.admitBackground()
		if e.eng.Now() >= t {
			return
		}
		stepAt, stepping := e.eng.NextStepAt()
		bgAt, bg := e.nextBackground()
		switch {
		case stepping && stepAt <= e.eng.Now():
			e.deliver(e.eng.Step())
		case bg && bgAt <= t && (!stepping || bgAt < stepAt):
			e.eng.AdvanceTo(bgAt)
		case stepping && stepAt <= t:
			e.eng.AdvanceTo(stepAt)
		default:
			e.eng.AdvanceTo(t)
		}
	}
}
