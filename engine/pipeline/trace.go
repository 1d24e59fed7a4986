package pipeline

import (
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// Stage names on the trace.
const (
	StageGuardrail  = "guardrail"
	StageContext    = "context" // the group of lookups below
	StageHistory    = "history"
	StageRetrieval  = "retrieval"
	StageOrder      = "order"
	StagePrompt     = "prompt"
	StageCache      = "cache"
	StageAttempt    = "attempt" // one gateway call to one tier
	StageFirstToken = "first-token"
	StageDecode     = "decode"
	StageSave       = "save"
)

// Span is one stage on the request's timeline. Start and End are offsets
// from the request start on the modelled timeline: each stage's drawn
// service time, the network and the engine's GPU stamps, so a busy host
// does not move them. WallStart and WallEnd are the same moments on the
// handler's clock, which a busy host stretches.
type Span struct {
	Stage     string
	Start     time.Duration
	End       time.Duration
	WallStart time.Duration
	WallEnd   time.Duration
	Tier      string // gateway stages: the tier called
	Detail    string // e.g. "3 chunks", "first-token timeout"
	Err       string // why the stage failed, if it did
}

// Duration is End - Start: the stage's modelled time.
func (s Span) Duration() time.Duration { return s.End - s.Start }

// Event kinds.
const (
	EventStageStart = "stage-start"
	EventStageEnd   = "stage-end"
	EventDelta      = "delta" // text for the user
	// EventThinking is a reasoning model's thinking before its answer,
	// shown apart from it; Hidden marks thinking withheld from the reader.
	EventThinking = "thinking"
	EventError    = "error" // the answer failed or was cut; Err says why
	EventDone     = "done"  // the run is over; Result is set
)

// Event is progress reported while a request runs, in time order, so a lab
// can chart it live and a chat page can stream the answer.
type Event struct {
	Kind string
	At   time.Duration // since the request start, on the modelled timeline
	// Wall is when the event happened on the handler's clock, since the
	// request start: At plus whatever a busy host added.
	Wall time.Duration
	// Stage events carry the span (End is zero on stage-start).
	Span Span
	// Delta and thinking events carry text and its token count.
	Text   string
	Tokens int
	Tier   string
	// Hidden is set on thinking events whose text is withheld because an
	// output check reads only the answer (see OutputChecker).
	Hidden bool
	// Error events carry a message fit for the user, the status the
	// answer ends with and the error itself.
	Err    string
	Status string
	Cause  error
	// Done carries the final result.
	Result *Result
}

// recorder keeps the timeline and serialises events: lookups run on
// several goroutines but the callback sees one ordered sequence.
type recorder struct {
	clk    clock.Clock
	start  time.Time
	on     func(Event)
	onHost func(stage string, modelled, handler time.Duration)
	mu     sync.Mutex
	spans  []Span
	last   time.Duration // the latest modelled moment reported
}

func newRecorder(clk clock.Clock, on func(Event), onHost func(stage string, modelled, handler time.Duration)) *recorder {
	return &recorder{clk: clk, start: clk.Now(), on: on, onHost: onHost}
}

// since is the offset of now from the request start.
func (r *recorder) since() time.Duration { return r.clk.Now().Sub(r.start) }

func (r *recorder) emit(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emitLocked(ev)
}

// emitLocked reports ev, stamped with the handler's time; an event that
// ends something (a stage, a piece of text) also goes to onHost, which
// compares the two timelines.
func (r *recorder) emitLocked(ev Event) {
	ev.Wall = r.since()
	r.last = max(r.last, ev.At)
	if r.onHost != nil {
		switch ev.Kind {
		case EventStageEnd:
			r.onHost(ev.Span.Stage, ev.At, ev.Wall)
		case EventDelta:
			r.onHost("", ev.At, ev.Wall)
		}
	}
	if r.on != nil {
		r.on(ev)
	}
}

// lastAt is the latest modelled moment reported so far.
func (r *recorder) lastAt() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// begin opens a span at the modelled moment at and reports it.
func (r *recorder) begin(stage, tier string, at time.Duration) *openSpan {
	s := &openSpan{r: r, span: Span{Stage: stage, Tier: tier, Start: at, WallStart: r.since()}}
	r.emit(Event{Kind: EventStageStart, At: s.span.Start, Span: s.span})
	return s
}

// add records a span measured elsewhere (first token, decode); a span
// without handler times gets now as its end.
func (r *recorder) add(s Span) {
	if s.WallEnd == 0 {
		s.WallEnd = r.since()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = append(r.spans, s)
	r.emitLocked(Event{Kind: EventStageEnd, At: s.End, Span: s})
}

func (r *recorder) snapshot() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

type openSpan struct {
	r    *recorder
	span Span
}

// end closes the span at the modelled moment at with an optional detail
// and error.
func (s *openSpan) end(at time.Duration, detail string, err error) Span {
	s.span.End = at
	s.span.WallEnd = s.r.since()
	s.span.Detail = detail
	if err != nil {
		s.span.Err = err.Error()
	}
	s.r.add(s.span)
	return s.span
}
