// Package live runs the pure engine in real time: a single goroutine steps
// it and sleeps until each modelled step ends, so tokens reach callers when
// the modelled GPU would have produced them. Requests stream their tokens
// over channels; a per-step trace and current stats can be observed live.
package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
)

// Config shapes a live engine.
type Config struct {
	Engine engine.Config
	// Clock paces steps; nil means the wall clock.
	Clock clock.Clock
	// MaxLag is how far behind the modelled schedule the runner may fall
	// (a stalled process, a slow machine) before it resynchronises the
	// engine clock instead of bursting the backlog out. 0 means 250 ms.
	MaxLag time.Duration
	// Observer, when set, is told about every request that finishes
	// normally (not aborted), once.
	Observer Observer
	// Source labels requests whose submit context names none (see
	// WithSource); "" leaves them unlabelled.
	Source string
	// Remote, when set, serves every request instead of the modelled GPU
	// (a real OpenAI-compatible server): Submit still checks requests
	// against Engine, which describes that server's deployment, and then
	// hands them to Remote with the engine's start, the zero of the
	// events' Time; their times are measured. The runner stays idle.
	Remote func(ctx context.Context, req engine.Request, start time.Time) (<-chan Event, error)
	// Background, when its Next is set, is traffic the engine adds to
	// itself on its own modelled clock (see Background).
	Background Background
}

// ErrClosed is reported to requests still running when the engine closes.
var ErrClosed = errors.New("live engine closed")

// Event is one thing that happened to a request: a token, or (Done) its end.
type Event struct {
	Token int // token id (not set on the final event)
	Index int // position in the completion, thinking tokens included
	// Time is the engine timestamp; At is the wall time it maps to.
	Time time.Duration
	At   time.Time
	// GPU is the modelled time from the request's arrival to this event:
	// what the simulated GPU took, on its own schedule. It does not move
	// when a busy host delivers the event late, nor when the runner
	// resynchronises its clock after a stall (see Config.MaxLag), so a
	// lab's figures come from it and the handler's clock shows only how
	// late the event reached it.
	GPU time.Duration
	// Done marks the final event, which carries the finish reason, usage
	// and timings (or Err when the engine closed under the request).
	Done         bool
	FinishReason string
	Usage        engine.Usage
	Timing       engine.Timing
	// Sharing says how many other requests shared the request's steps
	// and what those steps cost (final event only).
	Sharing Sharing
	Err     error
	// Thinking marks a token a reasoning model wrote as thinking before
	// its answer (a remote server's reasoning; the bundled engine never
	// sets it). It counts as a token written but is no part of the
	// answer, so it holds no answer text and no first word.
	Thinking bool
	// Server names the real server that timed the event, e.g.
	// "http://host/v1 (qwen3:8b)", when a remote engine serves the
	// request (see Config.Remote); "" when the modelled GPU made it.
	Server string
}

// Engine is a running live engine. Its methods are safe for concurrent use.
type Engine struct {
	cfg    Config
	eng    *engine.Engine // owned by the runner goroutine
	clock  clock.Clock
	start  time.Time
	maxLag time.Duration
	// stalled is the engine time skipped by resyncs after stalls: no GPU
	// worked in it (runner only).
	stalled time.Duration
	// batchStreams is tallySharing's scratch list (runner only).
	batchStreams []*stream
	// bg is the background traffic, nil without (see Background);
	// callers counts the callers' requests in the engine (runner only).
	bg      *background
	callers int

	mu       sync.Mutex
	pending  []command
	streams  map[string]*stream
	subs     map[*subscriber]struct{}
	stats    engine.Stats
	closed   bool
	wake     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

type command struct {
	submit *stream // nil: abort or anchor
	id     string
	at     time.Time // when Submit was called: the request's arrival
	sent   time.Time // when the caller says it sent it (WithSentAt); zero if unsaid
	// anchor, when set, is engine time at (see Anchor).
	anchor *time.Duration
}

// New starts a live engine for cfg.
func New(cfg Config) (*Engine, error) {
	eng, err := engine.New(cfg.Engine)
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	clk := clock.Or(cfg.Clock)
	lag := cfg.MaxLag
	if lag <= 0 {
		lag = 250 * time.Millisecond
	}
	e := &Engine{
		cfg: cfg, eng: eng, clock: clk, start: clk.Now(), maxLag: lag,
		streams: make(map[string]*stream),
		subs:    make(map[*subscriber]struct{}),
		stats:   eng.Stats(),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		bg:      newBackground(cfg.Background),
	}
	go e.run()
	return e, nil
}

// Config returns the engine configuration in use.
func (e *Engine) Config() engine.Config { return e.eng.Config() }

// Footprint returns the derived memory figures.
func (e *Engine) Footprint() engine.Footprint { return e.eng.Footprint() }

// Start is the wall time of engine time zero; Anchor may move it.
func (e *Engine) Start() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.start
}

