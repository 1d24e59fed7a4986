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
// from the request start.
type Span struct {
	Stage  string
	Start  time.Duration
	End    time.Duration
	Tier   string // gateway stages: the tier called
	Detail string // e.g. "3 chunks", "first-token timeout"
	Err    string // why the stage failed, if it did
}

// Duration is End - Start.
func (s Span) Duration() time.Duration { return s.End - s.Start }

// Event kinds.
const (
	EventStageStart = "stage-start"
	EventStageEnd   = "stage-end"
	EventDelta      = "delta" // text for the user
	EventError      = "error" // the answer failed or was cut; Err says why
	EventDone       = "done"  // the run is over; Result is set
)

// Event is progress reported while a request runs, in time order, so a lab
// can chart it live and a chat page can stream the answer.
type Event struct {
	Kind string
	At   time.Duration // since the request start
	// Stage events carry the span (End is zero on stage-start).
	Span Span
	// Delta events carry text and its token count.
	Text   string
	Tokens int
	Tier   string
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
	clk   clock.Clock
	start time.Time
	on    func(Event)
	mu    sync.Mutex
	spans []Span
}

func newRecorder(clk clock.Clock, on func(Event)) *recorder {
	return &recorder{clk: clk, start: clk.Now(), on: on}
}

// since is the offset of now from the request start.
func (r *recorder) since() time.Duration { return r.clk.Now().Sub(r.start) }

func (r *recorder) emit(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emitLocked(ev)
}

func (r *recorder) emitLocked(ev Event) {
	if ev.At == 0 {
		ev.At = r.since()
	}
	if r.on != nil {
		r.on(ev)
	}
}

// begin opens a span and reports it; the returned func closes it.
func (r *recorder) begin(stage, tier string) *openSpan {
	s := &openSpan{r: r, span: Span{Stage: stage, Tier: tier, Start: r.since()}}
	r.emit(Event{Kind: EventStageStart, At: s.span.Start, Span: s.span})
	return s
}

// add records a span measured elsewhere (first token, decode).
func (r *recorder) add(s Span) {
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

// end closes the span with an optional detail and error.
func (s *openSpan) end(detail string, err error) Span {
	s.span.End = s.r.since()
	s.span.Detail = detail
	if err != nil {
		s.span.Err = err.Error()
	}
	s.r.add(s.span)
	return s.span
}
