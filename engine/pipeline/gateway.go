package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

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
	// The same on the handler's clock.
	wallFirst time.Duration
	wallLast  time.Duration
	shown     bool
	pending   strings.Builder
	pendingN  int
	// answering is set by the first answer text that arrives (shown or,
	// in buffered mode, held).
	answering bool
	thought   thought
}

// callModel runs the gateway: cache, then the primary tier and its
// fallbacks, all under one deadline.
func (r *run) callModel(ctx context.Context, prompt Prompt) *answer {
	a := &answer{}
	g := r.cfg.Gateway
	from := r.ready // the modelled moment the prompt was ready
	if g.OverallTimeout > 0 {
		r.overallAt = from + g.OverallTimeout // read by each attempt
	}
	preq := ProviderRequest{ID: r.id, Messages: prompt.Messages, MaxTokens: g.MaxTokens,
		ExactTokens: g.ExactTokens, Temperature: g.Temperature, Seed: r.req.Seed, OffTopic: r.cfg.Prompt.offTopic()}

	var key [32]byte
	if g.Cache && r.deps.Cache != nil {
		key = cacheKey(g.Tier, preq, prompt.Messages)
		if r.replayCache(key, a, from) {
			return a
		}
	}

	for _, name := range append([]string{g.Tier}, g.Fallback...) {
		tier := r.tiers[name]
		if ctx.Err() != nil {
			break
		}
		// A limit reached on the modelled timeline leaves no time for
		// another tier.
		if l, reached := earliestPassed(from+1, limit{r.overallAt, ErrOverallTimeout}, limit{r.cfg.Deadline, ErrDeadline}); reached {
			a.status, a.err = StatusTimeout, l.cause
			break
		}
		preq.Model = tier.Model
		at := r.attempt(ctx, tier, preq, from, a)
		from = at.End
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

// replayCache serves a stored answer, if there is one, at the modelled
// moment start: a lookup in memory takes no modelled time.
func (r *run) replayCache(key [32]byte, a *answer, start time.Duration) bool {
	sp := r.rec.begin(StageCache, r.cfg.Gateway.Tier, start)
	hit, ok := r.deps.Cache.get(key)
	if !ok {
		sp.end(start, "miss", nil)
		return false
	}
	sp.end(start, "hit", nil)
	a.tier, a.cached, a.finish, a.usage, a.status = hit.tier, true, hit.finish, hit.usage, StatusComplete
	a.attemptAt, a.modelFirst = start, start
	for _, d := range hit.deltas {
		r.deliver(a, d.text, d.tokens, hit.tier, start)
	}
	r.flush(a, hit.tier)
	end := start
	r.rec.add(Span{Stage: StageFirstToken, Tier: hit.tier, Start: start, End: start, Detail: "from cache"})
	r.rec.add(Span{Stage: StageDecode, Tier: hit.tier, Start: start, End: end, Detail: "from cache"})
	a.attempts = append(a.attempts, Attempt{Tier: hit.tier, Start: start, End: end, FirstToken: start,
		Tokens: hit.usage.CompletionTokens, Outcome: OutcomeCacheHit})
	return true
}

// route sends one chunk to the thinking or to the answer. A chunk with
// tokens but no text (a <think> tag the client took out, a token that
// ends inside a character) says nothing about whose it is before any
// text has come, so its tokens wait for the next chunk with text.
func (r *run) route(a *answer, ev StreamEvent, tier string, at time.Duration) {
	t := &a.thought
	if ev.Text == "" && ev.Reasoning == "" {
		switch {
		case a.answering:
			r.deliver(a, "", ev.Tokens, tier, at)
		case t.started:
			r.think(a, "", ev.Tokens, tier, at) // e.g. the closing tag
		default:
			if t.quiet == 0 {
				t.quietAt = at
			}
			t.quiet += ev.Tokens
		}
		return
	}
	tokens, since := ev.Tokens+t.quiet, at
	if t.quiet > 0 {
		since = t.quietAt
	}
	t.quiet = 0
	if ev.Reasoning != "" {
		n := tokens
		if ev.Text != "" {
			n = 0 // the answer starts in this chunk: its tokens go there
		}
		if !t.started {
			t.started, t.first = true, since
		}
		r.think(a, ev.Reasoning, n, tier, at)
	}
	if ev.Text != "" {
		r.deliver(a, ev.Text, tokens, tier, at)
	}
}

// think takes the model's thinking: shown apart from the answer, held
// with it in buffered mode, withheld when an output check is on (the
// check reads the answer only).
func (r *run) think(a *answer, text string, tokens int, tier string, at time.Duration) {
	t := &a.thought // route has started it
	t.tokens += tokens
	a.lastToken = at // a thinking token is a token produced: the decode span runs to it
	if !a.answering {
		t.end = at
	}
	if checksOutput(r.tiers[tier].Provider) {
		t.hidden, text = true, ""
	}
	if r.cfg.Gateway.Buffered {
		t.pending.WriteString(text)
		t.pendingN += tokens
		return
	}
	t.shown.WriteString(text)
	r.rec.emit(Event{Kind: EventThinking, At: at, Text: text, Tokens: tokens, Tier: tier, Hidden: t.hidden})
}

// deliver forwards text to the user as it arrives (or, in buffered mode,
// holds it back) and keeps it for the cache. at is when it arrived, since
// the request start.
func (r *run) deliver(a *answer, text string, tokens int, tier string, at time.Duration) {
	a.lastToken = at
	if text != "" && !a.answering {
		a.answering = true
		if a.thought.started {
			a.thought.end = at // the thinking lasted until the answer began
		}
	}
	r.delivered = append(r.delivered, cachedDelta{text: text, tokens: tokens})
	if r.cfg.Gateway.Buffered {
		a.pending.WriteString(text)
		a.pendingN += tokens
		return
	}
	r.show(a, text, tokens, tier, at)
}

// show puts text on the user's screen at at (since the request start).
// The first word is the first answer text: a chunk of tokens without text
// shows nothing a reader can use.
func (r *run) show(a *answer, text string, tokens int, tier string, at time.Duration) {
	wall := r.rec.since()
	if !a.shown && text != "" {
		a.shown, a.firstShown, a.wallFirst = true, at, wall
	}
	a.lastShown, a.wallLast = at, wall
	a.text.WriteString(text)
	r.rec.emit(Event{Kind: EventDelta, At: at, Text: text, Tokens: tokens, Tier: tier})
	r.growAnswer(a, tokens)
}

// flush sends a buffered answer in one piece, as a non-streaming API
// would, its thinking first; an answer that did not complete shows
// nothing.
func (r *run) flush(a *answer, tier string) {
	if !r.cfg.Gateway.Buffered || a.status != StatusComplete {
		return
	}
	at := max(a.lastToken, a.attemptAt)
	if t := &a.thought; t.pendingN > 0 || t.pending.Len() > 0 {
		text := t.pending.String()
		t.shown.WriteString(text)
		r.rec.emit(Event{Kind: EventThinking, At: at, Text: text, Tokens: t.pendingN, Tier: tier, Hidden: t.hidden})
		t.pending.Reset()
		t.pendingN = 0
	}
	if a.pending.Len() > 0 {
		r.show(a, a.pending.String(), a.pendingN, tier, at)
	}
}