// Submit queues a request and returns its event stream: tokens in order,
// each with its engine timestamp, then one Done event; then the channel is
// closed. req.Arrival is ignored (the arrival is now). Cancelling ctx aborts
// the request (its blocks are freed at the next step) and closes the
// channel without a final event. Invalid requests fail here, with the
// engine's error (e.g. *engine.ContextLengthError).
func (e *Engine) Submit(ctx context.Context, req engine.Request) (<-chan Event, error) {
	outs, err := e.SubmitTogether(ctx, req)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// SubmitTogether queues reqs as one arrival, as Submit does each: the
// runner sees all of them at its next step or none, so requests a lab
// sends "at the same time" share their first step however busy the host
// is. Nothing is queued when any request is invalid.
func (e *Engine) SubmitTogether(ctx context.Context, reqs ...engine.Request) ([]<-chan Event, error) {
	for i := range reqs {
		if err := e.eng.ValidateRequest(&reqs[i]); err != nil {
			return nil, err
		}
	}
	outs := make([]<-chan Event, len(reqs))
	if e.cfg.Remote != nil {
		return e.submitRemote(ctx, reqs, outs)
	}
	streams := make([]*stream, len(reqs))
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, ErrClosed
	}
	for i, req := range reqs {
		_, dup := e.streams[req.ID]
		for _, earlier := range reqs[:i] {
			dup = dup || earlier.ID == req.ID
		}
		if dup {
			e.mu.Unlock()
			return nil, fmt.Errorf("request %s: duplicate id", req.ID)
		}
	}
	now := e.clock.Now()
	sent, _ := SentAt(ctx)
	for i, req := range reqs {
		st := newStream(req)
		st.source, st.watcher = sourceOf(ctx, e.cfg.Source), watcherOf(ctx)
		e.streams[req.ID] = st
		e.pending = append(e.pending, command{submit: st, id: req.ID, at: now, sent: sent})
		streams[i], outs[i] = st, st.out
	}
	e.mu.Unlock()
	e.poke()
	for i, st := range streams {
		id := reqs[i].ID
		go st.forward(ctx, func() { e.abort(id) })
	}
	return outs, nil
}

// submitRemote hands reqs to the remote server one by one. When one is
// refused the ones already sent are cancelled, so no request is left
// generating on the server with nobody reading it.
func (e *Engine) submitRemote(ctx context.Context, reqs []engine.Request, outs []<-chan Event) ([]<-chan Event, error) {
	ctx, cancel := context.WithCancel(ctx)
	for i, req := range reqs {
		out, err := e.cfg.Remote(ctx, req, e.Start())
		if err != nil {
			cancel()
			return nil, err
		}
		outs[i] = out
	}
	// The streams live as long as the caller's context, as Submit's do;
	// cancel only has to be released with it.
	context.AfterFunc(ctx, cancel)
	return outs, nil
}

// Anchor says that moment at of a caller's modelled timeline is engine
// time t: on an engine with background traffic that no caller's request
// has reached yet, the engine's start moves to match, so requests sent
// at modelled moments (WithSentAt) meet the traffic where the model puts
// them however late the host ran before. Otherwise it does nothing.
func (e *Engine) Anchor(at time.Time, t time.Duration) {
	e.mu.Lock()
	if !e.closed {
		e.pending = append(e.pending, command{at: at, anchor: &t})
	}
	e.mu.Unlock()
	e.poke()
}

// abort asks the runner to abort id at its next step.
func (e *Engine) abort(id string) {
	e.mu.Lock()
	if !e.closed {
		e.pending = append(e.pending, command{id: id})
	}
	e.mu.Unlock()
	e.poke()
}

func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Stats returns the latest gauges and counters.
func (e *Engine) Stats() engine.Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// Close stops the runner; requests still running end with ErrClosed.
func (e *Engine) Close() error {
	e.stopOnce.Do(func() {
		e.mu.Lock()
		e.closed = true
		e.mu.Unlock()
		e.poke()
	})
	<-e.done
	return nil
}
