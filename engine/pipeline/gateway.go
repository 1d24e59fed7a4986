package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// Tier is one model behind the gateway, with its price.
type Tier struct {
	Name     string // "small", "medium", "large"
	Provider Provider
	// Model is what the provider is asked for: an upstream model name,
	// or a label for an engine provider (which serves one model).
	Model string
	// Prices in US dollars per million tokens.
	PriceIn  float64
	PriceOut float64
}

// Cost prices a usage on this tier.
func (t Tier) Cost(u Usage) float64 {
	return (float64(u.PromptTokens)*t.PriceIn + float64(u.CompletionTokens)*t.PriceOut) / 1e6
}

// GatewayConfig shapes the model call.
type GatewayConfig struct {
	// Tier is the primary tier; Fallback lists the tiers to try, in
	// order, when a call fails or times out before its first token.
	Tier     string
	Fallback []string
	// FirstTokenTimeout gives up on a tier that has sent nothing after
	// this long and moves to the next (0: wait as long as the deadline
	// allows).
	FirstTokenTimeout time.Duration
	// OverallTimeout bounds the model call as a whole, retries included;
	// when it fires the answer ends with what has been written
	// (status "timeout"). 0: none.
	OverallTimeout time.Duration
	// Overhead is the simulated time to pass the gateway (auth, routing).
	Overhead Latency
	// Cache replays stored answers for an identical tier and prompt.
	Cache bool
	// Buffered holds the answer back until it is complete, as a
	// non-streaming API does: the first word arrives with the last.
	Buffered bool
	// MaxTokens caps the answer (0: the model's natural length);
	// ExactTokens forces an exact length (0: off).
	MaxTokens   int
	ExactTokens int
	Temperature float64
}

// Validate checks values that do not depend on the tiers.
func (g GatewayConfig) Validate() error {
	switch {
	case g.Tier == "":
		return errors.New("gateway: no tier chosen")
	case g.FirstTokenTimeout < 0 || g.OverallTimeout < 0:
		return errors.New("gateway: timeouts must not be negative")
	case g.MaxTokens < 0 || g.ExactTokens < 0:
		return errors.New("gateway: token limits must not be negative")
	case g.Temperature < 0 || g.Temperature > 2:
		return fmt.Errorf("gateway: temperature %v is outside 0..2", g.Temperature)
	}
	if err := g.Overhead.Validate(); err != nil {
		return fmt.Errorf("gateway overhead: %w", err)
	}
	return nil
}

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

// answer is what the gateway delivered.
type answer struct {
	text       strings.Builder
	status     string
	err        error
	tier       string
	cached     bool
	finish     string
	usage      Usage
	cost       float64
	attempts   []Attempt
	attemptAt  time.Duration // start of the attempt that produced text
	modelFirst time.Duration // that attempt's first token
	lastToken  time.Duration // the last token produced
	// What the user saw: in buffered mode nothing until the answer is
	// complete.
	firstShown time.Duration
	lastShown  time.Duration
	shown      bool
	pending    strings.Builder
	pendingN   int
}

// callModel runs the gateway: cache, then the primary tier and its
// fallbacks, all under one deadline.
func (r *run) callModel(ctx context.Context, prompt Prompt) *answer {
	a := &answer{}
	g := r.cfg.Gateway
	deadline := r.deadline
	if g.OverallTimeout > 0 {
		at := r.deps.Clock.Now().Add(g.OverallTimeout)
		if deadline.IsZero() || at.Before(deadline) {
			deadline = at
		}
		var cancel context.CancelFunc
		ctx, cancel = withDeadline(ctx, r.deps.Clock, at, ErrOverallTimeout)
		defer cancel()
	}
	preq := ProviderRequest{ID: r.id, Messages: prompt.Messages, MaxTokens: g.MaxTokens,
		ExactTokens: g.ExactTokens, Temperature: g.Temperature, Seed: r.req.Seed}

	var key [32]byte
	if g.Cache && r.deps.Cache != nil {
		key = cacheKey(g.Tier, preq, prompt.Messages)
		if r.replayCache(key, a) {
			return a
		}
	}

	for _, name := range append([]string{g.Tier}, g.Fallback...) {
		tier := r.tiers[name]
		if ctx.Err() != nil {
			break
		}
		preq.Model = tier.Model
		at := r.attempt(ctx, tier, preq, deadline, a)
		a.attempts = append(a.attempts, at)
		if at.Outcome == OutcomeFirstTokenTimeout || at.Outcome == OutcomeFailed {
			continue
		}
		break
	}
	r.settle(ctx, a)
	r.flush(a, a.tier)
	if a.status == StatusComplete && g.Cache && r.deps.Cache != nil && a.tier == g.Tier {
		r.deps.Cache.put(key, cachedAnswer{tier: a.tier, deltas: r.delivered, usage: a.usage, finish: a.finish})
	}
	return a
}

