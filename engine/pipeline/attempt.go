package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/latencylab/latencylab/engine/live"
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

// attempt calls one tier from the modelled moment from. The first-token
// timeout, the overall timeout and the request deadline (r.overallAt, a
// modelled moment; 0 for none) are read on the modelled timeline: a token
// modelled past one of them is not shown and ends the attempt there. The
// handler's clock only stops, a grace later, a call whose tokens never
// come.
func (r *run) attempt(ctx context.Context, tier Tier, preq ProviderRequest, from time.Duration, a *answer) Attempt {
	clk := r.deps.Clock
	wallFrom := r.rec.since()
	at := Attempt{Tier: tier.Name, Start: from}
	limits := []limit{{r.overallAt, ErrOverallTimeout}, {r.cfg.Deadline, ErrDeadline}}
	l, limited := earliest(limits...)
	if limited {
		at.Budget = l.at - from
	}
	sp := r.rec.begin(StageAttempt, tier.Name, from)
	late := wallFrom - from // how far the host already runs behind
	if limited {
		// Read on the modelled timeline; this only stops a call that
		// never gets there.
		var stop context.CancelFunc
		ctx, stop = withDeadline(ctx, clk, r.rec.start.Add(from+backstop(l.at-from, late)), l.cause)
		defer stop()
	}
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(context.Canceled)
	first := make(chan struct{})
	var seen atomic.Bool // a token arrived: the timer must not fire any more
	ftt := r.cfg.Gateway.FirstTokenTimeout
	if ftt > 0 {
		go func() {
			select {
			case <-clk.After(backstop(ftt, late)):
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
	var cut limit // a limit the modelled timeline passed
	end := time.Duration(-1)
	stream, err := tier.Provider.Stream(r.sentAt(actx, from), preq)
	if err == nil {
		for {
			var ev StreamEvent
			ev, err = stream.Recv()
			if err == nil && !ev.Done && (ev.Tokens > 0 || ev.Text != "" || ev.Reasoning != "") {
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
			when := r.tokenTime(ev, from, wallFrom, a.lastToken)
			if ev.Done {
				usage, finish = ev.Usage, ev.FinishReason
				end = when
				break
			}
			if ev.Tokens == 0 && ev.Text == "" && ev.Reasoning == "" {
				continue
			}
			ls := limits
			if !got && ftt > 0 {
				ls = append(ls, limit{from + ftt, ErrFirstTokenTimeout})
			}
			if l, passed := earliestPassed(when, ls...); passed {
				cut, err = l, l.cause
				break
			}
			if !got {
				got = true
				close(first)
				at.FirstToken = when
				a.attemptAt, a.modelFirst, a.tier = at.Start, at.FirstToken, tier.Name
				r.rec.add(Span{Stage: StageFirstToken, Tier: tier.Name, Start: at.Start, End: at.FirstToken, WallStart: wallFrom})
			}
			tokens += ev.Tokens
			r.route(a, ev, tier.Name, when)
		}
		_ = stream.Close()
	}
	if err != nil && actx.Err() != nil {
		err = context.Cause(actx) // the real reason: timeout or disconnect
	}
	at.End, at.Tokens = r.attemptEnd(err, cut, from, wallFrom, end, a.lastToken), tokens
	if got {
		r.rec.add(Span{Stage: StageDecode, Tier: tier.Name, Start: at.FirstToken, End: a.lastToken,
			WallStart: wallFrom, Detail: fmt.Sprintf("%d tokens", tokens)})
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
	sp.end(at.End, at.Outcome, err)
	return at
}

// attemptEnd is the modelled moment an attempt ended: the limit it passed
// (on the modelled timeline, or by the backstop), else its final event's
// modelled time, else (a failure, a disconnect, a provider that models no
// time) its handler time, never before its last token.
func (r *run) attemptEnd(err error, cut limit, from, wallFrom, final, last time.Duration) time.Duration {
	switch {
	case cut.at > 0:
		return cut.at
	case errors.Is(err, ErrFirstTokenTimeout):
		return from + r.cfg.Gateway.FirstTokenTimeout
	case errors.Is(err, ErrDeadline) && r.cfg.Deadline > 0:
		return max(r.cfg.Deadline, last)
	case errors.Is(err, ErrOverallTimeout) && r.overallAt > 0:
		return max(r.overallAt, last)
	case final >= 0:
		return max(final, last)
	}
	return max(from+r.rec.since()-wallFrom, last)
}

// sentAt marks ctx as sent at from on the run's modelled timeline, so an
// engine that can (live.WithSentAt) takes the call then however late the
// host is. A caller that sent the whole request at a modelled moment (rows
// run one after another, say) has the timeline start there.
func (r *run) sentAt(ctx context.Context, from time.Duration) context.Context {
	origin, ok := live.SentAt(r.ctx)
	if !ok {
		origin = r.rec.start
	}
	return live.WithSentAt(ctx, origin.Add(from))
}

// tokenTime is when a chunk reached the gateway on the modelled
// timeline: the attempt's modelled start plus the provider's modelled time
// for it (the bundled engine's GPU stamps and the modelled network), so a
// host that runs the call or reads the stream late does not move the
// figures. A provider that models no time gives the handler's time since
// the attempt began (its arrival stamp when it has one inside the attempt
// so far). Times never run backwards.
func (r *run) tokenTime(ev StreamEvent, from, wallFrom, last time.Duration) time.Duration {
	if ev.Since > 0 {
		return max(from+ev.Since, last)
	}
	now := r.rec.since()
	wall := now
	if !ev.At.IsZero() {
		if s := ev.At.Sub(r.rec.start); s >= wallFrom && s <= now {
			wall = s
		}
	}
	return max(from+wall-wallFrom, last)
}
