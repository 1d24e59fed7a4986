package cancellation

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
)

// genMeter counts the tokens the engine generates for one request from the
// engine's own step traces, so the count includes tokens nobody read: those
// buffered on their way out when the client left, and every token of an
// answer whose disconnect never reached the engine. It finds its request's
// steps by id prefix (the engine provider names requests "<id>-<n>-<rand>").
type genMeter struct {
	prefix   string
	engStart time.Time // wall time of engine time zero
	t0       time.Time // wall time the turn started; offsets are from here

	mu         sync.Mutex
	at         []time.Duration // when each generated token's step ended, from t0
	lastPrefil time.Duration   // end of the latest prefill step before the first token
	prefilled  bool
	first      bool // the first token has been counted
	lastStep   time.Duration
	dropped    bool // the engine dropped the subscription (fell behind)
	poke       chan<- struct{}
	changed    chan struct{}
}

func newGenMeter(prefix string, engStart, t0 time.Time, poke chan<- struct{}) *genMeter {
	return &genMeter{prefix: prefix, engStart: engStart, t0: t0, poke: poke, changed: make(chan struct{}, 1)}
}

// consume reads traces until the channel closes (unsubscribed, or dropped
// by the engine for falling behind, which it records).
func (m *genMeter) consume(traces <-chan engine.StepTrace, stopped <-chan struct{}) {
	for tr := range traces {
		end := m.engStart.Add(tr.End()).Sub(m.t0)
		for _, e := range tr.Batch {
			if strings.HasPrefix(e.ID, m.prefix) {
				m.step(e, end)
			}
		}
	}
	select {
	case <-stopped:
	default:
		m.mu.Lock()
		m.dropped = true
		m.mu.Unlock()
	}
}

// step counts one step of the request. The first token comes out of the
// step that finishes the prompt's prefill, whose entry shows only prefill
// work, so it is counted when the first decode step shows the prefill was
// complete (or at the end, via finish, when no decode followed).
func (m *genMeter) step(e engine.BatchEntry, end time.Duration) {
	m.mu.Lock()
	m.lastStep = end
	switch {
	case e.Decode > 0:
		if !m.first && m.prefilled {
			m.at = append(m.at, m.lastPrefil)
			m.first = true
		}
		m.at = append(m.at, end)
	case e.Prefill > 0 && !m.first:
		m.lastPrefil, m.prefilled = end, true
	}
	m.mu.Unlock()
	for _, ch := range []chan<- struct{}{m.poke, m.changed} {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// finish counts a first token that no decode step followed: the request
// ended right after its prefill (the client saw that token, or the answer
// was one token long).
func (m *genMeter) finish(firstSeen bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.first && m.prefilled && firstSeen {
		m.at = append(m.at, m.lastPrefil)
		m.first = true
	}
}

// times returns when each generated token's step ended, from t0.
func (m *genMeter) times() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]time.Duration(nil), m.at...)
}

// wasDropped reports whether the engine dropped the subscription, in which
// case the count is incomplete.
func (m *genMeter) wasDropped() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dropped
}

// settle waits until the engine is done with the request: until want
// tokens are counted when want is above 0 (an answer read to its end), or
// else until quiet passes without a step of the request (an aborted one:
// the step in flight when the abort came ends within milliseconds).
func (m *genMeter) settle(ctx context.Context, want int, quiet time.Duration) error {
	for idle := 0; ; {
		m.mu.Lock()
		n, dropped := len(m.at), m.dropped
		m.mu.Unlock()
		if want > 0 && n >= want || dropped || idle >= 10 {
			return nil
		}
		select {
		case <-m.changed:
		case <-time.After(quiet):
			if want <= 0 {
				return nil
			}
			// Still waiting for the counted steps of a finished answer;
			// the trace is published right after its tokens, so this
			// ends at once unless something is badly behind.
			idle++
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}