// settle decides the status once the attempts are over.
func (r *run) settle(ctx context.Context, a *answer) {
	if a.status != "" {
		return
	}
	switch {
	case r.ctx.Err() != nil:
		a.status, a.err = StatusCancelled, context.Cause(r.ctx)
	case ctx.Err() != nil && isTimeout(context.Cause(ctx)):
		a.status, a.err = StatusTimeout, context.Cause(ctx)
	default:
		a.status = StatusError
		if n := len(a.attempts); n > 0 {
			a.err = fmt.Errorf("no tier answered; last: %s on %s: %s", a.attempts[n-1].Outcome, a.attempts[n-1].Tier, a.attempts[n-1].Err)
		} else {
			a.err = errors.New("no tier answered")
		}
	}
}

// replayCache serves a stored answer, if there is one.
func (r *run) replayCache(key [32]byte, a *answer) bool {
	sp := r.rec.begin(StageCache, r.cfg.Gateway.Tier)
	hit, ok := r.deps.Cache.get(key)
	if !ok {
		sp.end("miss", nil)
		return false
	}
	sp.end("hit", nil)
	start := r.rec.since()
	a.tier, a.cached, a.finish, a.usage, a.status = hit.tier, true, hit.finish, hit.usage, StatusComplete
	a.attemptAt, a.modelFirst = start, start
	for _, d := range hit.deltas {
		r.deliver(a, d.text, d.tokens, hit.tier)
	}
	r.flush(a, hit.tier)
	end := r.rec.since()
	r.rec.add(Span{Stage: StageFirstToken, Tier: hit.tier, Start: start, End: start, Detail: "from cache"})
	r.rec.add(Span{Stage: StageDecode, Tier: hit.tier, Start: start, End: end, Detail: "from cache"})
	a.attempts = append(a.attempts, Attempt{Tier: hit.tier, Start: start, End: end, FirstToken: start,
		Tokens: hit.usage.CompletionTokens, Outcome: OutcomeCacheHit})
	return true
}

// deliver forwards text to the user as it arrives (or, in buffered mode,
// holds it back) and keeps it for the cache.
func (r *run) deliver(a *answer, text string, tokens int, tier string) {
	a.lastToken = r.rec.since()
	r.delivered = append(r.delivered, cachedDelta{text: text, tokens: tokens})
	if r.cfg.Gateway.Buffered {
		a.pending.WriteString(text)
		a.pendingN += tokens
		return
	}
	r.show(a, text, tokens, tier)
}

// show puts text on the user's screen.
func (r *run) show(a *answer, text string, tokens int, tier string) {
	now := r.rec.since()
	if !a.shown {
		a.shown, a.firstShown = true, now
	}
	a.lastShown = now
	a.text.WriteString(text)
	r.rec.emit(Event{Kind: EventDelta, At: now, Text: text, Tokens: tokens, Tier: tier})
	r.growAnswer(a, tokens)
}

// flush sends a buffered answer in one piece, as a non-streaming API
// would; an answer that did not complete shows nothing.
func (r *run) flush(a *answer, tier string) {
	if r.cfg.Gateway.Buffered && a.status == StatusComplete && a.pending.Len() > 0 {
		r.show(a, a.pending.String(), a.pendingN, tier)
	}
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
			if !got {
				got = true
				close(first)
				at.FirstToken = r.rec.since()
				a.attemptAt, a.modelFirst, a.tier = at.Start, at.FirstToken, tier.Name
				r.rec.add(Span{Stage: StageFirstToken, Tier: tier.Name, Start: at.Start, End: at.FirstToken})
			}
			tokens += ev.Tokens
			r.deliver(a, ev.Text, ev.Tokens, tier.Name)
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
