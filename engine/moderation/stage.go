package moderation

import (
	"context"
	"time"
)

// EventKind names what happened in a moderated stream.
type EventKind string

// Events of a moderated stream, in the order they can happen.
const (
	EvPromptChecked EventKind = "prompt-checked" // the prompt check finished (Result)
	EvGenerated     EventKind = "generated"      // a token left the model (Token, Text = its piece)
	EvCheckStarted  EventKind = "check-started"  // a window went to the checker (From, To)
	EvChecked       EventKind = "checked"        // a check finished (Result)
	EvDelivered     EventKind = "delivered"      // text reached the reader (Text appended; From, To)
	EvCaught        EventKind = "caught"         // a check failed (Result, spans in answer offsets)
	EvAborted       EventKind = "aborted"        // generation was cancelled
	EvReplaced      EventKind = "replaced"       // the shown text was replaced (Text = fallback, or the refusal after a failed prompt check)
	EvWithheld      EventKind = "withheld"       // the rest was withheld (Text = notice)
	EvFinished      EventKind = "finished"       // delivery is over (Reason)
)

// Event is one step of a moderated stream. At is when the driver handled
// it on the checker's clock; Model is its time on the modelled timeline,
// since Run began (see RunTimed).
type Event struct {
	Kind     EventKind
	At       time.Time
	Model    time.Duration
	Text     string
	Token    int // index of a generated token
	From, To int // token range of a check or a delivery
	Result   *Result
	Reason   string
	// Visible is everything the reader sees after this event.
	Visible string
}

// Summary is how a moderated stream ended.
type Summary struct {
	Reason    string // FinishStop or FinishContentFilter
	Visible   string // what the reader was left with
	Generated int    // tokens received from the model
	Delivered int    // tokens released to the reader
	Checks    int    // checks run, the prompt check included
	// CheckTime is the time spent in checks, summed: their modelled
	// latency under RunTimed, the clock's detectors plus latency under Run.
	CheckTime time.Duration
	// End is when generation and delivery were both over, on the
	// modelled timeline since Run began.
	End time.Duration
	// PromptBlocked is set when the prompt check stopped the request
	// before generation.
	PromptBlocked bool
}

// Stage runs moderation around one streamed answer: an optional prompt
// check before generation, then a Filter between the model's tokens and
// the reader, with checks running while generation goes on.
type Stage struct {
	Checker *Checker
	Filter  FilterConfig
	// CheckPrompt runs Checker.CheckPrompt on the prompt before
	// generation; a blocked prompt never reaches the model.
	CheckPrompt bool
	// Refusal is shown instead of an answer when the prompt check fails;
	// empty means DefaultRefusal.
	Refusal string
}

// Generate starts generation and returns its token pieces in order; the
// channel closes when generation ends or is cancelled. Cancelling ctx must
// stop generation (for the engine: pass ctx to Submit, which aborts the
// request and frees its KV blocks).
type Generate func(ctx context.Context) (<-chan string, error)

// Token is one generated token: its text, and when it reached the stage
// on the modelled timeline, counted from the call to the generator (for
// an engine: the network up, the GPU's own stamp, the network down).
type Token struct {
	Text string
	At   time.Duration
}

// GenerateTimed is Generate for a generator that knows each token's
// modelled time.
type GenerateTimed func(ctx context.Context) (<-chan Token, error)

// Run moderates one answer: it checks prompt (when CheckPrompt), calls gen,
// passes every token through the filter and reports each step to emit,
// which is never called concurrently and never after Run returns. Run
// returns when delivery is over and generation has ended, or when ctx
// ends (with ctx's error). Events happen in the order the clock brings
// them, and their modelled times are the clock's.
func (s Stage) Run(ctx context.Context, prompt string, gen Generate, emit func(Event)) (Summary, error) {
	timed := func(ctx context.Context) (<-chan Token, error) {
		in, err := gen(ctx)
		if err != nil {
			return nil, err
		}
		out := make(chan Token)
		go func() {
			// Read in to its end even after ctx ends, so the generator
			// has finished when Run sees out close.
			defer close(out)
			forwarding := true
			for p := range in {
				if !forwarding {
					continue
				}
				select {
				case out <- Token{Text: p}: // untimed, drive stamps it on arrival
				case <-ctx.Done():
					forwarding = false
				}
			}
		}()
		return out, nil
	}
	return s.drive(ctx, prompt, timed, emit, false)
}

// RunTimed is Run on the modelled timeline: each token counts at its
// modelled time, each check takes its modelled latency, and the stage
// handles tokens and check results in that order whatever the host's
// clock does, so a busy host changes when events are emitted (Event.At)
// but not their modelled times, what each check covers, or what is
// released when. A check's result waits until the next token's time is
// known, as a later token must not be handled before it.
func (s Stage) RunTimed(ctx context.Context, prompt string, gen GenerateTimed, emit func(Event)) (Summary, error) {
	return s.drive(ctx, prompt, gen, emit, true)
}
