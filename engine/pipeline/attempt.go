package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// Why a gateway attempt ended.
const (
	OutcomeAnswered          = "answered"
	OutcomeCacheHit          = "cache hit"
	OutcomeFirstTokenTimeout = "first-token timeout"
	OutcomeFailed            = "failed before first token"
	OutcomeMidStream         = "error mid-stream"
	OutcomeTimeout           = "timeout"
	OutcomeCancelled         = "cancelled"
	OutcomeContentFilter     = "content filter"
)

// ErrContentFilter is what an output moderation stage (a Provider wrapping
// another) wraps when it stops an answer. The gateway then ends the answer
// with status "blocked" and finish reason "content_filter", tries no other
// tier, and the visible text is replaced by the policy message.
var ErrContentFilter = errors.New("answer stopped by the content filter")

// Attempt records one call to one tier.
type Attempt struct {
	Tier  string
	Start time.Duration // from the request start
	End   time.Duration
	// Budget is the time the attempt had left under the shared deadline
	// when it started (0: no deadline).
	Budget     time.Duration
	FirstToken time.Duration // offset of its first token; 0 if none
	Tokens     int
	Outcome    string
	Err        string
	Cost       float64
}

// Timeout errors. Both end a request with status "timeout".
var (
	ErrFirstTokenTimeout = errors.New("no first token within the first-token timeout")
	ErrOverallTimeout    = errors.New("the answer exceeded the overall timeout")
	ErrDeadline          = errors.New("the request deadline passed")
)

func isTimeout(err error) bool {
	return errors.Is(err, ErrOverallTimeout) || errors.Is(err, ErrDeadline)
}

// attempt calls one tier. The first-token timeout is capped by what is
// left of the shared deadline, so a retry never outlives the request.
func (r *run) attempt(ctx context.Context, tier Tier, preq ProviderRequest, deadline time.Time, a *answer) Attempt {
	clk := r.deps.Clock
	at := Attempt{Tier: tier.Name, Start: r.rec.since()}
	if !deadline.IsZero() {
		at.Budget = deadline.Sub(clk.Now())
	}
	sp := r.rec.begin(StageAttempt, tier.Name)
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(context.Canceled)
	first := make(chan struct{})
	var seen atomic.Bool // a token arrived: the timer must not fire any more
	if ftt := r.cfg.Gateway.FirstTokenTimeout; ftt > 0 {
		go func() {
			select {
			case <-clk.After(ftt):
				if !seen.Load() {
					cancel(ErrFirstTokenTimeout)
				}
			case <-first:
			case <-actx.Done():
			}
		}()
	}

	tokens, got := 0, false
	var usage Usage
	var finish string
	stream, err := tier.Provider.Stream(actx, preq)
	if err == nil {
		for {
			var ev StreamEvent
			ev, err = stream.Recv()
			if err == nil && !ev.Done && (ev.Tokens > 0 || ev.Text != "") {
				seen.Store(true) // before the check below, so a token is either shown or timed out
			}
			if err == nil && actx.Err() != nil {
				// Buffered chunks after a disconnect or timeout were never
				// shown; stop at what the user saw.
				err = context.Cause(actx)
			}
			if err != nil {
				break
			}
			if ev.Done {
				usage, finish = ev.Usage, ev.FinishReason
				break
			}
			if ev.Tokens == 0 && ev.Text == "" {
				continue
			}
			when := r.tokenTime(ev, at.Start, a.lastToken)
			if !got {
				got = true
				close(first)
				at.FirstToken = when
				a.attemptAt, a.modelFirst, a.tier = at.Start, at.FirstToken, tier.Name
				r.rec.add(Span{Stage: StageFirstToken, Tier: tier.Name, Start: at.Start, End: at.FirstToken})
			}
			tokens += ev.Tokens
			r.deliver(a, ev.Text, ev.Tokens, tier.Name, when)
		}
		_ = stream.Close()
	}
	if err != nil && actx.Err() != nil {
		err = context.Cause(actx) // the real reason: timeout or disconnect
	}
	at.End, at.Tokens = r.rec.since(), tokens

	if got {
		r.rec.add(Span{Stage: StageDecode, Tier: tier.Name, Start: at.FirstToken, End: a.lastToken,
			Detail: fmt.Sprintf("%d tokens", tokens)})
		if err != nil {
			usage = Usage{PromptTokens: r.promptTokens, CompletionTokens: tokens}
		}
		at.Cost = tier.Cost(usage)
		a.usage, a.cost = usage, a.cost+at.Cost
	}

	switch {
	case err == nil:
		at.Outcome = OutcomeAnswered
		a.status, a.tier, a.finish = StatusComplete, tier.Name, finish
		if !got {
			a.usage = usage
		}
	case r.ctx.Err() != nil:
		at.Outcome = OutcomeCancelled
		a.status, a.err = StatusCancelled, err
	case errors.Is(err, ErrContentFilter):
		at.Outcome = OutcomeContentFilter
		a.status, a.err, a.finish = StatusBlocked, err, "content_filter"
	case isTimeout(err):
		at.Outcome = OutcomeTimeout
		a.status, a.err = StatusTimeout, err
	case got:
		at.Outcome = OutcomeMidStream
		a.status, a.err = StatusError, err
	case errors.Is(err, ErrFirstTokenTimeout):
		at.Outcome = OutcomeFirstTokenTimeout
	default:
		at.Outcome = OutcomeFailed
	}
	if err != nil {
		at.Err = err.Error()
	}
	sp.end(at.Outcome, err)
	return at
}

// tokenTime is when a chunk reached the gateway, since the request start:
// the provider's stamp when it has one (the bundled engine stamps each
// token with when its modelled GPU made it, plus the network's way back),
// so a host that reads the stream late does not move the figures; else
// now. A stamp outside the attempt's span so far (another clock) is not
// trusted, and times never run backwards.
func (r *run) tokenTime(ev StreamEvent, start, last time.Duration) time.Duration {
	now := r.rec.since()
	when := now
	if !ev.At.IsZero() {
		if s := ev.At.Sub(r.rec.start); s >= start && s <= now {
			when = s
		}
	}
	return max(when, last)
}
