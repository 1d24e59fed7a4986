package moderation

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// checkDone is a finished check, as its goroutine hands it back.
type checkDone struct {
	id  int
	r   Result
	err error
}

// drive is Run and RunTimed. With timed, every event's modelled time
// comes from the tokens' stamps and the checks' modelled latency, and
// tokens and check results are handled in modelled order; without, both
// are the checker's clock and the order is arrival.
func (s Stage) drive(ctx context.Context, prompt string, gen GenerateTimed, emit func(Event), timed bool) (Summary, error) {
	if s.Checker == nil {
		return Summary{}, errors.New("moderation: stage without a checker")
	}
	f, err := NewFilter(s.Filter)
	if err != nil {
		return Summary{}, err
	}
	clk := s.Checker.Clock()
	start := clk.Now()
	var sum Summary
	visible := ""
	var model time.Duration // now, on the modelled timeline
	advance := func(to time.Duration) {
		if !timed {
			to = clk.Now().Sub(start)
		}
		model = max(model, to)
	}
	checkTime := func(r Result) time.Duration {
		if timed {
			return r.Modelled
		}
		return r.Took + r.Waited
	}
	send := func(ev Event) {
		ev.At, ev.Model, ev.Visible = clk.Now(), model, visible
		emit(ev)
	}
	finish := func() (Summary, error) {
		sum.Visible, sum.End = visible, model
		return sum, nil
	}

	if s.CheckPrompt {
		r, err := s.Checker.CheckPrompt(ctx, prompt)
		if err != nil {
			return sum, err
		}
		sum.Checks++
		sum.CheckTime += checkTime(r)
		advance(model + checkTime(r))
		send(Event{Kind: EvPromptChecked, Result: &r})
		if r.Blocked() {
			sum.PromptBlocked = true
			visible = s.Refusal
			if visible == "" {
				visible = DefaultRefusal
			}
			send(Event{Kind: EvReplaced, Text: visible})
			sum.Reason = FinishContentFilter
			send(Event{Kind: EvFinished, Reason: FinishContentFilter})
			return finish()
		}
	}

	genCtx, cancelGen := context.WithCancel(ctx)
	defer cancelGen()
	genStart := model
	tokens, err := gen(genCtx)
	if err != nil {
		return sum, fmt.Errorf("moderation: generate: %w", err)
	}

	// next is a token received but not yet handled; closed says the
	// generator is done, at lastAt (its last token's modelled time).
	var next *Token
	closed, ended := false, false
	lastAt := genStart

	results := make(chan checkDone, 1)
	checkCtx, cancelChecks := context.WithCancel(ctx)
	defer cancelChecks()
	running, finished, aborted := false, false, false
	var checkEnd time.Duration // modelled end of the running check

	do := func(acts []Action) {
		for _, a := range acts {
			switch a.Kind {
			case ActDeliver:
				visible += a.Text
				sum.Delivered = a.To
				send(Event{Kind: EvDelivered, Text: a.Text, From: a.From, To: a.To})
			case ActCheck:
				running = true
				checkEnd = model + s.Checker.latency
				send(Event{Kind: EvCheckStarted, From: a.From, To: a.To})
				go func(id int, text string) {
					r, err := s.Checker.Check(checkCtx, text)
					results <- checkDone{id, r, err}
				}(a.ID, a.Text)
			case ActCaught:
				send(Event{Kind: EvCaught, Result: a.Result})
			case ActAbort:
				aborted = true
				cancelGen()
				if timed {
					next = nil // made after the abort on the modelled timeline
				}
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

	// before says whether modelled time at comes before the running
	// check's end, so it is handled first; untimed, arrival decides.
	before := func(at time.Duration) bool { return !timed || !running || at < checkEnd }
	for !ended || running || !finished {
		switch {
		case next != nil && before(next.At):
			tok := *next
			next = nil
			advance(tok.At)
			sum.Generated++
			send(Event{Kind: EvGenerated, Token: sum.Generated - 1, Text: tok.Text})
			do(f.Token(tok.Text))
			continue
		case closed && !ended && next == nil && before(lastAt):
			advance(lastAt)
			ended = true
			do(f.End())
			continue
		}
		// The running check's result may be handled once nothing
		// earlier can still arrive.
		var ready chan checkDone
		if running && (!timed || next != nil || closed) {
			ready = results
		}
		var in <-chan Token
		if next == nil && !closed {
			in = tokens
		}
		select {
		case <-ctx.Done():
			return sum, ctx.Err()
		case tok, ok := <-in:
			if !ok {
				closed = true
				continue
			}
			tok.At += genStart
			if !timed {
				tok.At = clk.Now().Sub(start)
			}
			if aborted && timed && tok.At >= model {
				continue // made after the abort on the modelled timeline
			}
			lastAt = max(lastAt, tok.At)
			next = &tok
		case d := <-ready:
			running = false
			if d.err != nil {
				return sum, d.err
			}
			advance(checkEnd)
			sum.Checks++
			sum.CheckTime += checkTime(d.r)
			send(Event{Kind: EvChecked, Result: &d.r})
			do(f.Checked(d.id, d.r))
		}
	}
	return finish()
}
