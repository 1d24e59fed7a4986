package moderation

import (
	"context"
	"errors"
	"fmt"
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

// Event is one step of a moderated stream, timed on the checker's clock.
type Event struct {
	Kind     EventKind
	At       time.Time
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
	// CheckTime is the time spent in checks (detectors plus simulated
	// service latency), summed.
	CheckTime time.Duration
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

// Run moderates one answer: it checks prompt (when CheckPrompt), calls gen,
// passes every token through the filter and reports each step to emit,
// which is never called concurrently and never after Run returns. Run
// returns when delivery is over and generation has ended, or when ctx
// ends (with ctx's error).
func (s Stage) Run(ctx context.Context, prompt string, gen Generate, emit func(Event)) (Summary, error) {
	if s.Checker == nil {
		return Summary{}, errors.New("moderation: stage without a checker")
	}
	f, err := NewFilter(s.Filter)
	if err != nil {
		return Summary{}, err
	}
	clk := s.Checker.Clock()
	var sum Summary
	visible := ""
	send := func(ev Event) {
		ev.At = clk.Now()
		ev.Visible = visible
		emit(ev)
	}

	if s.CheckPrompt {
		r, err := s.Checker.CheckPrompt(ctx, prompt)
		if err != nil {
			return sum, err
		}
		sum.Checks++
		sum.CheckTime += r.Took + r.Waited
		send(Event{Kind: EvPromptChecked, Result: &r})
		if r.Blocked() {
			sum.PromptBlocked = true
			visible = s.Refusal
			if visible == "" {
				visible = DefaultRefusal
			}
			send(Event{Kind: EvReplaced, Text: visible})
			sum.Reason, sum.Visible = FinishContentFilter, visible
			send(Event{Kind: EvFinished, Reason: FinishContentFilter})
			return sum, nil
		}
	}

	genCtx, cancelGen := context.WithCancel(ctx)
	defer cancelGen()
	tokens, err := gen(genCtx)
	if err != nil {
		return sum, fmt.Errorf("moderation: generate: %w", err)
	}

	type checkDone struct {
		id  int
		r   Result
		err error
	}
	results := make(chan checkDone, 1)
	checkCtx, cancelChecks := context.WithCancel(ctx)
	defer cancelChecks()
	running := false
	finished := false

	do := func(acts []Action) {
		for _, a := range acts {
			switch a.Kind {
			case ActDeliver:
				visible += a.Text
				sum.Delivered = a.To
				send(Event{Kind: EvDelivered, Text: a.Text, From: a.From, To: a.To})
			case ActCheck:
				running = true
				send(Event{Kind: EvCheckStarted, From: a.From, To: a.To})
				go func(id int, text string) {
					r, err := s.Checker.Check(checkCtx, text)
					results <- checkDone{id, r, err}
				}(a.ID, a.Text)
			case ActCaught:
				send(Event{Kind: EvCaught, Result: a.Result})
			case ActAbort:
				cancelGen()
				send(Event{Kind: EvAborted})
			case ActReplace:
				visible = a.Text
				send(Event{Kind: EvReplaced, Text: a.Text})
			case ActWithhold:
				visible += "\n\n" + a.Text
				send(Event{Kind: EvWithheld, Text: a.Text})
			case ActFinish:
				finished = true
				sum.Reason = a.Reason
				send(Event{Kind: EvFinished, Reason: a.Reason})
			}
		}
	}

	for tokens != nil || running || !finished {
		select {
		case <-ctx.Done():
			return sum, ctx.Err()
		case p, ok := <-tokens:
			if !ok {
				tokens = nil
				do(f.End())
				continue
			}
			sum.Generated++
			send(Event{Kind: EvGenerated, Token: sum.Generated - 1, Text: p})
			do(f.Token(p))
		case d := <-results:
			running = false
			if d.err != nil {
				return sum, d.err
			}
			sum.Checks++
			sum.CheckTime += d.r.Took + d.r.Waited
			send(Event{Kind: EvChecked, Result: &d.r})
			do(f.Checked(d.id, d.r))
		}
	}
	sum.Visible = visible
	return sum, nil
}
